// A transformer block's output projection with its residual add, written
// plainly: D = A . B^T + R, bf16 A, B, R and D, f32 accumulation, 128x128
// tiles, K-block 64. R is read by TMA after the loop (the epilogue's source
// tile), like CUTLASS's epilogue with a C operand.
func.func @residual_gemm(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                         %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                         %descR: !tileas.tma_desc<128x128xbf16> {tileas.name = "R"},
                         %descD: !tileas.tma_desc<128x128xbf16> {tileas.name = "D"},
                         %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %rs = tileas.tma_load %descR[%m, %n] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %r = tileas.smem_load %rs : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
  %rf = tileas.cvt %r : tensor<128x128xbf16> -> tensor<128x128xf32>
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %y = tileas.add %x, %rf : tensor<128x128xf32>, tensor<128x128xf32>
  %yb = tileas.cvt %y : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %yb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
