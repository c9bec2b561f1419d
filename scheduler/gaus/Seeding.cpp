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

std::optional<std::vector<int64_t>>
GausSeeder::seed(const sched::Problem &problem, unsigned ii) {
  ++asked;
  Instance instance = fromProblem(problem, ii);
  std::string reason;
  std::optional<Frames> frames = computeFrames(instance, reason);
  if (!frames)
    return std::nullopt;
  GausResult result = runGaus(instance, *frames, options);
  seconds += result.seconds;
  if (result.best) {
    ++answered;
    return *result.best;
  }
  if (result.rounded.size() == instance.nodes.size()) {
    ++answered;
    return result.rounded;
  }
  return std::nullopt;
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
