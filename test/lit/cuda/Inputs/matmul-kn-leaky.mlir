// A fresh kernel (session 27), Triton's matmul tutorial written plainly:
// C = leaky_relu(A . B), A M x K and B K x N both row-major f16 (B read
// MN-major, as PyTorch's x @ W holds W), f32 accumulation, f16 C; 128 x 128
// tiles, K-block 64; leaky_relu as where(x >= 0, x, 0.01 x).
func.func @matmul_kn(%descA: !tileas.tma_desc<128x64xf16> {tileas.name = "A"},
                     %descB: !tileas.tma_desc<64x128xf16> {tileas.name = "B"},
                     %descC: !tileas.tma_desc<128x128xf16> {tileas.name = "C"},
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
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xf16> -> !tileas.smem<128x64xf16>
    %b = tileas.tma_load %descB[%k, %n] : !tileas.tma_desc<64x128xf16> -> !tileas.smem<64x128xf16>
    %d = tileas.umma %a, %b, %accIn {accumulate, b_mn_major}
        : !tileas.smem<128x64xf16>, !tileas.smem<64x128xf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %slope = arith.constant dense<0.01> : tensor<128x128xf32>
  %pos = arith.cmpf oge, %x, %zero : tensor<128x128xf32>
  %neg = arith.mulf %x, %slope : tensor<128x128xf32>
  %y = arith.select %pos, %x, %neg : tensor<128x128xi1>, tensor<128x128xf32>
  %yh = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xf16>
  %s = tileas.smem_store %yh : tensor<128x128xf16> -> !tileas.smem<128x128xf16>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<128x128xf16>, !tileas.tma_desc<128x128xf16>
  return
}
