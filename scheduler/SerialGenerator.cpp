//===- SerialGenerator.cpp - Kahn walk, stage 0 ---------------------------===//

#include "scheduler/SerialGenerator.h"

using namespace tilepipe;
using namespace tilepipe::sched;

std::optional<ScheduleAnalysis>
tilepipe::sched::generateSerialSchedule(const Problem &problem,
                                        DiagnosticList &diags) {
  const unsigned n = problem.getNumOps();
  // Loop-carried dependences (distance > 0) do not order ops within one
  // iteration; the serial II covers them (see below).
  std::vector<OpId> walk;
  std::vector<OpId> left = problem.programOrderWalk(walk);
  if (!left.empty()) {
    diags.error("serial generator: dependence cycle within one iteration; "
                "ops left unscheduled: " +
                    problem.describeOps(left),
                left.front());
    return std::nullopt;
  }
  // Each op starts when the previous one has finished and released its
  // footprint, so no two ops ever share a cycle.
  Schedule schedule;
  schedule.start.assign(n, 0);
  int64_t cycle = 0;
  for (OpId id : walk) {
    schedule.start[id] = cycle;
    cycle += problem.stepLength(id);
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
