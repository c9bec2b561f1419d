//===- Driver.h - check, bound, select, generate, verify -------*- C++ -*-===//
//
// The whole scheduling flow on one Problem, shared by the MLIR pass and the
// `tilepipe schedule` command: check() the input, compute the lower bounds,
// select a generator, run it, verify() the result. A returned analysis has
// always passed verify().
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_DRIVER_H
#define TILEPIPE_SCHEDULER_DRIVER_H

#include "scheduler/GeneratorSelection.h"
#include "scheduler/ModuloScheduler.h"
#include "scheduler/StageSink.h"

namespace tilepipe::sched {

struct DriverOptions {
  SelectionOptions selection;
  ModuloOptions modulo;
  /// Certify the II the cost-based generator found with modulo.oracle:
  /// every II in [MII, II) must be proven infeasible.
  bool proveOptimal = false;
  /// Stage assignment of a cost-based schedule: Late sinks every op to the
  /// latest stage its consumers allow (same II, same modulo rows).
  StagePolicy stages = StagePolicy::Late;
};

/// Returns the verified schedule, or nullopt with errors in `diags`.
/// `bounds`, when given, receives the lower bounds as soon as they are
/// known, so a caller can report them for a loop that fails to schedule.
std::optional<ScheduleAnalysis>
runScheduler(const Problem &problem, const DriverOptions &options,
             DiagnosticList &diags,
             std::optional<rrt::Bounds> *bounds = nullptr);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_DRIVER_H
