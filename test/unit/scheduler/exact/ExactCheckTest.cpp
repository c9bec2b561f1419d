//===- ExactCheckTest.cpp - hand problems with known answers --------------===//

#include "scheduler/exact/ExactCheck.h"

#include "test/unit/scheduler/TestProblems.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

/// Checks the verdict; a Feasible one must carry a witness verify() accepts.
void expectVerdict(const Problem &p, unsigned ii, Verdict want) {
  ExactResult r = checkII(p, ii);
  EXPECT_EQ(r.verdict, want) << "II " << ii << ": got " << toString(r.verdict)
                             << " (" << r.reason << ")";
  EXPECT_EQ(r.witness.has_value(), r.verdict == Verdict::Feasible);
  if (r.witness) {
    EXPECT_EQ(r.witness->ii, ii);
    DiagnosticList diags;
    EXPECT_TRUE(p.verify(*r.witness, diags))
        << (diags.all().empty() ? "" : diags.all().front().message);
  }
}

// a -(2)-> b, b -(2, distance 1)-> a: the cycle needs II >= 4.
Problem recurrence() {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 2));
  p.addOp(makeOp("b", 2));
  p.addDependence({0, 1, 2, 0});
  p.addDependence({1, 0, 2, 1});
  p.finalize();
  return p;
}

TEST(ExactCheck, RecurrenceMakesThreeInfeasibleFourFeasible) {
  Problem p = recurrence();
  for (unsigned ii = 1; ii <= 3; ++ii)
    expectVerdict(p, ii, Verdict::Infeasible);
  for (unsigned ii = 4; ii <= 7; ++ii)
    expectVerdict(p, ii, Verdict::Feasible);
  EXPECT_EQ(p.computeBounds().recMII, 4u);
}

TEST(ExactCheck, ProveOptimal) {
  Problem p = recurrence();
  EXPECT_EQ(proveOptimal(p, 4, 1), std::optional<bool>(true));
  EXPECT_EQ(proveOptimal(p, 4, 0), std::optional<bool>(true));
  EXPECT_EQ(proveOptimal(p, 5, 1), std::optional<bool>(false));
  EXPECT_EQ(proveOptimal(p, 9, 2), std::optional<bool>(false));
  // Empty range: vacuously optimal.
  EXPECT_EQ(proveOptimal(p, 4, 4), std::optional<bool>(true));
  EXPECT_EQ(proveOptimal(p, 3, 7), std::optional<bool>(true));
  // Unknown everywhere (too many ops): no certificate either way.
  ExactOptions tiny;
  tiny.maxOps = 1;
  tiny.project = false;
  EXPECT_EQ(proveOptimal(p, 4, 1, tiny), std::nullopt);
  // Neither op claims anything, so the projection keeps none: the limit is
  // not reached and IIs 1-3 fall to the recurrence.
  tiny.project = true;
  EXPECT_EQ(proveOptimal(p, 4, 1, tiny), std::optional<bool>(true));
}

// a holds "alu" at cycles 0 and 1, b at cycles 0 and 2: four bit-cycles, so
// resMII = 4, but at II 4 b's two rows are 2 apart and the two rows a leaves
// free are adjacent. II 5 works.
TEST(ExactCheck, BitBoundUnreachableBecauseOfFolding) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1, {rrt::Use::bit(0, 2)}));
  p.addOp(makeOp("b", 1, {rrt::Use::bit(0, 1, 0), rrt::Use::bit(0, 1, 2)}));
  p.finalize();
  EXPECT_EQ(p.computeBounds().mii, 4u);
  expectVerdict(p, 3, Verdict::Infeasible);
  expectVerdict(p, 4, Verdict::Infeasible);
  expectVerdict(p, 5, Verdict::Feasible);
  expectVerdict(p, 6, Verdict::Feasible);
  EXPECT_EQ(proveOptimal(p, 5, p.computeBounds().mii),
            std::optional<bool>(true));
}

