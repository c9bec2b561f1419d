// A user's GEMM with two outputs from one accumulator, written plainly:
// C = A B and D = relu(A B), both bf16, at CUTLASS's 128x256x64 tile. Each
// output is staged in a shared-memory tile of its own, allocated before the
// loop and written after it (`into`). The mainloop keeps 3 stages of A and
// B in flight (144 KiB) and the two staging tiles take 128 KiB: 272 KiB as
// written, more than the SM has. The materializer lays the staging tiles
// over the drained mainloop slots (they are written only after the last
// MMA's commit), 64 KiB apart, and the plan fits.
func.func @gemm_two_outputs(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                            %descB: !tileas.tma_desc<256x64xbf16> {tileas.name = "B"},
                            %descC: !tileas.tma_desc<128x256xbf16> {tileas.name = "C"},
                            %descD: !tileas.tma_desc<128x256xbf16> {tileas.name = "D"},
                            %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c256 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %stageC = tileas.alloc_smem : !tileas.smem<128x256xbf16>
  %stageD = tileas.alloc_smem : !tileas.smem<128x256xbf16>
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k]
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k]
        : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>,
          !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %c = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  %sc = tileas.smem_store %c into %stageC
      : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %sc, %descC[%m, %n]
      : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  %relu = tileas.max %r, %zero : tensor<128x256xf32>, tensor<128xf32>
  %dr = tileas.cvt %relu : tensor<128x256xf32> -> tensor<128x256xbf16>
  %sd = tileas.smem_store %dr into %stageD
      : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %sd, %descD[%m, %n]
      : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
