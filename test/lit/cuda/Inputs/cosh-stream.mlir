// Elementwise cosh written plainly, with the float ops of arith and math
// (Triton's elementwise tutorial style): y = 0.5 (2^u + 2^-u), u = x log2 e.
// CTA b owns rows 128 b .. 128 b + 127 and walks `tiles` column tiles of 64.
// Two math.exp2 in one chain and an arith.negf: the chain is one warp group
// (scheduler/mlir/WarpGroups.cpp), and negf translates to the runtime's neg.
func.func @cosh_stream(%descX: !tileas.tma_desc<128x64xf32> {tileas.name = "X"},
                       %descY: !tileas.tma_desc<128x64xf32> {tileas.name = "Y"},
                       %tiles: index {tileas.name = "tiles"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %row = arith.muli %bx, %c128 : index
  %log2e = arith.constant dense<1.44269504> : tensor<128x64xf32>
  %half = arith.constant dense<0.5> : tensor<128x64xf32>
  scf.for %j = %c0 to %tiles step %c1 {
    %col = arith.muli %j, %c64 : index
    %t = tileas.tma_load %descX[%row, %col] : !tileas.tma_desc<128x64xf32> -> !tileas.smem<128x64xf32>
    %x = tileas.smem_load %t : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
    %u = arith.mulf %x, %log2e : tensor<128x64xf32>
    %p = math.exp2 %u : tensor<128x64xf32>
    %nu = arith.negf %u : tensor<128x64xf32>
    %q = math.exp2 %nu : tensor<128x64xf32>
    %s = arith.addf %p, %q : tensor<128x64xf32>
    %y = arith.mulf %s, %half : tensor<128x64xf32>
    %o = tileas.smem_store %y : tensor<128x64xf32> -> !tileas.smem<128x64xf32>
    tileas.tma_store %o, %descY[%row, %col] : !tileas.smem<128x64xf32>, !tileas.tma_desc<128x64xf32>
  }
  return
}
