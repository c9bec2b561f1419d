// swiglu.mlir at 128x128 output tiles: two 128x128 f32 accumulators, 256
// registers a thread in one warpgroup, more than a ping-pong copy holds
// (pingpong.test).
func.func @swiglu(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                  %descG: !tileas.tma_desc<128x64xbf16> {tileas.name = "Wg"},
                  %descU: !tileas.tma_desc<128x64xbf16> {tileas.name = "Wu"},
                  %descH: !tileas.tma_desc<128x128xbf16> {tileas.name = "H"},
                  %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c64 : index
  %g0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %u0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc:2 = scf.for %k = %c0 to %K step %c64
      iter_args(%gIn = %g0, %uIn = %u0) -> (!tileas.tmem<128x128xf32>, !tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %wg = tileas.tma_load %descG[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %wu = tileas.tma_load %descU[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %g = tileas.umma %a, %wg, %gIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %u = tileas.umma %a, %wu, %uIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %g, %u : !tileas.tmem<128x128xf32>, !tileas.tmem<128x128xf32>
  }
  %gr = tileas.tmem_load %acc#0 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %ur = tileas.tmem_load %acc#1 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %one = arith.constant dense<1.0> : tensor<128x128xf32>
  %ng = arith.negf %gr : tensor<128x128xf32>
  %e = math.exp %ng : tensor<128x128xf32>
  %den = arith.addf %e, %one : tensor<128x128xf32>
  %silu = arith.divf %gr, %den : tensor<128x128xf32>
  %h = arith.mulf %silu, %ur : tensor<128x128xf32>
  %hb = arith.truncf %h : tensor<128x128xf32> to tensor<128x128xbf16>
  %s = tileas.smem_store %hb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descH[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
