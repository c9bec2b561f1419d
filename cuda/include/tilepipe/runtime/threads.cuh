//===- runtime/threads.cuh - tiles the agent's threads move -----*- CUDA -*-===//
//
// Register tiles to and from SMEM (row-major DenseTiles), from global
// memory, and cp.async copies into a slot. Thread t of an agent owns rows
// t * RPT .. t * RPT + RPT - 1: one contiguous run of N elements.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_THREADS_CUH
#define TILEPIPE_RUNTIME_THREADS_CUH

#include "tilepipe/harness.cuh"
#include "tilepipe/layout/tile.cuh"
#include "tilepipe/ptx/cpasync.cuh"
#include "tilepipe/ptx/smem.cuh"
#include "tilepipe/runtime/base.cuh"
#include "tilepipe/runtime/frag.cuh"

namespace tp {

namespace detail {
/// Widest vector access (16, 8, 4, 2 or 1 bytes) that divides a thread's
/// contiguous run of Bytes; the tile base is assumed 16-byte aligned.
template <int Bytes> TP_CONSTEXPR int vec_bytes() {
  return Bytes % 16 == 0  ? 16
         : Bytes % 8 == 0 ? 8
         : Bytes % 4 == 0 ? 4
         : Bytes % 2 == 0 ? 2
                          : 1;
}
} // namespace detail

template <int C, class T, int N>
TP_DEVICE Frag<T, N> smem_load(uint32_t saddr, int threadInAgent) {
  static_assert(N % C == 0, "a thread holds whole rows");
  constexpr int kBytes = static_cast<int>(N * sizeof(T));
  constexpr int V = detail::vec_bytes<kBytes>();
  Frag<T, N> f;
  unsigned char *p = reinterpret_cast<unsigned char *>(&f);
  uint32_t base = saddr + static_cast<uint32_t>(threadInAgent) * kBytes;
#pragma unroll
  for (int i = 0; i < kBytes; i += V)
    ptx::ld_shared<V>(base + i, p + i);
  return f;
}

template <int C, class T, int N>
TP_DEVICE void smem_store(uint32_t saddr, const Frag<T, N> &f,
                          int threadInAgent) {
  static_assert(N % C == 0, "a thread holds whole rows");
  constexpr int kBytes = static_cast<int>(N * sizeof(T));
  constexpr int V = detail::vec_bytes<kBytes>();
  const unsigned char *p = reinterpret_cast<const unsigned char *>(&f);
  uint32_t base = saddr + static_cast<uint32_t>(threadInAgent) * kBytes;
#pragma unroll
  for (int i = 0; i < kBytes; i += V)
    ptx::st_shared<V>(base + i, p + i);
}

/// A per-row vector of a tile whose rows are split over L lanes (thread t
/// holds row t / L's value, as its L - 1 neighbours do): the first of the L
/// writes it (SplitRows: a row's mean stored by a 16-row norm).
template <int L, class T>
TP_DEVICE void smem_store_row_lanes(uint32_t saddr, const Frag<T, 1> &f,
                                    int threadInAgent) {
  if (threadInAgent % L == 0)
    ptx::st_shared<static_cast<int>(sizeof(T))>(
        saddr + static_cast<uint32_t>(threadInAgent / L * sizeof(T)),
        reinterpret_cast<const unsigned char *>(&f));
}

/// The thread's N elements of the transpose of an R x C row-major SMEM
/// tile (smem_load transposed): elements threadInAgent * N .. of the C x R
/// transpose in its row-major order, as smem_load hands out the rows of a
/// tile read as it is (whole rows, or a row's piece with lanes). Transposed
/// element (r, c) is source element (c, r). Holding whole rows, the warp's
/// threads read neighbouring elements of one source row at each i: no bank
/// conflict.
template <int R, int C, class T, int N>
TP_DEVICE Frag<T, N> smem_load_transposed(uint32_t saddr, int threadInAgent) {
  Frag<T, N> f;
  unsigned char *p = reinterpret_cast<unsigned char *>(&f);
  const int64_t flat0 = static_cast<int64_t>(threadInAgent) * N;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    const int64_t r = (flat0 + i) / R, c = (flat0 + i) % R;
    ptx::ld_shared<int(sizeof(T))>(
        saddr + static_cast<uint32_t>((c * C + r) * int64_t(sizeof(T))),
        p + i * sizeof(T));
  }
  return f;
}

