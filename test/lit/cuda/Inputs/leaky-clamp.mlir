// Leaky ReLU clamped from above, written with comparisons and selects on
// register tiles (arith.cmpf, arith.select), the threshold passed in:
//   y = min(x > 0 ? x : x / 64, t) as select(y < t, y, t)
// CTA b owns rows 128 b .. 128 b + 127 and walks `tiles` column tiles of 64.
func.func @leaky_clamp(%descX: !tileas.tma_desc<128x64xf32> {tileas.name = "X"},
                       %descY: !tileas.tma_desc<128x64xf32> {tileas.name = "Y"},
                       %t: f32 {tileas.name = "t"},
                       %tiles: index {tileas.name = "tiles"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %row = arith.muli %bx, %c128 : index
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %slope = arith.constant dense<0.015625> : tensor<128x64xf32>
  %tv = tensor.splat %t : tensor<128x64xf32>
  scf.for %j = %c0 to %tiles step %c1 {
    %col = arith.muli %j, %c64 : index
    %a = tileas.tma_load %descX[%row, %col] : !tileas.tma_desc<128x64xf32> -> !tileas.smem<128x64xf32>
    %x = tileas.smem_load %a : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
    %pos = arith.cmpf ogt, %x, %zero : tensor<128x64xf32>
    %small = arith.mulf %x, %slope : tensor<128x64xf32>
    %leaky = arith.select %pos, %x, %small : tensor<128x64xi1>, tensor<128x64xf32>
    %below = arith.cmpf olt, %leaky, %tv : tensor<128x64xf32>
    %y = arith.select %below, %leaky, %tv : tensor<128x64xi1>, tensor<128x64xf32>
    %o = tileas.smem_store %y : tensor<128x64xf32> -> !tileas.smem<128x64xf32>
    tileas.tma_store %o, %descY[%row, %col] : !tileas.smem<128x64xf32>, !tileas.tma_desc<128x64xf32>
  }
  return
}
