//===- layout/tile.cuh - how a tile lies in shared memory ------*- CUDA -*-===//
//
// One type per SMEM tile layout, shared by everything that touches the
// tile: the TMA that fills or drains it (its boxes, where each box lands,
// the swizzle of the tensor map), the UMMA that reads it (descriptor start,
// LBO, SBO and the advance per instruction) and the host that encodes the
// tensor map. The translator names the type; both sides derive from it, so
// they cannot disagree.
//
//  - DenseTile<T, D0, ..., Dn>: the box stored densely, the last dimension
//    contiguous, no swizzle, one TMA box. Tiles that threads read or write
//    (smem_load/smem_store, an epilogue's TMA store) and the scale-factor
//    atoms (layout/scale_factors.cuh).
//  - BlockedTile<T, W, D0, ..., Dn>: a dense tile whose last dimension is
//    wider than a box, cut into blocks of W, one TMA box each (a row of 1024
//    f32 that threads read: cuTile's softmax).
//  - MmaTile<T, R, C, S>: an R x C tile (C contiguous, as in global memory)
//    that UMMA reads, stored as C * sizeof(T) / span column blocks, each R
//    rows of `span` bytes, swizzled with S. One TMA box per column block (a
//    box's inner extent may not exceed the swizzle span), placed R * span
//    bytes apart: a 128 x 128 bf16 tile with 128B swizzle is two 128 x 64
//    boxes 16 KiB apart. With S = None the blocks are 16 bytes wide: the
//    canonical core-matrix ("interleaved") layout.
//
// The MMA reads an MmaTile K-major (KMajor: rows are M or N, columns K) or
// MN-major (MNMajor: rows are K, columns M or N; the tile is then exactly
// what a TMA box of a row-major K x N matrix holds, e.g. attention's V used
// as B without a transposed copy). Descriptor fields per PTX ISA canonical
// layouts (facts section 1):
//  - K-major, swizzled: SBO = 8 rows x span (the next 8-row group), LBO
//    unused (16). One instruction reads 32 bytes of K: the start advances
//    32 bytes within a span and then jumps to the next column block; base
//    offset stays 0, because the swizzle XOR uses absolute address bits, as
//    TMA does.
//  - K-major, None: core matrices 8 rows x 16 B contiguous, SBO = 128 (next
//    8 rows), LBO = a column block (next 16 bytes of K).
//  - MN-major, swizzled: LBO = a column block (next span of M/N), SBO = 8
//    rows x span (next 8 of K). None: LBO = 128 (next 8 of K), SBO = a
//    column block (next 8 of M/N). One instruction reads 32 / sizeof(T)
//    rows of K.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_TILE_CUH
#define TILEPIPE_LAYOUT_TILE_CUH

#include "tilepipe/layout/instr_desc.cuh"
#include "tilepipe/layout/smem_desc.cuh"
#include "tilepipe/layout/swizzle.cuh"

