//===- Seeding.cpp - GauS as the modulo scheduler's seed ------------------===//

#include "scheduler/gaus/Seeding.h"
#include "scheduler/gaus/Objective.h"
#include "scheduler/gaus/Readers.h"

#include <algorithm>

using namespace tilepipe::gaus;

GausOptions tilepipe::gaus::defaultSeedOptions() {
  GausOptions options;
  options.outerIterations = 8;
  options.innerSteps = 25;
  options.reseedEvery = 4;
  return options;
}

Instance tilepipe::gaus::coarsenedInstance(const sched::Problem &problem,
                                           unsigned ii, unsigned quantum) {
  Instance instance = fromProblem(problem, ii);
  if (quantum <= 1)
    return instance;
  auto up = [&](int64_t x) { return (x + quantum - 1) / int64_t(quantum); };
  instance.ii = unsigned(up(ii));
  for (Node &node : instance.nodes)
    for (Use &use : node.uses) {
      use.offset /= int64_t(quantum);
      use.duration = std::max<int64_t>(1, up(use.duration));
    }
  // Latencies to the nearest step: rounding every one up closes tight
  // recurrences at the coarse II (the seed is a hint, not a schedule).
  for (Edge &edge : instance.edges)
    edge.latency = (edge.latency + int64_t(quantum) / 2) / int64_t(quantum);
  instance.depth = up(instance.depth) + instance.ii;
  return instance;
}

std::optional<std::vector<int64_t>>
GausSeeder::seed(const sched::Problem &problem, unsigned ii) {
  ++asked;
  if (budgetMs && seconds * 1000 >= double(budgetMs)) {
    exhausted = true;
    return std::nullopt;
  }
  // The clock: at most slotsPerII steps per II, and no coarser than a
  // quarter of the median latency, so that loops of one-cycle latencies
  // keep every cycle while a tile loop's thousands of cycles per II are
  // coarsened. Rounding can still close a recurrence at the coarse II:
  // then a finer clock, down to cycles.
  std::vector<int64_t> latencies;
  for (const sched::Dependence &dep : problem.getDependences())
    if (dep.latency > 0)
      latencies.push_back(dep.latency);
  int64_t median = 1;
  if (!latencies.empty()) {
    std::nth_element(latencies.begin(),
                     latencies.begin() + latencies.size() / 2, latencies.end());
    median = latencies[latencies.size() / 2];
  }
  unsigned quantum = unsigned(std::max<int64_t>(
      1, std::min<int64_t>(ii / std::max(1u, slotsPerII), median / 4)));
  for (;; quantum = quantum / 2) {
    Instance instance = coarsenedInstance(problem, ii, std::max(1u, quantum));
    std::string reason;
    std::optional<Frames> frames = computeFrames(instance, reason);
    if (!frames) {
      if (quantum <= 1)
        return std::nullopt;
      continue;
    }
    if (frameEntries(*frames) > kMaxRelaxationEntries)
      return std::nullopt; // Too large to relax: no opinion.
    GausOptions run = options;
    if (budgetMs)
      run.timeLimitMs =
          std::max<uint64_t>(1, budgetMs - uint64_t(seconds * 1000));
    GausResult result = runGaus(instance, *frames, run);
    seconds += result.seconds;
    exhausted |= result.exhausted;
    const Steps *steps = result.best ? &*result.best : nullptr;
    if (!steps && result.rounded.size() == instance.nodes.size())
      steps = &result.rounded;
    if (!steps)
      return std::nullopt;
    ++answered;
    std::vector<int64_t> starts(steps->size());
    for (size_t i = 0; i < starts.size(); ++i)
      starts[i] = (*steps)[i] * int64_t(std::max(1u, quantum));
    return starts;
  }
}

std::optional<double>
tilepipe::gaus::liveValuePeak(const sched::Problem &problem, unsigned ii,
                              const std::vector<int64_t> &starts) {
  if (starts.size() != problem.getNumOps() || starts.empty())
    return std::nullopt;
  Instance instance = fromProblem(problem, ii);
  // The schedule may run past the instance's default depth (that is only
  // GauS's search space): widen it to the schedule.
  instance.depth = std::max<int64_t>(
      instance.depth, *std::max_element(starts.begin(), starts.end()) + 1);
  Evaluation eval = evaluate(instance, starts);
  if (!eval.legal)
    return std::nullopt;
  return eval.peak;
}

std::optional<double> GausSeeder::cost(const sched::Problem &problem,
                                       unsigned ii,
                                       const std::vector<int64_t> &starts) {
  return liveValuePeak(problem, ii, starts);
}
