// Hand-written tileas (session 48): an MMA after a K loop sums into the
// loop's TMEM accumulator as it is, in a loop of one trip (the shape the
// cuTile lowering gave LoRA's Y = X W^T + (X A^T) B^T before it made the
// second product fresh and added it in the threads).
func.func @captured_accumulator(%descX: !tileas.tma_desc<128x64xbf16> {tileas.name = "X"},
                                %descW: !tileas.tma_desc<128x64xbf16> {tileas.name = "W"},
                                %descP: !tileas.tma_desc<128x64xbf16> {tileas.name = "P"},
                                %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                                %descD: !tileas.tma_desc<128x128xbf16> {tileas.name = "D"},
                                %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc1 = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descX[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descW[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  scf.for %i = %c0 to %c1 step %c1 {
    %p = tileas.tma_load %descP[%m, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %p, %b, %acc1 {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %y = tileas.tmem_load %d : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %yh = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    %st = tileas.smem_store %yh : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
    tileas.tma_store %st, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  }
  return
}
