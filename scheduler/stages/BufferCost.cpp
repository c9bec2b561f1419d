//===- BufferCost.cpp - bytes a stage assignment buffers ------------------===//

#include "scheduler/stages/BufferCost.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

using namespace tilepipe;
using namespace tilepipe::sched;

std::vector<std::optional<int64_t>>
tilepipe::sched::valueStageDistances(const Problem &problem,
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
  for (OpId id = 0, e = problem.getNumOps(); id < e; ++id)
    if (latest[id])
      *latest[id] -= schedule.start[id] / ii;
  return latest;
}

int64_t tilepipe::sched::bufferedBytesOf(const Operation &op,
                                         int64_t distance) {
  int64_t times =
      op.resultMemory == ValueMemory::Register ? distance : distance + 1;
  bool overflow = false;
  uint64_t r = llvm::SaturatingMultiply(
      uint64_t(std::max<int64_t>(0, op.resultBytes)),
      uint64_t(std::max<int64_t>(0, times)), &overflow);
  return int64_t(std::min<uint64_t>(r, uint64_t(INT64_MAX)));
}

BufferedBytes tilepipe::sched::bufferedBytes(const Problem &problem,
                                             const Schedule &schedule) {
  std::vector<std::optional<int64_t>> distances =
      valueStageDistances(problem, schedule);
  BufferedBytes out;
  // Saturating: a pathological loop reports "huge", never a wrapped sum.
  auto add = [](int64_t &sum, int64_t bytes) {
    sum = bytes > INT64_MAX - sum ? INT64_MAX : sum + bytes;
  };
  for (OpId id = 0, e = problem.getNumOps(); id < e; ++id) {
    if (!distances[id])
      continue;
    const Operation &op = problem.getOp(id);
    int64_t bytes = bufferedBytesOf(op, *distances[id]);
    switch (op.resultMemory) {
    case ValueMemory::Smem:
      add(out.smem, bytes);
      break;
    case ValueMemory::Tmem:
      add(out.tmem, bytes);
      break;
    case ValueMemory::Register:
      add(out.registers, bytes);
      break;
    }
  }
  return out;
}
