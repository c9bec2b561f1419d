//===- runtime/base.cuh - identity, sync, slots, index arithmetic -*- CUDA -*-===//
//
// The part of the tp:: runtime every other part uses: register tiles, the
// tensor-map type, warp identity and election, named barriers,
// setmaxnreg, SMEM addresses and pipe slots, and index arithmetic as arith
// defines it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_BASE_CUH
#define TILEPIPE_RUNTIME_BASE_CUH

#include "tilepipe/config.cuh"
#include "tilepipe/ptx/smem.cuh"
#include "tilepipe/ptx/sync.cuh"
#include "tilepipe/runtime/int_arith.cuh"

namespace tp {

using TmaDesc = CUtensorMap;

/// Register tile fragment: per thread N elements, "rows per thread" layout.
template <class T, int N> struct Frag {
  T v[N];
};

//===----------------------------------------------------------------------===//
// Identity, sync, registers
//===----------------------------------------------------------------------===//

TP_DEVICE int warp_idx() {
  // The shuffle makes the value provably warp-uniform for the compiler.
  return int(ptx::shfl_idx(uint32_t(threadIdx.x / 32), 0));
}

/// True in one thread of warp `firstWarp` (the agent's elected thread).
TP_DEVICE bool elect_leader(int firstWarp TP_LOC) {
  if (warp_idx() != firstWarp)
    return false;
  TP_AT();
  return ptx::elect_sync();
}

/// True in one lane of the calling warp, elected right where it guards a
/// tcgen05 or TMA issue in a one-warp agent: ptxas then issues the guarded
/// instruction under the ELECT predicate instead of in a loop over lanes.
TP_DEVICE bool elect_one(TP_LOC_ONLY) {
  TP_AT();
  return ptx::elect_sync();
}

/// The agent's own barrier: `threads` threads meet at named barrier `id`.
TP_DEVICE void agent_sync(int barrierId, int threads TP_LOC) {
  TP_AT();
  ptx::bar_sync(uint32_t(barrierId), uint32_t(threads));
}

/// The barrier of ping-pong copy `copy` of an agent (or of one of an
/// agent's two warpgroups): named barrier First + copy, copy 0 or 1, each
/// id an immediate, so that ptxas counts two barriers and not every one a
/// register could name.
template <int First> TP_DEVICE void copy_sync(int copy, int threads TP_LOC) {
  TP_AT();
  if (copy == 0)
    ptx::bar_sync(uint32_t(First), uint32_t(threads));
  else
    ptx::bar_sync(uint32_t(First + 1), uint32_t(threads));
}

/// bar.arrive on named barrier First + copy, as copy_sync names it.
template <int First> TP_DEVICE void copy_arrive(int copy, int threads TP_LOC) {
  TP_AT();
  if (copy == 0)
    ptx::bar_arrive(uint32_t(First), uint32_t(threads));
  else
    ptx::bar_arrive(uint32_t(First + 1), uint32_t(threads));
}

/// A mutex unlock: arrive on the next group's named barrier without waiting
/// (bar.arrive), so that its bar.sync can complete.
TP_DEVICE void named_arrive(int barrierId, int threads TP_LOC) {
  TP_AT();
  ptx::bar_arrive(uint32_t(barrierId), uint32_t(threads));
}

template <int N> TP_DEVICE void setmaxnreg_inc() { ptx::setmaxnreg<true, N>(); }
template <int N> TP_DEVICE void setmaxnreg_dec() {
  ptx::setmaxnreg<false, N>();
}

TP_DEVICE uint32_t smem_addr(const void *p) {
  return ptx::generic_to_shared(p);
}

//===----------------------------------------------------------------------===//
// Slots
//===----------------------------------------------------------------------===//

/// Pipe iteration k's slot and round. k and depth are never negative;
/// unsigned, the division by a depth that is not a power of two is a
/// multiply-high and a shift, where signed 64-bit division adds fix-ups.
TP_DEVICE uint64_t slot_of(int64_t k, int64_t depth) {
  return static_cast<uint64_t>(k) % static_cast<uint64_t>(depth);
}
TP_DEVICE uint64_t round_of(int64_t k, int64_t depth) {
  return static_cast<uint64_t>(k) / static_cast<uint64_t>(depth);
}

TP_DEVICE uint32_t smem_slot(void *base, int64_t slotBytes, int64_t depth,
                             int64_t k) {
  return smem_addr(base) + static_cast<uint32_t>(slot_of(k, depth) * slotBytes);
}

TP_DEVICE uint32_t tmem_slot(uint32_t base, int64_t slotCols, int64_t depth,
                             int64_t k) {
  return base + static_cast<uint32_t>(slot_of(k, depth) * slotCols);
}

//===----------------------------------------------------------------------===//
// Index arithmetic as arith defines it (ceildivsi rounds toward +infinity)
//===----------------------------------------------------------------------===//

TP_HOST_DEVICE int64_t ceildiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return q + ((a % b != 0) && ((a < 0) == (b < 0)) ? 1 : 0);
}
TP_HOST_DEVICE int64_t max_i(int64_t a, int64_t b) { return a > b ? a : b; }
TP_HOST_DEVICE int64_t min_i(int64_t a, int64_t b) { return a < b ? a : b; }

} // namespace tp

#endif // TILEPIPE_RUNTIME_BASE_CUH