// Pool cap 3: a claims 2 units for 2 cycles, b 2 units for 1 cycle. Six
// unit-cycles fit 2 rows of 3 in aggregate, but every row at II 2 already
// holds a's 2 units.
Problem pools(bool binding) {
  rrt::ResourceLayout layout;
  layout.addPool("smem", 3, binding);
  Problem p(layout);
  p.addOp(makeOp("a", 1, {rrt::Use::pool(0, 2, 2)}));
  p.addOp(makeOp("b", 1, {rrt::Use::pool(0, 1, 2)}));
  p.finalize();
  return p;
}

TEST(ExactCheck, PoolRowsCountEveryHolder) {
  Problem p = pools(/*binding=*/true);
  expectVerdict(p, 1, Verdict::Infeasible); // a folds onto itself: 4 > 3.
  expectVerdict(p, 2, Verdict::Infeasible);
  expectVerdict(p, 3, Verdict::Feasible);
}

TEST(ExactCheck, NonBindingPoolNeverRefuses) {
  Problem p = pools(/*binding=*/false);
  expectVerdict(p, 1, Verdict::Feasible);
  expectVerdict(p, 2, Verdict::Feasible);
}

// A footprint longer than II folds with multiplicity: 2 units for 3 cycles
// put 2 + 2 and 2 units in the rows of II 2, and 6 units in the one row of
// II 1, where cap 4 rejects and cap 6 accepts.
TEST(ExactCheck, PoolSelfFoldCountsMultiplicity) {
  for (unsigned cap : {4u, 6u}) {
    rrt::ResourceLayout layout;
    layout.addPool("issue", cap);
    Problem p(layout);
    p.addOp(makeOp("a", 1, {rrt::Use::pool(0, 3, 2)}));
    p.finalize();
    expectVerdict(p, 2, Verdict::Feasible);
    expectVerdict(p, 1, cap >= 6 ? Verdict::Feasible : Verdict::Infeasible);
  }
}

TEST(ExactCheck, BitHeldLongerThanIICollidesWithItself) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1, {rrt::Use::bit(1, 3)}));
  p.finalize();
  expectVerdict(p, 2, Verdict::Infeasible);
  EXPECT_NE(checkII(p, 2).reason.find("collides with itself"),
            std::string::npos);
  expectVerdict(p, 3, Verdict::Feasible);
}

TEST(ExactCheck, MaxDepth) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 5));
  Operation b = makeOp("b", 1);
  b.constraints.maxDepth = 0;
  p.addOp(b);
  p.addDependence({0, 1, 5, 0});
  p.finalize();
  // b must start in [0, II) but at least 5 cycles after a.
  for (unsigned ii = 1; ii <= 5; ++ii)
    expectVerdict(p, ii, Verdict::Infeasible);
  expectVerdict(p, 6, Verdict::Feasible);
}

TEST(ExactCheck, SameDepthGroup) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 4));
  p.addOp(makeOp("b", 1));
  p.addDependence({0, 1, 4, 0});
  p.getGroups().addMember(3, 0);
  p.getGroups().addMember(3, 1);
  p.getGroups().freeze();
  p.finalize();
  // Same stage and 4 cycles apart: II >= 5. Without the group, II 1 works.
  for (unsigned ii = 1; ii <= 4; ++ii)
    expectVerdict(p, ii, Verdict::Infeasible);
  expectVerdict(p, 5, Verdict::Feasible);
}

TEST(ExactCheck, ForceSerial) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 3));
  p.addOp(makeOp("b", 2));
  p.setForceSerial(true);
  p.finalize();
  // Step lengths 3 + 2, one iteration at a time.
  expectVerdict(p, 4, Verdict::Infeasible);
  expectVerdict(p, 5, Verdict::Feasible);
  expectVerdict(p, 8, Verdict::Feasible);
}

TEST(ExactCheck, ZeroLatencyZeroDistanceCycleIsLegal) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 0, {rrt::Use::bit(0, 1)}));
  p.addOp(makeOp("b", 0, {rrt::Use::bit(1, 1)}));
  p.addDependence({0, 1, 0, 0});
  p.addDependence({1, 0, 0, 0});
  p.finalize();
  expectVerdict(p, 1, Verdict::Feasible);
}

TEST(ExactCheck, PositiveZeroDistanceCycleIsInfeasible) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1));
  p.addOp(makeOp("b", 1));
  p.addDependence({0, 1, 1, 0});
  p.addDependence({1, 0, 0, 0});
  p.finalize();
  for (unsigned ii : {1u, 10u, 100u})
    expectVerdict(p, ii, Verdict::Infeasible);
}

