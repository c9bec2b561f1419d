//===- SeederTest.cpp - a StartSeeder never raises the II
//------------------===//
//
// The cost-based generator with a seeder runs the unseeded search first
// and takes a seeded schedule only at a smaller II, or at the same II with
// a lower seeder cost (StartSeeder.h). Seeders here are deliberately bad
// or deliberately opinionated, so the guarantee is what is tested.
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"
#include "scheduler/ModuloScheduler.h"

#include "gtest/gtest.h"

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

/// Prefers the reverse of program order, far apart: a poor seed.
class ReversedSeeder : public StartSeeder {
public:
  std::optional<std::vector<int64_t>> seed(const Problem &problem,
                                           unsigned ii) override {
    ++asked;
    std::vector<int64_t> starts(problem.getNumOps());
    for (unsigned i = 0; i < starts.size(); ++i)
      starts[i] = int64_t(starts.size() - i) * int64_t(ii);
    return starts;
  }
  unsigned asked = 0;
};

/// Rates a schedule by the sum of its starts: prefers early schedules.
class EarlySeeder : public ReversedSeeder {
public:
  std::optional<std::vector<int64_t>> seed(const Problem &problem,
                                           unsigned ii) override {
    ++asked;
    return std::vector<int64_t>(problem.getNumOps(), 0);
  }
  std::optional<double> cost(const Problem &, unsigned,
                             const std::vector<int64_t> &starts) override {
    double sum = 0;
    for (int64_t s : starts)
      sum += double(s);
    return sum;
  }
};

TEST(StartSeeder, NeverRaisesTheII) {
  std::mt19937 rng(2026);
  unsigned seededRuns = 0;
  for (int round = 0; round < 150; ++round) {
    Problem p = tilepipe::testing::randomProblem(rng, 4 + round % 12);
    DiagnosticList diags;
    if (!p.check(diags))
      continue;
    rrt::Bounds bounds = p.computeBounds();
    ModuloOptions options;
    options.maxAttempts = 200;
    std::optional<ScheduleAnalysis> plain =
        generateModuloSchedule(p, bounds, options, diags);
    ReversedSeeder seeder;
    options.seeder = &seeder;
    IISearchStats stats;
    std::optional<ScheduleAnalysis> seeded =
        generateModuloSchedule(p, bounds, options, diags, &stats);
    ASSERT_EQ(plain.has_value(), seeded.has_value());
    if (!plain)
      continue;
    EXPECT_LE(seeded->ii, plain->ii) << "round " << round;
    DiagnosticList verifyDiags;
    Schedule s{seeded->ii, {}};
    for (const ScheduleSlot &slot : seeded->slots)
      s.start.push_back(slot.cycle);
    EXPECT_TRUE(p.verify(s, verifyDiags)) << "round " << round;
    // Above the bound the seeded search below the unseeded II asks.
    if (plain->ii > bounds.mii) {
      EXPECT_GT(seeder.asked, 0u);
      ++seededRuns;
    }
  }
  EXPECT_GT(seededRuns, 0u); // The property was exercised above the bound.
}

TEST(StartSeeder, SameIIScheduleKeptOnlyWhenTheSeederRatesItLower) {
  std::mt19937 rng(7);
  unsigned preferred = 0;
  for (int round = 0; round < 60; ++round) {
    Problem p = tilepipe::testing::randomProblem(rng, 6);
    DiagnosticList diags;
    if (!p.check(diags))
      continue;
    rrt::Bounds bounds = p.computeBounds();
    ModuloOptions options;
    options.maxAttempts = 200;
    std::optional<ScheduleAnalysis> plain =
        generateModuloSchedule(p, bounds, options, diags);
    EarlySeeder seeder;
    options.seeder = &seeder;
    IISearchStats stats;
    std::optional<ScheduleAnalysis> seeded =
        generateModuloSchedule(p, bounds, options, diags, &stats);
    if (!plain || !seeded)
      continue;
    ASSERT_EQ(stats.unseededII, plain->ii);
    if (stats.seedLowered)
      continue;
    ASSERT_EQ(seeded->ii, plain->ii);
    auto sum = [](const ScheduleAnalysis &a) {
      double total = 0;
      for (const ScheduleSlot &slot : a.slots)
        total += double(slot.cycle);
      return total;
    };
    if (stats.seedPreferred) {
      EXPECT_LT(sum(*seeded), sum(*plain));
      ++preferred;
    } else {
      EXPECT_EQ(sum(*seeded), sum(*plain));
    }
  }
  EXPECT_GT(preferred, 0u);
}

} // namespace
