//===- ScheduleAnalysis.cpp -----------------------------------------------===//

#include "scheduler/ScheduleAnalysis.h"
#include "scheduler/stages/BufferCost.h"

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

namespace {
/// How a user names the unit behind an RRT resource. Display only: the
/// scheduler never reads these; an unknown resource is shown by its name.
llvm::StringRef unitWords(llvm::StringRef resource) {
  static const std::pair<const char *, const char *> table[] = {
      {"tc_and_mma", "tensor core"},
      {"tp_mma", "tensor-core operand path"},
      {"xu", "MUFU"},
      {"xu64", "MUFU (64-bit)"},
      {"tma", "TMA/HBM"},
      {"tp_gnic_rd", "L2 -> SM"},
      {"tp_gnic_wr", "SM -> L2"},
      {"tp_smem_rd", "SMEM read port"},
      {"tp_smem_wr", "SMEM write port"},
      {"tp_tmem_rd", "TMEM read port"},
      {"tp_tmem_wr", "TMEM write port"},
      {"lsu", "load/store unit"},
      {"alu_fma_issue", "FMA pipes"},
      {"alu_fma_fanout", "FMA fan-out"},
      {"dual_alu_fanout", "dual ALU"},
      {"dual_issue", "FP32x2 issue"},
      {"coarse_issue", "issue"},
  };
  for (auto [name, words] : table)
    if (resource == name)
      return words;
  return resource;
}
} // namespace

std::vector<UnitDemand> tilepipe::sched::rankUnits(const Problem &problem) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  unsigned numBits = layout.numBits();
  std::vector<UnitDemand> units(numBits + layout.numPools());
  std::vector<uint64_t> poolUnitCycles(layout.numPools(), 0);
  for (unsigned i = 0; i < numBits; ++i)
    units[i].resource = layout.bitNames[i];
  for (unsigned p = 0; p < layout.numPools(); ++p)
    units[numBits + p].resource = layout.poolNames[p];
  for (const Operation &op : problem.getOps())
    for (const rrt::Use &use : op.uses) {
      bool bit = use.kind == rrt::Use::Kind::Bit;
      unsigned index = bit ? use.index : numBits + use.index;
      if (index >= units.size())
        continue;
      if (bit)
        units[index].cycles += use.duration;
      else
        poolUnitCycles[use.index] += uint64_t(use.duration) * use.amount;
      std::vector<std::string> &classes = units[index].opClasses;
      if (!op.opClass.empty() && !llvm::is_contained(classes, op.opClass))
        classes.push_back(op.opClass);
    }
  for (unsigned p = 0; p < layout.numPools(); ++p) {
    uint64_t cap = std::max(1u, layout.poolCaps[p]);
    units[numBits + p].cycles = (poolUnitCycles[p] + cap - 1) / cap;
  }
  std::vector<UnitDemand> ranked;
  for (unsigned i = 0; i < units.size(); ++i) {
    bool binding = i < numBits || layout.poolBinding[i - numBits];
    if (binding && units[i].cycles) {
      units[i].unit = unitWords(units[i].resource).str();
      ranked.push_back(std::move(units[i]));
    }
  }
  llvm::stable_sort(ranked, [](const UnitDemand &a, const UnitDemand &b) {
    return a.cycles > b.cycles;
  });
  return ranked;
}

std::string tilepipe::sched::describeUnit(const UnitDemand &demand) {
  std::string text = demand.unit.empty() ? demand.resource : demand.unit;
  if (demand.unit == demand.resource)
    return text;
  text += " (" + demand.resource;
  for (size_t i = 0; i < demand.opClasses.size(); ++i)
    text += (i ? ", " : ": ") + demand.opClasses[i];
  return text + ")";
}

double tilepipe::sched::impliedTFLOPs(int64_t flopsPerIteration, unsigned ii,
                                      unsigned clockMHz, unsigned smCount) {
  if (!ii)
    return 0;
  return double(flopsPerIteration) / double(ii) * double(clockMHz) * 1e6 *
         double(smCount) / 1e12;
}

/// Why a schedule's II is above every bound: the generator, a proof, a
/// group bound that does not see the units, or the placement.
static llvm::StringRef aboveBoundReason(GeneratorKind generator,
                                        std::optional<bool> optimal,
                                        bool groupBinds) {
  if (generator == GeneratorKind::Serial)
    return "the serial generator does not overlap iterations";
  if (optimal && *optimal)
    return "no schedule exists below it, proven by the exact check: the "
           "bound misses an interaction of constraints";
  if (groupBinds)
    return "not proven optimal: the group bound counts the path between two "
           "members, not how their shared stage meets the units; "
           "prove-optimal decides";
  return "the placement did not reach the bound";
}

