//===- StartSeeder.h - preferred start cycles for one II -------*- C++ -*-===//
//
// An optional outside opinion on where each op should start, asked once per
// candidate II. The cost-based generator runs a seeded rung first (ops in
// order of their preferred start, each tried at its preferred cycle before
// its earliest), and only where the unseeded search ends above the lower
// bound, so a seed can lower the II but never raise it (docs/gaus.md,
// "Seeding"). scheduler/gaus implements it with GauS; the core never
// depends on how.
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
};

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_STARTSEEDER_H
