//===- Driver.cpp ---------------------------------------------------------===//

#include "scheduler/Driver.h"

#include "scheduler/SerialGenerator.h"

using namespace tilepipe;
using namespace tilepipe::sched;

std::optional<ScheduleAnalysis> tilepipe::sched::runScheduler(
    const Problem &problem, const DriverOptions &options, DiagnosticList &diags,
    std::optional<rrt::Bounds> *boundsOut) {
  if (!problem.check(diags))
    return std::nullopt;
  rrt::Bounds bounds = problem.computeBounds();
  if (boundsOut)
    *boundsOut = bounds;
  GeneratorSelection selection = selectGenerator(problem, options.selection, &bounds);

  std::optional<ScheduleAnalysis> analysis;
  if (selection.kind == GeneratorKind::CostBased)
    analysis = generateModuloSchedule(problem, bounds, options.modulo, diags);
  else
    analysis = generateSerialSchedule(problem, diags);
  if (!analysis) {
    diags.error("failed to find a schedule");
    return std::nullopt;
  }
  if (options.stages == StagePolicy::Late &&
      analysis->generator == GeneratorKind::CostBased) {
    // Same II and modulo rows, so the RRT is unchanged; keep the generator's
    // schedule if the sunk one fails verify() anyway.
    Schedule sunk = sinkStages(problem, analysis->toSchedule());
    DiagnosticList ignored;
    if (problem.verify(sunk, ignored))
      *analysis =
          ScheduleAnalysis::fromSchedule(problem, sunk, analysis->generator);
  }
  analysis->bounds = bounds;
  analysis->selectionReason = selection.reason;

  if (analysis->ii <= bounds.mii)
    analysis->optimal = true;
  else if (options.proveOptimal && options.modulo.oracle) {
    // Each II below the one found must be proven empty.
    analysis->optimal = true;
    for (unsigned ii = bounds.mii; ii < analysis->ii; ++ii) {
      std::optional<bool> feasible =
          options.modulo.oracle->feasibleAt(problem, ii);
      if (feasible && *feasible) {
        analysis->optimal = false;
        analysis->smallerFeasibleII = ii;
        break;
      }
      if (!feasible)
        analysis->optimal.reset();
    }
  }

  // A generator bug must never publish an invalid schedule.
  DiagnosticList violations;
  if (!problem.verify(analysis->toSchedule(), violations)) {
    for (const Diagnostic &v : violations.all())
      diags.error("internal error: generated schedule fails verification: " +
                      v.message,
                  v.op);
    return std::nullopt;
  }
  return analysis;
}