/// The first thread of the agent writes one element of a global array
/// (tileas.global_store): a value each thread holds alike, which a CTA
/// computes once; `inside` is false past the tensor's edge.
/// The element at `offset` when it lies inside the tensor, else zero: a
/// scalar every thread reads (tileas.global_load).
template <class T>
TP_DEVICE T global_load_one(const T *p, int64_t offset, bool inside) {
  return inside ? p[offset] : T(0);
}

template <class T>
TP_DEVICE void global_store_one(T *p, int64_t offset, T value, bool inside,
                                int threadInAgent) {
  if (inside && threadInAgent == 0)
    p[offset] = value;
}

/// One dimension of an element access (tileas.global_gather and
/// global_scatter): the index of each element a thread holds, the stride
/// in elements and the bound.
template <int N> struct ElementIndex {
  Frag<int32_t, N> index;
  int64_t stride, bound;
};

template <int N>
TP_DEVICE ElementIndex<N> element_index(const Frag<int32_t, N> &index,
                                        int64_t stride, int64_t bound) {
  return {index, stride, bound};
}

namespace detail {
TP_DEVICE bool mask_at(bool m, int) { return m; }
template <int N> TP_DEVICE bool mask_at(const Frag<bool, N> &m, int i) {
  return m.v[i];
}

/// Element i's offset from the base, and whether every index lies in
/// [0, bound) and the mask holds.
template <int N, class M, class... D>
TP_DEVICE bool element_at(int i, const M &mask, int64_t &offset,
                          const D &...dims) {
  bool inside = mask_at(mask, i);
  offset = 0;
  ((inside =
        inside && dims.index.v[i] >= 0 && int64_t(dims.index.v[i]) < dims.bound,
    offset += int64_t(dims.index.v[i]) * dims.stride),
   ...);
  return inside;
}
} // namespace detail

/// Each element a thread holds, read from global memory where it lies
/// inside the array and the mask holds, else the padding.
template <class F, class E, int N, class M, class... D>
TP_DEVICE Frag<F, N> global_gather(const E *p, F padding, const M &mask,
                                   const D &...dims) {
  Frag<F, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    int64_t offset;
    r.v[i] = detail::element_at<N>(i, mask, offset, dims...)
                 ? detail::convert<F>(p[offset])
                 : padding;
  }
  return r;
}

/// global_gather where every element's indices and mask are the same
/// (the translation proves it, sameInThread): the first element read once
/// and held N times.
template <class F, class E, int N, class M, class... D>
TP_DEVICE Frag<F, N> global_gather_once(const E *p, F padding, const M &mask,
                                        const D &...dims) {
  int64_t offset;
  F v = detail::element_at<N>(0, mask, offset, dims...)
            ? detail::convert<F>(p[offset])
            : padding;
  Frag<F, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i)
    r.v[i] = v;
  return r;
}

/// How tileas.global_scatter joins an element with what the array holds:
/// a plain store, or (its `combine`) one atomic per element
/// (atom.global.*, device scope).
enum class Combine { Store, Add, Max, Min, Xchg, And, Or, Xor };

namespace detail {
template <Combine C, class T> TP_DEVICE void combine_one(T *p, T v) {
  if constexpr (C == Combine::Store)
    *p = v;
  else if constexpr (C == Combine::Add)
    atomicAdd(p, v);
  else if constexpr (C == Combine::Max)
    atomicMax(p, v);
  else if constexpr (C == Combine::Min)
    atomicMin(p, v);
  else if constexpr (C == Combine::Xchg)
    atomicExch(p, v);
  else if constexpr (C == Combine::And)
    atomicAnd(p, v);
  else if constexpr (C == Combine::Or)
    atomicOr(p, v);
  else
    atomicXor(p, v);
}
} // namespace detail

/// One thread of the agent combines the element atomically, when it lies
/// inside the tensor (tileas.global_store with `combine`: a value every
/// thread holds alike, a CTA's share of a sum over the grid).
template <Combine C, class T>
TP_DEVICE void global_combine_one(T *p, int64_t offset, T value, bool inside,
                                  int threadInAgent) {
  if (inside && threadInAgent == 0)
    detail::combine_one<C>(p + offset, value);
}

/// Each element a thread holds combined atomically with the array's, where
/// it lies inside the array and the mask holds (ct.atomic_add, ...).
template <Combine C, class E, class F, int N, class M, class... D>
TP_DEVICE void global_combine(E *p, const Frag<F, N> &value, const M &mask,
                              const D &...dims) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    int64_t offset;
    if (detail::element_at<N>(i, mask, offset, dims...))
      detail::combine_one<C>(p + offset, detail::convert<E>(value.v[i]));
  }
}

