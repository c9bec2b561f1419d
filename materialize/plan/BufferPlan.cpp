//===- BufferPlan.cpp - lifetimes, depths, budgets, sharing ---------------===//

#include "materialize/plan/BufferPlan.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>

using namespace tilepipe;
using namespace tilepipe::materialize;

llvm::StringRef materialize::stringifyUnit(Unit unit) {
  switch (unit) {
  case Unit::TMA:
    return "tma";
  case Unit::UMMA:
    return "umma";
  case Unit::SIMT:
    return "simt";
  case Unit::CpAsync:
    return "cpasync";
  case Unit::TMAStore:
    return "tma_store";
  }
  return "simt";
}

llvm::StringRef materialize::stringifyBufferClass(BufferClass cls) {
  switch (cls) {
  case BufferClass::SMEM:
    return "smem";
  case BufferClass::TMEM:
    return "tmem";
  case BufferClass::Register:
    return "reg";
  }
  return "reg";
}

// TMEM is allocated in whole power-of-two column counts of at least 32.
static int64_t tmemAllocation(int64_t columns) {
  if (columns <= 0)
    return 0;
  int64_t alloc = 32;
  while (alloc < columns)
    alloc *= 2;
  return alloc;
}

namespace {

struct Totals {
  int64_t smem = 0, tmemCols = 0;
};

Totals totals(const std::vector<PipePlan> &pipes, int64_t fixedTmem) {
  Totals t;
  t.tmemCols = fixedTmem;
  for (const PipePlan &p : pipes) {
    if (!p.ownsBuffers())
      continue;
    if (p.cls == BufferClass::SMEM)
      t.smem += p.slotStride() * p.depth;
    else if (p.cls == BufferClass::TMEM)
      t.tmemCols += p.tmemColumns * p.depth;
  }
  t.tmemCols = tmemAllocation(t.tmemCols);
  return t;
}

/// One planning run: the input, its schedule and the pipes planned so far.
/// The steps run in the order of planBuffers; each says why it exists.
class BufferPlanner {
public:
  BufferPlanner(const PlanInput &in, sched::DiagnosticList &diags)
      : in(in), s(*in.schedule), ii(s.ii), diags(diags),
        smemBudget(in.caps.smemBytes - in.smemCarveout) {}

  void planLifetimes();
  bool takeSharedStorage();
  bool formRings();
  void sizeRings();
  bool fitsAtMinimumDepths(PlanNeed *needOut);
  void widen();
  void followSharedDepths();
  BufferPlan finish();

private:
  /// The cycle, in the producer's iteration, at which a use at iteration
  /// distance `distance` starts (d iterations, so d * II cycles, later).
  int64_t useCycle(sched::OpId consumer, unsigned distance) const {
    return s.slots[consumer].cycle + int64_t(distance) * ii;
  }
  /// When that use has completed (its latency after its start).
  int64_t useDone(sched::OpId consumer, unsigned distance) const {
    return useCycle(consumer, distance) +
           in.problem->getOp(consumer).latency.value_or(0);
  }
  PipePlan pipeOf(unsigned index, const Value &v) const;
  unsigned timelineDepth(const Value &v, unsigned stageDepth) const;
  void deepenAliasBase(PipePlan &base, const PipePlan &alias);
  unsigned ringDepth(unsigned headIndex) const;
  bool storageError(const llvm::Twine &msg) {
    diags.error("fails to assign buffer: " + msg);
    return false;
  }
  int64_t drainedSmemBytes() const;
  Totals totalsWithFixed() const;
  bool fits() const {
    Totals t = totalsWithFixed();
    return t.smem <= smemBudget && t.tmemCols <= in.caps.tmemColumns;
  }

  const PlanInput &in;
  const sched::ScheduleAnalysis &s;
  const int64_t ii;
  sched::DiagnosticList &diags;
  const int64_t smemBudget;
  BufferPlan plan;
  std::map<unsigned, unsigned> pipeOfValue;
};

} // namespace

