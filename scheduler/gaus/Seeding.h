//===- Seeding.h - GauS as the modulo scheduler's seed ---------*- C++ -*-===//
//
// `--seed=gaus`: at each candidate II the seeder builds formulation C of the
// loop (fromProblem), runs a short GauS, and hands the cost-based generator
// the best legal schedule's starts (or, when the legaliser found none, the
// rounded means) as preferred cycles. Off by default (docs/gaus.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_SEEDING_H
#define TILEPIPE_SCHEDULER_GAUS_SEEDING_H

#include "scheduler/StartSeeder.h"
#include "scheduler/gaus/Optimizer.h"

namespace tilepipe::gaus {

/// A short run: the seed is a hint, and the search asks at every II.
GausOptions defaultSeedOptions();

class GausSeeder : public sched::StartSeeder {
public:
  explicit GausSeeder(GausOptions options = defaultSeedOptions())
      : options(std::move(options)) {}
  std::optional<std::vector<int64_t>> seed(const sched::Problem &problem,
                                           unsigned ii) override;
  /// Seeds asked and answered, and the seconds spent in GauS.
  unsigned asked = 0, answered = 0;
  double seconds = 0;

private:
  GausOptions options;
};

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_SEEDING_H
