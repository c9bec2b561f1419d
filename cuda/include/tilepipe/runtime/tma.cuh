//===- runtime/tma.cuh - tile loads and stores through TMA ------*- CUDA -*-===//
//
// A tile moves as its layout's boxes (layout/tile.cuh): one TMA per box,
// each at the tile's coordinates plus the box's offset along the innermost
// dimension, landing at the box's offset in SMEM. All boxes of a load
// complete on the slot's full barrier, whose expect-tx the translator sets
// to the layout's kBytes (the boxes' sum). Coordinates come outermost first,
// as the IR writes them; TMA wants them innermost first. Issued by one
// thread. Harness mode: one 16-byte stamp copy per load instead.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_TMA_CUH
#define TILEPIPE_RUNTIME_TMA_CUH

#include "tilepipe/harness.cuh"
#include "tilepipe/layout/tile.cuh"
#include "tilepipe/ptx/bulk_copy.cuh"
#include "tilepipe/runtime/base.cuh"

namespace tp {

namespace detail {

/// The coordinates of box b of layout L, innermost first as the TMA takes
/// them, from the tile's origin given outermost first as the IR writes it.
/// Coordinates beyond the layout's rank are outer dimensions the box spans
/// one element of (a batch of one).
template <class L, int Rank>
TP_DEVICE void box_coords(const int64_t (&outerFirst)[Rank], int b,
                          int32_t (&c)[Rank]) {
  static_assert(L::kRank <= Rank,
                "one coordinate per dimension of the tile layout");
#pragma unroll
  for (int i = 0; i < Rank; ++i)
    c[i] = static_cast<int32_t>(outerFirst[Rank - 1 - i]);
  c[0] += L::box_inner(b);
}

template <class L, int Rank>
TP_DEVICE void tma_load_boxes(uint32_t dst, const TmaDesc *desc,
                              const int64_t (&outerFirst)[Rank],
                              uint32_t bar) {
#pragma unroll
  for (int b = 0; b < L::kBoxes; ++b) {
    int32_t c[Rank];
    box_coords<L>(outerFirst, b, c);
    ptx::tma_load<Rank>(dst + L::box_offset(b), desc, c, bar);
  }
}

template <class L, int Rank>
TP_DEVICE void tma_load_tile(uint32_t dst, const TmaDesc &desc,
                             uint64_t *bars, int64_t depth, int64_t k,
                             int64_t pipeId,
                             const int64_t (&outerFirst)[Rank]) {
  uint32_t bar = smem_addr(&bars[slot_of(k, depth)]);
  if constexpr (harness::kStandIns)
    harness::stamp_copy(dst, bar, static_cast<int>(pipeId), k);
  else
    tma_load_boxes<L>(dst, &desc, outerFirst, bar);
}

template <class L, int Rank>
TP_DEVICE void tma_store_tile(const TmaDesc &desc, uint32_t src,
                              const int64_t (&outerFirst)[Rank]) {
  if constexpr (harness::kStandIns)
    return; // the harness checks the protocol, not the output
  else {
#pragma unroll
    for (int b = 0; b < L::kBoxes; ++b) {
      int32_t c[Rank];
      box_coords<L>(outerFirst, b, c);
      ptx::tma_store<Rank>(&desc, c, src + L::box_offset(b));
    }
    // Waiting for the reads right away keeps the contract simple: the source
    // may be reused as soon as this returns.
    ptx::bulk_commit_group();
    ptx::bulk_wait_group_read<0>();
  }
}

} // namespace detail

/// Loads tile L at (c0, ...) into the slot at `dst`, completing on the
/// slot's full barrier bars[slot_of(k, depth)].
template <class L>
TP_DEVICE void tma_load(uint32_t dst, const TmaDesc &desc, uint64_t *bars,
                        int64_t depth, int64_t k, int64_t pipeId,
                        int64_t c0 TP_LOC) {
  TP_AT();
  detail::tma_load_tile<L, 1>(dst, desc, bars, depth, k, pipeId, {c0});
}
template <class L>
TP_DEVICE void tma_load(uint32_t dst, const TmaDesc &desc, uint64_t *bars,
                        int64_t depth, int64_t k, int64_t pipeId, int64_t c0,
                        int64_t c1 TP_LOC) {
  TP_AT();
  detail::tma_load_tile<L, 2>(dst, desc, bars, depth, k, pipeId, {c0, c1});
}
template <class L>
TP_DEVICE void tma_load(uint32_t dst, const TmaDesc &desc, uint64_t *bars,
                        int64_t depth, int64_t k, int64_t pipeId, int64_t c0,
                        int64_t c1, int64_t c2 TP_LOC) {
  TP_AT();
  detail::tma_load_tile<L, 3>(dst, desc, bars, depth, k, pipeId,
                              {c0, c1, c2});
}
/// Ranks 4 and 5: a tile of a (batch, head, row, column) tensor and the
/// like, its outer dimensions spanned by boxes of 1.
template <class L>
TP_DEVICE void tma_load(uint32_t dst, const TmaDesc &desc, uint64_t *bars,
                        int64_t depth, int64_t k, int64_t pipeId, int64_t c0,
                        int64_t c1, int64_t c2, int64_t c3 TP_LOC) {
  TP_AT();
  detail::tma_load_tile<L, 4>(dst, desc, bars, depth, k, pipeId,
                              {c0, c1, c2, c3});
}
template <class L>
TP_DEVICE void tma_load(uint32_t dst, const TmaDesc &desc, uint64_t *bars,
                        int64_t depth, int64_t k, int64_t pipeId, int64_t c0,
                        int64_t c1, int64_t c2, int64_t c3, int64_t c4 TP_LOC) {
  TP_AT();
  detail::tma_load_tile<L, 5>(dst, desc, bars, depth, k, pipeId,
                              {c0, c1, c2, c3, c4});
}

/// Stores tile L from `src` at (c0, ...) and waits until `src` was read.
template <class L>
TP_DEVICE void tma_store(const TmaDesc &desc, uint32_t src, int64_t c0 TP_LOC) {
  TP_AT();
  detail::tma_store_tile<L, 1>(desc, src, {c0});
}
template <class L>
TP_DEVICE void tma_store(const TmaDesc &desc, uint32_t src, int64_t c0,
                         int64_t c1 TP_LOC) {
  TP_AT();
  detail::tma_store_tile<L, 2>(desc, src, {c0, c1});
}
template <class L>
TP_DEVICE void tma_store(const TmaDesc &desc, uint32_t src, int64_t c0,
                         int64_t c1, int64_t c2 TP_LOC) {
  TP_AT();
  detail::tma_store_tile<L, 3>(desc, src, {c0, c1, c2});
}
template <class L>
TP_DEVICE void tma_store(const TmaDesc &desc, uint32_t src, int64_t c0,
                         int64_t c1, int64_t c2, int64_t c3 TP_LOC) {
  TP_AT();
  detail::tma_store_tile<L, 4>(desc, src, {c0, c1, c2, c3});
}
template <class L>
TP_DEVICE void tma_store(const TmaDesc &desc, uint32_t src, int64_t c0,
                         int64_t c1, int64_t c2, int64_t c3,
                         int64_t c4 TP_LOC) {
  TP_AT();
  detail::tma_store_tile<L, 5>(desc, src, {c0, c1, c2, c3, c4});
}

} // namespace tp

#endif // TILEPIPE_RUNTIME_TMA_CUH
