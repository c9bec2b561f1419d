//===- StageAssignmentTest.cpp - min-cut and exact min-buffer stages ------===//

#include "TestProblems.h"

#include "scheduler/Driver.h"
#include "scheduler/StageSink.h"
#include "scheduler/stages/BufferCost.h"
#include "scheduler/stages/MinBuffer.h"
#include "scheduler/stages/MinCut.h"
#include "scheduler/stages/StageConstraints.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

/// Random sizes and memories for the ops' results.
void randomValues(Problem &p, std::mt19937 &rng) {
  const int64_t sizes[] = {0, 1, 16, 512, 4096};
  for (OpId id = 0; id < p.getNumOps(); ++id) {
    Operation &op = p.getOp(id);
    op.resultBytes = sizes[rng() % 5];
    op.resultMemory = ValueMemory(rng() % 3);
  }
}

std::optional<Schedule> asapSchedule(const Problem &p) {
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.stages = StagePolicy::Asap;
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> a = runScheduler(p, options, diags);
  if (!a)
    return std::nullopt;
  return a->toSchedule();
}

bool holds(const StageConstraints &c, const std::vector<int64_t> &s) {
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] < 0 || (c.maxStage[i] && s[i] > *c.maxStage[i]))
      return false;
  for (const StageArc &a : c.arcs)
    if (s[a.to] - s[a.from] < a.gap)
      return false;
  return true;
}

void expectSameRows(const Schedule &a, const Schedule &b) {
  ASSERT_EQ(a.ii, b.ii);
  ASSERT_EQ(a.start.size(), b.start.size());
  for (size_t i = 0; i < a.start.size(); ++i)
    EXPECT_EQ(a.start[i] % a.ii, b.start[i] % b.ii) << "op " << i;
}

// Brute force over every stage vector in a box that holds the exact answer:
// nothing in it buffers fewer bytes (pipes first, then registers), so the
// flow's potentials are optimal; and the heuristics never beat it.
TEST(StageAssignment, ExactMatchesBruteForceAndBeatsTheHeuristics) {
  std::mt19937 rng(20261124);
  unsigned compared = 0, cutWorse = 0, lateWorse = 0;
  for (unsigned trial = 0; trial < 400 && compared < 150; ++trial) {
    Problem p = tilepipe::testing::randomProblem(rng, 2 + trial % 4);
    randomValues(p, rng);
    std::optional<Schedule> asap = asapSchedule(p);
    if (!asap)
      continue;
    std::optional<Schedule> exact = minBufferStages(p, *asap);
    ASSERT_TRUE(exact) << "trial " << trial;
    DiagnosticList diags;
    ASSERT_TRUE(p.verify(*exact, diags)) << "trial " << trial;
    expectSameRows(*asap, *exact);

    StageConstraints c = stageConstraints(p, *asap);
    int64_t top = 1;
    for (int64_t s : c.stagesOf(*asap))
      top = std::max(top, s + 2);
    for (int64_t s : c.stagesOf(*exact))
      top = std::max(top, s + 1);
    if (top > 7)
      continue; // Keep the box small.
    const unsigned n = p.getNumOps();
    std::vector<int64_t> s(n, 0);
    std::optional<BufferedBytes> best;
    for (;;) {
      if (holds(c, s)) {
        BufferedBytes b = bufferedBytes(p, c.scheduleOf(s));
        if (!best || b < *best)
          best = b;
      }
      unsigned i = 0;
      while (i < n && ++s[i] > top)
        s[i++] = 0;
      if (i == n)
        break;
    }
    ASSERT_TRUE(best) << "trial " << trial;
    BufferedBytes got = bufferedBytes(p, *exact);
    EXPECT_EQ(got.pipes(), best->pipes()) << "trial " << trial;
    EXPECT_EQ(got.registers, best->registers) << "trial " << trial;
    ++compared;

    BufferedBytes asapBytes = bufferedBytes(p, *asap);
    Schedule late = sinkStages(p, *asap);
    EXPECT_FALSE(asapBytes < got) << "trial " << trial;
    EXPECT_FALSE(bufferedBytes(p, late) < got) << "trial " << trial;
    lateWorse += got < bufferedBytes(p, late);
    if (std::optional<Schedule> cut = minCutStages(p, *asap)) {
      DiagnosticList cutDiags;
      EXPECT_TRUE(p.verify(*cut, cutDiags)) << "trial " << trial;
      expectSameRows(*asap, *cut);
      BufferedBytes cutBytes = bufferedBytes(p, *cut);
      EXPECT_FALSE(cutBytes < got) << "trial " << trial;
      cutWorse += got < cutBytes;
    }
  }
  EXPECT_GE(compared, 100u);
  // The property must be able to fail: the heuristics lose somewhere.
  EXPECT_GT(lateWorse + cutWorse, 0u);
  std::printf("compared %u; min-cut worse on %u, late worse on %u\n", compared,
              cutWorse, lateWorse);
}

