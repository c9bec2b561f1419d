//===- BoundsTest.cpp - each lower bound on hand-made examples ------------===//

#include "rrt/Bounds.h"

#include "gtest/gtest.h"

#include <climits>

using namespace tilepipe::rrt;

namespace {

ResourceLayout layout() {
  ResourceLayout l;
  l.addBit("tma");        // 0
  l.addBit("tp_smem_wr"); // 1
  l.addBit("tc_and_mma"); // 2
  l.addPool("alu_fma", 4);
  l.addPool("dual_alu", 2);
  l.addPool("table", 37, /*binding=*/false);
  return l;
}

BoundsInput input(const ResourceLayout &l, llvm::ArrayRef<Footprint> fps,
                  llvm::ArrayRef<DepEdge> deps = {},
                  llvm::ArrayRef<std::optional<unsigned>> depth = {}) {
  BoundsInput in;
  in.layout = &l;
  in.footprints = fps;
  in.deps = deps;
  in.maxDepth = depth;
  return in;
}

std::vector<Footprint> emptyOps(const ResourceLayout &l, unsigned n) {
  return std::vector<Footprint>(n, Footprint(l, {}));
}

//===----------------------------------------------------------------------===//
// resMII
//===----------------------------------------------------------------------===//

TEST(ResMIITest, NoBitsGivesOne) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 3);
  std::string name = "x";
  EXPECT_EQ(computeResMII(input(l, fps), &name), 1u);
  EXPECT_EQ(name, "");
}

TEST(ResMIITest, SumOfHeldCycles) {
  // The worked example: TMA load and smem_write both hold tp_smem_wr.
  ResourceLayout l = layout();
  std::vector<Footprint> fps = {
      Footprint(l, {Use::bit(0, 8), Use::bit(1, 8)}),
      Footprint(l, {Use::bit(1, 7)}),
      Footprint(l, {Use::bit(2, 8)}),
  };
  std::string name;
  EXPECT_EQ(computeResMII(input(l, fps), &name), 15u);
  EXPECT_EQ(name, "tp_smem_wr");
}

TEST(ResMIITest, OneCycleHolderGivesOneWithName) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = {Footprint(l, {Use::bit(2, 1)})};
  std::string name;
  EXPECT_EQ(computeResMII(input(l, fps), &name), 1u);
  EXPECT_EQ(name, "tc_and_mma");
}

TEST(ResMIITest, TwoRunsOfOneBitInOneOp) {
  // Cycles 0 and 2: demand 2, but II 2 folds them onto one row.
  ResourceLayout l = layout();
  std::vector<Footprint> fps = {
      Footprint(l, {Use::bit(1, 1), Use::bit(1, 1, /*offset=*/2)})};
  std::string name;
  EXPECT_EQ(computeResMII(input(l, fps), &name), 3u);
  EXPECT_EQ(name, "tp_smem_wr");
  // Cycles 0-1 and 4-5: II 3, 4 and 5 each fold a cycle of the second run
  // onto the first (4 -> 1, 4 -> 0, 5 -> 0); II 6 is the first clean one,
  // and clean folding is not monotone (II 2 and 4 collide, II 3 too).
  std::vector<Footprint> gap = {
      Footprint(l, {Use::bit(0, 2), Use::bit(0, 2, /*offset=*/4)})};
  EXPECT_EQ(computeResMII(input(l, gap)), 6u);
}

TEST(ResMIITest, OverlappingRunsAreInfeasible) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = {
      Footprint(l, {Use::bit(0, 3), Use::bit(0, 1, /*offset=*/2)})};
  EXPECT_EQ(computeResMII(input(l, fps)), UINT_MAX);
  Bounds b = computeBounds(input(l, fps));
  EXPECT_TRUE(b.resourceInfeasible);
  EXPECT_EQ(b.mii, UINT_MAX);
}

