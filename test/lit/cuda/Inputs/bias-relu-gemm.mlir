// The most common GEMM epilogue, written plainly: D = relu(A . B^T + bias[n]),
// bf16 A, B and D, f32 accumulation and bias, 128x128 tiles, K-block 64.
// bias is a vector of N values, one per output column: the epilogue loads
// the tile's 128 of them by TMA (a 1-D box) after the loop and spreads them
// over the rows with tileas.broadcast dimensions = [0].
func.func @bias_relu_gemm(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                          %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                          %descBias: !tileas.tma_desc<128xf32> {tileas.name = "bias"},
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
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %bs = tileas.tma_load %descBias[%n] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  %bias = tileas.smem_load %bs : !tileas.smem<128xf32> -> tensor<128xf32>
  %bt = tileas.broadcast %bias dimensions = [0] : tensor<128xf32> -> tensor<128x128xf32>
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %y = tileas.add %x, %bt : tensor<128x128xf32>, tensor<128x128xf32>
  %r = tileas.max %y, %zero : tensor<128x128xf32>, tensor<128x128xf32>
  %rb = tileas.cvt %r : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %rb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
