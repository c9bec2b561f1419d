//===- StageSink.h - move ops to the latest stage they may take -*- C++ -*-===//
//
// A post-pass over a modulo schedule: every op is moved later by whole
// multiples of II while all of its outgoing dependences still hold, so it
// keeps its modulo row (the RRT is unchanged) and the II. An op produced
// early and consumed late otherwise holds a buffer (a pipe slot, a register)
// for every stage in between: sinking it shortens those lifetimes and with
// them the depth of the pipes the materializer builds.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_STAGESINK_H
#define TILEPIPE_SCHEDULER_STAGESINK_H

#include "scheduler/Problem.h"

namespace tilepipe::sched {

/// How stages are assigned after the generator seated every op.
enum class StagePolicy {
  Asap,      ///< As the generator seated them (earliest).
  Late,      ///< Sunk to the latest stage the consumers allow (default).
  MinCut,    ///< XLS's sequence of min-cuts (scheduler/stages/MinCut.h).
  MinBuffer, ///< The fewest buffered bytes, exactly (stages/MinBuffer.h).
};

/// Returns `schedule` with ops sunk to the latest stage their consumers allow:
/// start_u grows by multiples of II while start_u + lat <= start_v +
/// distance * II holds for every outgoing dependence (u != v), iterated to a
/// fixpoint. Ops without successors, ops with more producers than consumers
/// (moving them would lengthen more edges than it shortens), members of
/// constraint groups and every
/// op of a force-serial problem stay; no op passes the schedule's last stage,
/// its max_depth, or the schedule's latest completion (max start + latency).
/// The result has the same II and modulo rows; the caller verifies it.
Schedule sinkStages(const Problem &problem, const Schedule &schedule);

/// Sum over dependences (src != dst) of stage(dst) + distance - stage(src):
/// the stages a value crosses from producer to consumer.
int64_t totalStageLifetime(const Problem &problem, const Schedule &schedule);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_STAGESINK_H
