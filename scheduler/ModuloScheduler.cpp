//===- ModuloScheduler.cpp - candidate-II search and placement ------------===//

#include "scheduler/ModuloScheduler.h"

using namespace tilepipe;
using namespace tilepipe::sched;

std::optional<ScheduleAnalysis>
tilepipe::sched::generateModuloSchedule(const Problem &problem,
                                        const rrt::Bounds &bounds,
                                        const ModuloOptions &options,
                                        DiagnosticList &diags) {
  diags.error("the cost-based generator is not available in this build");
  return std::nullopt;
}