//===----------------------------------------------------------------------===//
// fineMII
//===----------------------------------------------------------------------===//

TEST(FineMIITest, AggregateDemandOverCapacity) {
  ResourceLayout l = layout();
  // 3 ops x 2 units x 3 cycles = 18 unit-cycles on a cap-4 pool.
  std::vector<Footprint> fps(3, Footprint(l, {Use::pool(0, 3, 2)}));
  std::string name;
  EXPECT_EQ(computeFineMII(input(l, fps), &name), 5u);
  EXPECT_EQ(name, "alu_fma");
}

TEST(FineMIITest, NonBindingPoolsIgnored) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps(10, Footprint(l, {Use::pool(2, 8, 30)}));
  std::string name = "x";
  EXPECT_EQ(computeFineMII(input(l, fps), &name), 1u);
  EXPECT_EQ(name, "");
}

TEST(FineMIITest, PerOpFolding) {
  // 3 units for 4 cycles on cap 4: only one copy of the run fits per row,
  // so II >= 4 although the aggregate says ceil(12 / 4) = 3.
  ResourceLayout l = layout();
  std::vector<Footprint> fps = {Footprint(l, {Use::pool(0, 4, 3)})};
  std::string name;
  EXPECT_EQ(computeFineMII(input(l, fps), &name), 4u);
  EXPECT_EQ(name, "alu_fma");
  // 2 units for 5 cycles on cap 4: two copies per row, II >= ceil(5 / 2).
  std::vector<Footprint> two = {Footprint(l, {Use::pool(0, 5, 2)})};
  EXPECT_EQ(computeFineMII(input(l, two)), 3u);
}

TEST(FineMIITest, PerOpFoldingSeveralRuns) {
  // dual_alu (cap 2): 2 units at cycle 0 and 1 unit at cycle 3. II 1 and 3
  // stack them (3 > 2); II 2 puts them on rows 0 and 1.
  ResourceLayout l = layout();
  std::vector<Footprint> fps = {
      Footprint(l, {Use::pool(1, 1, 2), Use::pool(1, 1, 1, /*offset=*/3)})};
  EXPECT_EQ(computeFineMII(input(l, fps)), 2u);
  // 2 units at cycles 0 and 2: II 2 stacks them, II 3 does not.
  std::vector<Footprint> gap = {
      Footprint(l, {Use::pool(1, 1, 2), Use::pool(1, 1, 2, /*offset=*/2)})};
  EXPECT_EQ(computeFineMII(input(l, gap)), 3u);
}

TEST(FineMIITest, SingleCycleOverCapacityIsInfeasible) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = {Footprint(l, {Use::pool(1, 1, 3)})};
  EXPECT_EQ(computeFineMII(input(l, fps)), UINT_MAX);
  std::vector<Footprint> split = {
      Footprint(l, {Use::pool(1, 2, 1), Use::pool(1, 1, 2, /*offset=*/1)})};
  EXPECT_EQ(computeFineMII(input(l, split)), UINT_MAX);
  Bounds b = computeBounds(input(l, fps));
  EXPECT_TRUE(b.resourceInfeasible);
  EXPECT_EQ(b.fineBottleneck, "dual_alu");
}

TEST(FineMIITest, ZeroCapacityBindingPool) {
  ResourceLayout l = layout();
  unsigned locked = l.addPool("locked", 0);
  std::vector<Footprint> fps = {Footprint(l, {Use::pool(locked, 1, 1)})};
  EXPECT_EQ(computeFineMII(input(l, fps)), UINT_MAX);
  std::vector<Footprint> none = {Footprint(l, {Use::pool(locked, 1, 0)})};
  EXPECT_EQ(computeFineMII(input(l, none)), 1u);
}

//===----------------------------------------------------------------------===//
// recMII
//===----------------------------------------------------------------------===//

