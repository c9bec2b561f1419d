//===- StageConstraints.h - what stages may be, rows fixed ------*- C++ -*-===//
//
// With II and rows r fixed (start = r + II * stage), every rule a schedule
// must keep is a difference constraint on stages:
//   dependence u -> v (latency, distance d):
//       stage_v - stage_u >= ceil((r_u + latency - r_v) / II) - d
//   stage >= 0, stage <= max_depth, and the members of a constraint group at
//   the leader's stage.
// The RRT cannot change: rows are kept. Both stage algorithms read this.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_STAGES_STAGECONSTRAINTS_H
#define TILEPIPE_SCHEDULER_STAGES_STAGECONSTRAINTS_H

#include "scheduler/Problem.h"

#include <optional>
#include <vector>

namespace tilepipe::sched {

/// stage[to] - stage[from] >= gap.
struct StageArc {
  OpId from = 0, to = 0;
  int64_t gap = 0;
};

struct StageConstraints {
  unsigned ii = 1;
  std::vector<int64_t> row;                     ///< start mod II, per op.
  std::vector<StageArc> arcs;                   ///< Dependences and groups.
  std::vector<std::optional<int64_t>> maxStage; ///< max_depth, per op.

  std::vector<int64_t> stagesOf(const Schedule &s) const;
  Schedule scheduleOf(llvm::ArrayRef<int64_t> stages) const;
};

StageConstraints stageConstraints(const Problem &problem,
                                  const Schedule &schedule);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_STAGES_STAGECONSTRAINTS_H
