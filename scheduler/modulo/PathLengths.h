//===- PathLengths.h - longest paths at one candidate II -------*- C++ -*-===//
//
// The quantities the placement priorities read, all longest paths over the
// dependences with weights latency - II * distance: an op's height (to any
// op after it), ASAP and ALAP starts, and the deadline its successors'
// max_depth caps impose. They depend on the problem and the II only, so
// they are computed once per candidate II and shared by every rung of the
// strategy ladder.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MODULO_PATHLENGTHS_H
#define TILEPIPE_SCHEDULER_MODULO_PATHLENGTHS_H

#include "scheduler/Problem.h"

#include <cstdint>
#include <vector>

namespace tilepipe::sched::modulo {

struct PathLengths {
  std::vector<int64_t> height;
  std::vector<int64_t> asap;
  /// Latest start from the latest ASAP, tightened by the deadlines.
  std::vector<int64_t> alap;
  /// Latest start the max_depth caps allow (INT64_MAX: none).
  std::vector<int64_t> deadline;

  /// Exact longest paths at an II without positive cycles. Each relaxation
  /// pass sweeps the ops in topological order of the distance-0 edges, so
  /// the passes needed are one plus the carried edges on a longest path
  /// (not its length), and stop at the fixpoint.
  static PathLengths compute(const Problem &problem, unsigned ii);
};

} // namespace tilepipe::sched::modulo

#endif // TILEPIPE_SCHEDULER_MODULO_PATHLENGTHS_H
