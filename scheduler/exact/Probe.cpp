//===- Probe.cpp - the cost-based generator on the projection -------------===//

#include "scheduler/exact/Probe.h"
#include "scheduler/exact/Model.h"
#include "scheduler/exact/Projection.h"

#include "scheduler/ModuloScheduler.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilepipe;
using namespace tilepipe::sched;

std::optional<Schedule> exact::seatWithGenerator(const Problem &reduced,
                                                 unsigned ii, unsigned timeMs) {
  rrt::Bounds bounds = reduced.computeBounds();
  if (ii == 0 || bounds.mii > ii)
    return std::nullopt;
  // One candidate: the search starts and stops at `ii`. The evicting rungs
  // run whatever the size (the projection is small).
  bounds.mii = ii;
  ModuloOptions options;
  options.iiCap = ii;
  options.search = IISearch::Linear;
  options.timeLimitMs = timeMs;
  options.evictingRungs = true;
  DiagnosticList diags;
  IISearchStats stats;
  std::optional<ScheduleAnalysis> seated =
      generateModuloSchedule(reduced, bounds, options, diags, &stats);
  if (!seated || seated->ii != ii || stats.serialFallback)
    return std::nullopt;
  return seated->toSchedule();
}

std::optional<Schedule> exact::seatProjection(const Problem &problem,
                                              unsigned ii, unsigned timeMs) {
  if (ii == 0 || problem.getNumOps() > kMaxProjectedOps || malformed(problem) ||
      hasPlacementConstraints(problem))
    return std::nullopt;
  std::optional<std::vector<std::vector<unsigned>>> claimed =
      claimedResources(problem, ii);
  if (!claimed)
    return std::nullopt;
  std::vector<bool> keep(claimed->size());
  for (size_t i = 0; i < claimed->size(); ++i)
    keep[i] = !(*claimed)[i].empty();
  if (size_t(llvm::count(keep, true)) > kMaxSeatedOps)
    return std::nullopt;
  ProjectionResult projected = projectOntoClaims(problem, ii, keep);
  if (!projected.projection)
    return std::nullopt;
  std::optional<Schedule> seated =
      seatWithGenerator(projected.projection->reduced, ii, timeMs);
  if (!seated)
    return std::nullopt;
  std::optional<Schedule> whole =
      extendWitness(problem, *projected.projection, *seated);
  DiagnosticList ignored;
  if (!whole || !problem.verify(*whole, ignored))
    return std::nullopt;
  return whole;
}
