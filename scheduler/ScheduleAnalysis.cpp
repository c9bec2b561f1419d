//===- ScheduleAnalysis.cpp -----------------------------------------------===//

#include "scheduler/ScheduleAnalysis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::sched;

llvm::StringRef tilepipe::sched::stringifyGenerator(GeneratorKind kind) {
  return kind == GeneratorKind::Serial ? "serial" : "cost-based";
}

ScheduleAnalysis
ScheduleAnalysis::fromSchedule(const Problem &problem, const Schedule &schedule,
                               GeneratorKind generator,
                               llvm::ArrayRef<OpId> walkOrder) {
  ScheduleAnalysis result;
  result.success = true;
  result.generator = generator;
  result.ii = schedule.ii;
  unsigned n = problem.getNumOps();
  std::vector<unsigned> rank(n);
  for (unsigned i = 0; i < n; ++i)
    rank[i] = i;
  if (walkOrder.size() == n)
    for (unsigned i = 0; i < n; ++i)
      rank[walkOrder[i]] = i;

  result.orderedOps.resize(n);
  for (unsigned i = 0; i < n; ++i)
    result.orderedOps[i] = i;
  // Stage-major because stage = start / II; ties by walk (program) order.
  llvm::stable_sort(result.orderedOps, [&](OpId a, OpId b) {
    if (schedule.start[a] != schedule.start[b])
      return schedule.start[a] < schedule.start[b];
    return rank[a] < rank[b];
  });
  result.slots.resize(n);
  unsigned maxStage = 0;
  for (unsigned pos = 0; pos < n; ++pos) {
    OpId id = result.orderedOps[pos];
    ScheduleSlot &slot = result.slots[id];
    slot.cycle = schedule.start[id];
    slot.stage = unsigned(schedule.start[id] / schedule.ii);
    slot.order = pos;
    if (generator == GeneratorKind::CostBased) {
      slot.depth = slot.stage;
      slot.moduloCycle = unsigned(schedule.start[id] % schedule.ii);
    }
    maxStage = std::max(maxStage, slot.stage);
  }
  // Seed 001's stage count for the overlapped loop: the iterations in flight
  // until the latest result is available, ceil((max(start + latency) + 1) /
  // II). The serial schedule has one steady-state stage by definition.
  if (generator == GeneratorKind::CostBased && n) {
    int64_t end = 0;
    for (OpId id = 0; id < n; ++id)
      end = std::max(end, schedule.start[id] +
                              problem.getOp(id).latency.value_or(0));
    result.numStages = unsigned((end + 1 + schedule.ii - 1) / schedule.ii);
    result.numStages = std::max(result.numStages, maxStage + 1);
  } else {
    result.numStages = n ? maxStage + 1 : 0;
  }
  result.edges.assign(problem.getDependences().begin(),
                      problem.getDependences().end());
  return result;
}

Schedule ScheduleAnalysis::toSchedule() const {
  Schedule s;
  s.ii = ii;
  s.start.reserve(slots.size());
  for (const ScheduleSlot &slot : slots)
    s.start.push_back(slot.cycle);
  return s;
}

void ScheduleAnalysis::print(llvm::raw_ostream &os, const Problem &problem,
                             const target::TargetModel *target) const {
  os << "generator: " << stringifyGenerator(generator);
  if (!selectionReason.empty())
    os << " (" << selectionReason << ")";
  os << "\n";
  os << "II " << ii << ", MII " << bounds.mii << " (resource " << bounds.resMII
     << ", fine-density " << bounds.fineMII << ", recurrence " << bounds.recMII
     << ", dependency " << bounds.depMII << "), stages " << numStages << "\n";

  // Column widths from the content so the table stays aligned.
  size_t opWidth = 2, classWidth = 5;
  for (const Operation &op : problem.getOps()) {
    opWidth = std::max(opWidth, op.name.size());
    classWidth = std::max(classWidth, op.opClass.size());
  }
  auto pad = [&](llvm::StringRef s, size_t w) {
    os << s;
    for (size_t i = s.size(); i < w + 2; ++i)
      os << ' ';
  };
  pad("op", opWidth);
  pad("class", classWidth);
  os << "   cycle stage order  slots\n";
  for (OpId id : orderedOps) {
    const Operation &op = problem.getOp(id);
    const ScheduleSlot &slot = slots[id];
    pad(op.name, opWidth);
    pad(op.opClass, classWidth);
    os << llvm::format("%8lld %5u %5u  ", (long long)slot.cycle, slot.stage,
                       slot.order);
    bool first = true;
    for (unsigned slotId : op.slotIds) {
      os << (first ? "" : "+");
      first = false;
      const target::SlotInfo *info = target ? target->getSlot(slotId) : nullptr;
      if (info)
        os << info->name;
      else
        os << slotId;
    }
    if (first)
      os << "-";
    os << "\n";
  }
}
