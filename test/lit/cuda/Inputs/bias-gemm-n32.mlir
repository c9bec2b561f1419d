// A narrow GEMM with a bias per output column, in arith ops:
// D = max(A . B^T + bias[n], 0), bf16 A and B, f32 D, 128x32 tiles. A
// 32-column row is one piece, so nothing streams: every thread of the
// epilogue holds the whole bias (tp::Frag<float, 32>, the same in every
// thread) and the broadcast is made whole (tp::bcast_cols).
func.func @bias_gemm_n32(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                         %descB: !tileas.tma_desc<32x64xbf16> {tileas.name = "B"},
                         %descBias: !tileas.tma_desc<32xf32> {tileas.name = "bias"},
                         %descD: !tileas.tma_desc<128x32xf32> {tileas.name = "D"},
                         %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<128x32xf32>
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c32 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x32xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x32xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<32x64xbf16> -> !tileas.smem<32x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<32x64xbf16>, !tileas.tmem<128x32xf32> -> !tileas.tmem<128x32xf32>
    scf.yield %d : !tileas.tmem<128x32xf32>
  }
  %bs = tileas.tma_load %descBias[%n] : !tileas.tma_desc<32xf32> -> !tileas.smem<32xf32>
  %bias = tileas.smem_load %bs : !tileas.smem<32xf32> -> tensor<32xf32>
  %bt = tileas.broadcast %bias dimensions = [0] : tensor<32xf32> -> tensor<128x32xf32>
  %x = tileas.tmem_load %acc : !tileas.tmem<128x32xf32> -> tensor<128x32xf32>
  %y = arith.addf %x, %bt : tensor<128x32xf32>
  %r = arith.maximumf %y, %zero : tensor<128x32xf32>
  %s = tileas.smem_store %r : tensor<128x32xf32> -> !tileas.smem<128x32xf32>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x32xf32>, !tileas.tma_desc<128x32xf32>
  return
}