TEST(RecMIITest, NoCyclesGivesOne) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 3);
  std::vector<DepEdge> deps = {{0, 1, 5, 0}, {1, 2, 7, 0}, {0, 2, 100, 3}};
  llvm::SmallVector<unsigned, 4> cycle = {9};
  EXPECT_EQ(computeRecMII(input(l, fps, deps), &cycle), 1u);
  EXPECT_TRUE(cycle.empty());
}

// A cycle whose ratio passes the unsigned range saturates at UINT_MAX (it
// once probed the same clamped II forever).
TEST(RecMIITest, RatioPastUnsignedSaturates) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 2);
  std::vector<DepEdge> deps = {{0, 1, int64_t(1) << 58, 0},
                               {1, 0, int64_t(1) << 58, 1}};
  llvm::SmallVector<unsigned, 4> cycle;
  EXPECT_EQ(computeRecMII(input(l, fps, deps), &cycle),
            std::optional<unsigned>(UINT_MAX));
  EXPECT_EQ(cycle, (llvm::SmallVector<unsigned, 4>{0, 1}));
}

TEST(RecMIITest, TwoOpCycle) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 2);
  std::vector<DepEdge> deps = {{0, 1, 3, 0}, {1, 0, 2, 1}};
  llvm::SmallVector<unsigned, 4> cycle;
  EXPECT_EQ(computeRecMII(input(l, fps, deps), &cycle), 5u);
  EXPECT_EQ(cycle, (llvm::SmallVector<unsigned, 4>{0, 1}));
  // Over two iterations: ceil(5 / 2).
  deps[1].distance = 2;
  EXPECT_EQ(computeRecMII(input(l, fps, deps), &cycle), 3u);
  EXPECT_TRUE(hasPositiveCycle(2, deps, 2));
  EXPECT_FALSE(hasPositiveCycle(2, deps, 3));
}

TEST(RecMIITest, SelfLoop) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 2);
  std::vector<DepEdge> deps = {{1, 1, 7, 2}, {1, 1, 3, 1}};
  llvm::SmallVector<unsigned, 4> cycle;
  EXPECT_EQ(computeRecMII(input(l, fps, deps), &cycle), 4u);
  EXPECT_EQ(cycle, (llvm::SmallVector<unsigned, 4>{1}));
}

TEST(RecMIITest, CriticalCycleIsTheBindingOne) {
  // Two SCCs; the second (ops 2, 3, 4) forces the bound.
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 5);
  std::vector<DepEdge> deps = {
      {0, 1, 4, 0},  {1, 0, 1, 1},               // ratio 5
      {3, 4, 4, 0},  {4, 2, 4, 0}, {2, 3, 4, 1}, // ratio 12
      {1, 2, 50, 0},                             // no cycle
  };
  llvm::SmallVector<unsigned, 4> cycle;
  EXPECT_EQ(computeRecMII(input(l, fps, deps), &cycle), 12u);
  EXPECT_EQ(cycle, (llvm::SmallVector<unsigned, 4>{2, 3, 4}));
  // The reported cycle is positive one below the bound.
  EXPECT_TRUE(hasPositiveCycle(5, deps, 11));
  EXPECT_FALSE(hasPositiveCycle(5, deps, 12));
}

TEST(RecMIITest, BestCycleAmongMany) {
  // In one SCC: cycles of ratio 9 / 1, 16 / 2 and 30 / 3. The bound is the
  // largest ceiling, 10.
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 4);
  std::vector<DepEdge> deps = {
      {0, 1, 4, 0},  {1, 0, 5, 1}, // 9 / 1
      {1, 2, 8, 0},  {2, 1, 8, 2}, // 16 / 2
      {2, 3, 15, 0}, {3, 2, 15, 3} // 30 / 3
  };
  llvm::SmallVector<unsigned, 4> cycle;
  EXPECT_EQ(computeRecMII(input(l, fps, deps), &cycle), 10u);
  EXPECT_EQ(cycle, (llvm::SmallVector<unsigned, 4>{2, 3}));
}

