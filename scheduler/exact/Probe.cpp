//===- Probe.cpp - the cost-based generator on the projection -------------===//

#include "scheduler/exact/Probe.h"
#include "scheduler/exact/Projection.h"

#include "scheduler/ModuloScheduler.h"

using namespace tilepipe;
using namespace tilepipe::sched;

std::optional<Schedule> exact::seatWithGenerator(const Problem &reduced,
                                                 unsigned ii, uint64_t work) {
  rrt::Bounds bounds = reduced.computeBounds();
  if (ii == 0 || bounds.mii > ii)
    return std::nullopt;
  // One candidate: the search starts and stops at `ii`. The evicting rungs
  // run whatever the size (the projection is small).
  bounds.mii = ii;
  ModuloOptions options;
  options.iiCap = ii;
  options.search = IISearch::Linear;
  options.timeLimitMs = 0;
  options.workLimit = work * kPlacementWorkPerUnit;
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
                                              unsigned ii, uint64_t work) {
  std::optional<RefusableProjection> refusable =
      projectOntoRefusable(problem, ii, kMaxSeatedOps);
  if (!refusable || !refusable->result.projection)
    return std::nullopt;
  const Projection &p = *refusable->result.projection;
  std::optional<Schedule> seated = seatWithGenerator(p.reduced, ii, work);
  if (!seated)
    return std::nullopt;
  return extendWitness(problem, p, *seated);
}
