// A Blackwell block-scaled FP8 (MXFP8) GEMM mainloop in the CUTLASS sm100
// block-scaled shape: 128x256 tile, K-block 128 of e4m3 (128 B rows, as the
// BF16 mainloop's K-block 64), f32 accumulator in TMEM.
//
// What it follows:
// - PTX tcgen05.mma kind::mxf8f6f4 computes (A * scale_A) * (B * scale_B) + D
//   with UE8M0 scale factors in tensor memory, one per 32 elements of K
//   (block32 / scale_vec::1X: scale_A is M x 1 and scale_B 1 x N per K=32
//   instruction), so a K-block of 128 has 4 factors per row of A and of B.
//   MLIR 19 has no f8E8M0FNU type: the factors are `ui8` (the biased
//   exponent byte).
// - CUTLASS sm100_blockscaled_mma_warpspecialized: TMA loads A, B, SFA and
//   SFB into SMEM per k-block and the MMA warp copies SFA and SFB to TMEM
//   with tcgen05.cp.32x128b.warpx4, then issues the block-scaled UMMAs.
//   tcgen05.cp -> tcgen05.mma of one thread are ordered by the PTX
//   pipelined-pair rule, no wait between.
// - The factors are stored as CUTLASS's (and cuDNN's) 128x4 atoms: the
//   factors of 128 rows x 4 k-blocks are 512 bytes, 32 lines of 16 bytes
//   (row r, k-block j at byte (r % 32) * 16 + (r / 32) * 4 + j), and global
//   memory holds them as a [rows / 128][K / 128 * 32][16] byte tensor, row
//   blocks outermost. A TMA box must span a multiple of 16 bytes, so the
//   factors load in that form: SFA's box is 1 atom (1x32x16) at [m / 128,
//   k / 4, 0] and SFB's 2 atoms (2x32x16, N = 256) at [n / 128, k / 4, 0];
//   tmem_copy turns them into the 128x4 and 128x8 TMEM tiles the UMMA
//   scales by (docs/cuda.md, "Block scaling").
// - blackwell-facts 1.2/1.3: an FP8 UMMA with K=32 takes the cycles of a BF16
//   K=16 one, so this loop's UMMA (2x the FLOPs of the BF16 mainloop's) holds
//   the tensor core for the same 512 cycles.
// The epilogue after the loop reads the accumulator out of TMEM, converts it
// to bf16 and stores the tile with TMA.
//
// Each CTA computes one 128x256 tile of C: block (x, y) of the grid owns rows
// m = 128 x and columns n = 256 y (gpu.block_id, computed once before the
// loop), so the kernel is launched on an (M / 128) x (N / 256) grid.
func.func @gemm_blockscaled_fp8(%descA: !tileas.tma_desc<128x128xf8E4M3FN> {tileas.name = "A"},
                                %descB: !tileas.tma_desc<256x128xf8E4M3FN> {tileas.name = "B"},
                                %descSFA: !tileas.tma_desc<1x32x16xui8> {tileas.name = "SFA"},
                                %descSFB: !tileas.tma_desc<2x32x16xui8> {tileas.name = "SFB"},
                                %descC: !tileas.tma_desc<128x256xbf16> {tileas.name = "C"},
                                %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c256 : index
  %nb = arith.muli %by, %c2 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c128
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k]
        : !tileas.tma_desc<128x128xf8E4M3FN> -> !tileas.smem<128x128xf8E4M3FN>
    %b = tileas.tma_load %descB[%n, %k]
        : !tileas.tma_desc<256x128xf8E4M3FN> -> !tileas.smem<256x128xf8E4M3FN>
    %kr = arith.divsi %k, %c4 : index
    %sa = tileas.tma_load %descSFA[%bx, %kr, %c0]
        : !tileas.tma_desc<1x32x16xui8> -> !tileas.smem<1x32x16xui8>
    %sb = tileas.tma_load %descSFB[%nb, %kr, %c0]
        : !tileas.tma_desc<2x32x16xui8> -> !tileas.smem<2x32x16xui8>
    %sfa = tileas.tmem_copy %sa : !tileas.smem<1x32x16xui8> -> !tileas.tmem<128x4xui8>
    %sfb = tileas.tmem_copy %sb : !tileas.smem<2x32x16xui8> -> !tileas.tmem<128x8xui8>
    %d = tileas.umma %a, %b, %accIn scale(%sfa, %sfb) {accumulate}
        : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>,
          !tileas.tmem<128x256xf32>
          scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x8xui8>)
        -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %o : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descC[%m, %n]
      : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
