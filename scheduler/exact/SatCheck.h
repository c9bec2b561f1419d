//===- SatCheck.h - the exact model as CNF, decided by CaDiCaL -*- C++ -*-===//
//
// The model of docs/exact-check.md in clauses: rows and stages in the order
// encoding ([r >= q], [k >= v]) with per-op stage windows from longest paths,
// each dependence as implications between those literals guarded by the row
// differences, every RRT row of every resource as a (weighted) sequential
// counter over the one-hot row literals. Force-serial problems are left to
// Z3 (Unknown here).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_EXACT_SATCHECK_H
#define TILEPIPE_SCHEDULER_EXACT_SATCHECK_H

#include "scheduler/exact/Model.h"

namespace tilepipe::sched::exact {

ExactResult solveSat(const Problem &problem, const ModelInput &in,
                     const ExactOptions &opts);

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_SATCHECK_H