// Larger random problems: every policy keeps II and rows and verifies, and
// the exact assignment is never worse than min-cut, late or ASAP.
TEST(StageAssignment, LargerProblemsVerifyAndExactIsNeverWorse) {
  std::mt19937 rng(77);
  unsigned scheduled = 0;
  for (unsigned trial = 0; trial < 120; ++trial) {
    Problem p = tilepipe::testing::randomProblem(rng, 8 + trial % 40);
    randomValues(p, rng);
    std::optional<Schedule> asap = asapSchedule(p);
    if (!asap)
      continue;
    ++scheduled;
    std::optional<Schedule> exact = minBufferStages(p, *asap);
    ASSERT_TRUE(exact) << "trial " << trial;
    DiagnosticList diags;
    ASSERT_TRUE(p.verify(*exact, diags)) << "trial " << trial;
    expectSameRows(*asap, *exact);
    BufferedBytes best = bufferedBytes(p, *exact);
    EXPECT_FALSE(bufferedBytes(p, *asap) < best) << "trial " << trial;
    EXPECT_FALSE(bufferedBytes(p, sinkStages(p, *asap)) < best)
        << "trial " << trial;
    if (std::optional<Schedule> cut = minCutStages(p, *asap)) {
      DiagnosticList cutDiags;
      EXPECT_TRUE(p.verify(*cut, cutDiags)) << "trial " << trial;
      EXPECT_FALSE(bufferedBytes(p, *cut) < best) << "trial " << trial;
    }
  }
  EXPECT_GE(scheduled, 80u);
}

// The driver applies the policy after the generator: same II, fewer or equal
// buffered bytes than ASAP.
TEST(StageAssignment, DriverPolicies) {
  std::mt19937 rng(5);
  for (unsigned trial = 0; trial < 60; ++trial) {
    Problem p = tilepipe::testing::randomProblem(rng, 6 + trial % 10);
    randomValues(p, rng);
    DriverOptions options;
    options.selection.request = GeneratorRequest::CostBased;
    options.stages = StagePolicy::Asap;
    DiagnosticList diags;
    std::optional<ScheduleAnalysis> asap = runScheduler(p, options, diags);
    if (!asap)
      continue;
    for (StagePolicy policy : {StagePolicy::MinCut, StagePolicy::MinBuffer}) {
      options.stages = policy;
      DiagnosticList d;
      std::optional<ScheduleAnalysis> a = runScheduler(p, options, d);
      ASSERT_TRUE(a);
      EXPECT_EQ(a->ii, asap->ii);
      DiagnosticList v;
      EXPECT_TRUE(p.verify(a->toSchedule(), v));
      if (policy == StagePolicy::MinBuffer) {
        EXPECT_FALSE(bufferedBytes(p, asap->toSchedule()) <
                     bufferedBytes(p, a->toSchedule()));
      }
    }
  }
}

// A chain the heuristic and the exact method see the same: a 4 KiB SMEM
// value used two stages later holds 3 slots; sunk to the stage before its
// use (the use needs it a cycle after the same row) it holds 2.
TEST(StageAssignment, SinkingABigValueFreesItsSlots) {
  Problem p(tilepipe::testing::smallLayout());
  p.addOp(tilepipe::testing::makeOp("load", 1, {}));
  p.addOp(tilepipe::testing::makeOp("a", 10, {}));
  p.addOp(tilepipe::testing::makeOp("b", 10, {}));
  p.addOp(tilepipe::testing::makeOp("use", 1, {}));
  p.addDependence({1, 2, 10, 0});
  p.addDependence({2, 3, 10, 0});
  p.addDependence({0, 3, 1, 0});
  p.finalize();
  p.getOp(0).resultBytes = 4096;
  p.getOp(0).resultMemory = ValueMemory::Smem;
  Schedule s;
  s.ii = 10;
  s.start = {0, 0, 10, 20}; // load at stage 0, used at stage 2.
  DiagnosticList diags;
  ASSERT_TRUE(p.verify(s, diags));
  EXPECT_EQ(bufferedBytes(p, s).smem, 4096 * 3);
  std::optional<Schedule> exact = minBufferStages(p, s);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->start[0], 10); // Sunk next to its use.
  EXPECT_EQ(bufferedBytes(p, *exact).smem, 4096 * 2);
  std::optional<Schedule> cut = minCutStages(p, s);
  ASSERT_TRUE(cut);
  EXPECT_EQ(bufferedBytes(p, *cut).smem, 4096 * 2);
}

} // namespace
