// A fresh kernel (session 29), written as a user would: an FP8 linear layer
// with per-tensor scales, as FP8 inference (and DeepSeek-style tensorwise
// quantization) runs it: D[m, n] = bf16(sa * sb * (A . B^T)[m, n]), E4M3 A
// (M x K) and B (N x K, nn.Linear's weight), f32 scales passed by value,
// 128 x 128 tiles, K-block 128 (128 bytes of K).
func.func @fp8_scaled_gemm(%descA: !tileas.tma_desc<128x128xf8E4M3FN> {tileas.name = "A"},
                           %descB: !tileas.tma_desc<128x128xf8E4M3FN> {tileas.name = "B"},
                           %descD: !tileas.tma_desc<128x128xbf16> {tileas.name = "D"},
                           %sa: f32 {tileas.name = "sa"},
                           %sb: f32 {tileas.name = "sb"},
                           %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c128
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x128xf8E4M3FN> -> !tileas.smem<128x128xf8E4M3FN>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x128xf8E4M3FN> -> !tileas.smem<128x128xf8E4M3FN>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %s = arith.mulf %sa, %sb : f32
  %y = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %ys = tileas.mul %y, %s : tensor<128x128xf32>, f32
  %yh = arith.truncf %ys : tensor<128x128xf32> to tensor<128x128xbf16>
  %st = tileas.smem_store %yh : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %st, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
