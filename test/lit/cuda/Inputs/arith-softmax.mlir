// A softmax-style loop written with upstream arith/math ops (no tileas compute).
// CTA x loads its Q tile (rows 128 x ..) once, before the loop, and stores
// its result to the same rows.
func.func @arith_softmax(%descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                         %descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                         %n: index {tileas.name = "n"},
                         %out: !tileas.tma_desc<128x128xf32> {tileas.name = "out"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %qRow = arith.muli %bx, %c128 : index
  %q = tileas.tma_load %descQ[%qRow, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s = tileas.umma %q, %k, %sbuf : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr = tileas.tmem_load %s : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %e = math.exp2 %sr : tensor<128x128xf32>
    %m = arith.maximumf %acc, %e : tensor<128x128xf32>
    scf.yield %m : tensor<128x128xf32>
  }
  %st = tileas.smem_store %r : tensor<128x128xf32> -> !tileas.smem<128x128xf32>
  tileas.tma_store %st, %out[%qRow, %c0] : !tileas.smem<128x128xf32>, !tileas.tma_desc<128x128xf32>
  return
}