TEST(RecMIITest, NegativeLatencies) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 2);
  // A "start no later than" edge: weight -3 back, 7 forward over 1 iteration.
  std::vector<DepEdge> deps = {{0, 1, 7, 0}, {1, 0, -3, 1}};
  EXPECT_EQ(computeRecMII(input(l, fps, deps)), 4u);
  // Total latency <= 0 with no distance: fine at every II.
  std::vector<DepEdge> tied = {{0, 1, 2, 0}, {1, 0, -2, 0}};
  EXPECT_EQ(computeRecMII(input(l, fps, tied)), 1u);
}

TEST(RecMIITest, ZeroDistancePositiveCycleIsInfeasible) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 3);
  std::vector<DepEdge> deps = {
      {0, 1, 1, 0}, {1, 2, 0, 0}, {2, 0, 0, 0}, {2, 1, 1, 4}};
  llvm::SmallVector<unsigned, 4> cycle;
  EXPECT_FALSE(computeRecMII(input(l, fps, deps), &cycle));
  EXPECT_EQ(cycle, (llvm::SmallVector<unsigned, 4>{0, 1, 2}));
  Bounds b = computeBounds(input(l, fps, deps));
  EXPECT_TRUE(b.recurrenceInfeasible);
  EXPECT_EQ(b.recMII, 1u);
  EXPECT_EQ(b.criticalCycle, (llvm::SmallVector<unsigned, 8>{0, 1, 2}));
  std::vector<DepEdge> self = {{2, 2, 1, 0}};
  EXPECT_FALSE(computeRecMII(input(l, fps, self)));
  std::vector<DepEdge> zero = {{2, 2, 0, 0}};
  EXPECT_EQ(computeRecMII(input(l, fps, zero)), 1u);
}

TEST(RecMIITest, DepsBeyondFootprintsCount) {
  // Ops named only by edges still count.
  ResourceLayout l = layout();
  std::vector<DepEdge> deps = {{3, 4, 6, 0}, {4, 3, 0, 1}};
  EXPECT_EQ(computeRecMII(input(l, {}, deps)), 6u);
}

TEST(RecMIITest, LongRingNeedsNoRecursion) {
  // 60,000 ops in one SCC: iterative Tarjan and one jump to the answer.
  constexpr unsigned n = 60000;
  ResourceLayout l = layout();
  std::vector<DepEdge> deps;
  for (unsigned i = 0; i + 1 < n; ++i)
    deps.push_back({i, i + 1, 2, 0});
  deps.push_back({n - 1, 0, 2, 3});
  EXPECT_EQ(computeRecMII(input(l, {}, deps)), 2u * n / 3);
}

TEST(HasPositiveCycleTest, ReportsACycleOfPositiveWeight) {
  std::vector<DepEdge> deps = {
      {0, 1, 2, 0}, {1, 2, 2, 0}, {2, 0, 2, 1}, {2, 3, 9, 0}, {3, 3, -1, 0}};
  llvm::SmallVector<unsigned, 4> cycle;
  EXPECT_TRUE(hasPositiveCycle(4, deps, 5, &cycle));
  EXPECT_EQ(cycle, (llvm::SmallVector<unsigned, 4>{0, 1, 2}));
  EXPECT_FALSE(hasPositiveCycle(4, deps, 6, &cycle));
  EXPECT_TRUE(cycle.empty());
  EXPECT_FALSE(hasPositiveCycle(0, {}, 1));
}

//===----------------------------------------------------------------------===//
// depMII and ASAP
//===----------------------------------------------------------------------===//

TEST(ASAPTest, LongestZeroDistancePath) {
  std::vector<DepEdge> deps = {
      {0, 1, 4, 0}, {1, 2, 4, 0}, {0, 2, 9, 0}, {2, 3, -20, 0}, {3, 0, 5, 1}};
  std::optional<std::vector<int64_t>> asap = computeASAP(5, deps);
  ASSERT_TRUE(asap);
  EXPECT_EQ(*asap, (std::vector<int64_t>{0, 4, 9, 0, 0}));
}

