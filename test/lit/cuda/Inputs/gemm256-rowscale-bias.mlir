// A fresh kernel (session 29): D = bf16(s[m] * (A . B^T)[m, n] + bias[n])
// at 256 x 128 tiles, K-block 64, written for sm_90a with its register
// accumulator (two consumer warpgroups of two 64-row bands each).
func.func @gemm256_rowscale_bias(%descA: !tileas.tma_desc<256x64xbf16> {tileas.name = "A"},
                                 %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                                 %descS: !tileas.tma_desc<256xf32> {tileas.name = "s"},
                                 %descBias: !tileas.tma_desc<128xf32> {tileas.name = "bias"},
                                 %descD: !tileas.tma_desc<256x128xbf16> {tileas.name = "D"},
                                 %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c256 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = arith.constant dense<0.0> : tensor<256x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (tensor<256x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.wgmma %a, %b, %accIn {accumulate}
        : !tileas.smem<256x64xbf16>, !tileas.smem<128x64xbf16>, tensor<256x128xf32> -> tensor<256x128xf32>
    scf.yield %d : tensor<256x128xf32>
  }
  %ss = tileas.tma_load %descS[%m] : !tileas.tma_desc<256xf32> -> !tileas.smem<256xf32>
  %bs = tileas.tma_load %descBias[%n] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  %s = tileas.smem_load %ss : !tileas.smem<256xf32> -> tensor<256xf32>
  %bias = tileas.smem_load %bs : !tileas.smem<128xf32> -> tensor<128xf32>
  %st = tileas.broadcast %s dimensions = [1] : tensor<256xf32> -> tensor<256x128xf32>
  %bt = tileas.broadcast %bias dimensions = [0] : tensor<128xf32> -> tensor<256x128xf32>
  %y = arith.mulf %acc, %st : tensor<256x128xf32>
  %yb = arith.addf %y, %bt : tensor<256x128xf32>
  %yh = arith.truncf %yb : tensor<256x128xf32> to tensor<256x128xbf16>
  %o = tileas.smem_store %yh : tensor<256x128xbf16> -> !tileas.smem<256x128xbf16>
  tileas.tma_store %o, %descD[%m, %n] : !tileas.smem<256x128xbf16>, !tileas.tma_desc<256x128xbf16>
  return
}
