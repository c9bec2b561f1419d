//===- HeuristicAgreementTest.cpp - cost-based generator vs. exact check --===//
//
// Whenever the heuristic reaches the lower bound, the exact check must agree
// that the bound is feasible, and find the II just below it infeasible (the
// bound is a true lower bound). Where the heuristic stays above the bound,
// the exact check says whether it is optimal; that share is printed, not
// asserted.
//
//===----------------------------------------------------------------------===//

#include "scheduler/Driver.h"
#include "scheduler/exact/ExactCheck.h"
#include "scheduler/exact/ExactOracle.h"
#include "test/unit/scheduler/TestProblems.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

TEST(HeuristicAgreement, ExactCheckAgreesAtTheBound) {
  std::mt19937 rng(424242);
  unsigned atBound = 0, above = 0, provenOptimal = 0, missed = 0;
  for (unsigned iter = 0; iter < 400; ++iter) {
    Problem p = tilepipe::testing::randomProblem(rng, 2 + iter % 11);
    DiagnosticList pre;
    if (!p.check(pre))
      continue;
    DriverOptions options;
    options.selection.request = GeneratorRequest::CostBased;
    DiagnosticList diags;
    std::optional<ScheduleAnalysis> s = runScheduler(p, options, diags);
    ASSERT_TRUE(s) << "iteration " << iter;
    if (s->ii == s->bounds.mii) {
      ++atBound;
      EXPECT_EQ(exact::checkII(p, s->ii).verdict, exact::Verdict::Feasible)
          << "iteration " << iter;
      if (s->ii > 1) {
        EXPECT_EQ(exact::checkII(p, s->ii - 1).verdict,
                  exact::Verdict::Infeasible)
            << "iteration " << iter;
      }
      continue;
    }
    ++above;
    std::optional<bool> optimal = exact::proveOptimal(p, s->ii, s->bounds.mii);
    provenOptimal += optimal && *optimal;
    missed += optimal && !*optimal;
  }
  EXPECT_GT(atBound, 250u);
  std::printf("heuristic at MII on %u problems; above MII on %u: %u proven "
              "optimal, %u with a smaller feasible II\n",
              atBound, above, provenOptimal, missed);
}

TEST(HeuristicAgreement, DriverCertifiesWithTheOracle) {
  // a holds the bit 2 cycles with latency 1, b 1 cycle with latency 2, in a
  // recurrence: MII 3 is infeasible, II 4 is optimal.
  rrt::ResourceLayout layout;
  layout.addBit("alu");
  Problem p(layout);
  Operation a, b;
  a.name = "a";
  a.latency = 1;
  a.uses = {rrt::Use::bit(0, 2)};
  b.name = "b";
  b.latency = 2;
  b.uses = {rrt::Use::bit(0, 1)};
  p.addOp(a);
  p.addOp(b);
  p.addDependence({0, 1, 1, 0});
  p.addDependence({1, 0, 2, 1});
  p.finalize();
  exact::ExactOracle oracle;
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.oracle = &oracle;
  options.proveOptimal = true;
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = runScheduler(p, options, diags);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->bounds.mii, 3u);
  EXPECT_EQ(s->ii, 4u);
  EXPECT_EQ(s->optimal, std::optional<bool>(true));

  // Capped at 3, the failure is proven by the oracle.
  options.modulo.iiCap = 3;
  diags.clear();
  EXPECT_FALSE(runScheduler(p, options, diags));
  ASSERT_FALSE(diags.all().empty());
  EXPECT_NE(diags.all()[0].message.find("(proven: no schedule exists at II 3)"),
            std::string::npos);
}

} // namespace
