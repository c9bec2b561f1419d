// Attention at head dim 64 written plainly with two 128-row Q tiles per CTA
// (issue 21): each tile's softmax rescales its own O in place, and no op
// names a warp group. The two tiles' SIMT chains read nothing of each other
// (only K and V, through the tensor core), so the scheduler makes each a
// warp group (scheduler/mlir/WarpGroups.h).
func.func @attn_two_q(%descQ: !tileas.tma_desc<128x64xbf16> {tileas.name = "Q"},
                  %descK: !tileas.tma_desc<128x64xbf16> {tileas.name = "K"},
                  %descV: !tileas.tma_desc<128x64xbf16> {tileas.name = "V"},
                  %descO: !tileas.tma_desc<128x64xbf16> {tileas.name = "O"},
                  %nKV: index {tileas.name = "nKV"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %qRow0 = arith.muli %bx, %c256 : index
  %qRow1 = arith.addi %qRow0, %c128 : index
  %q0 = tileas.tma_load %descQ[%qRow0, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  %q1 = tileas.tma_load %descQ[%qRow1, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %sbuf0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %sbuf1 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %oi0 = tileas.alloc_tmem : !tileas.tmem<128x64xf32>
  %oi1 = tileas.alloc_tmem : !tileas.tmem<128x64xf32>
  %res:6 = scf.for %j = %c0 to %nKV step %c1
      iter_args(%mA = %m0, %lA = %l0, %oA = %oi0, %mB = %m0, %lB = %l0, %oB = %oi1)
      -> (tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x64xf32>, tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x64xf32>) {
    %kvRow = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%kvRow, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %v = tileas.tma_load %descV[%kvRow, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %s0 = tileas.umma %q0, %k, %sbuf0 : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr0 = tileas.tmem_load %s0 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx0 = tileas.reduce_max %sr0 : tensor<128x128xf32> -> tensor<128xf32>
    %mN0 = tileas.max %mA, %mx0 : tensor<128xf32>, tensor<128xf32>
    %sh0 = tileas.sub %sr0, %mN0 : tensor<128x128xf32>, tensor<128xf32>
    %p0 = tileas.exp2 %sh0 : tensor<128x128xf32>
    %rs0 = tileas.reduce_sum %p0 : tensor<128x128xf32> -> tensor<128xf32>
    %d0 = tileas.sub %mA, %mN0 : tensor<128xf32>, tensor<128xf32>
    %al0 = tileas.exp2 %d0 : tensor<128xf32>
    %ls0 = tileas.mul %lA, %al0 : tensor<128xf32>, tensor<128xf32>
    %lN0 = tileas.add %ls0, %rs0 : tensor<128xf32>, tensor<128xf32>
    %pb0 = tileas.cvt %p0 : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt0 = tileas.tmem_store %pb0 : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
    %or0 = tileas.tmem_load %oA : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
    %oc0 = tileas.mul %or0, %al0 : tensor<128x64xf32>, tensor<128xf32>
    %ot0 = tileas.tmem_store %oc0 : tensor<128x64xf32> -> !tileas.tmem<128x64xf32>
    %oN0 = tileas.umma %pt0, %v, %ot0 {accumulate, b_mn_major} : !tileas.tmem<128x128xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
    %s1 = tileas.umma %q1, %k, %sbuf1 : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr1 = tileas.tmem_load %s1 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx1 = tileas.reduce_max %sr1 : tensor<128x128xf32> -> tensor<128xf32>
    %mN1 = tileas.max %mB, %mx1 : tensor<128xf32>, tensor<128xf32>
    %sh1 = tileas.sub %sr1, %mN1 : tensor<128x128xf32>, tensor<128xf32>
    %p1 = tileas.exp2 %sh1 : tensor<128x128xf32>
    %rs1 = tileas.reduce_sum %p1 : tensor<128x128xf32> -> tensor<128xf32>
    %d1 = tileas.sub %mB, %mN1 : tensor<128xf32>, tensor<128xf32>
    %al1 = tileas.exp2 %d1 : tensor<128xf32>
    %ls1 = tileas.mul %lB, %al1 : tensor<128xf32>, tensor<128xf32>
    %lN1 = tileas.add %ls1, %rs1 : tensor<128xf32>, tensor<128xf32>
    %pb1 = tileas.cvt %p1 : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt1 = tileas.tmem_store %pb1 : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
    %or1 = tileas.tmem_load %oB : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
    %oc1 = tileas.mul %or1, %al1 : tensor<128x64xf32>, tensor<128xf32>
    %ot1 = tileas.tmem_store %oc1 : tensor<128x64xf32> -> !tileas.tmem<128x64xf32>
    %oN1 = tileas.umma %pt1, %v, %ot1 {accumulate, b_mn_major} : !tileas.tmem<128x128xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
    scf.yield %mN0, %lN0, %oN0, %mN1, %lN1, %oN1 : tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x64xf32>, tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x64xf32>
  }
  %of0 = tileas.tmem_load %res#2 : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
  %ob0 = tileas.cvt %of0 : tensor<128x64xf32> -> tensor<128x64xbf16>
  %os0 = tileas.smem_store %ob0 : tensor<128x64xbf16> -> !tileas.smem<128x64xbf16>
  tileas.tma_store %os0, %descO[%qRow0, %c0] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  %of1 = tileas.tmem_load %res#5 : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
  %ob1 = tileas.cvt %of1 : tensor<128x64xf32> -> tensor<128x64xbf16>
  %os1 = tileas.smem_store %ob1 : tensor<128x64xbf16> -> !tileas.smem<128x64xbf16>
  tileas.tma_store %os1, %descO[%qRow1, %c0] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  return
}
