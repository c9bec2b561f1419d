//===- StartSeeder.h - preferred start cycles for one II -------*- C++ -*-===//
//
// An optional outside opinion on where each op should start, asked once per
// candidate II. After its unseeded search the cost-based generator runs a
// seeded rung (ops in order of their preferred start, each tried at its
// preferred cycle before its earliest) and no other: below the II the
// unseeded search found, where a seeded schedule replaces it, and at that
// II, where it replaces it when cost() says it is better. So a seed can lower the II but never raise it
// (docs/gaus.md, "Seeding"). scheduler/gaus implements it with GauS; the core
// never depends on how.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_STARTSEEDER_H
#define TILEPIPE_SCHEDULER_STARTSEEDER_H

#include <cstdint>
#include <optional>
#include <vector>

namespace tilepipe::sched {

class Problem;

class StartSeeder {
public:
  virtual ~StartSeeder() = default;
  /// A preferred start cycle per op at `ii`, or nullopt for no opinion.
  virtual std::optional<std::vector<int64_t>> seed(const Problem &problem,
                                                   unsigned ii) = 0;
  /// The seeder's measure of a schedule (lower is better), used to choose
  /// between a seeded and an unseeded schedule at the same II; nullopt:
  /// no preference.
  virtual std::optional<double> cost(const Problem &problem, unsigned ii,
                                     const std::vector<int64_t> &starts) {
    (void)problem;
    (void)ii;
    (void)starts;
    return std::nullopt;
  }
};

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_STARTSEEDER_H