/// As global_combine, for a 64-row tile over 128 threads: threads t and
/// t + 16 of a warp hold the same row (tp::row64), so the first adds it.
template <Combine C, class E, class F, int N, class M, class... D>
TP_DEVICE void global_combine_row64(E *p, const Frag<F, N> &value,
                                    const M &mask, int threadInAgent,
                                    const D &...dims) {
  if (threadInAgent & 16)
    return;
  global_combine<C>(p, value, mask, dims...);
}

/// Each element a thread holds, written to global memory where it lies
/// inside the array and the mask holds.
template <class E, class F, int N, class M, class... D>
TP_DEVICE void global_scatter(E *p, const Frag<F, N> &value, const M &mask,
                              const D &...dims) {
  global_combine<Combine::Store>(p, value, mask, dims...);
}

/// Elements flat0 .. flat0 + N - 1 of a BlockedTile (layout/tile.cuh) as
/// the row-major tile numbers them, to or from registers: runs of Run
/// elements, which never cross a block because flat0 is a multiple of N
/// and Run divides both N and the block width.
namespace detail {
template <int A, int B> TP_CONSTEXPR int gcd() {
  if constexpr (B == 0)
    return A;
  else
    return gcd<B, A % B>();
}
template <class Tile, int N> TP_CONSTEXPR int blocked_run() {
  return gcd<N, Tile::kCols / Tile::kBoxes>();
}
} // namespace detail

template <class Tile, int N, class T>
TP_DEVICE Frag<T, N> smem_load_blocked(uint32_t saddr, int64_t flat0) {
  constexpr int kRun = detail::blocked_run<Tile, N>();
  constexpr int V = detail::vec_bytes<kRun * int(sizeof(T))>();
  Frag<T, N> f;
  unsigned char *p = reinterpret_cast<unsigned char *>(&f);
#pragma unroll
  for (int i = 0; i < N; i += kRun) {
    uint32_t base = saddr + Tile::offset(flat0 + i);
#pragma unroll
    for (int j = 0; j < kRun * int(sizeof(T)); j += V)
      ptx::ld_shared<V>(base + j, p + i * sizeof(T) + j);
  }
  return f;
}

template <class Tile, int N, class T>
TP_DEVICE void smem_store_blocked(uint32_t saddr, int64_t flat0,
                                  const Frag<T, N> &f) {
  constexpr int kRun = detail::blocked_run<Tile, N>();
  constexpr int V = detail::vec_bytes<kRun * int(sizeof(T))>();
  const unsigned char *p = reinterpret_cast<const unsigned char *>(&f);
#pragma unroll
  for (int i = 0; i < N; i += kRun) {
    uint32_t base = saddr + Tile::offset(flat0 + i);
#pragma unroll
    for (int j = 0; j < kRun * int(sizeof(T)); j += V)
      ptx::st_shared<V>(base + j, p + i * sizeof(T) + j);
  }
}

/// The thread's elements of a BlockedTile read as `Stride` columns a row
/// (the whole row: Stride = N, c = 0; a streamed piece: c its column).
template <class Tile, int Stride, int N, class T>
TP_DEVICE Frag<T, N> smem_load_tile(uint32_t saddr, int64_t c, int row) {
  return smem_load_blocked<Tile, N, T>(
      saddr, static_cast<int64_t>(row) * Stride + c);
}
template <class Tile, int Stride, int N, class T>
TP_DEVICE void smem_store_tile(uint32_t saddr, int64_t c, const Frag<T, N> &f,
                               int row) {
  smem_store_blocked<Tile, N, T>(saddr, static_cast<int64_t>(row) * Stride + c,
                                 f);
}

/// A tile read with a padding (smem_load valid(..) padding = V): element i
/// of the fragment is element row * Stride + c + i of the row-major source
/// tile of Cs columns (the same bytes the load read), and one at or past
/// validRows x validCols (the tensor's extents beyond the tile's origin,
/// where TMA wrote zero) reads as `pad`. A vector source has one row and
/// validRows = 1.
template <int Cs, int Stride, class T, int N>
TP_DEVICE Frag<T, N> padded(Frag<T, N> f, int row, int64_t c,
                            int64_t validRows, int64_t validCols, float pad) {
  const T value = detail::from_f32<T>(pad);
  const int64_t flat0 = static_cast<int64_t>(row) * Stride + c;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    int64_t flat = flat0 + i;
    if (flat / Cs >= validRows || flat % Cs >= validCols)
      f.v[i] = value;
  }
  return f;
}