// A pipe for value `index` whose depth covers its lifetime: from the
// producer's start to the last consumer's start, in the producer's
// iteration.
PipePlan BufferPlanner::pipeOf(unsigned index, const Value &v) const {
  PipePlan p;
  p.value = index;
  p.producer = v.producer;
  p.cls = v.cls;
  p.bytes = v.bytes;
  p.tmemColumns = v.tmemColumns;
  p.producerUnit = in.units[v.producer];
  int64_t start = s.slots[v.producer].cycle;
  int64_t lastUse = start;
  sched::OpId last = v.consumers.front().first;
  for (auto [consumer, distance] : v.consumers) {
    p.consumers.push_back(consumer);
    int64_t use = useCycle(consumer, distance);
    if (use >= lastUse) {
      lastUse = use;
      last = consumer;
    }
  }
  p.consumerUnit = in.units[last];
  p.stageDistance = unsigned(lastUse / ii - start / ii);
  p.minDepth = p.depth = p.stageDistance + 1;
  if (in.timelineDepths)
    p.minDepth = p.depth = timelineDepth(v, p.depth);
  p.carried = v.carried;
  return p;
}

// The producer of iteration k + D acquires at start + D * II; the slot is
// free once iteration k's readers have completed. Readers then start before
// that acquire, so peeled code (one thread, cycle order) never waits on a
// release it has yet to make.
unsigned BufferPlanner::timelineDepth(const Value &v,
                                      unsigned stageDepth) const {
  int64_t start = s.slots[v.producer].cycle;
  int64_t freed = start + 1;
  for (auto [consumer, distance] : v.consumers)
    freed = std::max(freed, useDone(consumer, distance));
  return std::min(stageDepth, unsigned(std::max<int64_t>(
                                  1, (freed - start + ii - 1) / ii)));
}

void BufferPlanner::planLifetimes() {
  for (auto [index, v] : llvm::enumerate(in.values)) {
    if (v.cls == BufferClass::Register || v.consumers.empty())
      continue;
    pipeOfValue[index] = unsigned(plan.pipes.size());
    plan.pipes.push_back(pipeOf(unsigned(index), v));
  }
}

// The base slot stays taken until the alias's last use. Counted in cycles:
// the base's next write comes II later, and within an agent ops run in
// cycle order, so a slot whose whole life (S written, P stored over it, P
// read) is shorter than k IIs needs k buffers even when it crosses a stage
// boundary.
void BufferPlanner::deepenAliasBase(PipePlan &base, const PipePlan &alias) {
  int64_t last = s.slots[alias.producer].cycle;
  for (auto [consumer, distance] : in.values[base.value].consumers)
    last = std::max(last, useCycle(consumer, distance));
  for (auto [consumer, distance] : in.values[alias.value].consumers)
    last = std::max(last, useCycle(consumer, distance));
  int64_t life = last - s.slots[base.producer].cycle;
  unsigned need = unsigned(life / ii) + 1;
  base.stageDistance = need - 1;
  base.minDepth = base.depth = need;
}

// Hand-on and in-place pipes take their storage from another pipe, which
// must itself be a pipe.
bool BufferPlanner::takeSharedStorage() {
  for (PipePlan &p : plan.pipes) {
    const Value &v = in.values[p.value];
    if (v.aliasOf) {
      auto base = pipeOfValue.find(*v.aliasOf);
      if (base == pipeOfValue.end())
        return storageError("a tile is stored over a tile that is not "
                            "handed between units");
      p.aliasOf = base->second;
      deepenAliasBase(plan.pipes[base->second], p);
    }
    if (v.inPlaceOf) {
      auto base = pipeOfValue.find(*v.inPlaceOf);
      if (base == pipeOfValue.end())
        return storageError("an accumulator rescaled in place is not "
                            "handed between units");
      p.sharesWith = base->second;
    }
  }
  for (PipePlan &p : plan.pipes)
    if (p.carried || p.sharesWith)
      p.minDepth = p.depth = 1; // One accumulator, passed back and forth.
  return true;
}

