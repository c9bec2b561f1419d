//===- kernel.cuh - what translated kernels include -------------*- CUDA -*-===//
//
// The runtime header (sm100.cuh: barriers, TMA, tcgen05, register tiles and
// the harness probes) plus the few helpers only the translator's output
// needs: index arithmetic, the second half of a named-barrier mutex,
// descriptors passed by reference, and the block-scaled tensor-core ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_KERNEL_CUH
#define TILEPIPE_KERNEL_CUH

#include <tilepipe/sm100.cuh>

namespace tp {

// Index arithmetic as arith defines it (ceildivsi rounds toward +infinity).
__host__ __device__ __forceinline__ int64_t ceildiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return q + ((a % b != 0) && ((a < 0) == (b < 0)) ? 1 : 0);
}
__host__ __device__ __forceinline__ int64_t max_i(int64_t a, int64_t b) {
  return a > b ? a : b;
}
__host__ __device__ __forceinline__ int64_t min_i(int64_t a, int64_t b) {
  return a < b ? a : b;
}

/// A mutex unlock: arrive on the next group's named barrier without waiting
/// (bar.arrive), so that its bar.sync can complete.
__device__ __forceinline__ void named_arrive(int barrierId, int threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(barrierId), "r"(threads) : "memory");
}

// Kernel parameters are __grid_constant__ descriptors; the translator
// passes them as they are, and the TMA needs their generic address.
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const TmaDesc &desc,
                                            int64_t c0, int64_t c1,
                                            uint64_t *bars, int64_t depth,
                                            int64_t k, int64_t pipeId) {
  tma_load_2d(dst, &desc, static_cast<int32_t>(c0), static_cast<int32_t>(c1),
              bars, depth, k, static_cast<int>(pipeId));
}
__device__ __forceinline__ void tma_store_2d(const TmaDesc &desc, uint32_t src,
                                             int64_t c0, int64_t c1) {
  tma_store_2d(&desc, src, static_cast<int32_t>(c0), static_cast<int32_t>(c1));
}

/// Block-scale factors from SMEM to TMEM (tcgen05.cp, 128 lanes x 128 bits
/// per instruction), issued by the MMA thread and ordered with its MMAs.
/// Rows of RowBytes (<= 16) each; the copy moves 16 B per lane.
template <int Rows, int RowBytes>
__device__ __forceinline__ void tmem_copy(uint32_t dst, uint32_t src) {
  static_assert(Rows == 128 && RowBytes <= 16,
                "tmem_copy: 128 rows of at most 16 B (scale factors)");
#if TP_HAS_TCGEN05
  uint64_t desc = detail::smem_desc(src, 128, 16 * 8);
  asm volatile("tcgen05.cp.cta_group::1.128x128b [%0], %1;" ::"r"(dst),
               "l"(desc)
               : "memory");
#elif TP_TCGEN05_TRAP
  (void)dst, (void)src;
  __trap();
#else
  (void)dst, (void)src;
#endif
}

/// D (+)= (A x SFA) * (B x SFB)^T for MX FP8 (kind::mxf8f6f4.block_scale):
/// A and B K-major in SMEM, their per-32-element scale factors in TMEM.
template <int M, int N, int K, class TA, class TB, class TC>
__device__ __forceinline__ void umma_ss_block_scaled(uint32_t d, uint32_t a,
                                                     uint32_t b, uint32_t sfa,
                                                     uint32_t sfb,
                                                     bool accumulate) {
  static_assert(detail::check_shape<M, N, K, TA, TB, TC>());
#if TP_HAS_TCGEN05
  using TileA = detail::KMajorTile<K, TA>;
  using TileB = detail::KMajorTile<K, TB>;
  constexpr uint32_t idesc = detail::instr_desc<M, N, TA, TB, TC>();
  constexpr int kK = 32; // One FP8 UMMA covers 32 elements of K.
#pragma unroll
  for (int s = 0; s < K / kK; ++s) {
    uint64_t ad = detail::smem_desc(a + s * TileA::kStepBytes, TileA::kLbo,
                                    TileA::kSbo);
    uint64_t bd = detail::smem_desc(b + s * TileB::kStepBytes, TileB::kLbo,
                                    TileB::kSbo);
    uint32_t accum = s == 0 ? (accumulate ? 1u : 0u) : 1u;
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
                 " tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%0], "
                 "%1, %2, %3, [%4], [%5], p;\n}" ::"r"(d),
                 "l"(ad), "l"(bd), "r"(idesc), "r"(sfa), "r"(sfb), "r"(accum)
                 : "memory");
  }
