// rmsnorm-gamma.mlir as a user would hoist it: gamma is read from SMEM and
// converted to f32 once, before the loop. Each agent that reads it streams
// it again from the prologue's tile a piece at a time (a 128-wide f32 vector
// held across the loop would cost 128 registers a thread).
func.func @rmsnorm_gamma_hoisted(%descX: !tileas.tma_desc<128x128xbf16> {tileas.name = "X"},
                         %descG: !tileas.tma_desc<128xbf16> {tileas.name = "gamma"},
                         %descY: !tileas.tma_desc<128x128xbf16> {tileas.name = "Y"},
                         %blocks: index {tileas.name = "blocks"}) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %grid = gpu.grid_dim x
  %inv = arith.constant dense<0.0078125> : tensor<128xf32>
  %eps = arith.constant dense<1.0e-05> : tensor<128xf32>
  %gs = tileas.tma_load %descG[%c0] : !tileas.tma_desc<128xbf16> -> !tileas.smem<128xbf16>
  %gb = tileas.smem_load %gs : !tileas.smem<128xbf16> -> tensor<128xbf16>
  %g = tileas.cvt %gb : tensor<128xbf16> -> tensor<128xf32>
  scf.for %i = %bx to %blocks step %grid {
    %row = arith.muli %i, %c128 : index
    %t = tileas.tma_load %descX[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %xb = tileas.smem_load %t : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
    %x = tileas.cvt %xb : tensor<128x128xbf16> -> tensor<128x128xf32>
    %sq = arith.mulf %x, %x : tensor<128x128xf32>
    %ss = tileas.reduce_sum %sq : tensor<128x128xf32> -> tensor<128xf32>
    %ms = arith.mulf %ss, %inv : tensor<128xf32>
    %v = arith.addf %ms, %eps : tensor<128xf32>
    %rstd = math.rsqrt %v : tensor<128xf32>
    %xn = tileas.mul %x, %rstd : tensor<128x128xf32>, tensor<128xf32>
    %gt = tileas.broadcast %g dimensions = [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.mulf %xn, %gt : tensor<128x128xf32>
    %yb = tileas.cvt %y : tensor<128x128xf32> -> tensor<128x128xbf16>
    %o = tileas.smem_store %yb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
    tileas.tma_store %o, %descY[%row, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  }
  return
}