// Values of one ring join the pipe of its first member, whose tiles they
// must match.
bool BufferPlanner::formRings() {
  std::map<std::string, unsigned> ringFirst;
  for (auto [index, p] : llvm::enumerate(plan.pipes)) {
    const Value &v = in.values[p.value];
    if (v.ring.empty())
      continue;
    auto [it, first] = ringFirst.try_emplace(v.ring, unsigned(index));
    if (first)
      continue;
    PipePlan &head = plan.pipes[it->second];
    if (head.cls != p.cls || head.bytes != p.bytes)
      return storageError("ring '" + v.ring +
                          "' holds tiles of different sizes");
    p.ringOf = it->second;
    p.ringMember = head.ringSize++;
  }
  return true;
}

// A ring's producers take its slots in turn (position n = iteration x M +
// member) and a slot is free again once its last reader has completed: the
// ring needs the fewest slots D (at least one per member) for which every
// acquire comes no earlier, in the schedule, than the completion of the
// readers of position n - D. The scheduler keeps the same edges
// (scheduler/mlir/LoopProblem.cpp), so the timeline holds as emitted.
unsigned BufferPlanner::ringDepth(unsigned headIndex) const {
  const PipePlan &head = plan.pipes[headIndex];
  std::vector<int64_t> acquire, freed;
  for (const PipePlan &p : plan.pipes) {
    if (&p != &head && (!p.ringOf || *p.ringOf != headIndex))
      continue;
    acquire.push_back(s.slots[p.producer].cycle);
    int64_t done = acquire.back();
    for (auto [consumer, distance] : in.values[p.value].consumers)
      done = std::max(done, useDone(consumer, distance));
    freed.push_back(done);
  }
  const int64_t m = int64_t(acquire.size());
  auto holds = [&](int64_t d) {
    for (int64_t k = 0; k < m; ++k) {
      int64_t back = (d - k + m - 1) / m;
      if (acquire[k] + back * ii < freed[k - d + back * m])
        return false;
    }
    return true;
  };
  int64_t depth = m;
  while (!holds(depth))
    ++depth;
  return unsigned(depth);
}

void BufferPlanner::sizeRings() {
  for (auto [index, head] : llvm::enumerate(plan.pipes))
    if (head.ringSize >= 2 && !head.ringOf)
      head.minDepth = head.depth = ringDepth(unsigned(index));
}

// Bytes of the SMEM pipes the code after the loop finds drained: TMA or
// cp.async in, only the tensor core out (the code after the loop runs once
// the accumulator's commit fired, after every MMA's reads).
int64_t BufferPlanner::drainedSmemBytes() const {
  int64_t bytes = 0;
  for (const PipePlan &p : plan.pipes)
    if (p.ownsBuffers() && p.cls == BufferClass::SMEM &&
        (p.producerUnit == Unit::TMA || p.producerUnit == Unit::CpAsync) &&
        llvm::all_of(p.consumers,
                     [&](sched::OpId c) { return in.units[c] == Unit::UMMA; }))
      bytes += p.slotStride() * p.depth;
  return bytes;
}

// Tiles read in the loop but made before it (a Q tile) hold their SMEM for
// the whole loop, outside any pipe. The epilogue's staging tiles lie over
// the drained mainloop slots when these hold them; otherwise they take
// their own.
Totals BufferPlanner::totalsWithFixed() const {
  Totals t = totals(plan.pipes, in.fixedTmemColumns);
  t.smem += in.fixedSmemBytes;
  if (in.overlaySmemBytes > 0 && in.overlaySmemBytes <= drainedSmemBytes())
    t.smem -= in.overlaySmemBytes;
  return t;
}

