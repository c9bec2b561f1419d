// HGEMM accumulating in f16 with 64-row tiles: tcgen05.mma at M = 64 with an
// f16 D (one element per column, rows 16 apart in each lane quadrant).
func.func @hgemm64_f16acc(%descA: !tileas.tma_desc<64x64xf16> {tileas.name = "A"},
                        %descB: !tileas.tma_desc<128x64xf16> {tileas.name = "B"},
                        %descC: !tileas.tma_desc<64x128xf16> {tileas.name = "C"},
                        %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c64 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<64x128xf16>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<64x128xf16>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<64x64xf16> -> !tileas.smem<64x64xf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xf16> -> !tileas.smem<128x64xf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<64x64xf16>, !tileas.smem<128x64xf16>, !tileas.tmem<64x128xf16> -> !tileas.tmem<64x128xf16>
    scf.yield %d : !tileas.tmem<64x128xf16>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<64x128xf16> -> tensor<64x128xf16>
  %s = tileas.smem_store %r : tensor<64x128xf16> -> !tileas.smem<64x128xf16>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<64x128xf16>, !tileas.tma_desc<64x128xf16>
  return
}
