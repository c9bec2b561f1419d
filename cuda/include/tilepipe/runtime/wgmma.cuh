//===- runtime/wgmma.cuh - Hopper's MMA on tiles, and its accumulator -*- CUDA -*-===//
//
// What the sm_90a translation calls for a tileas.wgmma (docs/cuda.md,
// "Hopper"): one K-block of D (+)= A B^T issued by the agent's warpgroup,
// over the MmaTile operands the sm_100a path lays out (the same swizzled
// tiles: an sm_90 descriptor is the sm_100 one without its version bit),
// and the accumulator's way out of its fragment into a row-major SMEM tile
// that the epilogue reads a row a thread.
//
// The accumulator is a tp::Frag<float, Bands * N / 2>: band b (rows 64 b ..
// 64 b + 63 of the tile) is registers [b N / 2, (b + 1) N / 2), each band in
// the ISA's m64nN fragment (layout/wgmma_layout.cuh).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_WGMMA_CUH
#define TILEPIPE_RUNTIME_WGMMA_CUH

#include "tilepipe/arch/sm90/wgmma.cuh"
#include "tilepipe/layout/tile.cuh"
#include "tilepipe/layout/wgmma_layout.cuh"
#include "tilepipe/ptx/smem.cuh"
#include "tilepipe/runtime/base.cuh"
#include "tilepipe/runtime/frag.cuh"

namespace tp {

namespace detail {
template <class T>
constexpr ptx::Wgmma16 kWgmma16 =
    kSame<T, __half> ? ptx::Wgmma16::F16 : ptx::Wgmma16::BF16;

/// sm_90's matrix descriptor: sm_100's bits without the version field
/// [46, 49), which sm_90 reserves (layout/wgmma_layout.cuh).
TP_HOST_DEVICE uint64_t sm90_desc(uint64_t sm100) {
  return sm100 & ~(uint64_t(7) << 46);
}

} // namespace detail

/// D (+)= A B^T for one K-block, by the calling warpgroup (all 128 threads,
/// warp-aligned): its Bands 64-row bands of A (AV, K-major) from band
/// `firstBand` on (0 when one warpgroup holds the tile, its index when each
/// holds 64 rows), and B (BV, K- or MN-major) of N rows; one m64nNk16
/// wgmma per band and 32 bytes of K, in one commit group. `accumulate`
/// false: the first step overwrites D. The caller retires the group with
/// wgmma_wait.
template <class AV, class BV, int Bands>
TP_DEVICE void wgmma_ss(Frag<float, Bands * BV::kMN / 2> &d, uint32_t a,
                        uint32_t b, bool accumulate, int firstBand TP_LOC) {
  using TA = typename AV::Elem;
  constexpr int N = BV::kMN;
  static_assert(detail::kSame<TA, typename BV::Elem>, "A and B of one type");
  static_assert(detail::kSame<TA, __nv_bfloat16> || detail::kSame<TA, __half>,
                "wgmma here: bf16 or f16 operands");
  static_assert(!AV::kMNMajor, "A K-major (wgmma's imm-trans-a is 0 here)");
  static_assert(AV::kMN % (64 * Bands) == 0, "A has 64 rows a band");
  static_assert(AV::kK == BV::kK, "A and B have one K");
  constexpr int kSteps = AV::kK * int(sizeof(TA)) / 32;
  // 64 rows further: eight 8-row groups of SBO bytes each.
  constexpr uint32_t kBandBytes = 8 * AV::kSbo;
  TP_AT();
  ptx::wgmma_fence_operand(d.v);
  ptx::wgmma_fence();
#pragma unroll
  for (int s = 0; s < kSteps; ++s)
#pragma unroll
    for (int g = 0; g < Bands; ++g)
      ptx::wgmma_ss<N, detail::kWgmma16<TA>, BV::kMNMajor ? 1 : 0>(
          *reinterpret_cast<float(*)[N / 2]>(&d.v[g * (N / 2)]),
          detail::sm90_desc(
              AV::desc(a + uint32_t(firstBand + g) * kBandBytes, s)),
          detail::sm90_desc(BV::desc(b, s)), s == 0 ? accumulate : true);
  ptx::wgmma_commit_group();
  ptx::wgmma_fence_operand(d.v);
}

/// Writes the accumulator, 64 Bands rows of N f32 a warpgroup (warpgroup w
/// of the agent its rows from 64 Bands w on), into the row-major SMEM tile
/// at `saddr`, each thread its fragment's elements (two adjacent columns
/// per 8-byte store). The caller has retired every group that writes `d`
/// (wgmma_wait<0>) and syncs the agent before the rows are read by other
/// threads.
template <int Bands, int N>
TP_DEVICE void wgmma_acc_store(uint32_t saddr, Frag<float, Bands * N / 2> &d,
                               int threadInAgent) {
  namespace wg = layout::wgmma;
  // Orders the reads below after the wait_group that completed the MMAs.
  ptx::wgmma_fence_operand(d.v);
  int t = threadInAgent % wg::kThreads;
  int firstBand = Bands * (threadInAgent / wg::kThreads);
#pragma unroll
  for (int g = 0; g < Bands; ++g)
#pragma unroll
    for (int i = 0; i < N / 2; i += 2) {
      wg::RowCol rc = wg::acc_element(t, i);
      uint32_t at =
          saddr + uint32_t(((64 * (firstBand + g) + rc.row) * N + rc.col) * 4);
      ptx::st_shared<8>(at, reinterpret_cast<const unsigned char *>(
                                &d.v[g * (N / 2) + i]));
    }
}

/// wgmma.wait_group Pending, for the translation's releases: at most
/// Pending of the thread's commit groups still in flight.
template <int Pending> TP_DEVICE void wgmma_wait() {
  ptx::wgmma_wait_group<Pending>();
}

/// The warpgroup of the agent's thread `threadInAgent`, and whether it is
/// the first (which runs an epilogue after two consumer warpgroups).
TP_DEVICE int warpgroup_of(int threadInAgent) {
  return threadInAgent / layout::wgmma::kThreads;
}
TP_DEVICE bool first_warpgroup(int threadInAgent) {
  return threadInAgent < layout::wgmma::kThreads;
}

/// Whether a release waits for the next wait_group (-1: none does).
TP_DEVICE bool wgmma_pending(int64_t k) { return k >= 0; }

} // namespace tp

#endif // TILEPIPE_RUNTIME_WGMMA_CUH