TEST(ASAPTest, ZeroDistanceCycles) {
  // A same-cycle pair (0 <-> 1 at latency 0) is fine; a positive one is not.
  std::vector<DepEdge> deps = {
      {0, 1, 0, 0}, {1, 0, 0, 0}, {1, 2, 3, 0}, {2, 3, 1, 0}, {3, 2, -1, 0}};
  std::optional<std::vector<int64_t>> asap = computeASAP(4, deps);
  ASSERT_TRUE(asap);
  EXPECT_EQ(*asap, (std::vector<int64_t>{0, 0, 3, 4}));
  deps[4].latency = 0;
  EXPECT_FALSE(computeASAP(4, deps));
}

TEST(DepMIITest, UnboundedDepthGivesOne) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 3);
  std::vector<DepEdge> deps = {{0, 1, 40, 0}, {1, 2, 40, 0}};
  EXPECT_EQ(computeDepMII(input(l, fps, deps)), 1u);
  std::vector<std::optional<unsigned>> none(3);
  EXPECT_EQ(computeDepMII(input(l, fps, deps, none)), 1u);
}

TEST(DepMIITest, DepthAgainstASAP) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = emptyOps(l, 3);
  std::vector<DepEdge> deps = {{0, 1, 4, 0}, {1, 2, 4, 0}};
  // Op 2 starts at 8 or later; depth 0 needs 8 <= II - 1.
  std::vector<std::optional<unsigned>> depth = {std::nullopt, std::nullopt, 0u};
  EXPECT_EQ(computeDepMII(input(l, fps, deps, depth)), 9u);
  // Depth 1: 8 <= 2 * II - 1, so II >= 5 (4.5 rounded up).
  depth[2] = 1;
  EXPECT_EQ(computeDepMII(input(l, fps, deps, depth)), 5u);
  // Depth 0 on op 1 (asap 4) then rules: II >= 5 as well; depth 0 on op 0
  // (asap 0) asks nothing.
  depth = {0u, 0u, 3u};
  EXPECT_EQ(computeDepMII(input(l, fps, deps, depth)), 5u);
}

//===----------------------------------------------------------------------===//
// computeBounds
//===----------------------------------------------------------------------===//

TEST(ComputeBoundsTest, TakesTheMaximum) {
  ResourceLayout l = layout();
  std::vector<Footprint> fps = {
      Footprint(l, {Use::bit(0, 3), Use::pool(0, 2, 3)}),
      Footprint(l, {Use::bit(0, 2), Use::pool(0, 2, 3)}),
      Footprint(l, {Use::bit(1, 1)}),
  };
  std::vector<DepEdge> deps = {{0, 1, 3, 0}, {1, 2, 3, 0}, {2, 0, 1, 1}};
  std::vector<std::optional<unsigned>> depth = {std::nullopt, std::nullopt, 0u};
  Bounds b = computeBounds(input(l, fps, deps, depth));
  EXPECT_EQ(b.resMII, 5u);
  EXPECT_EQ(b.resBottleneck, "tma");
  // 12 unit-cycles over cap 4; each op alone needs only ceil(2 / 1).
  EXPECT_EQ(b.fineMII, 3u);
  EXPECT_EQ(b.fineBottleneck, "alu_fma");
  EXPECT_EQ(b.recMII, 7u);
  EXPECT_EQ(b.criticalCycle, (llvm::SmallVector<unsigned, 8>{0, 1, 2}));
  EXPECT_EQ(b.depMII, 7u);
  EXPECT_EQ(b.mii, 7u);
  EXPECT_FALSE(b.recurrenceInfeasible);
  EXPECT_FALSE(b.resourceInfeasible);
}

} // namespace
