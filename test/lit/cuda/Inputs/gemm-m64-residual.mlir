// A small-M GEMM as a user writes it for decode-time shapes: 64x128 tiles
// (tcgen05.mma with M = 64), K-block 64, bf16 in, f32 accumulator in TMEM,
// and an epilogue D = relu(A B^T + R) with a residual tile R, bf16 out.
func.func @gemm_m64(%descA: !tileas.tma_desc<64x64xbf16> {tileas.name = "A"},
                    %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                    %descR: !tileas.tma_desc<64x128xbf16> {tileas.name = "R"},
                    %descD: !tileas.tma_desc<64x128xbf16> {tileas.name = "D"},
                    %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c64 : index
  %n = arith.muli %by, %c128 : index
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %acc0 = tileas.alloc_tmem : !tileas.tmem<64x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<64x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<64x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<64x128xf32> -> !tileas.tmem<64x128xf32>
    scf.yield %d : !tileas.tmem<64x128xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<64x128xf32> -> tensor<64x128xf32>
  %rs = tileas.tma_load %descR[%m, %n] : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
  %rt = tileas.smem_load %rs : !tileas.smem<64x128xbf16> -> tensor<64x128xbf16>
  %rf = tileas.cvt %rt : tensor<64x128xbf16> -> tensor<64x128xf32>
  %sum = tileas.add %r, %rf : tensor<64x128xf32>, tensor<64x128xf32>
  %relu = tileas.max %sum, %zero : tensor<64x128xf32>, tensor<64xf32>
  %o = tileas.cvt %relu : tensor<64x128xf32> -> tensor<64x128xbf16>
  %s = tileas.smem_store %o : tensor<64x128xbf16> -> !tileas.smem<64x128xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<64x128xbf16>, !tileas.tma_desc<64x128xbf16>
  return
}
