// A user's fp16 GEMM with a ReLU epilogue and f32 output, 128x128 tiles.
func.func @hgemm_relu(%descA: !tileas.tma_desc<128x64xf16> {tileas.name = "A"},
                      %descB: !tileas.tma_desc<128x64xf16> {tileas.name = "B"},
                      %descC: !tileas.tma_desc<128x128xf32> {tileas.name = "C"},
                      %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xf16> -> !tileas.smem<128x64xf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xf16> -> !tileas.smem<128x64xf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xf16>, !tileas.smem<128x64xf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %relu = tileas.max %r, %zero : tensor<128x128xf32>, tensor<128xf32>
  %s = tileas.smem_store %relu : tensor<128x128xf32> -> !tileas.smem<128x128xf32>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<128x128xf32>, !tileas.tma_desc<128x128xf32>
  return
}
