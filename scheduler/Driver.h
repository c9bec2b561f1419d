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
  /// every II in [MII, II) must be proven infeasible. The IIs are asked in
  /// increasing order; the first the oracle shows feasible, when it comes
  /// with a witness that passes verify(), replaces the heuristic's schedule
  /// (cost-based loops only), and is optimal when every II below it was
  /// proven infeasible.
  bool proveOptimal = false;
  /// Wall-clock limit of the whole prove-optimal pass in milliseconds (0:
  /// none); the oracle's own limit applies to each II. IIs not reached are
  /// undecided. The default keeps a loop's proof to seconds: at tile-loop
  /// IIs one undecided II costs the per-II limit.
  uint64_t proveTimeLimitMs = 0;
  /// Work budget of the whole prove-optimal pass, in the exact check's work
  /// units (exact::ExactOptions::work; each II checked costs at least one),
  /// deterministic: it decides where the pass stops, so the verdict is the
  /// same on any machine. proveTimeLimitMs is only a safety net on top.
  uint64_t proveWork = 20000;
  /// The same for the unasked pass that looks for a schedule when the
  /// search ended far above the bound (the rescue): at most this much exact
  /// work and kRescueChecks IIs, bisecting between the bound and the
  /// heuristic's II.
  uint64_t rescueWork = 2000;
  /// Stage assignment of a cost-based schedule: Late sinks every op to the
  /// latest stage its consumers allow (same II, same modulo rows).
  StagePolicy stages = StagePolicy::Late;
  /// The least II searched (0: MII). A caller that rejects the schedules
  /// below it for a reason the problem does not model (the register
  /// budget, scheduler/mlir/RegisterBudget.h) raises it; the analysis keeps
  /// the true bounds and makes no optimality claim.
  unsigned minII = 0;
};

/// What the driver did besides the schedule, for a caller's report.
struct DriverStats {
  IISearchStats search; ///< Of the cost-based generator, when it ran.
  double proveMs = 0;   ///< Time spent proving optimality.
  double stageMs = 0;   ///< Time spent on the stage policy.
  /// Set when the exact check's schedule replaced the heuristic's: the II
  /// the heuristic had found.
  std::optional<unsigned> heuristicII;
  /// --prove-optimal: the IIs below the result it could not decide, as
  /// [first, last] ranges, and what stopped it at each kind of limit (the
  /// exact check's own reason, or the pass's time limit).
  std::vector<std::pair<unsigned, unsigned>> undecided;
  std::vector<std::string> undecidedWhy;
  /// The result was far above the bound and, unasked, the exact check's
  /// upward pass ran within the search's remaining budget.
  bool rescued = false;
};

/// Returns the verified schedule, or nullopt with errors in `diags`.
/// `bounds`, when given, receives the lower bounds as soon as they are
/// known, so a caller can report them for a loop that fails to schedule.
std::optional<ScheduleAnalysis> runScheduler(
    const Problem &problem, const DriverOptions &options, DiagnosticList &diags,
    std::optional<rrt::Bounds> *bounds = nullptr, DriverStats *stats = nullptr);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_DRIVER_H