/// The pair bound's line (rrt::computePairMII): the two units it couples,
/// and why their sum is not the busiest unit's demand.
static void printPairBinding(llvm::raw_ostream &os, const rrt::Bounds &bounds,
                             unsigned ii) {
  auto [first, second] = llvm::StringRef(bounds.resBottleneck).split('+');
  os << unitWords(first) << " and " << unitWords(second) << " together ("
     << bounds.resBottleneck << "), " << bounds.resMII << " of " << ii
     << " cycles: an op holding both takes " << second << " when it takes "
     << first << " and keeps it longer, and an op holding " << first
     << " alone overlaps " << second << " only in such a tail";
}

/// The units a recurrence runs through (not the transport paths), so the
/// line names what a kernel's authors would: FA4's tensor core and MUFU.
static void printCycleUnits(llvm::raw_ostream &os, const Problem &problem,
                            const rrt::Bounds &bounds) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  std::vector<std::string> through;
  for (unsigned id : bounds.criticalCycle) {
    if (id >= problem.getNumOps())
      continue;
    const Operation &op = problem.getOp(id);
    for (const rrt::Use &use : op.uses) {
      if (use.kind != rrt::Use::Kind::Bit || use.index >= layout.numBits())
        continue;
      llvm::StringRef bit = layout.bitNames[use.index];
      llvm::StringRef words = unitWords(bit);
      if (words == bit || bit.starts_with("tp_"))
        continue;
      std::string entry = (words + " (" + op.opClass + ")").str();
      if (!llvm::is_contained(through, entry))
        through.push_back(entry);
    }
  }
  for (size_t i = 0; i < through.size(); ++i)
    os << (i ? ", " : " through ") << through[i];
}

/// The busiest unit and the runner-up, skipping shadows of the binding unit
/// (held by the same classes for as long: tp_mma beside tc_and_mma).
static void printBusiestUnits(llvm::raw_ostream &os,
                              llvm::ArrayRef<UnitDemand> units, unsigned ii) {
  const uint64_t busiest = units.front().cycles;
  os << describeUnit(units.front()) << ", " << busiest << " of " << ii
     << " cycles";
  for (size_t i = 1; i < units.size(); ++i) {
    if (units[i].opClasses == units.front().opClasses &&
        units[i].cycles == busiest)
      continue;
    os << "; next: " << describeUnit(units[i]) << ", " << units[i].cycles;
    break;
  }
}

/// What binds the II: the busiest unit, or the recurrence when it asks for
/// more. A schedule above both (serial, or a heuristic miss) says so.
static void printBinding(llvm::raw_ostream &os, const Problem &problem,
                         const ScheduleAnalysis &analysis) {
  const rrt::Bounds &bounds = analysis.bounds;
  const unsigned ii = analysis.ii;
  std::vector<UnitDemand> units = rankUnits(problem);
  uint64_t busiest = units.empty() ? 0 : units.front().cycles;
  os << "binding unit: ";
  if (bounds.depMII > busiest && bounds.depMII > bounds.recMII) {
    os << "dependency depth (" << bounds.depMII
       << (bounds.depFromGroup
               ? " cycles: a path between two members of a same-depth "
                 "constraint group, which share one stage)"
               : " cycles: a max_depth constraint against its op's latency)");
  } else if (bounds.recMII > busiest) {
    os << "recurrence (" << bounds.recMII << " cycles per iteration";
    if (!bounds.criticalCycle.empty())
      os << ": " << problem.describeOps(bounds.criticalCycle);
    os << ")";
    printCycleUnits(os, problem, bounds);
  } else if (bounds.resFromPair && bounds.resMII > busiest) {
    printPairBinding(os, bounds, ii);
  } else if (!units.empty()) {
    printBusiestUnits(os, units, ii);
  } else {
    os << "none";
  }
  uint64_t bound = std::max<uint64_t>({busiest, bounds.recMII, bounds.depMII});
  if (bounds.resFromPair)
    bound = std::max<uint64_t>(bound, bounds.resMII);
  if (ii > bound)
    os << " (II " << ii << " is above it: "
       << aboveBoundReason(analysis.generator, analysis.optimal,
                           bounds.depFromGroup && bound == bounds.depMII)
       << ")";
  os << "\n";
}

