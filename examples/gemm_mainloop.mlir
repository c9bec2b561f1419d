// A Blackwell GEMM mainloop (CUTLASS sm100 shape: 128x256 tile, K-block 64,
// bf16 in, f32 accumulator in TMEM): two TMA loads per k-block feed one UMMA
// that accumulates into TMEM; the epilogue after the loop reads the
// accumulator out of TMEM, converts it and stores the tile with TMA.
//
// Where the loads' bytes come from, as a CUTLASS sm100 kernel with a 2x2
// cluster runs it: A is multicast to the 2 CTAs of its cluster row and B to
// the 2 of its cluster column (`multicast = 2`, CUTLASS's mcast_mask), and
// each k-block of A (of B) is read by the other clusters of its grid row
// (column) while it sits in L2: with 148 CTAs (37 clusters) resident, at
// least 4 clusters share each tile (`l2_reuse = 4`, docs/target.md).
//
// Each CTA computes one 128x256 tile of C: block (x, y) of the grid owns rows
// m = 128 x and columns n = 256 y (gpu.block_id, computed once before the
// loop), so the kernel is launched on an (M / 128) x (N / 256) grid.
func.func @gemm_mainloop(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                         %descB: !tileas.tma_desc<256x64xbf16> {tileas.name = "B"},
                         %descC: !tileas.tma_desc<128x256xbf16> {tileas.name = "C"},
                         %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c256 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k] {l2_reuse = 4, multicast = 2}
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] {l2_reuse = 4, multicast = 2}
        : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>,
          !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %o : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descC[%m, %n]
      : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
