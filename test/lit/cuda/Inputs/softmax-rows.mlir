// Row softmax of 128-column rows, one row block per iteration, written as
// Triton's fused-softmax tutorial does for rows that fit one tile: the row
// max and sum are tileas reductions, the reciprocal an arith.divf on the
// per-row vector.
func.func @softmax_rows(%descX: !tileas.tma_desc<128x128xf32> {tileas.name = "X"},
                        %descY: !tileas.tma_desc<128x128xf32> {tileas.name = "Y"},
                        %blocks: index {tileas.name = "blocks"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %log2e = arith.constant dense<1.44269504> : tensor<128x128xf32>
  scf.for %i = %c0 to %blocks step %c1 {
    %row = arith.muli %i, %c128 : index
    %t = tileas.tma_load %descX[%row, %c0] : !tileas.tma_desc<128x128xf32> -> !tileas.smem<128x128xf32>
    %x = tileas.smem_load %t : !tileas.smem<128x128xf32> -> tensor<128x128xf32>
    %m = tileas.reduce_max %x : tensor<128x128xf32> -> tensor<128xf32>
    %d = tileas.sub %x, %m : tensor<128x128xf32>, tensor<128xf32>
    %u = arith.mulf %d, %log2e : tensor<128x128xf32>
    %e = math.exp2 %u : tensor<128x128xf32>
    %s = tileas.reduce_sum %e : tensor<128x128xf32> -> tensor<128xf32>
    %inv = arith.divf %one, %s : tensor<128xf32>
    %y = tileas.mul %e, %inv : tensor<128x128xf32>, tensor<128xf32>
    %o = tileas.smem_store %y : tensor<128x128xf32> -> !tileas.smem<128x128xf32>
    tileas.tma_store %o, %descY[%row, %c0] : !tileas.smem<128x128xf32>, !tileas.tma_desc<128x128xf32>
  }
  return
}
