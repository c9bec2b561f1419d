//===- runtime/issue_turns.cuh - wgmma issue turns -------------*- CUDA -*-===//
//
// An agent of two consumer warpgroups whose code reads its accumulators
// between MMAs (attention's softmax; docs/cuda.md, "Issue turns") lets them
// issue their wgmmas in turns, as FlashAttention-3's warp scheduler
// barriers do: warpgroup g takes its turn on named barrier First + g and
// passes it by arriving on the other's, so that one computes while the
// other's MMAs keep the tensor core busy. Each barrier counts both
// warpgroups (256 threads): the 128 that wait and the 128 that arrive.
// Warpgroup 1 opens by passing once, so warpgroup 0 goes first; warpgroup 0
// closes by taking that last pass. The ids are copy_sync's (runtime/base.cuh):
// immediates, a branch on the warpgroup.
//
// A warpgroup also syncs alone (its slot releases) on First + g of its
// own pair: group_sync.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_ISSUE_TURNS_CUH
#define TILEPIPE_RUNTIME_ISSUE_TURNS_CUH

#include "tilepipe/runtime/base.cuh"

namespace tp {

/// Waits for warpgroup `group`'s turn to issue.
template <int First> TP_DEVICE void issue_turn_take(int group TP_LOC) {
  copy_sync<First>(group, 256 TP_LOC_FWD);
}

/// Passes the turn to the other warpgroup, without waiting.
template <int First> TP_DEVICE void issue_turn_pass(int group TP_LOC) {
  if (group == 0)
    copy_arrive<First>(1, 256 TP_LOC_FWD);
  else
    copy_arrive<First>(0, 256 TP_LOC_FWD);
}

/// At the agent's start: warpgroup 1 lets warpgroup 0 take the first turn.
template <int First> TP_DEVICE void issue_turn_open(int group TP_LOC) {
  if (group == 1)
    issue_turn_pass<First>(group TP_LOC_FWD);
}

/// At the agent's end: warpgroup 0 takes warpgroup 1's last pass, so that
/// no arrival is left on the barrier.
template <int First> TP_DEVICE void issue_turn_close(int group TP_LOC) {
  if (group == 0)
    issue_turn_take<First>(group TP_LOC_FWD);
}

/// The 128 threads of warpgroup `group` meet (First + group).
template <int First> TP_DEVICE void group_sync(int group TP_LOC) {
  copy_sync<First>(group, 128 TP_LOC_FWD);
}

} // namespace tp

#endif // TILEPIPE_RUNTIME_ISSUE_TURNS_CUH
