//===- PlanSearch.cpp - the best plan that fits ---------------------------===//

#include "materialize/plan/PlanSearch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::materialize;

namespace {

/// Bytes the TMA and cp.async pipes keep in flight: what hides memory
/// latency, so the first thing a fitting plan is judged by.
int64_t bytesInFlight(const BufferPlan &plan) {
  int64_t bytes = 0;
  for (const PipePlan &p : plan.pipes)
    if (p.ownsBuffers() && p.cls == BufferClass::SMEM &&
        (p.producerUnit == Unit::TMA || p.producerUnit == Unit::CpAsync))
      bytes += p.bytes * p.depth;
  return bytes;
}

struct Switches {
  unsigned aliases = 0, rings = 0;
  bool grouped = false; ///< Too many candidates: one switch per kind.
  unsigned count() const { return grouped ? 4 : aliases + rings + 2; }
};

} // namespace

std::optional<BufferPlan>
materialize::searchBuffers(PlanInput &input,
                           const PlanCandidates &candidates, PlanChoice &choice,
                           sched::DiagnosticList &diags) {
  choice = PlanChoice();
  choice.aliases.assign(candidates.aliases.size(), false);
  choice.rings.assign(candidates.rings.size(), false);
  sched::DiagnosticList asWrittenDiags;
  std::optional<BufferPlan> plan =
      planBuffers(input, asWrittenDiags, &choice.asWritten);
  choice.tried = 1;
  if (plan)
    return plan;
  // Only the budgets are the search's to fix; anything else stands.
  bool budget = llvm::all_of(asWrittenDiags.all(), [](const auto &d) {
    return llvm::StringRef(d.message).starts_with("fails to assign smem") ||
           llvm::StringRef(d.message).starts_with("fails to assign tmem");
  });
  if (!budget) {
    for (const sched::Diagnostic &d : asWrittenDiags.all())
      diags.error(d.message);
    return std::nullopt;
  }
  choice.searched = true;

  Switches sw;
  sw.aliases = unsigned(candidates.aliases.size());
  sw.rings = unsigned(candidates.rings.size());
  constexpr unsigned kMaxSwitches = 12;
  sw.grouped = sw.aliases + sw.rings + 2 > kMaxSwitches;
  const unsigned n = sw.count();

  // Masks by the number of options they take, so the plan that fits
  // changes the loop as written the least.
  std::vector<unsigned> masks;
  for (unsigned m = 1; m < (1u << n); ++m)
    masks.push_back(m);
  std::stable_sort(masks.begin(), masks.end(), [](unsigned a, unsigned b) {
    return llvm::popcount(a) < llvm::popcount(b);
  });

  auto decode = [&](unsigned mask, PlanChoice &c) {
    auto bit = [&](unsigned i) { return bool(mask & (1u << i)); };
    for (unsigned i = 0; i < sw.aliases; ++i)
      c.aliases[i] = sw.grouped ? bit(0) : bit(i);
    for (unsigned i = 0; i < sw.rings; ++i)
      c.rings[i] = sw.grouped ? bit(1) : bit(sw.aliases + i);
    c.timelineDepths = bit(n - 2);
    c.overlay = bit(n - 1);
  };
  auto apply = [&](const PlanChoice &c) {
    PlanInput in = input;
    for (auto [i, a] : llvm::enumerate(candidates.aliases))
      if (c.aliases[i])
        in.values[a.value].aliasOf = a.base;
    for (auto [i, ring] : llvm::enumerate(candidates.rings))
      if (c.rings[i])
        for (unsigned v : ring)
          in.values[v].ring = "tileas.auto_ring." + std::to_string(i);
    in.timelineDepths = c.timelineDepths;
    in.overlaySmemBytes = c.overlay ? candidates.epilogueSmemBytes : 0;
    return in;
  };
  auto useless = [&](unsigned mask, const PlanChoice &c) {
    // An option with nothing to act on only repeats a smaller mask.
    return (c.overlay && candidates.epilogueSmemBytes == 0) ||
           (sw.grouped && ((sw.aliases == 0 && (mask & 1)) ||
                           (sw.rings == 0 && (mask & 2))));
  };



  const int64_t smemBudget = input.caps.smemBytes - input.smemCarveout;
  auto over = [&](const PlanNeed &need) {
    return std::max(double(need.smemBytes) / double(smemBudget),
                    double(need.tmemColumns) / double(input.caps.tmemColumns));
  };
  std::optional<BufferPlan> best;
  PlanChoice bestChoice;
  int bestCount = -1;
  PlanNeed smallest = choice.asWritten;
  PlanChoice smallestChoice = choice;
  for (unsigned mask : masks) {
    int count = llvm::popcount(mask);
    if (best && count > bestCount)
      break;
    PlanChoice c = choice;
    decode(mask, c);
    if (useless(mask, c))
      continue;
    ++choice.tried;
    sched::DiagnosticList quiet;
    PlanNeed need;
    std::optional<BufferPlan> p = planBuffers(apply(c), quiet, &need);
    if (!p) {
      if (need.smemBytes > 0 && over(need) < over(smallest)) {
        smallest = need;
        smallestChoice = c;
      }
      continue;
    }
    auto key = [](const BufferPlan &b) {
      return std::make_tuple(bytesInFlight(b), -b.smemBytes, -b.tmemColumns);
    };
    if (!best || key(*p) > key(*best)) {
      best = std::move(p);
      bestChoice = c;
      bestCount = count;
    }
  }
  if (best) {
    bestChoice.tried = choice.tried;
    choice = bestChoice;
    input = apply(choice);
    return best;
  }

  std::vector<std::string> took;
  if (unsigned k = unsigned(llvm::count(smallestChoice.aliases, true)))
    took.push_back(std::to_string(k) + " tile" + (k > 1 ? "s" : "") +
                   " stored over another's TMEM columns");
  if (unsigned k = unsigned(llvm::count(smallestChoice.rings, true)))
    took.push_back(std::to_string(k) + " ring" + (k > 1 ? "s" : ""));
  if (smallestChoice.timelineDepths)
    took.push_back("depths by the timeline");
  if (smallestChoice.overlay)
    took.push_back("the epilogue's tiles over the drained slots");
  std::string how = "as written";
  for (auto [i, t] : llvm::enumerate(took))
    how = i ? how + ", " + t : t;
  for (const sched::Diagnostic &d : asWrittenDiags.all())
    diags.error(d.message + "; the smallest of the " +
                std::to_string(choice.tried) + " plans tried (" + how +
                ") needs " + std::to_string(smallest.smemBytes) +
                " bytes of shared memory and " +
                std::to_string(smallest.tmemColumns) + " TMEM columns");
  return std::nullopt;
}
