//===- ModuloScheduler.h - the cost-based modulo generator -----*- C++ -*-===//
//
// Seeds 001/002's cost-based generator: a candidate-II search from the lower
// bound upward, and per candidate a placement of every op into the RRT.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MODULOSCHEDULER_H
#define TILEPIPE_SCHEDULER_MODULOSCHEDULER_H

#include "scheduler/FeasibilityOracle.h"
#include "scheduler/ScheduleAnalysis.h"

#include <cstdint>

namespace tilepipe::sched {

enum class IISearch { Linear, Gallop };

/// The placement arms; each can be switched off to measure its share.
enum ArmMask : unsigned {
  ArmPermute = 1u << 0,
  ArmFuse = 1u << 1,
  ArmRetry = 1u << 2,
  ArmCostBased = 1u << 3,
  ArmAll = ArmPermute | ArmFuse | ArmRetry | ArmCostBased,
};

struct ModuloOptions {
  IISearch search = IISearch::Linear;
  /// Largest II tried; 0 means the serial length (design.md decision 3).
  unsigned iiCap = 0;
  unsigned arms = ArmAll;
  /// Permutations the permute arm tries per ready set before sampling.
  unsigned permuteBudget = 24;
  /// Placement steps per candidate II before it is given up (0: automatic).
  uint64_t budget = 0;
  uint64_t seed = 0x5eed;
  /// Decides an II exactly where it can: used to mark a failure proven or
  /// heuristic, and by the driver's prove-optimal. Not owned; may be null.
  FeasibilityOracle *oracle = nullptr;
};

/// Returns the schedule at the smallest II the heuristic seats (linear
/// search), or nullopt with a diagnostic explaining the failure.
std::optional<ScheduleAnalysis>
generateModuloSchedule(const Problem &problem, const rrt::Bounds &bounds,
                       const ModuloOptions &options, DiagnosticList &diags);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_MODULOSCHEDULER_H
