//===- MinCut.h - XLS-style stage assignment by min-cuts --------*- C++ -*-===//
//
// Seed 003's method, moved onto a modulo schedule with fixed II and rows:
// the stage count stays the schedule's; each stage boundary is one
// min-cut (max-flow from an artificial source to an artificial sink)
// between the ops before it and the ops after it, where cutting a value's
// edges costs its bytes (split over its uses through an artificial fan-out
// node, so that a value counts once), ops whose stage window lies on one
// side are tied to the source or the sink with infinite edges, and every
// dependence gets an infinite edge backwards so that the cut runs one way.
// After each cut the windows are narrowed and propagated over the
// difference constraints (loop-carried dependences included), which the
// later cuts then respect. Several cut orders run; the fewest bytes win. It
// is a heuristic: a cut sees same-iteration uses only, and a fan-out is
// counted exactly only when all or none of its uses cross.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_STAGES_MINCUT_H
#define TILEPIPE_SCHEDULER_STAGES_MINCUT_H

#include "scheduler/Problem.h"

#include <optional>

namespace tilepipe::sched {

/// Stages for `schedule`'s II and rows by a sequence of min-cuts (forward,
/// backward and middle-out orders; the best kept), or nullopt when the
/// problem is force-serial or no order yields a schedule that verifies.
std::optional<Schedule> minCutStages(const Problem &problem,
                                     const Schedule &schedule);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_STAGES_MINCUT_H
