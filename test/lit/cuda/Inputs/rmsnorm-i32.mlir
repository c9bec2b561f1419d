// rmsnorm-gamma.mlir with a 32-bit loop: the block count is an i32 kernel
// argument and CTA b walks row blocks b, b + grid, ... below it with an i32
// induction variable (scf.for ... : i32) whose row origin is computed per
// iteration through cmpi, select, extsi, muli in i64 and index_cast.
func.func @rmsnorm_i32(%descX: !tileas.tma_desc<128x128xbf16> {tileas.name = "X"},
                       %descG: !tileas.tma_desc<128xbf16> {tileas.name = "gamma"},
                       %descY: !tileas.tma_desc<128x128xbf16> {tileas.name = "Y"},
                       %blocks: i32 {tileas.name = "blocks"}) {
  %c0 = arith.constant 0 : index
  %bx = gpu.block_id x
  %grid = gpu.grid_dim x
  %inv = arith.constant dense<0.0078125> : tensor<128xf32>
  %eps = arith.constant dense<1.0e-05> : tensor<128xf32>
  %gs = tileas.tma_load %descG[%c0] : !tileas.tma_desc<128xbf16> -> !tileas.smem<128xbf16>
  %c0_i32 = arith.constant 0 : i32
  %c128_i64 = arith.constant 128 : i64
  %bx32 = arith.index_cast %bx : index to i32
  %grid32 = arith.index_castui %grid : index to i32
  scf.for %i = %bx32 to %blocks step %grid32 : i32 {
    // Scalar code per iteration: a clamp (cmpi, select; never taken), a
    // widening and the row origin in i64, cast to index.
    %neg = arith.cmpi slt, %i, %c0_i32 : i32
    %ic = arith.select %neg, %c0_i32, %i : i32
    %i64 = arith.extsi %ic : i32 to i64
    %r64 = arith.muli %i64, %c128_i64 : i64
    %row = arith.index_cast %r64 : i64 to index
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
