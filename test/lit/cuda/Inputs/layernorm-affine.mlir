// LayerNorm over 128-column rows with its affine part, written plainly:
// y = (x - mean) * rsqrt(var + eps) * gamma[n] + beta[n], all f32. CTA b
// walks row blocks b, b + grid, ... below `blocks`. The mean is spread over
// the columns with tileas.broadcast dimensions = [1] (one value per row),
// gamma and beta over the rows with dimensions = [0] (one per column), both
// loaded once before the loop by TMA.
func.func @layernorm_affine(%descX: !tileas.tma_desc<128x128xf32> {tileas.name = "X"},
                            %descG: !tileas.tma_desc<128xf32> {tileas.name = "gamma"},
                            %descBeta: !tileas.tma_desc<128xf32> {tileas.name = "beta"},
                            %descY: !tileas.tma_desc<128x128xf32> {tileas.name = "Y"},
                            %blocks: index {tileas.name = "blocks"}) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %grid = gpu.grid_dim x
  %inv = arith.constant dense<0.0078125> : tensor<128xf32>
  %eps = arith.constant dense<1.0e-05> : tensor<128xf32>
  %gs = tileas.tma_load %descG[%c0] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  %bs = tileas.tma_load %descBeta[%c0] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  scf.for %i = %bx to %blocks step %grid {
    %row = arith.muli %i, %c128 : index
    %t = tileas.tma_load %descX[%row, %c0] : !tileas.tma_desc<128x128xf32> -> !tileas.smem<128x128xf32>
    %x = tileas.smem_load %t : !tileas.smem<128x128xf32> -> tensor<128x128xf32>
    %s = tileas.reduce_sum %x : tensor<128x128xf32> -> tensor<128xf32>
    %mean = arith.mulf %s, %inv : tensor<128xf32>
    %mt = tileas.broadcast %mean dimensions = [1] : tensor<128xf32> -> tensor<128x128xf32>
    %d = arith.subf %x, %mt : tensor<128x128xf32>
    %d2 = arith.mulf %d, %d : tensor<128x128xf32>
    %vs = tileas.reduce_sum %d2 : tensor<128x128xf32> -> tensor<128xf32>
    %var = arith.mulf %vs, %inv : tensor<128xf32>
    %ve = arith.addf %var, %eps : tensor<128xf32>
    %rstd = math.rsqrt %ve : tensor<128xf32>
    %xn = tileas.mul %d, %rstd : tensor<128x128xf32>, tensor<128xf32>
    %g = tileas.smem_load %gs : !tileas.smem<128xf32> -> tensor<128xf32>
    %beta = tileas.smem_load %bs : !tileas.smem<128xf32> -> tensor<128xf32>
    %gt = tileas.broadcast %g dimensions = [0] : tensor<128xf32> -> tensor<128x128xf32>
    %bt = tileas.broadcast %beta dimensions = [0] : tensor<128xf32> -> tensor<128x128xf32>
    %y = tileas.fma %xn, %gt, %bt : tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>
    %o = tileas.smem_store %y : tensor<128x128xf32> -> !tileas.smem<128x128xf32>
    tileas.tma_store %o, %descY[%row, %c0] : !tileas.smem<128x128xf32>, !tileas.tma_desc<128x128xf32>
  }
  return
}
