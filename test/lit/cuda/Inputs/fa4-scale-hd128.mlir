// FlashAttention-4's forward loop at head dim 128 written plainly (fa4-
// unmarked.mlir: no warp-group marks, no roles) with the scores scaled by the
// softmax scale before the row max, as FlashAttention and Triton write it
// (`tileas.mul %s, %scale`, the scale passed in, log2(e)/sqrt(d) for exp2).
// Issue 35, point 6: measured for spills (docs/performance.md).
func.func @fa4_scale_hd128(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                   %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                   %descV: !tileas.tma_desc<128x128xbf16> {tileas.name = "V"},
                   %descO: !tileas.tma_desc<128x128xbf16> {tileas.name = "O"},
                   %scale: f32 {tileas.name = "scale"},
                   %nKV: index {tileas.name = "nKV"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %row0 = arith.muli %bx, %c256 : index
  %row1 = arith.addi %row0, %c128 : index
  %q0 = tileas.tma_load %descQ[%row0, %c0]
      : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %q1 = tileas.tma_load %descQ[%row1, %c0]
      : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %mInit = arith.constant dense<0xFF800000> : tensor<128xf32>
  %lInit = arith.constant dense<0.0> : tensor<128xf32>
  %oStage0 = tileas.alloc_smem : !tileas.smem<128x128xbf16>
  %oStage1 = tileas.alloc_smem : !tileas.smem<128x128xbf16>
  %sBuf0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %sBuf1 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %oInit0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %oInit1 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %res:6 = scf.for %j = %c0 to %nKV step %c1
      iter_args(%m0 = %mInit, %l0 = %lInit, %o0 = %oInit0,
                %m1 = %mInit, %l1 = %lInit, %o1 = %oInit1)
      -> (tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>,
          tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] {l2_reuse = 16}
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %v = tileas.tma_load %descV[%row, %c0] {l2_reuse = 16}
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s0 = tileas.umma %q0, %k, %sBuf0
        : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %s1 = tileas.umma %q1, %k, %sBuf1
        : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>

    // Softmax, Q tile 0.
    %sr0 = tileas.tmem_load %s0
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %ss0 = tileas.mul %sr0, %scale : tensor<128x128xf32>, f32
    %mx0 = tileas.reduce_max %ss0
        : tensor<128x128xf32> -> tensor<128xf32>
    %mN0 = tileas.max %m0, %mx0
        : tensor<128xf32>, tensor<128xf32>
    %sh0 = tileas.sub %ss0, %mN0
        : tensor<128x128xf32>, tensor<128xf32>
    %p0 = tileas.exp2 %sh0 : tensor<128x128xf32>
    %rs0 = tileas.reduce_sum %p0
        : tensor<128x128xf32> -> tensor<128xf32>
    %d0 = tileas.sub %m0, %mN0
        : tensor<128xf32>, tensor<128xf32>
    %a0 = tileas.exp2 %d0 : tensor<128xf32>
    %ls0 = tileas.mul %l0, %a0
        : tensor<128xf32>, tensor<128xf32>
    %lN0 = tileas.add %ls0, %rs0
        : tensor<128xf32>, tensor<128xf32>
    %pb0 = tileas.cvt %p0
        : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt0 = tileas.tmem_store %pb0
       
        : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>

    // Softmax, Q tile 1.
    %sr1 = tileas.tmem_load %s1
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %ss1 = tileas.mul %sr1, %scale : tensor<128x128xf32>, f32
    %mx1 = tileas.reduce_max %ss1
        : tensor<128x128xf32> -> tensor<128xf32>
    %mN1 = tileas.max %m1, %mx1
        : tensor<128xf32>, tensor<128xf32>
    %sh1 = tileas.sub %ss1, %mN1
        : tensor<128x128xf32>, tensor<128xf32>
    %p1 = tileas.exp2 %sh1 : tensor<128x128xf32>
    %rs1 = tileas.reduce_sum %p1
        : tensor<128x128xf32> -> tensor<128xf32>
    %d1 = tileas.sub %m1, %mN1
        : tensor<128xf32>, tensor<128xf32>
    %a1 = tileas.exp2 %d1 : tensor<128xf32>
    %ls1 = tileas.mul %l1, %a1
        : tensor<128xf32>, tensor<128xf32>
    %lN1 = tileas.add %ls1, %rs1
        : tensor<128xf32>, tensor<128xf32>
    %pb1 = tileas.cvt %p1
        : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt1 = tileas.tmem_store %pb1
       
        : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>

    // Correction: O_t *= alpha_t in TMEM, before O_t += P_t V.
    %or0 = tileas.tmem_load %o0
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %oc0 = tileas.mul %or0, %a0
        : tensor<128x128xf32>, tensor<128xf32>
    %ot0 = tileas.tmem_store %oc0
        : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>
    %or1 = tileas.tmem_load %o1
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %oc1 = tileas.mul %or1, %a1
        : tensor<128x128xf32>, tensor<128xf32>
    %ot1 = tileas.tmem_store %oc1
        : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>

    %oN0 = tileas.umma %pt0, %v, %ot0 {accumulate, b_mn_major}
        : !tileas.tmem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %oN1 = tileas.umma %pt1, %v, %ot1 {accumulate, b_mn_major}
        : !tileas.tmem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %mN0, %lN0, %oN0, %mN1, %lN1, %oN1
        : tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>,
          tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>
  }
  %of0 = tileas.tmem_load %res#2 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %ob0 = tileas.cvt %of0 : tensor<128x128xf32> -> tensor<128x128xbf16>
  %os0 = tileas.smem_store %ob0 into %oStage0
      : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %os0, %descO[%row0, %c0]
      : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  %of1 = tileas.tmem_load %res#5 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %ob1 = tileas.cvt %of1 : tensor<128x128xf32> -> tensor<128x128xbf16>
  %os1 = tileas.smem_store %ob1 into %oStage1
      : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %os1, %descO[%row1, %c0]
      : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
