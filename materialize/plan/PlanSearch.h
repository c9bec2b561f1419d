//===- PlanSearch.h - fitting a loop's buffers into SMEM and TMEM -*- C++ -*-===//
//
// When the plan as written does not fit, the materializer has options that
// change storage but never the schedule: store a TMEM tile over the columns
// of one its writer has finished reading (P over S), let TMA tiles of equal
// size take turns in one ring, size pipes by the timeline instead of by
// stages, and lay the epilogue's staging tiles over the drained mainloop
// slots. The search tries their combinations, fewest options first, and
// takes the fitting plan that keeps the most bytes in flight.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_PLANSEARCH_H
#define TILEPIPE_MATERIALIZE_PLAN_PLANSEARCH_H

#include "materialize/plan/BufferPlan.h"

namespace tilepipe::materialize {

/// The options a loop offers, found from its data flow (LoopPlan.cpp).
struct PlanCandidates {
  /// A tile stored with no `into` (index into PlanInput::values) and the
  /// TMEM tile whose columns it may take: every read of that tile feeds
  /// the stored data, in the storing warp group.
  struct Alias {
    unsigned value = 0, base = 0;
  };
  std::vector<Alias> aliases;
  /// TMA-loaded tiles of equal bytes read only by the tensor core, in a
  /// fixed order each iteration, that may share one ring.
  std::vector<std::vector<unsigned>> rings;
  /// Bytes of PlanInput::fixedSmemBytes only the code after the loop uses.
  int64_t epilogueSmemBytes = 0;
};

/// What the search took, for print-plan and for the rewrite.
struct PlanChoice {
  std::vector<bool> aliases, rings; ///< Per candidate.
  bool timelineDepths = false, overlay = false;
  /// The plan as written did not fit; `asWritten` is what it needed.
  bool searched = false;
  PlanNeed asWritten;
  unsigned tried = 0; ///< Plans evaluated.
};

/// Plans the loop's buffers as written or, when that does not fit, the best
/// fitting combination of the candidates, which it then writes into
/// `input` (aliases, rings, depth rule, overlay). Errors name the smallest
/// plan tried.
std::optional<BufferPlan> searchBuffers(PlanInput &input,
                                        const PlanCandidates &candidates,
                                        PlanChoice &choice,
                                        sched::DiagnosticList &diags);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_PLANSEARCH_H
