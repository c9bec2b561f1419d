//===- LoopPlan.h - a scheduled loop's pipes and mutexes -------*- C++ -*-===//
//
// The MLIR side of planning: reads a loop's schedule (the published
// analysis, else the tileas.schedule.* attributes), checks it against the
// loop, and turns every SMEM/TMEM tile handed from one unit to another into
// a planned pipe. Values that stay on one unit (an accumulator chained from
// UMMA to UMMA in the tensor core's in-order queue) need no pipe.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_LOOPPLAN_H
#define TILEPIPE_MATERIALIZE_MLIR_LOOPPLAN_H

#include "materialize/plan/BufferPlan.h"
#include "materialize/plan/Flavour.h"
#include "materialize/plan/MutexPlan.h"
#include "materialize/plan/PlanSearch.h"
#include "scheduler/mlir/LoopProblem.h"

namespace tilepipe {

struct LoopPlan {
  LoopProblem loop;
  sched::ScheduleAnalysis schedule;
  materialize::PlanInput input;
  std::vector<mlir::Value> values; ///< The MLIR value of each plan value.
  materialize::BufferPlan buffers;
  std::vector<materialize::MutexPlan> mutexes;
  /// Per op, its `tileas.warp_group` (SIMT agents are split by it).
  std::vector<std::optional<unsigned>> warpGroups;
  /// Per op, the warps its agent needs at least (PartitionInput::minWarps).
  std::vector<int32_t> minWarps;
  /// The options the loop offered and what the search took from them.
  materialize::PlanCandidates candidates;
  materialize::PlanChoice choice;
  /// The after-loop stores into epilogue staging tiles (overlay candidates).
  std::vector<mlir::Operation *> epilogueStores;
};

/// Writes the plan's storage decisions into the loop's IR before its stage
/// code is emitted: a tile stored over another takes `into`, and epilogue
/// staging tiles laid over the drained slots lose their own buffer. The
/// loop computes what it computed.
void applyPlanChoices(LoopPlan &plan);

/// Why a loop is left unchanged (no or invalid schedule), or the plan.
/// Planning failures (a budget exceeded) are errors at the loop.
mlir::FailureOr<LoopPlan> buildLoopPlan(mlir::scf::ForOp loop,
                                        const PublishedSchedules *published,
                                        const target::TargetModel &target,
                                        std::string &whyUnchanged,
                                        bool persistent = false);

void printLoopPlan(llvm::raw_ostream &os, const LoopPlan &plan);

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_LOOPPLAN_H
