// SiLU over a bf16 matrix, written plainly with arith and math ops (the
// gated MLPs of Triton's and cuTile's samples): y = x / (1 + e^-x) in f32,
// read and written as bf16 (arith.extf, arith.truncf). CTA b owns rows
// 128 b .. 128 b + 127 and walks `tiles` column tiles of 64.
func.func @silu(%descX: !tileas.tma_desc<128x64xbf16> {tileas.name = "X"},
                %descY: !tileas.tma_desc<128x64xbf16> {tileas.name = "Y"},
                %tiles: index {tileas.name = "tiles"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %row = arith.muli %bx, %c128 : index
  %one = arith.constant dense<1.0> : tensor<128x64xf32>
  scf.for %j = %c0 to %tiles step %c1 {
    %col = arith.muli %j, %c64 : index
    %t = tileas.tma_load %descX[%row, %col] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %xb = tileas.smem_load %t : !tileas.smem<128x64xbf16> -> tensor<128x64xbf16>
    %x = arith.extf %xb : tensor<128x64xbf16> to tensor<128x64xf32>
    %nx = arith.negf %x : tensor<128x64xf32>
    %e = math.exp %nx : tensor<128x64xf32>
    %d = arith.addf %one, %e : tensor<128x64xf32>
    %y = arith.divf %x, %d : tensor<128x64xf32>
    %yb = arith.truncf %y : tensor<128x64xf32> to tensor<128x64xbf16>
    %o = tileas.smem_store %yb : tensor<128x64xbf16> -> !tileas.smem<128x64xbf16>
    tileas.tma_store %o, %descY[%row, %col] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  }
  return
}
