//===- PeelTest.cpp - prologue / steady state / epilogue ------------------===//

#include "materialize/plan/Peel.h"

#include "scheduler/Driver.h"
#include "test/unit/scheduler/TestProblems.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::materialize;

namespace {

// Three ops in stages 0, 1, 2: S = 3.
sched::ScheduleAnalysis threeStages(sched::Problem &p) {
  for (int i = 0; i < 3; ++i) {
    sched::Operation op;
    op.name = "op" + std::to_string(i);
    op.latency = 4;
    p.addOp(op);
  }
  p.addDependence({0, 1, 4, 0});
  p.addDependence({1, 2, 4, 0});
  p.addDependence({2, 0, 4, 3}); // 0 + 3 * 4 >= 8 + 4.
  p.finalize();
  return sched::ScheduleAnalysis::fromSchedule(p, {4, {0, 4, 8}},
                                               sched::GeneratorKind::Serial);
}

TEST(Peel, PiecesAndGuards) {
  sched::Problem p;
  auto s = threeStages(p);
  ASSERT_EQ(s.numStages, 3u);
  // N = 5: prologue rows 0, 1; steady rows 2..4; epilogue rows 5, 6.
  auto order = peeledOrder(s, 5);
  EXPECT_EQ(order.size(), 15u);
  EXPECT_EQ(order.front().part, Part::Prologue);
  EXPECT_EQ(order.back().part, Part::Epilogue);
  EXPECT_EQ(order.back().op, 2u);
  EXPECT_EQ(order.back().iteration, 4);
  EXPECT_EQ(checkPeeledOrder(s, 5, order), "");
}

TEST(Peel, ShortAndEmptyTripCounts) {
  sched::Problem p;
  auto s = threeStages(p);
  for (int64_t n : {0, 1, 2, 3, 4, 17}) {
    auto order = peeledOrder(s, n);
    EXPECT_EQ(order.size(), size_t(3 * n)) << "n = " << n;
    EXPECT_EQ(checkPeeledOrder(s, n, order), "") << "n = " << n;
    if (n < 3) {
      for (const Instance &inst : order)
        EXPECT_NE(inst.part, Part::Steady) << "n = " << n;
    }
  }
}

TEST(Peel, CheckerCatchesABadOrder) {
  sched::Problem p;
  auto s = threeStages(p);
  auto order = peeledOrder(s, 4);
  auto at = [&](sched::OpId op, int64_t i) {
    return llvm::find_if(order, [&](const Instance &x) {
      return x.op == op && x.iteration == i;
    });
  };
  std::iter_swap(at(0, 0), at(1, 0)); // op 1 of iteration 0 before op 0.
  EXPECT_NE(checkPeeledOrder(s, 4, order).find("it depends on"),
            std::string::npos);
  order = peeledOrder(s, 4);
  order.pop_back();
  EXPECT_NE(checkPeeledOrder(s, 4, order).find("never runs"),
            std::string::npos);
}

// Property: every cost-based schedule of a random problem peels into an
// order that runs each instance once, after what it depends on, for trip
// counts below, at and above the stage count.
TEST(Peel, RandomSchedules) {
  std::mt19937 rng(5);
  for (unsigned iter = 0; iter < 300; ++iter) {
    sched::Problem p = tilepipe::testing::randomProblem(rng, 2 + iter % 12);
    sched::DiagnosticList pre;
    if (!p.check(pre))
      continue;
    sched::DriverOptions options;
    options.selection.request = sched::GeneratorRequest::CostBased;
    sched::DiagnosticList diags;
    auto s = sched::runScheduler(p, options, diags);
    ASSERT_TRUE(s);
    for (int64_t n : {int64_t(0), int64_t(1), int64_t(s->numStages) - 1,
                      int64_t(s->numStages), int64_t(s->numStages) + 5}) {
      if (n < 0)
        continue;
      EXPECT_EQ(checkPeeledOrder(*s, n, peeledOrder(*s, n)), "")
          << "iteration " << iter << ", n = " << n;
    }
  }
}

} // namespace
