//===- layout/scale_factors.cuh - UE8M0 block-scale factors ----*- CUDA -*-===//
//
// Where the scale factors of kind::mxf8f6f4.block_scale live. PTX's figures
// of the layout are unreadable in the sources we have, so this follows the
// layout CUTLASS documents and uses (facts section 3; Triton's and cuDNN's
// 128x4 layouts agree):
//  - the atom: the factors of 128 rows (of M or N) x 4 k-blocks (of 32
//    elements) are 512 bytes, row r, k-block j at byte (r % 32) * 16 +
//    (r / 32) * 4 + j: 32 lines of 16 bytes;
//  - global memory: the atoms in row-block-major order, k fastest, i.e. a
//    [rows / 128][K / 128 * 32][16] byte tensor; one TMA box of
//    [A][32 J][16] brings A row blocks x J k-groups into SMEM as the atoms
//    (a, j) at (a * J + j) * 512 (a DenseTile, 16-byte inner extent);
//  - TMEM: tcgen05.cp.32x128b.warpx4 copies an atom's 32 lines to lanes 0-31
//    and replicates them to the other three lane quarters ("duplicated to
//    all 32-lane partitions"); line bytes fill 4 columns. Factor (r, j) of
//    k-group g is then at column g * 4A + r / 32, byte j, for every lane
//    32w + r % 32: 4A columns per k-group of 4 k-blocks.
//  - the MMA for k-block s reads column group s / 4 (the tsfa/tsfb address)
//    and byte s % 4 (the SF id of the instruction descriptor).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_SCALE_FACTORS_CUH
#define TILEPIPE_LAYOUT_SCALE_FACTORS_CUH

#include "tilepipe/layout/smem_desc.cuh"

namespace tp {

/// The factors of A x 128 rows and J x 4 k-blocks.
template <int A, int J> struct ScaleFactors {
  static constexpr int kRows = 128 * A, kBlocks = 4 * J;
  static constexpr uint32_t kAtomBytes = 512, kBytes = 512u * A * J;
  /// TMEM columns: 4 per (row block, k-group).
  static constexpr int kColumns = 4 * A * J;
  static TP_CONSTEXPR uint32_t smem_atom(int a, int j) {
    return uint32_t(a * J + j) * kAtomBytes;
  }
  static TP_CONSTEXPR uint32_t tmem_column(int a, int j) {
    return uint32_t(j * 4 * A + a * 4);
  }
  /// The cp source: 32 lines of 16 bytes as K-major core matrices (8 lines
  /// of 16 bytes each, SBO = 128 apart); one core matrix of K, LBO unused.
  static TP_HOST_DEVICE uint64_t cp_desc(uint32_t atom) {
    return layout::smem_desc(atom, 16, 128, Swizzle::None);
  }
  /// Columns from the factors' first to k-block s's group.
  static TP_CONSTEXPR uint32_t mma_column(int s) {
    return uint32_t(s / 4 * 4 * A);
  }
  /// The byte (SF id) of k-block s.
  static TP_CONSTEXPR uint32_t mma_id(int s) { return uint32_t(s % 4); }
};

} // namespace tp

#endif // TILEPIPE_LAYOUT_SCALE_FACTORS_CUH
