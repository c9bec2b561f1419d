// cuTile's 128x256x64 bf16 GEMM (test/cutile/kernels/matmul.py) written by
// hand in tile IR, for the side-by-side loops (docs/cuda-tile.md, "Loop
// length against tileiras"): C[M, N] = A[M, K] . B[K, N] with B
// N-contiguous, as cuTile passes it, so B's TMA box is 64x256 at [k, n] and
// the UMMA reads it MN-major (`b_mn_major`). K is an i32, as cuTile passes
// shapes. examples/gemm_mainloop.mlir is the same tile with B K-major.
//
//   python3 scripts/cuda-check.py --build build bench/cutile/matmul-kn.mlir
//   python3 bench/cutile/compare.py --only matmul --tilepipe-cu matmul=X.cu
func.func @matmul_kn(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                     %descB: !tileas.tma_desc<64x256xbf16> {tileas.name = "B"},
                     %descC: !tileas.tma_desc<128x256xbf16> {tileas.name = "C"},
                     %K: i32 {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c256 : index
  %kEnd = arith.index_cast %K : i32 to index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %kEnd step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k]
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%k, %n]
        : !tileas.tma_desc<64x256xbf16> -> !tileas.smem<64x256xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate, b_mn_major}
        : !tileas.smem<128x64xbf16>, !tileas.smem<64x256xbf16>,
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
