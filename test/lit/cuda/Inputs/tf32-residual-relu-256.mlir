// A user's tf32 GEMM with a residual and ReLU, written plainly as the fresh
// kernel of issue 38's session 25: D = relu(A . B^T + R), f32 A and B on
// tf32 tensor cores, bf16 R and D, CUTLASS's 128x256 tile with a K-block of
// 32 (128 bytes of f32 a row, one 128B swizzle span). Grid x over M tiles,
// y over N tiles.
func.func @tf32_residual_relu(%descA: !tileas.tma_desc<128x32xf32> {tileas.name = "A"},
                              %descB: !tileas.tma_desc<256x32xf32> {tileas.name = "B"},
                              %descR: !tileas.tma_desc<128x256xbf16> {tileas.name = "R"},
                              %descD: !tileas.tma_desc<128x256xbf16> {tileas.name = "D"},
                              %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bm = gpu.block_id x
  %bn = gpu.block_id y
  %m = arith.muli %bm, %c128 : index
  %n = arith.muli %bn, %c256 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c32
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x32xf32> -> !tileas.smem<128x32xf32>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<256x32xf32> -> !tileas.smem<256x32xf32>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x32xf32>, !tileas.smem<256x32xf32>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %x = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %rs = tileas.tma_load %descR[%m, %n] : !tileas.tma_desc<128x256xbf16> -> !tileas.smem<128x256xbf16>
  %rt = tileas.smem_load %rs : !tileas.smem<128x256xbf16> -> tensor<128x256xbf16>
  %rf = tileas.cvt %rt : tensor<128x256xbf16> -> tensor<128x256xf32>
  %y = tileas.add %x, %rf : tensor<128x256xf32>, tensor<128x256xf32>
  %relu = tileas.max %y, %zero : tensor<128x256xf32>, tensor<128xf32>
  %yb = tileas.cvt %relu : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %yb : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
