// A user's fp16 GEMM accumulating in fp16 (HGEMM as cuBLAS's
// CUBLAS_COMPUTE_16F runs it): 128x128 tiles, K-block 64, f16 output.
func.func @hgemm_f16acc(%descA: !tileas.tma_desc<128x64xf16> {tileas.name = "A"},
                        %descB: !tileas.tma_desc<128x64xf16> {tileas.name = "B"},
                        %descC: !tileas.tma_desc<128x128xf16> {tileas.name = "C"},
                        %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf16>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf16>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xf16> -> !tileas.smem<128x64xf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xf16> -> !tileas.smem<128x64xf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xf16>, !tileas.smem<128x64xf16>, !tileas.tmem<128x128xf16> -> !tileas.tmem<128x128xf16>
    scf.yield %d : !tileas.tmem<128x128xf16>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x128xf16> -> tensor<128x128xf16>
  %s = tileas.smem_store %r : tensor<128x128xf16> -> !tileas.smem<128x128xf16>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<128x128xf16>, !tileas.tma_desc<128x128xf16>
  return
}
