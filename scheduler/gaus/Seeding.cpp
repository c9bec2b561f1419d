//===- Seeding.cpp - GauS as the modulo scheduler's seed ------------------===//

#include "scheduler/gaus/Seeding.h"
#include "scheduler/gaus/Readers.h"

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
