//===- runtime/tmem.cuh - TMEM allocation and register tiles ----*- CUDA -*-===//
//
// tcgen05.ld/st move one row per thread (.32x32b: lane = row, column =
// 32-bit word) in chunks of at most 32 words per instruction, so that one
// instruction's registers fit beside everything else live (a 128-thread
// agent of a 512-thread kernel has 128 registers). Wide rows are streamed
// in column pieces (tmem_load_cols / tmem_store_cols) rather than held.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_TMEM_CUH
#define TILEPIPE_RUNTIME_TMEM_CUH

#include "tilepipe/arch/sm100/tcgen05_fences.cuh"
#include "tilepipe/arch/sm100/tcgen05_ld_st_cp.cuh"
#include "tilepipe/arch/sm100/tmem_alloc.cuh"
#include "tilepipe/harness.cuh"
#include "tilepipe/ptx/fences.cuh"
#include "tilepipe/runtime/base.cuh"
#include "tilepipe/runtime/frag.cuh"

namespace tp {

/// One warp allocates `cols` columns (the TMEM address lands in SMEM at
/// dstInSmem) and gives up the permit, as a 1-CTA kernel allocates once.
/// Harness mode: no TMEM; the address is 0.
TP_DEVICE void tmem_alloc(uint32_t *dstInSmem, uint32_t cols TP_LOC) {
  TP_AT();
  if constexpr (harness::kStandIns) {
    *dstInSmem = 0;
  } else {
    ptx::tcgen05_alloc(smem_addr(dstInSmem), cols);
    ptx::tcgen05_relinquish_alloc_permit();
  }
}

TP_DEVICE void tmem_dealloc(uint32_t base, uint32_t cols TP_LOC) {
  TP_AT();
  ptx::tcgen05_dealloc(base, cols);
}

namespace detail {

/// The largest .xN that fits in Rem words, at most x32.
template <int Rem> TP_CONSTEXPR int chunk() {
  int c = 32;
  while (c > Rem)
    c /= 2;
  return c;
}

template <int Off, int Rem>
TP_DEVICE void tmem_ld_words(uint32_t taddr, uint32_t *w) {
  if constexpr (Rem > 0) {
    ptx::tcgen05_ld_32x32b<chunk<Rem>()>(taddr + Off, w + Off);
    tmem_ld_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(taddr, w);
  }
}
template <int Off, int Rem>
TP_DEVICE void tmem_st_words(uint32_t taddr, const uint32_t *w) {
  if constexpr (Rem > 0) {
    ptx::tcgen05_st_32x32b<chunk<Rem>()>(taddr + Off, w + Off);
    tmem_st_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(taddr, w);
  }
}
template <int Off, int Rem> TP_DEVICE void tmem_pin_words(uint32_t *w) {
  if constexpr (Rem > 0) {
    ptx::tcgen05_pin<chunk<Rem>()>(w + Off);
    tmem_pin_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(w);
  }
}

/// A warpgroup-aligned agent: warp w accesses TMEM lanes 32 * (w % 4) and
/// up; the lane goes into bits 31:16 of the TMEM address.
TP_DEVICE uint32_t tmem_lane_base(int threadInAgent) {
  return static_cast<uint32_t>((threadInAgent >> 5) & 3) << (16 + 5);
}

template <class T, int N> TP_CONSTEXPR int words() {
  static_assert((N * sizeof(T)) % 4 == 0, "TMEM rows are whole 32-bit columns");
  return static_cast<int>(N * sizeof(T) / 4);
}

} // namespace detail

/// How a register tile lies in TMEM (docs/cuda.md, "TMEM layouts"; PTX
/// ISA, "Data path layout organization"):
///  - Data: as tcgen05.st leaves it and an MMA reads its A operand: lane =
///    row, the row's bytes filling 32-bit columns in order (16-bit values
///    two per column).
///  - Acc: an M = 128 MMA accumulator: lane = row, one element per 32-bit
///    column whatever its width (a 16-bit one in the low half), read and
///    written with .pack::16b / .unpack::16b.
///  - Acc64: an M = 64 accumulator: row r at lane 32 * (r / 16) + r % 16,
///    one element per column, read and written with .16x32bx2 at half
///    offset 0, so that threads t and t + 16 of warp w both hold row
///    16 * w + t % 16 (row64 below).
enum class TmemLayout { Data, Acc, Acc64 };

/// The row of a 64-row register tile that thread t of a 128-thread agent
/// holds (Acc64): lanes 0-15 of each warp's TMEM quadrant, twice per warp.
TP_DEVICE int row64(int threadInAgent) {
  return 16 * ((threadInAgent >> 5) & 3) + (threadInAgent & 15);
}

/// A 64-row vector reduced over the agent's threads, each row counted
/// once: the second of the two threads holding a row (t & 16, row64) gives
/// the identity, 0 for a sum, -inf for a maximum (`Max`).
template <bool Max, class T, int N>
TP_DEVICE Frag<T, N> row64_once(Frag<T, N> f, int threadInAgent) {
  if (threadInAgent & 16)
#pragma unroll
    for (int i = 0; i < N; ++i)
      f.v[i] = Max ? T(-__builtin_huge_valf()) : T(0.0f);
  return f;
}

namespace detail {

/// TMEM columns of the first `elems` elements of a row in layout L.
template <TmemLayout L, class T> TP_CONSTEXPR int tmem_cols(int elems) {
  return L == TmemLayout::Data ? elems * int(sizeof(T)) / 4 : elems;
}

template <int Off, int Rem>
TP_DEVICE void tmem_ld_pack16_words(uint32_t taddr, uint32_t *w) {
  if constexpr (Rem > 0) {
    ptx::tcgen05_ld_32x32b_pack16<chunk<Rem>()>(taddr + 2 * Off, w + Off);
    tmem_ld_pack16_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(taddr, w);
  }
}
template <int Off, int Rem>
TP_DEVICE void tmem_st_unpack16_words(uint32_t taddr, const uint32_t *w) {
  if constexpr (Rem > 0) {
    ptx::tcgen05_st_32x32b_unpack16<chunk<Rem>()>(taddr + 2 * Off, w + Off);
    tmem_st_unpack16_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(taddr, w);
  }
}
template <int Off, int Rem>
TP_DEVICE void tmem_ld_16x32bx2_words(uint32_t taddr, uint32_t *w) {
  if constexpr (Rem > 0) {
    ptx::tcgen05_ld_16x32bx2<chunk<Rem>(), 0>(taddr + Off, w + Off);
    tmem_ld_16x32bx2_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(taddr, w);
  }
}
template <int Off, int Rem>
TP_DEVICE void tmem_st_16x32bx2_words(uint32_t taddr, const uint32_t *w) {
  if constexpr (Rem > 0) {
    ptx::tcgen05_st_16x32bx2<chunk<Rem>(), 0>(taddr + Off, w + Off);
    tmem_st_16x32bx2_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(taddr, w);
  }
}

/// The thread's N elements from TMEM in layout L, as the register bytes
/// of a Frag<T, N> (not yet waited for).
template <TmemLayout L, class T, int N>
TP_DEVICE void tmem_read(uint32_t taddr, uint32_t *w) {
  constexpr int W = words<T, N>();
  if constexpr (L == TmemLayout::Data || sizeof(T) == 4) {
    if constexpr (L == TmemLayout::Acc64)
      tmem_ld_16x32bx2_words<0, W>(taddr, w);
    else
      tmem_ld_words<0, W>(taddr, w);
  } else if constexpr (L == TmemLayout::Acc) {
    tmem_ld_pack16_words<0, W>(taddr, w);
  } else {
    // A 16-bit M = 64 accumulator: one element per column, packed here.
    uint32_t cols[N];
    tmem_ld_16x32bx2_words<0, N>(taddr, cols);
    ptx::tcgen05_wait_ld(); // the packing reads them here
    tmem_pin_words<0, N>(cols);
    for (int i = 0; i < W; ++i)
      w[i] = (cols[2 * i] & 0xFFFFu) | (cols[2 * i + 1] << 16);
  }
}

template <TmemLayout L, class T, int N>
TP_DEVICE void tmem_write(uint32_t taddr, const uint32_t *w) {
  constexpr int W = words<T, N>();
  if constexpr (L == TmemLayout::Data || sizeof(T) == 4) {
    if constexpr (L == TmemLayout::Acc64)
      tmem_st_16x32bx2_words<0, W>(taddr, w);
    else
      tmem_st_words<0, W>(taddr, w);
  } else if constexpr (L == TmemLayout::Acc) {
    tmem_st_unpack16_words<0, W>(taddr, w);
  } else {
    uint32_t cols[N];
    for (int i = 0; i < W; ++i)
      cols[2 * i] = w[i] & 0xFFFFu, cols[2 * i + 1] = w[i] >> 16;
    tmem_st_16x32bx2_words<0, N>(taddr, cols);
  }
}

} // namespace detail

/// Each thread reads its row (RPT = 1) of C elements from layout L.
/// Includes tcgen05.wait::ld, so the result is usable. Harness mode: zeros
/// (TMEM contents are not modelled).
template <int C, class T, int N, TmemLayout L = TmemLayout::Data>
TP_DEVICE Frag<T, N> tmem_load(uint32_t taddr, int threadInAgent TP_LOC) {
  static_assert(N == C,
                "tmem_load: one row per thread (RPT > 1 not supported yet)");
  constexpr int W = detail::words<T, N>();
  Frag<T, N> f;
  if constexpr (harness::kStandIns) {
    __builtin_memset(&f, 0, sizeof(f));
  } else {
    TP_AT();
    uint32_t w[W];
    detail::tmem_read<L, T, N>(taddr + detail::tmem_lane_base(threadInAgent),
                               w);
    ptx::tcgen05_wait_ld();
    detail::tmem_pin_words<0, W>(w);
    __builtin_memcpy(&f, w, sizeof(f));
  }
  return f;
}

/// Writes the thread's row in layout L; the caller orders it with
/// tcgen05_wait_st().
template <int C, class T, int N, TmemLayout L = TmemLayout::Data>
TP_DEVICE void tmem_store(uint32_t taddr, const Frag<T, N> &f,
                          int threadInAgent TP_LOC) {
  static_assert(N == C,
                "tmem_store: one row per thread (RPT > 1 not supported yet)");
  constexpr int W = detail::words<T, N>();
  if constexpr (!harness::kStandIns) {
    TP_AT();
    uint32_t w[W];
    __builtin_memcpy(w, &f, sizeof(f));
    detail::tmem_write<L, T, N>(taddr + detail::tmem_lane_base(threadInAgent),
                                w);
  }
}

/// Columns [c, c + W) of the thread's row: one piece of a streamed tile
/// (docs/cuda.md, "Register tiles in pieces"). Includes tcgen05.wait::ld.
template <int W, class T, TmemLayout L = TmemLayout::Data>
TP_DEVICE Frag<T, W> tmem_load_cols(uint32_t taddr, int64_t c,
                                    int threadInAgent TP_LOC) {
  return tmem_load<W, T, W, L>(
      taddr + static_cast<uint32_t>(detail::tmem_cols<L, T>(int(c))),
      threadInAgent TP_LOC_FWD);
}

/// Writes columns [c, c + W) of the thread's row; the caller orders it with
/// tcgen05_wait_st().
template <int W, class T, TmemLayout L = TmemLayout::Data>
TP_DEVICE void tmem_store_cols(uint32_t taddr, int64_t c, const Frag<T, W> &f,
                               int threadInAgent TP_LOC) {
  tmem_store<W, T, W, L>(
      taddr + static_cast<uint32_t>(detail::tmem_cols<L, T>(int(c))), f,
      threadInAgent TP_LOC_FWD);
}

} // namespace tp

#endif // TILEPIPE_RUNTIME_TMEM_CUH
