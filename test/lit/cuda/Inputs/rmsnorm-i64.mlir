// rmsnorm-gamma.mlir with a 64-bit loop: the block count is an i64 kernel
// argument, the induction variable i64 (scf.for ... : i64), the row origin
// per iteration trunci, shli and index_castui.
func.func @rmsnorm_i64(%descX: !tileas.tma_desc<128x128xbf16> {tileas.name = "X"},
                       %descG: !tileas.tma_desc<128xbf16> {tileas.name = "gamma"},
                       %descY: !tileas.tma_desc<128x128xbf16> {tileas.name = "Y"},
                       %blocks: i64 {tileas.name = "blocks"}) {
  %c0 = arith.constant 0 : index
  %bx = gpu.block_id x
  %grid = gpu.grid_dim x
  %inv = arith.constant dense<0.0078125> : tensor<128xf32>
  %eps = arith.constant dense<1.0e-05> : tensor<128xf32>
  %gs = tileas.tma_load %descG[%c0] : !tileas.tma_desc<128xbf16> -> !tileas.smem<128xbf16>
  %c7_i32 = arith.constant 7 : i32
  %bx64 = arith.index_castui %bx : index to i64
  %grid64 = arith.index_cast %grid : index to i64
  scf.for %i = %bx64 to %blocks step %grid64 : i64 {
    // The row origin per iteration: trunci to i32, a shift, index_castui.
    %i32 = arith.trunci %i : i64 to i32
    %r = arith.shli %i32, %c7_i32 : i32
    %row = arith.index_castui %r : i32 to index
    %t = tileas.tma_load %descX[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %xb = tileas.smem_load %t : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
    %x = tileas.cvt %xb : tensor<128x128xbf16> -> tensor<128x128xf32>
    %sq = arith.mulf %x, %x : tensor<128x128xf32>
    %ss = tileas.reduce_sum %sq : tensor<128x128xf32> -> tensor<128xf32>
    %ms = arith.mulf %ss, %inv : tensor<128xf32>
    %v = arith.addf %ms, %eps : tensor<128xf32>
    %rstd = math.rsqrt %v : tensor<128xf32>
    %xn = tileas.mul %x, %rstd : tensor<128x128xf32>, tensor<128xf32>
    %gb = tileas.smem_load %gs : !tileas.smem<128xbf16> -> tensor<128xbf16>
    %g = tileas.cvt %gb : tensor<128xbf16> -> tensor<128xf32>
    %gt = tileas.broadcast %g dimensions = [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.mulf %xn, %gt : tensor<128x128xf32>
    %yb = tileas.cvt %y : tensor<128x128xf32> -> tensor<128x128xbf16>
    %o = tileas.smem_store %yb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
    tileas.tma_store %o, %descY[%row, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  }
  return
}
