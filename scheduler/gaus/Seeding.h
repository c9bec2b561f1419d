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

/// The peak over modulo slots of the values live (made, and not yet read
/// by every consumer, iterations in flight counted) in a schedule of
/// `problem` at `ii`; nullopt when the starts do not fit the problem.
std::optional<double> liveValuePeak(const sched::Problem &problem, unsigned ii,
                                    const std::vector<int64_t> &starts);

/// Formulation C of `problem` at `ii` on a coarser clock: one step is
/// `quantum` cycles (latencies to the nearest step, durations up, offsets
/// down, the II up), so that a tile loop's II of thousands of cycles gives a
/// relaxation of at most a few dozen slots per stage.
Instance coarsenedInstance(const sched::Problem &problem, unsigned ii,
                           unsigned quantum);

class GausSeeder : public sched::StartSeeder {
public:
  explicit GausSeeder(GausOptions options = defaultSeedOptions())
      : options(std::move(options)) {}
  /// The relaxation's clock (coarsenedInstance): min(ii / slotsPerII,
  /// median latency / 4) cycles per step, at least 1.
  unsigned slotsPerII = 32;
  /// Wall-clock budget of all seeds of one loop in ms (0: none); a seed
  /// asked after it ran out answers nothing, and `exhausted` says so.
  uint64_t budgetMs = 2000;
  bool exhausted = false;
  std::optional<std::vector<int64_t>> seed(const sched::Problem &problem,
                                           unsigned ii) override;
  /// Formulation C's objective: the peak of live values over the modulo
  /// slots (liveValuePeak).
  std::optional<double> cost(const sched::Problem &problem, unsigned ii,
                             const std::vector<int64_t> &starts) override;
  /// Seeds asked and answered, and the seconds spent in GauS.
  unsigned asked = 0, answered = 0;
  double seconds = 0;

private:
  GausOptions options;
};

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_SEEDING_H
