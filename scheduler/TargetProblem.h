//===- TargetProblem.h - target model -> problem resources -----*- C++ -*-===//
//
// Lowers a TargetModel's slots and pools to an RRT layout (a bit per slot
// id, a counter per pool) and an op class's resolved triples to RRT uses: a
// triple on a pool-bound slot claims that pool, any other claims its bit.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_TARGETPROBLEM_H
#define TILEPIPE_SCHEDULER_TARGETPROBLEM_H

#include "scheduler/Problem.h"
#include "target/Target.h"

namespace tilepipe::sched {

rrt::ResourceLayout makeResourceLayout(const target::TargetModel &target);

/// Fills latency, uses, slot ids and flags of `op` from an op class.
void applyOpClass(const target::TargetModel &target,
                  const target::OpClassInfo &cls, const target::OpWork &work,
                  Operation &op);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_TARGETPROBLEM_H