#elif TP_TCGEN05_TRAP
  (void)d, (void)a, (void)b, (void)sfa, (void)sfb, (void)accumulate;
  __trap();
#else
  (void)d, (void)a, (void)b, (void)sfa, (void)sfb, (void)accumulate;
#endif
}

/// A register tile passed to the kernel in global memory (row-major): the
/// thread's N elements are its rows, contiguous from row threadInAgent * RPT.
template <int C, class T, int N>
__device__ __forceinline__ Frag<T, N> global_load_rows(const T *p,
                                                       int threadInAgent) {
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
__device__ __forceinline__ void cp_async_tile(uint32_t dst, const T *src,
                                              int64_t r0, int64_t c0,
                                              int threadInAgent,
                                              int64_t threads) {
  constexpr int kPer = 16 / static_cast<int>(sizeof(T));
  static_assert(C % kPer == 0, "rows are whole 16-byte chunks");
#if defined(TILEPIPE_HARNESS)
  (void)dst, (void)src, (void)r0, (void)c0, (void)threadInAgent, (void)threads;
#else
  constexpr int kChunks = R * C / kPer;
  for (int i = threadInAgent; i < kChunks; i += static_cast<int>(threads)) {
    int r = i / (C / kPer), c = (i % (C / kPer)) * kPer;
    const T *g = src + (r0 + r) * RowStride + c0 + c;
    uint32_t s = dst + static_cast<uint32_t>((r * C + c) * sizeof(T));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(g)
                 : "memory");
  }
#endif
}

/// Holds the slot's full barrier open until this thread's cp.async copies
/// have landed (cp.async.mbarrier.arrive without .noinc: one pending
/// arrival added now, removed on completion).
__device__ __forceinline__ void cp_async_arrive(uint64_t *bars, int64_t depth,
                                                int64_t k) {
  uint32_t bar = smem_addr(&bars[k % depth]);
  asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" ::"r"(bar)
               : "memory");
}

/// An epilogue's tmem_load -> cvt -> smem_store of one C-wide row per
/// thread, 32 columns at a time, so that the row never has to fit in the
/// thread's registers at once. The tile is row-major in SMEM.
template <int C, class TIn, class TOut>
__device__ __forceinline__ void tmem_cvt_smem_store(uint32_t taddr,
                                                    uint32_t saddr,
                                                    int threadInAgent) {
  constexpr int kPiece = 32;
  static_assert(C % kPiece == 0, "rows move in 32-column pieces");
  static_assert((kPiece * sizeof(TIn)) % 4 == 0, "whole TMEM columns");
#pragma unroll 1
  for (int c0 = 0; c0 < C; c0 += kPiece) {
    Frag<TIn, kPiece> in = tmem_load<kPiece, TIn, kPiece>(
        taddr + static_cast<uint32_t>(c0 * sizeof(TIn) / 4), threadInAgent);
    Frag<TOut, kPiece> out = cvt<TOut>(in);
    uint32_t row = saddr + static_cast<uint32_t>(
                               (threadInAgent * C + c0) * sizeof(TOut));
    auto *dst = static_cast<TOut *>(__cvta_shared_to_generic(row));
#pragma unroll
    for (int i = 0; i < kPiece; ++i)
      dst[i] = out.v[i];
  }
}

} // namespace tp

#endif // TILEPIPE_KERNEL_CUH
