//===- runtime/pipes.cuh - mbarrier pipes and their fences ------*- CUDA -*-===//
//
// A pipe of depth D has D slots, each with a full and an empty mbarrier;
// iteration k uses slot k % D in round k / D, whose phase parity the waits
// compute. Harness mode: waits are bounded and expect-tx counts the 16-byte
// stamp that stands in for a tile (harness.cuh).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_PIPES_CUH
#define TILEPIPE_RUNTIME_PIPES_CUH

#include "tilepipe/arch/sm100/tcgen05_fences.cuh"
#include "tilepipe/arch/sm100/tcgen05_mma.cuh"
#include "tilepipe/harness.cuh"
#include "tilepipe/ptx/fences.cuh"
#include "tilepipe/ptx/mbarrier.cuh"
#include "tilepipe/runtime/base.cuh"

namespace tp {

TP_DEVICE void mbar_init(uint64_t *bar, uint32_t count) {
  ptx::mbarrier_init(smem_addr(bar), count);
}

TP_DEVICE void fence_mbarrier_init() { ptx::fence_mbarrier_init(); }

/// Waits for iteration k's phase of slot k % depth. Iteration k needs the
/// phase of round k / depth; producers start one phase ahead (flip = 1)
/// because all slots are initially empty.
TP_DEVICE void mbar_wait(uint64_t *bars, int64_t depth, int64_t k,
                         uint32_t flip TP_LOC) {
  TP_AT();
  uint32_t bar = smem_addr(&bars[slot_of(k, depth)]);
  uint64_t round = round_of(k, depth);
  uint32_t parity = static_cast<uint32_t>(round & 1) ^ flip;
  ptx::mbarrier_wait_for_phase(bar, int64_t(round) - int64_t(flip));
  if (ptx::mbarrier_try_wait_parity(bar, parity))
    return;
  harness::WaitBudget budget; // unbounded outside the harness
  while (!ptx::mbarrier_try_wait_parity(bar, parity))
    if (budget.expired())
      return;
}

TP_DEVICE void mbar_arrive(uint64_t *bars, int64_t depth, int64_t k TP_LOC) {
  TP_AT();
  ptx::mbarrier_arrive(smem_addr(&bars[slot_of(k, depth)]));
}

/// One arrival that also expects `bytes` of asynchronous copies (in the
/// harness, the one 16-byte stamp that stands in for them).
TP_DEVICE void mbar_arrive_expect_tx(uint64_t *bars, int64_t depth, int64_t k,
                                     uint32_t bytes TP_LOC) {
  TP_AT();
  ptx::mbarrier_arrive_expect_tx(smem_addr(&bars[slot_of(k, depth)]),
                                 harness::tx_bytes(bytes));
}

/// Expects `bytes` more of asynchronous copies in the phase, without an
/// arrival: a joined pipe's slot, whose arrival is the other pipe's commit.
TP_DEVICE void mbar_expect_tx(uint64_t *bars, int64_t depth, int64_t k,
                              uint32_t bytes TP_LOC) {
  TP_AT();
  ptx::mbarrier_expect_tx(smem_addr(&bars[slot_of(k, depth)]),
                          harness::tx_bytes(bytes));
}

/// tcgen05.commit: one arrival once every earlier tcgen05 op of this thread
/// has completed. Harness mode has no tcgen05: an arrival now.
TP_DEVICE void umma_arrive(uint64_t *bars, int64_t depth, int64_t k TP_LOC) {
  TP_AT();
  uint32_t bar = smem_addr(&bars[slot_of(k, depth)]);
  if constexpr (harness::kStandIns)
    ptx::mbarrier_arrive(bar);
  else
    ptx::tcgen05_commit(bar);
}

TP_DEVICE void fence_proxy_async() { ptx::fence_proxy_async(); }
TP_DEVICE void tcgen05_before() { ptx::tcgen05_fence_before_thread_sync(); }
TP_DEVICE void tcgen05_after() { ptx::tcgen05_fence_after_thread_sync(); }
TP_DEVICE void tcgen05_wait_ld() { ptx::tcgen05_wait_ld(); }
TP_DEVICE void tcgen05_wait_st() { ptx::tcgen05_wait_st(); }

} // namespace tp

#endif // TILEPIPE_RUNTIME_PIPES_CUH
