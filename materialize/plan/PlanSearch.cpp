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

  explicit Switches(const PlanCandidates &candidates)
      : aliases(unsigned(candidates.aliases.size())),
        rings(unsigned(candidates.rings.size())) {
    constexpr unsigned kMaxSwitches = 12;
    grouped = aliases + rings + 2 > kMaxSwitches;
  }

  /// The options mask `mask` switches on.
  void decode(unsigned mask, PlanChoice &c) const {
    const unsigned n = count();
    auto bit = [&](unsigned i) { return bool(mask & (1u << i)); };
    for (unsigned i = 0; i < aliases; ++i)
      c.aliases[i] = grouped ? bit(0) : bit(i);
    for (unsigned i = 0; i < rings; ++i)
      c.rings[i] = grouped ? bit(1) : bit(aliases + i);
    c.timelineDepths = bit(n - 2);
    c.overlay = bit(n - 1);
  }
};

/// The fitting plan the search keeps, and the smallest of those that did
/// not fit (for the error when none fits).
struct SearchOutcome {
  std::optional<BufferPlan> best;
  PlanChoice bestChoice;
  PlanNeed smallest;
  PlanChoice smallestChoice;
};

} // namespace

// Masks by the number of options they take, so the plan that fits changes
// the loop as written the least.
static std::vector<unsigned> masksByOptionCount(unsigned n) {
  std::vector<unsigned> masks;
  for (unsigned m = 1; m < (1u << n); ++m)
    masks.push_back(m);
  std::stable_sort(masks.begin(), masks.end(), [](unsigned a, unsigned b) {
    return llvm::popcount(a) < llvm::popcount(b);
  });
  return masks;
}

// An option with nothing to act on only repeats a smaller mask.
static bool useless(const Switches &sw, const PlanCandidates &candidates,
                    unsigned mask, const PlanChoice &c) {
  return (c.overlay && candidates.epilogueSmemBytes == 0) ||
         (sw.grouped &&
          ((sw.aliases == 0 && (mask & 1)) || (sw.rings == 0 && (mask & 2))));
}

// The input with the choice's options written in.
static PlanInput withChoice(const PlanInput &input,
                            const PlanCandidates &candidates,
                            const PlanChoice &c) {
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
}

// Tries the masks, fewest options first, and stops after the first count
// that fits; of the fitting plans it keeps the one with the most bytes in
// flight, then the least storage.
static SearchOutcome searchMasks(const PlanInput &input,
                                 const PlanCandidates &candidates,
                                 PlanChoice &choice) {
  Switches sw(candidates);
  const int64_t smemBudget = input.caps.smemBytes - input.smemCarveout;
  auto over = [&](const PlanNeed &need) {
    return std::max(double(need.smemBytes) / double(smemBudget),
                    double(need.tmemColumns) / double(input.caps.tmemColumns));
  };
  auto key = [](const BufferPlan &b) {
    return std::make_tuple(bytesInFlight(b), -b.smemBytes, -b.tmemColumns);
  };
  SearchOutcome out{std::nullopt, {}, choice.asWritten, choice};
  int bestCount = -1;
  for (unsigned mask : masksByOptionCount(sw.count())) {
    int count = llvm::popcount(mask);
    if (out.best && count > bestCount)
      break;
    PlanChoice c = choice;
    sw.decode(mask, c);
    if (useless(sw, candidates, mask, c))
      continue;
    ++choice.tried;
    sched::DiagnosticList quiet;
    PlanNeed need;
    std::optional<BufferPlan> p =
        planBuffers(withChoice(input, candidates, c), quiet, &need);
    if (!p) {
      if (need.smemBytes > 0 && over(need) < over(out.smallest)) {
        out.smallest = need;
        out.smallestChoice = c;
      }
      continue;
    }
    if (!out.best || key(*p) > key(*out.best)) {
      out.best = std::move(p);
      out.bestChoice = c;
      bestCount = count;
    }
  }
  return out;
}

// The options a choice took, for the error: "as written" when none.
static std::string describeTaken(const PlanChoice &c) {
  std::vector<std::string> took;
  if (unsigned k = unsigned(llvm::count(c.aliases, true)))
    took.push_back(std::to_string(k) + " tile" + (k > 1 ? "s" : "") +
                   " stored over another's TMEM columns");
  if (unsigned k = unsigned(llvm::count(c.rings, true)))
    took.push_back(std::to_string(k) + " ring" + (k > 1 ? "s" : ""));
  if (c.timelineDepths)
    took.push_back("depths by the timeline");
  if (c.overlay)
    took.push_back("the epilogue's tiles over the drained slots");
  std::string how = "as written";
  for (auto [i, t] : llvm::enumerate(took))
    how = i ? how + ", " + t : t;
  return how;
}

std::optional<BufferPlan>
materialize::searchBuffers(PlanInput &input, const PlanCandidates &candidates,
                           PlanChoice &choice, sched::DiagnosticList &diags) {
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
  if (!choice.asWritten.overBudget) {
    for (const sched::Diagnostic &d : asWrittenDiags.all())
      diags.error(d.message);
    return std::nullopt;
  }
  choice.searched = true;
  SearchOutcome found = searchMasks(input, candidates, choice);
  if (found.best) {
    found.bestChoice.tried = choice.tried;
    choice = found.bestChoice;
    input = withChoice(input, candidates, choice);
    return found.best;
  }
  std::string how = describeTaken(found.smallestChoice);
  for (const sched::Diagnostic &d : asWrittenDiags.all())
    diags.error(d.message + "; the smallest of the " +
                std::to_string(choice.tried) + " plans tried (" + how +
                ") needs " + std::to_string(found.smallest.smemBytes) +
                " bytes of shared memory and " +
                std::to_string(found.smallest.tmemColumns) + " TMEM columns");
  return std::nullopt;
}