/// Columns [c, c + W) of the thread's row of a C-wide row-major tile: one
/// piece of a streamed tile (docs/cuda.md, "Register tiles in pieces").
template <int C, int W, class T>
TP_DEVICE Frag<T, W> smem_load_cols(uint32_t saddr, int64_t c,
                                    int threadInAgent) {
  constexpr int kBytes = static_cast<int>(W * sizeof(T));
  constexpr int V = detail::vec_bytes<kBytes>();
  Frag<T, W> f;
  unsigned char *p = reinterpret_cast<unsigned char *>(&f);
  uint32_t base = saddr + static_cast<uint32_t>(
                              (static_cast<int64_t>(threadInAgent) * C + c) *
                              static_cast<int64_t>(sizeof(T)));
#pragma unroll
  for (int i = 0; i < kBytes; i += V)
    ptx::ld_shared<V>(base + i, p + i);
  return f;
}

/// Columns [c, c + W) of a vector in SMEM that every thread reads whole (a
/// per-column vector, tileas.broadcast dimensions = [0]): the same address
/// in every lane, which shared memory serves as one broadcast.
template <int W, class T>
TP_DEVICE Frag<T, W> smem_vec_cols(uint32_t saddr, int64_t c) {
  constexpr int kBytes = static_cast<int>(W * sizeof(T));
  constexpr int V = detail::vec_bytes<kBytes>();
  Frag<T, W> f;
  unsigned char *p = reinterpret_cast<unsigned char *>(&f);
  uint32_t base =
      saddr + static_cast<uint32_t>(c * static_cast<int64_t>(sizeof(T)));
#pragma unroll
  for (int i = 0; i < kBytes; i += V)
    ptx::ld_shared<V>(base + i, p + i);
  return f;
}

template <int C, int W, class T>
TP_DEVICE void smem_store_cols(uint32_t saddr, int64_t c, const Frag<T, W> &f,
                               int threadInAgent) {
  constexpr int kBytes = static_cast<int>(W * sizeof(T));
  constexpr int V = detail::vec_bytes<kBytes>();
  const unsigned char *p = reinterpret_cast<const unsigned char *>(&f);
  uint32_t base = saddr + static_cast<uint32_t>(
                              (static_cast<int64_t>(threadInAgent) * C + c) *
                              static_cast<int64_t>(sizeof(T)));
#pragma unroll
  for (int i = 0; i < kBytes; i += V)
    ptx::st_shared<V>(base + i, p + i);
}

/// Columns [c, c + W) of row `row` of an MmaTile (a UMMA operand threads
/// write, e.g. attention's P as the A of O += P V; docs/cuda.md, "P through
/// SMEM"): each 16-byte chunk of the row at Tile::offset, which applies the
/// swizzle the UMMA's descriptor names to tile-relative offsets (the tile
/// starts on the pattern's repeat). A chunk holds 16 / sizeof(T) columns of
/// one row in every layout, so a piece that starts and ends on chunks is
/// written 16 bytes at a time, any other one element by element.
template <class Tile, int W, class T>
TP_DEVICE void smem_store_mma_cols(uint32_t saddr, int64_t c,
                                   const Frag<T, W> &f, int row) {
  static_assert(sizeof(T) == sizeof(typename Tile::Elem),
                "the register tile has the SMEM tile's element width");
  constexpr int kPer = 16 / static_cast<int>(sizeof(T));
  const unsigned char *p = reinterpret_cast<const unsigned char *>(&f);
  if (W % kPer == 0 && c % kPer == 0) {
#pragma unroll
    for (int j = 0; j < W; j += kPer)
      ptx::st_shared<16>(saddr + Tile::offset(row, int(c) + j),
                         p + j * sizeof(T));
    return;
  }
#pragma unroll
  for (int j = 0; j < W; ++j)
    ptx::st_shared<static_cast<int>(sizeof(T))>(
        saddr + Tile::offset(row, int(c) + j), p + j * sizeof(T));
}

