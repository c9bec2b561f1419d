//===- StageSink.cpp ------------------------------------------------------===//

#include "scheduler/StageSink.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::sched;

Schedule tilepipe::sched::sinkStages(const Problem &problem,
                                     const Schedule &schedule) {
  Schedule out = schedule;
  const unsigned n = problem.getNumOps();
  const int64_t ii = schedule.ii;
  if (!ii || n == 0 || schedule.start.size() != n || problem.isForceSerial())
    return out;

  // Bounds no op may cross: the last stage and the latest completion.
  int64_t lastStage = 0, end = 0;
  for (OpId id = 0; id < n; ++id) {
    lastStage = std::max(lastStage, schedule.start[id] / ii);
    end = std::max(end, schedule.start[id] +
                            problem.getOp(id).latency.value_or(0));
  }

  std::vector<std::vector<const Dependence *>> succs(n);
  std::vector<unsigned> numPreds(n, 0);
  for (const Dependence &dep : problem.getDependences())
    if (dep.src != dep.dst && dep.src < n && dep.dst < n) {
      succs[dep.src].push_back(&dep);
      ++numPreds[dep.dst];
    }

  const ConstraintGroups &groups = problem.getGroups();
  // Moving a consumer later relaxes its producers: sweep until nothing
  // moves. Starts only grow and are bounded, so this terminates.
  for (bool changed = true; changed;) {
    changed = false;
    for (OpId u = n; u-- > 0;) {
      // Moving u by k stages shortens each outgoing edge by k and lengthens
      // each incoming one by k: only ops with at least as many consumers as
      // producers move, so the total lifetime never grows.
      if (succs[u].empty() || numPreds[u] > succs[u].size() ||
          groups.groupOf(u))
        continue;
      const Operation &op = problem.getOp(u);
      int64_t cur = out.start[u];
      int64_t limit = end - op.latency.value_or(0);
      for (const Dependence *dep : succs[u])
        limit = std::min(limit, out.start[dep->dst] +
                                    int64_t(dep->distance) * ii -
                                    dep->latency);
      int64_t maxStage = lastStage;
      if (op.constraints.maxDepth)
        maxStage = std::min<int64_t>(maxStage, *op.constraints.maxDepth);
      int64_t row = cur % ii;
      limit = std::min(limit, maxStage * ii + row);
      if (limit <= cur)
        continue;
      int64_t shift = (limit - cur) / ii;
      if (shift > 0) {
        out.start[u] = cur + shift * ii;
        changed = true;
      }
    }
  }
  return out;
}

int64_t tilepipe::sched::totalStageLifetime(const Problem &problem,
                                            const Schedule &schedule) {
  int64_t total = 0;
  const int64_t ii = schedule.ii;
  if (!ii)
    return 0;
  for (const Dependence &dep : problem.getDependences())
    if (dep.src != dep.dst)
      total += schedule.start[dep.dst] / ii + int64_t(dep.distance) -
               schedule.start[dep.src] / ii;
  return total;
}
