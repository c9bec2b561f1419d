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
      t.smem += p.bytes * p.depth;
    else if (p.cls == BufferClass::TMEM)
      t.tmemCols += p.tmemColumns * p.depth;
  }
  t.tmemCols = tmemAllocation(t.tmemCols);
  return t;
}

} // namespace

std::optional<BufferPlan>
materialize::planBuffers(const PlanInput &in, sched::DiagnosticList &diags,
                         PlanNeed *needOut) {
  const sched::ScheduleAnalysis &s = *in.schedule;
  if (!s.success || s.ii == 0) {
    diags.error("no valid schedule to materialize");
    return std::nullopt;
  }
  const int64_t ii = s.ii;
  BufferPlan plan;
  std::map<unsigned, unsigned> pipeOfValue;
  // Lifetime: from the producer's start to the last consumer's start, in
  // the producer's iteration (a use at distance d happens d iterations, so
  // d * II cycles, later).
  for (auto [index, v] : llvm::enumerate(in.values)) {
    if (v.cls == BufferClass::Register || v.consumers.empty())
      continue;
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
      int64_t use = s.slots[consumer].cycle + int64_t(distance) * ii;
      if (use >= lastUse) {
        lastUse = use;
        last = consumer;
      }
    }
    p.consumerUnit = in.units[last];
    p.stageDistance = unsigned(lastUse / ii - start / ii);
    p.minDepth = p.depth = p.stageDistance + 1;
    if (in.timelineDepths) {
      // The producer of iteration k + D acquires at start + D * II; the
      // slot is free once iteration k's readers have completed. Readers
      // then start before that acquire, so peeled code (one thread, cycle
      // order) never waits on a release it has yet to make.
      int64_t freed = start + 1;
      for (auto [consumer, distance] : v.consumers)
        freed = std::max(freed, s.slots[consumer].cycle +
                                    int64_t(distance) * ii +
                                    in.problem->getOp(consumer).latency.value_or(
                                        0));
      p.minDepth = p.depth = std::min(
          p.minDepth,
          unsigned(std::max<int64_t>(1, (freed - start + ii - 1) / ii)));
    }
    p.carried = v.carried;
    pipeOfValue[index] = unsigned(plan.pipes.size());
    plan.pipes.push_back(std::move(p));
  }

  // Hand-on, in-place and ring pipes take their storage from another pipe.
  auto storageError = [&](const llvm::Twine &msg) {
    diags.error("fails to assign buffer: " + msg);
    return std::nullopt;
  };
  for (PipePlan &p : plan.pipes) {
    const Value &v = in.values[p.value];
    if (v.aliasOf) {
      auto base = pipeOfValue.find(*v.aliasOf);
      if (base == pipeOfValue.end())
        return storageError("a tile is stored over a tile that is not "
                            "handed between units");
      p.aliasOf = base->second;
      // The base slot stays taken until the alias's last use. Counted in
      // cycles: the base's next write comes II later, and within an agent
      // ops run in cycle order, so a slot whose whole life (S written, P
      // stored over it, P read) is shorter than k IIs needs k buffers even
      // when it crosses a stage boundary.
      PipePlan &b = plan.pipes[base->second];
      const Value &pv = in.values[p.value];
      int64_t last = s.slots[p.producer].cycle;
      for (auto [consumer, distance] : in.values[b.value].consumers)
        last = std::max(last, s.slots[consumer].cycle + int64_t(distance) * ii);
      for (auto [consumer, distance] : pv.consumers)
        last = std::max(last, s.slots[consumer].cycle + int64_t(distance) * ii);
      int64_t life = last - s.slots[b.producer].cycle;
      unsigned need = unsigned(life / ii) + 1;
      b.stageDistance = need - 1;
      b.minDepth = b.depth = need;
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
  // A ring's producers take its slots in turn (position n = iteration x M +
  // member) and a slot is free again once its last reader has completed:
  // the ring needs the fewest slots D (at least one per member) for which
  // every acquire comes no earlier, in the schedule, than the completion of
  // the readers of position n - D. The scheduler keeps the same edges
  // (scheduler/mlir/LoopProblem.cpp), so the timeline holds as emitted.
  for (auto [index, head] : llvm::enumerate(plan.pipes)) {
    if (head.ringSize < 2 || head.ringOf)
      continue;
    std::vector<int64_t> acquire, freed;
    for (const PipePlan &p : plan.pipes) {
      if (&p != &head && (!p.ringOf || *p.ringOf != index))
        continue;
      acquire.push_back(s.slots[p.producer].cycle);
      int64_t done = acquire.back();
      for (auto [consumer, distance] : in.values[p.value].consumers)
        done =
            std::max(done, s.slots[consumer].cycle + int64_t(distance) * ii +
                               in.problem->getOp(consumer).latency.value_or(0));
      freed.push_back(done);
    }
    const int64_t m = int64_t(acquire.size());
    int64_t depth = m;
    auto holds = [&](int64_t d) {
      for (int64_t k = 0; k < m; ++k) {
        int64_t back = (d - k + m - 1) / m;
        if (acquire[k] + back * ii < freed[k - d + back * m])
          return false;
      }
      return true;
    };
    while (!holds(depth))
      ++depth;
    head.minDepth = head.depth = unsigned(depth);
  }

  // Tiles read in the loop but made before it (a Q tile) hold their SMEM
  // for the whole loop, outside any pipe.
  // The epilogue's staging tiles lie over the drained mainloop slots when
  // these hold them (the code after the loop runs once the accumulator's
  // commit fired, after every MMA's reads); otherwise they take their own.
  auto drained = [&](const std::vector<PipePlan> &pipes) {
    int64_t bytes = 0;
    for (const PipePlan &p : pipes)
      if (p.ownsBuffers() && p.cls == BufferClass::SMEM &&
          (p.producerUnit == Unit::TMA || p.producerUnit == Unit::CpAsync) &&
          llvm::all_of(p.consumers, [&](sched::OpId c) {
            return in.units[c] == Unit::UMMA;
          }))
        bytes += p.bytes * p.depth;
    return bytes;
  };
  auto totalsOf = [&](const std::vector<PipePlan> &pipes) {
    Totals t = totals(pipes, in.fixedTmemColumns);
    t.smem += in.fixedSmemBytes;
    if (in.overlaySmemBytes > 0 && in.overlaySmemBytes <= drained(pipes))
      t.smem -= in.overlaySmemBytes;
    return t;
  };
  const int64_t smemBudget = in.caps.smemBytes - in.smemCarveout;
  Totals need = totalsOf(plan.pipes);
  if (needOut)
    *needOut = {need.smem, need.tmemCols};
  if (need.smem > smemBudget) {
    diags.error("fails to assign smem buffer: the pipes need " +
                llvm::Twine(need.smem) + " bytes at their minimum depths, " +
                llvm::Twine(smemBudget) + " bytes are available (" +
                llvm::Twine(in.caps.smemBytes) + " minus " +
                llvm::Twine(in.smemCarveout) + " reserved)");
    return std::nullopt;
  }
  if (need.tmemCols > in.caps.tmemColumns) {
    diags.error("fails to assign tmem buffer: the pipes need " +
                llvm::Twine(need.tmemCols) +
                " columns at their minimum "
                "depths, the SM has " +
                llvm::Twine(in.caps.tmemColumns));
    return std::nullopt;
  }

  // Widening, CUTLASS-style: the TMA-fed pipes grow together one stage at a
  // time while SMEM allows (more bytes in flight hide HBM latency), and a
  // TMEM pipe becomes double-buffered when the columns allow (the epilogue
  // of tile i overlaps the MMA of tile i+1).
  auto fits = [&] {
    Totals t = totalsOf(plan.pipes);
    return t.smem <= smemBudget && t.tmemCols <= in.caps.tmemColumns;
  };
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

  // No sharing by timing alone: agents run unsynchronized, so two pipes
  // whose lifetimes lie apart in the schedule may still overlap when the
  // code runs (the protocol check finds the stale read). Only storage whose
  // hand-over the data flow orders is shared (aliases, accumulators
  // rescaled in place).
  // Aliases and ring members follow the depth of the pipe they use.
  for (PipePlan &p : plan.pipes) {
    if (p.aliasOf)
      p.depth = p.minDepth = plan.pipes[*p.aliasOf].depth;
    if (p.ringOf)
      p.depth = plan.pipes[*p.ringOf].depth;
  }
  Totals final = totalsOf(plan.pipes);
  plan.drainedSmemBytes = drained(plan.pipes);
  plan.overlaid = in.overlaySmemBytes > 0 &&
                  in.overlaySmemBytes <= plan.drainedSmemBytes;
  plan.smemBytes = final.smem;
  plan.tmemColumns = final.tmemCols;
  return plan;
}
