// A streaming elementwise loop: per tile, TMA in, exp2 on SIMT, TMA out.
func.func @stream_exp2(%in: !tileas.tma_desc<128x64xf32> {tileas.name = "X"},
                        %out: !tileas.tma_desc<128x64xf32> {tileas.name = "Y"},
                        %n: index {tileas.name = "n"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %n step %c1 {
    %row = arith.muli %i, %c128 : index
    %t = tileas.tma_load %in[%row, %c0] : !tileas.tma_desc<128x64xf32> -> !tileas.smem<128x64xf32>
    %r = tileas.smem_load %t : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
    %e = tileas.exp2 %r : tensor<128x64xf32>
    %s = tileas.smem_store %e : tensor<128x64xf32> -> !tileas.smem<128x64xf32>
    tileas.tma_store %s, %out[%row, %c0] : !tileas.smem<128x64xf32>, !tileas.tma_desc<128x64xf32>
  }
  return
}
