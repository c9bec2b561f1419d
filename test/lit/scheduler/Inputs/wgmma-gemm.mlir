// The input of test/lit/scheduler/sm90a.mlir: a plain Hopper GEMM mainloop.
func.func @gemm(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<256x64xbf16>, %descC: !tileas.tma_desc<128x256xbf16>, %K: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c64 iter_args(%accIn = %zero) -> (tensor<128x256xf32>) {
    %a = tileas.tma_load %descA[%c0, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%c0, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.wgmma %a, %b, %accIn {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, tensor<128x256xf32> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  %o = tileas.cvt %acc : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %o : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descC[%c0, %c0] : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
