//===- MinBuffer.h - fewest buffered bytes, exactly --------------*- C++
//-*-===//
//
// For a fixed II and fixed rows, the stage assignment that minimises the
// buffered bytes (BufferCost.h) is a linear program over difference
// constraints (StageConstraints.h): minimise
//   sum over values v of bytes_v * (t_v - stage_producer(v)),
//   t_v >= stage_c + distance for every use c of v,
// whose dual is a min-cost flow. LEMON's network simplex solves the flow;
// its node potentials are the optimal stages, integral because the
// constraint matrix is a network matrix. Three objectives are met in turn,
// each keeping the previous ones optimal (the arcs the previous flow uses
// stay tight, by complementary slackness): pipe (SMEM + TMEM) bytes, then
// register bytes, then the sum of stages (the earliest of the ties).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_STAGES_MINBUFFER_H
#define TILEPIPE_SCHEDULER_STAGES_MINBUFFER_H

#include "scheduler/Problem.h"

#include <optional>

namespace tilepipe::sched {

/// The optimal stages for `schedule`'s II and rows, or nullopt when the
/// problem is force-serial or the flow solver fails (the caller keeps the
/// schedule it has). The result keeps every row and verifies.
std::optional<Schedule> minBufferStages(const Problem &problem,
                                        const Schedule &schedule);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_STAGES_MINBUFFER_H
