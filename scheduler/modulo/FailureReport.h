//===- FailureReport.h - explaining a failed II search ---------*- C++ -*-===//
//
// Turns the last failed attempt into one error with notes: the candidate II
// and why the attempt stopped, the exact check's verdict at that II, the
// op's length and claims, its dependence window and stage, its constraint
// group, and the RRT row that refused (which slot or pool, and what the row
// holds). The verdict says whether the failure is proven or heuristic.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MODULO_FAILUREREPORT_H
#define TILEPIPE_SCHEDULER_MODULO_FAILUREREPORT_H

#include "scheduler/FeasibilityOracle.h"
#include "scheduler/modulo/Engine.h"

namespace tilepipe::sched::modulo {

void reportFailure(const Problem &problem, const rrt::Bounds &bounds,
                   unsigned cap, AttemptFailure failure,
                   FeasibilityOracle *oracle, DiagnosticList &diags);

} // namespace tilepipe::sched::modulo

#endif // TILEPIPE_SCHEDULER_MODULO_FAILUREREPORT_H
