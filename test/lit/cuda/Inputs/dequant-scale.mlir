// An FP8 GEMM mainloop whose per-k-block partial product is rescaled on
// SIMT by a per-row scale passed in (DeepGEMM-like), summed in registers,
// and stored through SMEM with TMA after the loop.
func.func @fp8_dequant(%descA: !tileas.tma_desc<128x128xf8E4M3FN> {tileas.name = "A"},
                       %descB: !tileas.tma_desc<128x128xf8E4M3FN> {tileas.name = "B"},
                       %descC: !tileas.tma_desc<128x128xbf16> {tileas.name = "C"},
                       %m: index {tileas.name = "m"}, %n: index {tileas.name = "n"},
                       %K: index {tileas.name = "K"},
                       %scale: tensor<128xf32> {tileas.name = "scale"}) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
  %part = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %r = scf.for %k = %c0 to %K step %c128 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x128xf8E4M3FN> -> !tileas.smem<128x128xf8E4M3FN>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x128xf8E4M3FN> -> !tileas.smem<128x128xf8E4M3FN>
    %p = tileas.umma %a, %b, %part : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<128x128xf8E4M3FN>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %pr = tileas.tmem_load %p : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %ps = tileas.mul %pr, %scale : tensor<128x128xf32>, tensor<128xf32>
    %accNew = tileas.add %acc, %ps : tensor<128x128xf32>, tensor<128x128xf32>
    scf.yield %accNew : tensor<128x128xf32>
  }
  %o = tileas.cvt %r : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %o : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
