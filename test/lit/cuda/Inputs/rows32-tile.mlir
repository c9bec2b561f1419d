// The smallest kernel that meets the 32-row limit of cuTile's norm samples
// (32 x 256 tiles): one loop, a 32-row register tile (rows32-refused.test).
func.func @rows32(%x: !tileas.tma_desc<32x64xf32> {tileas.name = "X"}, %y: !tileas.tma_desc<32x64xf32> {tileas.name = "Y"}, %n: index {tileas.name = "n"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    %col = arith.muli %i, %c64 : index
    %t = tileas.tma_load %x[%c0, %col] : !tileas.tma_desc<32x64xf32> -> !tileas.smem<32x64xf32>
    %v = tileas.smem_load %t : !tileas.smem<32x64xf32> -> tensor<32x64xf32>
    %w = arith.addf %v, %v : tensor<32x64xf32>
    %s = tileas.smem_store %w : tensor<32x64xf32> -> !tileas.smem<32x64xf32>
    tileas.tma_store %s, %y[%c0, %col] : !tileas.smem<32x64xf32>, !tileas.tma_desc<32x64xf32>
  }
  return
}
