// fa4-hd64-vt.mlir with K (128x64) and V^T (64x128) named into one ring by
// `tileas.ring`: one pipe's slots hold tiles of two shapes, each member
// seeing a slot through a `tileas.smem_view` laid out for it, and K, read
// by one consumer group where V^T has two, arriving twice on the slot's
// empty barrier. Unforced, the plan search tries the same ring and, saving
// no slot on this loop, keeps two pipes (materialize/ring-shapes.test).
func.func @fa4_hd64_ring(%descQ: !tileas.tma_desc<128x64xbf16> {tileas.name = "Q"},
                   %descK: !tileas.tma_desc<128x64xbf16> {tileas.name = "K"},
                   %descV: !tileas.tma_desc<64x128xbf16> {tileas.name = "V"},
                   %descO: !tileas.tma_desc<128x64xbf16> {tileas.name = "O"},
                   %nKV: index {tileas.name = "nKV"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %row0 = arith.muli %bx, %c256 : index
  %row1 = arith.addi %row0, %c128 : index
  %q0 = tileas.tma_load %descQ[%row0, %c0]
      : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  %q1 = tileas.tma_load %descQ[%row1, %c0]
      : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  %mInit = arith.constant dense<0xFF800000> : tensor<128xf32>
  %lInit = arith.constant dense<0.0> : tensor<128xf32>
  %oStage0 = tileas.alloc_smem : !tileas.smem<128x64xbf16>
  %oStage1 = tileas.alloc_smem : !tileas.smem<128x64xbf16>
  %sBuf0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %sBuf1 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %oInit0 = tileas.alloc_tmem : !tileas.tmem<128x64xf32>
  %oInit1 = tileas.alloc_tmem : !tileas.tmem<128x64xf32>
  %res:6 = scf.for %j = %c0 to %nKV step %c1
      iter_args(%m0 = %mInit, %l0 = %lInit, %o0 = %oInit0,
                %m1 = %mInit, %l1 = %lInit, %o1 = %oInit1)
      -> (tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x64xf32>,
          tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x64xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] {l2_reuse = 16, tileas.ring = "kv"}
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %v = tileas.tma_load %descV[%c0, %row] {tileas.ring = "kv"}
        : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
    %s0 = tileas.umma %q0, %k, %sBuf0
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %s1 = tileas.umma %q1, %k, %sBuf1
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>

    // Softmax, Q tile 0.
    %sr0 = tileas.tmem_load %s0 {tileas.warp_group = 0}
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx0 = tileas.reduce_max %sr0 {tileas.warp_group = 0}
        : tensor<128x128xf32> -> tensor<128xf32>
    %mN0 = tileas.max %m0, %mx0 {tileas.warp_group = 0}
        : tensor<128xf32>, tensor<128xf32>
    %sh0 = tileas.sub %sr0, %mN0 {tileas.warp_group = 0}
        : tensor<128x128xf32>, tensor<128xf32>
    %p0 = tileas.exp2 %sh0 {tileas.warp_group = 0} : tensor<128x128xf32>
    %rs0 = tileas.reduce_sum %p0 {tileas.warp_group = 0}
        : tensor<128x128xf32> -> tensor<128xf32>
    %d0 = tileas.sub %m0, %mN0 {tileas.warp_group = 0}
        : tensor<128xf32>, tensor<128xf32>
    %a0 = tileas.exp2 %d0 {tileas.warp_group = 0} : tensor<128xf32>
    %ls0 = tileas.mul %l0, %a0 {tileas.warp_group = 0}
        : tensor<128xf32>, tensor<128xf32>
    %lN0 = tileas.add %ls0, %rs0 {tileas.warp_group = 0}
        : tensor<128xf32>, tensor<128xf32>
    %pb0 = tileas.cvt %p0 {tileas.warp_group = 0}
        : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt0 = tileas.tmem_store %pb0
        {tileas.warp_group = 0}
        : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>

    // Softmax, Q tile 1.
    %sr1 = tileas.tmem_load %s1 {tileas.warp_group = 1}
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx1 = tileas.reduce_max %sr1 {tileas.warp_group = 1}
        : tensor<128x128xf32> -> tensor<128xf32>
    %mN1 = tileas.max %m1, %mx1 {tileas.warp_group = 1}
        : tensor<128xf32>, tensor<128xf32>
    %sh1 = tileas.sub %sr1, %mN1 {tileas.warp_group = 1}
        : tensor<128x128xf32>, tensor<128xf32>
    %p1 = tileas.exp2 %sh1 {tileas.warp_group = 1} : tensor<128x128xf32>
    %rs1 = tileas.reduce_sum %p1 {tileas.warp_group = 1}
        : tensor<128x128xf32> -> tensor<128xf32>
    %d1 = tileas.sub %m1, %mN1 {tileas.warp_group = 1}
        : tensor<128xf32>, tensor<128xf32>
    %a1 = tileas.exp2 %d1 {tileas.warp_group = 1} : tensor<128xf32>
    %ls1 = tileas.mul %l1, %a1 {tileas.warp_group = 1}
        : tensor<128xf32>, tensor<128xf32>
    %lN1 = tileas.add %ls1, %rs1 {tileas.warp_group = 1}
        : tensor<128xf32>, tensor<128xf32>
    %pb1 = tileas.cvt %p1 {tileas.warp_group = 1}
        : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt1 = tileas.tmem_store %pb1
        {tileas.warp_group = 1}
        : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>

    // Correction: O_t *= alpha_t in TMEM, before O_t += P_t V.
    %or0 = tileas.tmem_load %o0 {tileas.warp_group = 2, tileas.role = "correction"}
        : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
    %oc0 = tileas.mul %or0, %a0 {tileas.warp_group = 2, tileas.role = "correction"}
        : tensor<128x64xf32>, tensor<128xf32>
    %ot0 = tileas.tmem_store %oc0 {tileas.warp_group = 2, tileas.role = "correction"}
        : tensor<128x64xf32> -> !tileas.tmem<128x64xf32>
    %or1 = tileas.tmem_load %o1 {tileas.warp_group = 2, tileas.role = "correction"}
        : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
    %oc1 = tileas.mul %or1, %a1 {tileas.warp_group = 2, tileas.role = "correction"}
        : tensor<128x64xf32>, tensor<128xf32>
    %ot1 = tileas.tmem_store %oc1 {tileas.warp_group = 2, tileas.role = "correction"}
        : tensor<128x64xf32> -> !tileas.tmem<128x64xf32>

    %oN0 = tileas.umma %pt0, %v, %ot0 {accumulate}
        : !tileas.tmem<128x128xbf16>, !tileas.smem<64x128xbf16>,
          !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
    %oN1 = tileas.umma %pt1, %v, %ot1 {accumulate}
        : !tileas.tmem<128x128xbf16>, !tileas.smem<64x128xbf16>,
          !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
    scf.yield %mN0, %lN0, %oN0, %mN1, %lN1, %oN1
        : tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x64xf32>,
          tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x64xf32>
  }
  %of0 = tileas.tmem_load %res#2 : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
  %ob0 = tileas.cvt %of0 : tensor<128x64xf32> -> tensor<128x64xbf16>
  %os0 = tileas.smem_store %ob0 into %oStage0
      : tensor<128x64xbf16> -> !tileas.smem<128x64xbf16>
  tileas.tma_store %os0, %descO[%row0, %c0]
      : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  %of1 = tileas.tmem_load %res#5 : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
  %ob1 = tileas.cvt %of1 : tensor<128x64xf32> -> tensor<128x64xbf16>
  %os1 = tileas.smem_store %ob1 into %oStage1
      : tensor<128x64xbf16> -> !tileas.smem<128x64xbf16>
  tileas.tma_store %os1, %descO[%row1, %c0]
      : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  return
}
