//===- SerialGenerator.cpp - Kahn walk, stage 0 ---------------------------===//

#include "scheduler/SerialGenerator.h"

#include "llvm/ADT/StringExtras.h"

#include <functional>
#include <queue>

using namespace tilepipe;
using namespace tilepipe::sched;

std::optional<ScheduleAnalysis>
tilepipe::sched::generateSerialSchedule(const Problem &problem,
                                        DiagnosticList &diags) {
  const unsigned n = problem.getNumOps();
  std::vector<unsigned> indeg(n, 0);
  std::vector<std::vector<OpId>> succ(n);
  // Loop-carried dependences (distance > 0) do not order ops within one
  // iteration; the serial II covers them (see below).
  for (const Dependence &d : problem.getDependences())
    if (d.distance == 0) {
      succ[d.src].push_back(d.dst);
      ++indeg[d.dst];
    }

  // Ready ops pop in program order (smallest id first).
  std::priority_queue<OpId, std::vector<OpId>, std::greater<OpId>> ready;
  for (OpId id = 0; id < n; ++id)
    if (!indeg[id])
      ready.push(id);

  std::vector<OpId> walk;
  walk.reserve(n);
  Schedule schedule;
  schedule.start.assign(n, 0);
  int64_t cycle = 0;
  while (!ready.empty()) {
    OpId id = ready.top();
    ready.pop();
    walk.push_back(id);
    // Each op starts when the previous one has finished and released its
    // footprint, so no two ops ever share a cycle.
    schedule.start[id] = cycle;
    cycle += problem.stepLength(id);
    for (OpId s : succ[id])
      if (--indeg[s] == 0)
        ready.push(s);
  }

  if (walk.size() != n) {
    std::vector<std::string> names;
    std::optional<OpId> first;
    for (OpId id = 0; id < n; ++id)
      if (indeg[id]) {
        if (!first)
          first = id;
        if (names.size() < 8)
          names.push_back("'" + problem.getOp(id).name + "'");
      }
    diags.error("serial generator: dependence cycle within one iteration; "
                "ops left unscheduled: " +
                    llvm::join(names, ", "),
                first);
    return std::nullopt;
  }

  // Every op of an iteration finishes by the serial length, so iterations
  // never overlap and every loop-carried dependence holds at this II.
  schedule.ii = unsigned(std::max<int64_t>(cycle, 1));
  ScheduleAnalysis analysis = ScheduleAnalysis::fromSchedule(
      problem, schedule, GeneratorKind::Serial, walk);

  // All ops sit at depth 0, which satisfies every max_depth and same-depth
  // group; anything verify() still rejects is named, never dropped.
  DiagnosticList violations;
  if (!problem.verify(schedule, violations))
    for (const Diagnostic &v : violations.all())
      diags.warning(
          "serial generator could not honour a constraint: " + v.message, v.op);
  return analysis;
}
