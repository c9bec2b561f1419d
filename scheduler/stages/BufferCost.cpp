//===- BufferCost.cpp - bytes a stage assignment buffers ------------------===//

#include "scheduler/stages/BufferCost.h"

using namespace tilepipe;
using namespace tilepipe::sched;

std::optional<int64_t>
tilepipe::sched::valueStageDistance(const Problem &problem,
                                    const Schedule &schedule, OpId op) {
  const int64_t ii = schedule.ii;
  std::optional<int64_t> latest;
  for (const Dependence &d : problem.getDependences())
    if (d.src == op && d.dst != op) {
      int64_t use = schedule.start[d.dst] / ii + int64_t(d.distance);
      latest = latest ? std::max(*latest, use) : use;
    }
  if (!latest)
    return std::nullopt;
  return *latest - schedule.start[op] / ii;
}

BufferedBytes tilepipe::sched::bufferedBytes(const Problem &problem,
                                             const Schedule &schedule) {
  const int64_t ii = schedule.ii;
  // One pass over the dependences: the latest use per producer.
  std::vector<std::optional<int64_t>> latest(problem.getNumOps());
  for (const Dependence &d : problem.getDependences())
    if (d.dst != d.src) {
      int64_t use = schedule.start[d.dst] / ii + int64_t(d.distance);
      std::optional<int64_t> &l = latest[d.src];
      l = l ? std::max(*l, use) : use;
    }
  BufferedBytes out;
  for (OpId id = 0, e = problem.getNumOps(); id < e; ++id) {
    if (!latest[id])
      continue;
    int64_t distance = *latest[id] - schedule.start[id] / ii;
    const Operation &op = problem.getOp(id);
    switch (op.resultMemory) {
    case ValueMemory::Smem:
      out.smem += op.resultBytes * (distance + 1);
      break;
    case ValueMemory::Tmem:
      out.tmem += op.resultBytes * (distance + 1);
      break;
    case ValueMemory::Register:
      out.registers += op.resultBytes * distance;
      break;
    }
  }
  return out;
}
