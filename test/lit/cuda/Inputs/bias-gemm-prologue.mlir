// bias-relu-gemm.mlir with the bias as a user may also write it: a bf16
// vector loaded by TMA before the loop (a prologue tile read only after it)
// and converted to f32 in the epilogue: D = relu(A . B^T + f32(bias[n])).
// The plan counts the prologue tile though the loop never reads it.
func.func @bias_gemm_prologue(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                          %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                          %descBias: !tileas.tma_desc<128xbf16> {tileas.name = "bias"},
                          %descD: !tileas.tma_desc<128x128xbf16> {tileas.name = "D"},
                          %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %bs = tileas.tma_load %descBias[%n] : !tileas.tma_desc<128xbf16> -> !tileas.smem<128xbf16>
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %bias = tileas.smem_load %bs : !tileas.smem<128xbf16> -> tensor<128xbf16>
  %biasf = tileas.cvt %bias : tensor<128xbf16> -> tensor<128xf32>
  %bt = tileas.broadcast %biasf dimensions = [0] : tensor<128xf32> -> tensor<128x128xf32>
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %y = tileas.add %x, %bt : tensor<128x128xf32>, tensor<128x128xf32>
  %r = tileas.max %y, %zero : tensor<128x128xf32>, tensor<128x128xf32>
  %rb = tileas.cvt %r : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %rb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
