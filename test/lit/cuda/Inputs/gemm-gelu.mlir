// A bf16 GEMM whose epilogue is GELU (tanh form) of the scaled accumulator,
// written plainly with arith and math ops, as a gated MLP's first GEMM:
//   C = gelu(alpha A . B^T), gelu(x) = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// bf16 in and out (arith.truncf), f32 accumulation, 128x128 tiles, K-block 64.
func.func @gemm_gelu(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                     %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                     %descC: !tileas.tma_desc<128x128xbf16> {tileas.name = "C"},
                     %alpha: f32 {tileas.name = "alpha"},
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
  %r = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %scale = tensor.splat %alpha : tensor<128x128xf32>
  %cubic = arith.constant dense<0.044715> : tensor<128x128xf32>
  %k2pi = arith.constant dense<0.7978845608> : tensor<128x128xf32>
  %one = arith.constant dense<1.0> : tensor<128x128xf32>
  %half = arith.constant dense<0.5> : tensor<128x128xf32>
  %x = arith.mulf %r, %scale : tensor<128x128xf32>
  %x2 = arith.mulf %x, %x : tensor<128x128xf32>
  %x3 = arith.mulf %x2, %x : tensor<128x128xf32>
  %t = arith.mulf %x3, %cubic : tensor<128x128xf32>
  %in = arith.addf %x, %t : tensor<128x128xf32>
  %arg = arith.mulf %in, %k2pi : tensor<128x128xf32>
  %th = math.tanh %arg : tensor<128x128xf32>
  %p = arith.addf %th, %one : tensor<128x128xf32>
  %hx = arith.mulf %x, %half : tensor<128x128xf32>
  %g = arith.mulf %hx, %p : tensor<128x128xf32>
  %gb = arith.truncf %g : tensor<128x128xf32> to tensor<128x128xbf16>
  %s = tileas.smem_store %gb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