/// Columns [c, c + W) of row `row` of an MmaTile read, as
/// smem_store_mma_cols writes them (a tile TMA swizzled for the fragment's
/// rows that a row-a-thread island of that agent reads: a gathered operand
/// masked by rows).
template <class Tile, int W, class T>
TP_DEVICE Frag<T, W> smem_load_mma_cols(uint32_t saddr, int64_t c, int row) {
  static_assert(sizeof(T) == sizeof(typename Tile::Elem),
                "the register tile has the SMEM tile's element width");
  constexpr int kPer = 16 / static_cast<int>(sizeof(T));
  Frag<T, W> f;
  unsigned char *p = reinterpret_cast<unsigned char *>(&f);
  if (W % kPer == 0 && c % kPer == 0) {
#pragma unroll
    for (int j = 0; j < W; j += kPer)
      ptx::ld_shared<16>(saddr + Tile::offset(row, int(c) + j),
                         p + j * sizeof(T));
    return f;
  }
#pragma unroll
  for (int j = 0; j < W; ++j)
    ptx::ld_shared<static_cast<int>(sizeof(T))>(
        saddr + Tile::offset(row, int(c) + j), p + j * sizeof(T));
  return f;
}

/// The thread's piece of a row split over L lanes of an MmaTile (the read
/// smem_store_mma_lanes mirrors).
template <class Tile, int L, class T, int N>
TP_DEVICE Frag<T, N> smem_load_mma_lanes(uint32_t saddr, int threadRow) {
  static_assert(N * L == Tile::kCols, "L lanes read a whole row");
  return smem_load_mma_cols<Tile, N, T>(saddr, int64_t(threadRow % L) * N,
                                        threadRow / L);
}

/// The thread's whole row (N = the tile's columns) of an MmaTile.
template <class Tile, class T, int N>
TP_DEVICE void smem_store_mma(uint32_t saddr, const Frag<T, N> &f, int row) {
  static_assert(N == Tile::kCols, "a thread writes one whole row");
  smem_store_mma_cols<Tile, N, T>(saddr, 0, f, row);
}

/// The thread's piece of a row split over L lanes (thread t holds columns
/// (t % L) N .. + N of row t / L) of an MmaTile: a tile the threads gathered
/// that an MMA reads (a 64-row B operand over 128 threads).
template <class Tile, int L, class T, int N>
TP_DEVICE void smem_store_mma_lanes(uint32_t saddr, const Frag<T, N> &f,
                                    int threadRow) {
  static_assert(N * L == Tile::kCols, "L lanes write a whole row");
  smem_store_mma_cols<Tile, N, T>(saddr, int64_t(threadRow % L) * N, f,
                                  threadRow / L);
}

/// A register tile passed to the kernel in global memory (row-major): the
/// thread's N elements are its rows, contiguous from row threadInAgent * RPT.
template <int C, class T, int N>
TP_DEVICE Frag<T, N> global_load_rows(const T *p, int threadInAgent) {
  static_assert(N % C == 0, "whole rows per thread");
  Frag<T, N> f;
  const T *rows = p + static_cast<size_t>(threadInAgent) * N;
#pragma unroll
  for (int i = 0; i < N; ++i)
    f.v[i] = rows[i];
  return f;
}

/// A cp.async producer: the agent's threads copy an R x C tile at (r0, c0)
/// of a row-major global matrix with RowStride elements per row into the
/// slot, 16 B per cp.async. The harness copies nothing: it stamps the slot
/// at the commit instead.
template <int R, int C, class T, int RowStride>
TP_DEVICE void cp_async_tile(uint32_t dst, const T *src, int64_t r0,
                             int64_t c0, int threadInAgent,
                             int64_t threads TP_LOC) {
  constexpr int kPer = 16 / static_cast<int>(sizeof(T));
  static_assert(C % kPer == 0, "rows are whole 16-byte chunks");
  if constexpr (!harness::kStandIns) {
    TP_AT();
    constexpr int kChunks = R * C / kPer;
    for (int i = threadInAgent; i < kChunks; i += static_cast<int>(threads)) {
      int r = i / (C / kPer), c = (i % (C / kPer)) * kPer;
      const T *g = src + (r0 + r) * RowStride + c0 + c;
      ptx::cp_async_16(dst + static_cast<uint32_t>((r * C + c) * sizeof(T)),
                       g);
    }
  }
}

/// Holds the slot's full barrier open until this thread's cp.async copies
/// have landed.
TP_DEVICE void cp_async_arrive(uint64_t *bars, int64_t depth,
                               int64_t k TP_LOC) {
  TP_AT();
  ptx::cp_async_mbarrier_arrive(smem_addr(&bars[slot_of(k, depth)]));
}

} // namespace tp

#endif // TILEPIPE_RUNTIME_THREADS_CUH
