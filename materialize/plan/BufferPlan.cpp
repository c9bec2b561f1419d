//===- BufferPlan.cpp - lifetimes, depths, budgets, sharing ---------------===//

#include "materialize/plan/BufferPlan.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

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
    if (p.sharesWith)
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
materialize::planBuffers(const PlanInput &in, sched::DiagnosticList &diags) {
  const sched::ScheduleAnalysis &s = *in.schedule;
  if (!s.success || s.ii == 0) {
    diags.error("no valid schedule to materialize");
    return std::nullopt;
  }
  const int64_t ii = s.ii;
  BufferPlan plan;
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
    plan.pipes.push_back(std::move(p));
  }

  // Tiles read in the loop but made before it (a Q tile) hold their SMEM
  // for the whole loop, outside any pipe.
  auto totalsOf = [&](const std::vector<PipePlan> &pipes) {
    Totals t = totals(pipes, in.fixedTmemColumns);
    t.smem += in.fixedSmemBytes;
    return t;
  };
  const int64_t smemBudget = in.caps.smemBytes - in.smemCarveout;
  Totals need = totalsOf(plan.pipes);
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
          !p.sharesWith && p.depth < in.maxMainloopDepth) {
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
    if (p.cls == BufferClass::TMEM && !p.sharesWith && p.depth < 2) {
      ++p.depth;
      if (!fits())
        --p.depth;
    }

  // Sharing, after widening so the depths are final: two single-buffered
  // pipes of one class, type and size whose lifetimes (to the last use,
  // a loop-carried one d iterations later) lie apart modulo II use one
  // buffer.
  auto useCycle = [&](const Value &v, sched::OpId c) {
    int64_t use = s.slots[c].cycle;
    for (auto [consumer, distance] : v.consumers)
      if (consumer == c)
        use = std::max(use, s.slots[c].cycle + int64_t(distance) * ii);
    return use;
  };
  for (size_t i = 0; i < plan.pipes.size(); ++i) {
    PipePlan &a = plan.pipes[i];
    if (a.depth != 1 || a.cls == BufferClass::Register)
      continue;
    const Value &va = in.values[a.value];
    int64_t aStart = s.slots[a.producer].cycle;
    int64_t aEnd = aStart;
    for (sched::OpId c : a.consumers)
      aEnd = std::max(aEnd, useCycle(va, c));
    for (size_t j = 0; j < i; ++j) {
      PipePlan &b = plan.pipes[j];
      const Value &vb = in.values[b.value];
      if (b.depth != 1 || b.sharesWith || b.cls != a.cls ||
          vb.typeKey != va.typeKey || b.bytes != a.bytes)
        continue;
      int64_t bStart = s.slots[b.producer].cycle, bEnd = bStart;
      for (sched::OpId c : b.consumers)
        bEnd = std::max(bEnd, useCycle(vb, c));
      // Modulo II both intervals repeat every iteration: disjoint within one
      // iteration and each shorter than the gap to the other's next copy.
      bool disjoint = aEnd < bStart ? bEnd < aStart + ii
                                    : (bEnd < aStart && aEnd < bStart + ii);
      if (disjoint) {
        a.sharesWith = unsigned(j);
        break;
      }
    }
  }

  Totals final = totalsOf(plan.pipes);
  plan.smemBytes = final.smem;
  plan.tmemColumns = final.tmemCols;
  return plan;
}
