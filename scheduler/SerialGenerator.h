//===- SerialGenerator.h - the serial schedule generator -------*- C++ -*-===//
//
// Seed 002's deterministic baseline: a Kahn walk over the within-iteration
// dependences, ties broken by program order; every op lands in stage 0 with
// order = its position in the walk. Ops run one after another (no overlap),
// so the schedule needs no RRT search and II is the serial length.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_SERIALGENERATOR_H
#define TILEPIPE_SCHEDULER_SERIALGENERATOR_H

#include "scheduler/ScheduleAnalysis.h"

namespace tilepipe::sched {

/// Returns the serial schedule, or nullopt (with an error naming the ops
/// left on the cycle) when the within-iteration dependences have a cycle.
/// Constraints the serial shape cannot honour are reported as warnings, one
/// per constraint (design.md decision 7); none is dropped silently.
std::optional<ScheduleAnalysis> generateSerialSchedule(const Problem &problem,
                                                       DiagnosticList &diags);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_SERIALGENERATOR_H