TEST(ExactCheck, LongLoopCarriedChainNeedsLateStages) {
  // a -> b -> c -> d, latency 7 each: at II 4, d sits 5 stages after a.
  Problem p(smallLayout());
  for (int i = 0; i < 4; ++i)
    p.addOp(makeOp("op" + std::to_string(i), 7, {rrt::Use::bit(0, 1)}));
  for (unsigned i = 0; i + 1 < 4; ++i)
    p.addDependence({i, i + 1, 7, 0});
  p.addDependence({3, 0, 1, 11});
  p.finalize();
  expectVerdict(p, 4, Verdict::Feasible);
  // The recurrence (latency 22 over distance 11) allows II 2; the four
  // single-cycle claims on one bit do not allow less than 4.
  expectVerdict(p, 3, Verdict::Infeasible);
  expectVerdict(p, 2, Verdict::Infeasible);
}

// Bits past the first 64-bit word of an RRT row.
TEST(ExactCheck, BitsInSecondWord) {
  rrt::ResourceLayout layout;
  for (int i = 0; i < 70; ++i)
    layout.addBit("b" + std::to_string(i));
  Problem p(layout);
  p.addOp(makeOp("a", 1, {rrt::Use::bit(69, 2), rrt::Use::bit(3, 3)}));
  p.addOp(makeOp("b", 1, {rrt::Use::bit(69, 2)}));
  p.addOp(makeOp("c", 1, {rrt::Use::bit(65, 4)}));
  p.finalize();
  expectVerdict(p, 3, Verdict::Infeasible); // Four cycles of b69 in 3 rows.
  expectVerdict(p, 4, Verdict::Feasible);
}

TEST(ExactCheck, EdgeCases) {
  Problem empty(smallLayout());
  empty.finalize();
  expectVerdict(empty, 1, Verdict::Feasible);
  expectVerdict(empty, 0, Verdict::Infeasible);

  // maxOps counts the ops left after the projection: here both claim the
  // slot, so both stay. It bounds the solvers; the portfolio's generator
  // probe (Probe.h) still seats the projection, and its witness verifies.
  Problem p(smallLayout());
  p.addOp(makeOp("a", 2, {rrt::Use::bit(0, 1)}));
  p.addOp(makeOp("b", 2, {rrt::Use::bit(0, 1)}));
  p.addDependence({0, 1, 2, 0});
  p.addDependence({1, 0, 2, 1});
  p.finalize();
  ExactOptions opts;
  opts.maxOps = 1;
  opts.solver = Solver::Sat;
  ExactResult r = checkII(p, 4, opts);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_FALSE(r.witness);
  EXPECT_NE(r.reason.find("too many ops"), std::string::npos);
  opts.solver = Solver::Portfolio;
  r = checkII(p, 4, opts);
  EXPECT_EQ(r.verdict, Verdict::Feasible);
  ASSERT_TRUE(r.witness);
  DiagnosticList diags;
  EXPECT_TRUE(p.verify(*r.witness, diags));

  Problem bad(smallLayout());
  bad.addOp(makeOp("a", 1));
  bad.addDependence({0, 3, 1, 0});
  bad.finalize();
  r = checkII(bad, 2);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_NE(r.reason.find("malformed"), std::string::npos);
}

TEST(ExactCheck, TimeoutGivesUnknownOrAnExactAnswer) {
  // A 40-op problem on one bit at a tight II with a 1 ms budget: the solver
  // may or may not finish; either way no wrong verdict may come back.
  std::mt19937 rng(7);
  Problem p = tilepipe::testing::randomProblem(rng, 40);
  unsigned ii = p.computeBounds().mii;
  ExactOptions opts;
  opts.timeoutMs = 1;
  ExactResult r = checkII(p, ii, opts);
  if (r.verdict == Verdict::Unknown) {
    EXPECT_FALSE(r.reason.empty());
  }
  if (r.witness) {
    DiagnosticList diags;
    EXPECT_TRUE(p.verify(*r.witness, diags));
  }
}

} // namespace