namespace tp {

/// A dense box of T, outermost dimension first (the IR's order).
template <class T, int... Dims> struct DenseTile {
  using Elem = T;
  static constexpr int kRank = int(sizeof...(Dims));
  static constexpr Swizzle kSwizzle = Swizzle::None;
  static constexpr int kBoxes = 1;
  static constexpr uint32_t kBytes = uint32_t((Dims * ... * 1) * sizeof(T));
  static constexpr uint32_t kBoxBytes = kBytes;
  static_assert(kRank >= 1 && kRank <= 5, "a TMA box has rank 1..5");
  static TP_CONSTEXPR int dim(int i) {
    constexpr int d[] = {Dims...};
    return d[i];
  }
  static_assert((dim(kRank - 1) * sizeof(T)) % 16 == 0,
                "a TMA box's inner extent is a multiple of 16 bytes");
  static_assert(((Dims <= 256) && ...), "a TMA box dimension is at most 256");
  /// Box b's extent in dimension i (outermost first).
  static TP_CONSTEXPR int box_dim(int i) { return dim(i); }
  /// Where box b lands, in bytes from the tile's start.
  static TP_CONSTEXPR uint32_t box_offset(int) { return 0; }
  /// Box b's offset along the innermost dimension, in elements.
  static TP_CONSTEXPR int box_inner(int) { return 0; }
};

/// A dense tile wider than a TMA box (at most 256 per dimension): Dims of
/// T, the last dimension cut into blocks of W, each block the rows it spans
/// stored densely (for a vector, the same bytes as a DenseTile). One TMA box
/// per block, W wide. Threads address element `flat` of the row-major tile
/// through offset().
template <class T, int W, int... Dims> struct BlockedTile {
  using Elem = T;
  static constexpr int kRank = int(sizeof...(Dims));
  static constexpr Swizzle kSwizzle = Swizzle::None;
  static TP_CONSTEXPR int dim(int i) {
    constexpr int d[] = {Dims...};
    return d[i];
  }
  static constexpr int kCols = dim(kRank - 1);
  static constexpr int kOuter = (Dims * ... * 1) / kCols;
  static constexpr int kBoxes = kCols / W;
  static constexpr uint32_t kBytes = uint32_t((Dims * ... * 1) * sizeof(T));
  static constexpr uint32_t kBoxBytes = uint32_t(kOuter * W * sizeof(T));
  static_assert(kRank >= 1 && kRank <= 5, "a TMA box has rank 1..5");
  static_assert(kCols % W == 0 && W <= 256, "whole blocks of at most 256");
  static_assert((W * sizeof(T)) % 16 == 0,
                "a TMA box's inner extent is a multiple of 16 bytes");
  static TP_CONSTEXPR int box_dim(int i) {
    return i == kRank - 1 ? W : dim(i);
  }
  static TP_CONSTEXPR uint32_t box_offset(int b) {
    return uint32_t(b) * kBoxBytes;
  }
  static TP_CONSTEXPR int box_inner(int b) { return b * W; }
  /// Byte offset of element `flat` of the row-major tile.
  static TP_CONSTEXPR uint32_t offset(int64_t flat) {
    int64_t outer = flat / kCols, c = flat % kCols;
    return uint32_t(((c / W) * kOuter * W + outer * W + c % W) *
                    int64_t(sizeof(T)));
  }
};

/// A UMMA operand tile: R x C of T, C contiguous; see the file comment.
template <class T, int R, int C, Swizzle S> struct MmaTile {
  using Elem = T;
  static constexpr int kRank = 2, kRows = R, kCols = C;
  static constexpr Swizzle kSwizzle = S;
  static constexpr int kSpan = layout::span(S);
  static constexpr int kBlockCols = kSpan / int(sizeof(T));
  static constexpr int kBoxes = C / kBlockCols;
  static constexpr uint32_t kBoxBytes = uint32_t(R * kSpan);
  static constexpr uint32_t kBytes = uint32_t(R * C * sizeof(T));
  /// Every column block starts on the swizzle pattern's repeat.
  static constexpr uint32_t kAlign = uint32_t(S == Swizzle::None ? 128
                                                                 : 8 * kSpan);
  static_assert((C * sizeof(T)) % kSpan == 0,
                "a row is a whole number of swizzle spans");
  static_assert(R % 8 == 0 && R <= 256, "rows: a multiple of 8, at most 256");
  static TP_CONSTEXPR int box_dim(int i) { return i == 0 ? R : kBlockCols; }
  static TP_CONSTEXPR uint32_t box_offset(int b) {
    return uint32_t(b) * kBoxBytes;
  }
  static TP_CONSTEXPR int box_inner(int b) { return b * kBlockCols; }
  /// Byte offset of element (r, c), swizzle applied.
  static TP_CONSTEXPR uint32_t offset(int r, int c) {
    return layout::apply(
        S, uint32_t(c / kBlockCols) * kBoxBytes + uint32_t(r * kSpan) +
               uint32_t((c % kBlockCols) * int(sizeof(T))));
  }
};

/// An MmaTile read K-major: rows are M (A) or N (B), columns K.
template <class Tile> struct KMajor {
  using Elem = typename Tile::Elem;
  static constexpr int kMN = Tile::kRows, kK = Tile::kCols;
  static constexpr bool kMNMajor = false;
  static constexpr Swizzle kS = Tile::kSwizzle;
  static constexpr uint32_t kLbo = kS == Swizzle::None ? Tile::kBoxBytes : 16;
  static constexpr uint32_t kSbo = kS == Swizzle::None ? 128 : 8 * Tile::kSpan;
  /// Bytes from row 0 to row 64 (a wgmma's band of A): eight 8-row groups.
  static constexpr uint32_t kBandBytes = 8 * kSbo;
  static_assert((kK * sizeof(Elem)) % 32 == 0,
                "K is a whole number of instructions (32 bytes each)");
  /// Bytes from the tile's start to instruction s's K slice.
  static TP_CONSTEXPR uint32_t step_offset(int s) {
    return uint32_t(s * 32 / Tile::kSpan) * Tile::kBoxBytes +
           uint32_t(s * 32 % Tile::kSpan);
  }
  /// The tile's descriptor advanced by the slice's 16-byte units: the same
  /// bits as the descriptor of tile + step_offset(s) (the start field holds
  /// any SMEM address, so the sum never carries out of it), and one add per
  /// instruction where the MMA loop would rebuild each descriptor.
  static TP_HOST_DEVICE uint64_t desc(uint32_t tile, int s) {
    return layout::smem_desc(tile, kLbo, kSbo, kS) + (step_offset(s) >> 4);
  }
};

/// An MmaTile read MN-major: rows are K, columns M (A) or N (B).
template <class Tile> struct MNMajor {
  using Elem = typename Tile::Elem;
  static constexpr int kMN = Tile::kCols, kK = Tile::kRows;
  static constexpr bool kMNMajor = true;
  static constexpr Swizzle kS = Tile::kSwizzle;
  static constexpr uint32_t kLbo = kS == Swizzle::None ? 128 : Tile::kBoxBytes;
  static constexpr uint32_t kSbo = kS == Swizzle::None ? Tile::kBoxBytes
                                                       : 8 * Tile::kSpan;
  static constexpr int kRowsPerStep = 32 / int(sizeof(Elem));
  /// Bytes from column 0 to column 64 (a wgmma's band of A): whole column
  /// blocks of one swizzle span each.
  static constexpr uint32_t kBandBytes =
      uint32_t(64 / Tile::kBlockCols) * Tile::kBoxBytes;
  static_assert(sizeof(Elem) <= 2,
                "MN-major operands: 8- and 16-bit types (tf32 would need the "
                "128B-with-32B-atom swizzle)");
  static_assert(kK % kRowsPerStep == 0,
                "K is a whole number of instructions (32 bytes each)");
  static TP_CONSTEXPR uint32_t step_offset(int s) {
    return uint32_t(s * kRowsPerStep * Tile::kSpan);
  }
  static TP_HOST_DEVICE uint64_t desc(uint32_t tile, int s) {
    return layout::smem_desc(tile, kLbo, kSbo, kS) + (step_offset(s) >> 4);
  }
};

} // namespace tp

#endif // TILEPIPE_LAYOUT_TILE_CUH
