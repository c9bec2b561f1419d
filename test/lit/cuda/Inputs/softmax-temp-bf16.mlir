// Row softmax with a temperature, written plainly as a user would (issue 35,
// point 6: a fresh kernel through the whole pipeline): bf16 rows of 128
// columns, the scores divided by the temperature t passed in, the row max
// subtracted, math.exp, the row sum, and each value divided by it
// (tileas.broadcast of the sum along the columns, arith.divf), stored as
// bf16. Block i of the loop is rows 128 i .. 128 i + 127.
func.func @softmax_temp_bf16(%descX: !tileas.tma_desc<128x128xbf16> {tileas.name = "X"},
                             %descY: !tileas.tma_desc<128x128xbf16> {tileas.name = "Y"},
                             %t: f32 {tileas.name = "t"},
                             %blocks: index {tileas.name = "blocks"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %tv = tensor.splat %t : tensor<128x128xf32>
  scf.for %i = %c0 to %blocks step %c1 {
    %row = arith.muli %i, %c128 : index
    %tile = tileas.tma_load %descX[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %xb = tileas.smem_load %tile : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
    %x = arith.extf %xb : tensor<128x128xbf16> to tensor<128x128xf32>
    %z = arith.divf %x, %tv : tensor<128x128xf32>
    %m = tileas.reduce_max %z : tensor<128x128xf32> -> tensor<128xf32>
    %d = tileas.sub %z, %m : tensor<128x128xf32>, tensor<128xf32>
    %e = math.exp %d : tensor<128x128xf32>
    %s = tileas.reduce_sum %e : tensor<128x128xf32> -> tensor<128xf32>
    %st = tileas.broadcast %s dimensions = [1] : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.divf %e, %st : tensor<128x128xf32>
    %yb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    %o = tileas.smem_store %yb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
    tileas.tma_store %o, %descY[%row, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  }
  return
}