// The budgets at the lifetimes' own depths: what no widening can undo. The
// errors carry the sizes, and `needOut` says the plan failed on a budget
// (what the plan search may fix).
bool BufferPlanner::fitsAtMinimumDepths(PlanNeed *needOut) {
  // A pipe has at most 32 slots (tileas.pipe.create): a value that lives
  // across more stages (a tiny tile's TMA latency over a short II) has no
  // ring, whatever the budgets.
  constexpr unsigned kMaxPipeDepth = 32;
  for (const PipePlan &p : plan.pipes)
    if (p.minDepth > kMaxPipeDepth) {
      if (needOut)
        *needOut = {0, 0, false};
      diags.error("fails to assign a ring: a value lives across " +
                  llvm::Twine(p.minDepth - 1) +
                  " stages of the schedule and needs " +
                  llvm::Twine(p.minDepth) + " slots, a pipe has at most " +
                  llvm::Twine(kMaxPipeDepth) +
                  " (a larger tile, or force_serial_execution on the "
                  "loop, needs fewer stages)");
      return false;
    }
  Totals need = totalsWithFixed();
  bool overBudget =
      need.smem > smemBudget || need.tmemCols > in.caps.tmemColumns;
  if (needOut)
    *needOut = {need.smem, need.tmemCols, overBudget};
  if (need.smem > smemBudget) {
    diags.error("fails to assign smem buffer: the pipes need " +
                llvm::Twine(need.smem) + " bytes at their minimum depths, " +
                llvm::Twine(smemBudget) + " bytes are available (" +
                llvm::Twine(in.caps.smemBytes) + " minus " +
                llvm::Twine(in.smemCarveout) + " reserved)");
    return false;
  }
  if (need.tmemCols > in.caps.tmemColumns) {
    diags.error("fails to assign tmem buffer: the pipes need " +
                llvm::Twine(need.tmemCols) +
                " columns at their minimum "
                "depths, the SM has " +
                llvm::Twine(in.caps.tmemColumns));
    return false;
  }
  return true;
}

// Widening, CUTLASS-style: the TMA-fed pipes grow together one stage at a
// time while SMEM allows (more bytes in flight hide HBM latency), and a
// TMEM pipe becomes double-buffered when the columns allow (the epilogue of
// tile i overlaps the MMA of tile i+1).
void BufferPlanner::widen() {
  while (true) {
    bool grew = false;
    std::vector<unsigned> before;
    for (PipePlan &p : plan.pipes)
      before.push_back(p.depth);
    for (PipePlan &p : plan.pipes)
      if (p.producerUnit == Unit::TMA && p.cls == BufferClass::SMEM &&
          p.ownsBuffers() && p.depth < in.maxMainloopDepth) {
        ++p.depth;
        grew = true;
      }
    if (!grew)
      break;
    if (!fits()) {
      for (auto [p, d] : llvm::zip(plan.pipes, before))
        p.depth = d;
      break;
    }
  }
  for (PipePlan &p : plan.pipes)
    if (p.cls == BufferClass::TMEM && p.ownsBuffers() && !p.carried &&
        p.depth < 2) {
      ++p.depth;
      if (!fits())
        --p.depth;
    }
}

// No sharing by timing alone: agents run unsynchronized, so two pipes whose
// lifetimes lie apart in the schedule may still overlap when the code runs
// (the protocol check finds the stale read). Only storage whose hand-over
// the data flow orders is shared (aliases, accumulators rescaled in place),
// and aliases and ring members follow the depth of the pipe they use.
void BufferPlanner::followSharedDepths() {
  for (PipePlan &p : plan.pipes) {
    if (p.aliasOf)
      p.depth = p.minDepth = plan.pipes[*p.aliasOf].depth;
    if (p.ringOf)
      p.depth = plan.pipes[*p.ringOf].depth;
  }
}

BufferPlan BufferPlanner::finish() {
  Totals final = totalsWithFixed();
  plan.drainedSmemBytes = drainedSmemBytes();
  plan.overlaid = in.overlaySmemBytes > 0 &&
                  in.overlaySmemBytes <= plan.drainedSmemBytes;
  plan.smemBytes = final.smem;
  plan.tmemColumns = final.tmemCols;
  return std::move(plan);
}

std::optional<BufferPlan> materialize::planBuffers(const PlanInput &in,
                                                   sched::DiagnosticList &diags,
                                                   PlanNeed *needOut) {
  const sched::ScheduleAnalysis &s = *in.schedule;
  if (!s.success || s.ii == 0) {
    diags.error("no valid schedule to materialize");
    return std::nullopt;
  }
  BufferPlanner planner(in, diags);
  planner.planLifetimes();
  if (!planner.takeSharedStorage() || !planner.formRings())
    return std::nullopt;
  planner.sizeRings();
  if (!planner.fitsAtMinimumDepths(needOut))
    return std::nullopt;
  planner.widen();
  planner.followSharedDepths();
  return planner.finish();
}