static void printThroughput(llvm::raw_ostream &os, unsigned ii,
                            const target::TargetModel *target,
                            std::optional<int64_t> flopsPerIteration) {
  if (!flopsPerIteration || !target || *flopsPerIteration <= 0)
    return;
  const target::ChipInfo &chip = target->getChip();
  os << "throughput: " << *flopsPerIteration << " FLOP per iteration / " << ii
     << " cycles x " << llvm::format("%.3f", chip.clockMHz / 1000.0)
     << " GHz x " << chip.smCount << " SMs = "
     << llvm::format("%.1f", impliedTFLOPs(*flopsPerIteration, ii,
                                           chip.clockMHz, chip.smCount))
     << " TFLOP/s\n";
}

/// What a value buffers under these stages (stages/BufferCost.h): SMEM and
/// TMEM the pipe slots the materializer gives it, registers the bytes held
/// across stage boundaries.
static std::string bufferedText(const Operation &op,
                                std::optional<int64_t> distance) {
  if (!distance || op.resultBytes == 0)
    return "-";
  std::string bytes = std::to_string(bufferedBytesOf(op, *distance));
  switch (op.resultMemory) {
  case ValueMemory::Smem:
    return "smem " + bytes + " B";
  case ValueMemory::Tmem:
    return "tmem " + bytes + " B";
  case ValueMemory::Register:
    return "reg " + bytes + " B";
  }
  return "-";
}

/// Each op's slots ("tma+tp_gnic_rd"), spelled once for width and row.
static std::vector<std::string> slotTexts(const Problem &problem,
                                          const target::TargetModel *target) {
  std::vector<std::string> slotText(problem.getNumOps());
  for (OpId id = 0, e = problem.getNumOps(); id < e; ++id) {
    std::string &text = slotText[id];
    for (unsigned slotId : problem.getOp(id).slotIds) {
      const target::SlotInfo *info = target ? target->getSlot(slotId) : nullptr;
      text += (text.empty() ? "" : "+") +
              (info ? info->name : std::to_string(slotId));
    }
    if (text.empty())
      text = "-";
  }
  return slotText;
}

/// The table, one row per op in order, column widths from the content so
/// it stays aligned.
static void printOpTable(llvm::raw_ostream &os, const Problem &problem,
                         const ScheduleAnalysis &analysis,
                         const target::TargetModel *target,
                         const Schedule &schedule) {
  size_t opWidth = 2, classWidth = 5, slotsWidth = 5;
  for (const Operation &op : problem.getOps()) {
    opWidth = std::max(opWidth, op.name.size());
    classWidth = std::max(classWidth, op.opClass.size());
  }
  std::vector<std::string> slotText = slotTexts(problem, target);
  for (const std::string &text : slotText)
    slotsWidth = std::max(slotsWidth, text.size());
  auto pad = [&](llvm::StringRef s, size_t w) {
    os << s;
    for (size_t i = s.size(); i < w + 2; ++i)
      os << ' ';
  };
  std::vector<std::optional<int64_t>> distances =
      valueStageDistances(problem, schedule);
  pad("op", opWidth);
  pad("class", classWidth);
  os << "   cycle stage order  ";
  pad("slots", slotsWidth);
  os << "buffered\n";
  for (OpId id : analysis.orderedOps) {
    const Operation &op = problem.getOp(id);
    const ScheduleSlot &slot = analysis.slots[id];
    pad(op.name, opWidth);
    pad(op.opClass, classWidth);
    os << llvm::format("%8lld %5u %5u  ", (long long)slot.cycle, slot.stage,
                       slot.order);
    pad(slotText[id], slotsWidth);
    os << bufferedText(op, distances[id]) << "\n";
  }
}

void ScheduleAnalysis::print(llvm::raw_ostream &os, const Problem &problem,
                             const target::TargetModel *target,
                             std::optional<int64_t> flopsPerIteration) const {
  os << "generator: " << stringifyGenerator(generator);
  if (!selectionReason.empty())
    os << " (" << selectionReason << ")";
  os << "\n";
  os << "II " << ii << ", MII " << bounds.mii << " (resource " << bounds.resMII
     << ", fine-density " << bounds.fineMII << ", recurrence " << bounds.recMII
     << ", dependency " << bounds.depMII << "), stages " << numStages << "\n";
  printBinding(os, problem, *this);
  printThroughput(os, ii, target, flopsPerIteration);
  Schedule schedule = toSchedule();
  printOpTable(os, problem, *this, target, schedule);
  BufferedBytes total = bufferedBytes(problem, schedule);
  os << "buffered: smem " << total.smem << " B, tmem " << total.tmem
     << " B (pipe slots at their minimum depths), registers " << total.registers
     << " B across stage boundaries\n";
}
