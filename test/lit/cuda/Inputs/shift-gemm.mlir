// ceildiv-gemm.mlir with the trip count written as a shift, (K + 63) >> 6
// (arith.shrui): the protocol check's interpreter evaluates the loop
// bound, so it must know the shifts too.
func.func @shift_gemm(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                        %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                        %descC: !tileas.tma_desc<128x128xbf16> {tileas.name = "C"},
                        %N: index {tileas.name = "N"},
                        %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %lin = gpu.block_id x
  %tilesN = arith.ceildivui %N, %c128 : index
  %mt = arith.divui %lin, %tilesN : index
  %nt = arith.remui %lin, %tilesN : index
  %m = arith.shli %mt, %c7 : index
  %n = arith.shli %nt, %c7 : index
  %k63 = arith.addi %K, %c63 : index
  %trips = arith.shrui %k63, %c6 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %i = %c0 to %trips step %c1
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %k = arith.shli %i, %c6 : index
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %o = tileas.cvt %r : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %o : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
