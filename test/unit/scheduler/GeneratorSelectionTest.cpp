//===- GeneratorSelectionTest.cpp -----------------------------------------===//

#include "TestProblems.h"

#include "scheduler/GeneratorSelection.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

Problem withOps(unsigned n, bool tma) {
  Problem p(smallLayout());
  for (unsigned i = 0; i < n; ++i) {
    Operation op = makeOp("op", 1);
    op.isTMA = tma && i == 0;
    op.isAsync = op.isTMA;
    p.addOp(op);
  }
  p.finalize();
  return p;
}

/// Seed 002's rule, kept selectable as SelectionRule::Threshold.
TEST(GeneratorSelection, ThresholdRulesInOrder) {
  SelectionOptions opts;
  opts.rule = SelectionRule::Threshold;
  Problem big = withOps(10, true);
  EXPECT_EQ(selectGenerator(big, opts).kind, GeneratorKind::CostBased);

  big.setForceSerial(true);
  GeneratorSelection forced = selectGenerator(big, opts);
  EXPECT_EQ(forced.kind, GeneratorKind::Serial);
  EXPECT_NE(forced.reason.find("force_serial_execution"), std::string::npos);

  GeneratorSelection small = selectGenerator(withOps(7, true), opts);
  EXPECT_EQ(small.kind, GeneratorKind::Serial);
  EXPECT_NE(small.reason.find("below serial_threshold 8"), std::string::npos);

  GeneratorSelection simt = selectGenerator(withOps(12, false), opts);
  EXPECT_EQ(simt.kind, GeneratorKind::Serial);
  EXPECT_NE(simt.reason.find("no TMA"), std::string::npos);
}

TEST(GeneratorSelection, ThresholdAndRequest) {
  SelectionOptions opts;
  opts.rule = SelectionRule::Threshold;
  opts.serialThreshold = 4;
  EXPECT_EQ(selectGenerator(withOps(7, true), opts).kind,
            GeneratorKind::CostBased);
  opts.request = GeneratorRequest::Serial;
  EXPECT_EQ(selectGenerator(withOps(7, true), opts).kind,
            GeneratorKind::Serial);
  opts.request = GeneratorRequest::CostBased;
  EXPECT_EQ(selectGenerator(withOps(2, false), opts).kind,
            GeneratorKind::CostBased);
}

/// A GEMM-like loop: two loads on the "mem" bit, one MMA on the "alu" bit
/// that carries its accumulator. Few ops, so seed 002's rule runs it
/// serially; its serial length is far above the resource bound.
Problem gemmLike() {
  Problem p(smallLayout());
  Operation a = makeOp("a", 20, {rrt::Use::bit(1, 6)});
  a.isTMA = a.isAsync = true;
  Operation b = makeOp("b", 20, {rrt::Use::bit(1, 10)});
  b.isTMA = b.isAsync = true;
  Operation mma = makeOp("mma", 12, {rrt::Use::bit(0, 8)});
  mma.isMMA = mma.isAsync = true;
  p.addOp(a);
  p.addOp(b);
  p.addOp(mma);
  p.addDependence({0, 2, 20, 0});
  p.addDependence({1, 2, 20, 0});
  p.addDependence({2, 2, 8, 1});
  p.finalize();
  return p;
}

TEST(GeneratorSelection, BoundIsTheDefault) {
  EXPECT_EQ(SelectionOptions().rule, SelectionRule::Bound);
}

TEST(GeneratorSelection, BoundNeverLosesThroughput) {
  Problem p = gemmLike();
  rrt::Bounds bounds = p.computeBounds();
  ASSERT_EQ(bounds.mii, 16u) << "the mem bit holds 6 + 10 cycles";
  ASSERT_GT(p.serialLength(), int64_t(bounds.mii));

  SelectionOptions opts;
  GeneratorSelection chosen = selectGenerator(p, opts, &bounds);
  EXPECT_EQ(chosen.kind, GeneratorKind::CostBased);
  EXPECT_EQ(chosen.reason,
            "serial length " + std::to_string(p.serialLength()) +
                " > MII 16: overlapping iterations can shorten the II");
  // Without bounds handed in, selection computes the same ones.
  EXPECT_EQ(selectGenerator(p, opts).reason, chosen.reason);

  // Seed 002 would have run this 3-op loop serially and lost the overlap.
  opts.rule = SelectionRule::Threshold;
  EXPECT_EQ(selectGenerator(p, opts, &bounds).kind, GeneratorKind::Serial);
}

TEST(GeneratorSelection, BoundPicksSerialWhenNothingIsLost) {
  // One op that holds its bit for its whole latency: the serial length
  // (its step) equals the resource bound, so serial is optimal.
  Problem p(smallLayout());
  p.addOp(makeOp("only", 5, {rrt::Use::bit(0, 5)}));
  p.finalize();
  rrt::Bounds bounds = p.computeBounds();
  ASSERT_EQ(bounds.mii, 5u);
  ASSERT_EQ(p.serialLength(), 5);
  GeneratorSelection chosen = selectGenerator(p, SelectionOptions(), &bounds);
  EXPECT_EQ(chosen.kind, GeneratorKind::Serial);
  EXPECT_EQ(chosen.reason,
            "serial length 5 <= MII 5: no overlapped schedule can be shorter");

  // A SIMT-only loop whose serial length exceeds MII goes cost-based under
  // the default rule (seed 002 ran every such loop serially).
  Problem simt = withOps(12, false);
  EXPECT_EQ(selectGenerator(simt, SelectionOptions()).kind,
            GeneratorKind::CostBased);
}

TEST(GeneratorSelection, ForceSerialWinsUnderEitherRule) {
  Problem p = gemmLike();
  p.setForceSerial(true);
  for (SelectionRule rule : {SelectionRule::Bound, SelectionRule::Threshold}) {
    SelectionOptions opts;
    opts.rule = rule;
    GeneratorSelection chosen = selectGenerator(p, opts);
    EXPECT_EQ(chosen.kind, GeneratorKind::Serial);
    EXPECT_EQ(chosen.reason, "force_serial_execution on the loop");
  }
  // The generator option overrides every rule.
  SelectionOptions opts;
  opts.request = GeneratorRequest::CostBased;
  EXPECT_EQ(selectGenerator(gemmLike(), opts).reason,
            "requested by the generator option");
}

} // namespace
