//===- StageSinkTest.cpp - sinking ops to their latest stage --------------===//

#include "TestProblems.h"

#include "scheduler/Driver.h"
#include "scheduler/StageSink.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

int64_t lastStage(const Schedule &s) {
  int64_t last = 0;
  for (int64_t start : s.start)
    last = std::max<int64_t>(last, start / s.ii);
  return last;
}

TEST(StageSink, RandomProblemsKeepIIRowsAndNeverLengthenLifetimes) {
  std::mt19937 rng(1234);
  unsigned sunkSome = 0, scheduled = 0;
  for (unsigned trial = 0; trial < 300; ++trial) {
    Problem p = tilepipe::testing::randomProblem(rng, 3 + trial % 14);
    DriverOptions options;
    options.selection.request = GeneratorRequest::CostBased;
    options.stages = StagePolicy::Asap;
    DiagnosticList diags;
    std::optional<ScheduleAnalysis> a = runScheduler(p, options, diags);
    if (!a)
      continue;
    ++scheduled;
    Schedule asap = a->toSchedule();
    Schedule late = sinkStages(p, asap);
    DiagnosticList violations;
    ASSERT_TRUE(p.verify(late, violations)) << "trial " << trial;
    ASSERT_EQ(late.ii, asap.ii);
    ASSERT_EQ(late.start.size(), asap.start.size());
    for (size_t i = 0; i < asap.start.size(); ++i) {
      EXPECT_EQ(late.start[i] % late.ii, asap.start[i] % asap.ii)
          << "trial " << trial << " op " << i << " changed its modulo row";
    }
    EXPECT_LE(lastStage(late), lastStage(asap)) << "trial " << trial;
    int64_t before = totalStageLifetime(p, asap);
    int64_t after = totalStageLifetime(p, late);
    EXPECT_LE(after, before) << "trial " << trial;
    sunkSome += after < before;
    // A fixpoint: sinking again moves nothing.
    EXPECT_EQ(sinkStages(p, late).start, late.start) << "trial " << trial;

    // The driver's default applies it and still publishes a verified
    // schedule at the same II.
    DriverOptions lateOptions = options;
    lateOptions.stages = StagePolicy::Late;
    DiagnosticList diags2;
    std::optional<ScheduleAnalysis> b = runScheduler(p, lateOptions, diags2);
    ASSERT_TRUE(b) << "trial " << trial;
    EXPECT_EQ(b->ii, a->ii);
  }
  EXPECT_GT(scheduled, 200u);
  EXPECT_GT(sunkSome, 0u) << "no random problem exercised a move";
}

/// load (mem, 1 cycle, latency 1) -> a chain of three alu ops -> use.
/// ASAP puts the load in stage 0; its consumer sits k stages later.
Problem loadFarFromUse(std::optional<unsigned> maxDepth = std::nullopt) {
  Problem p(smallLayout());
  Operation load = makeOp("load", 1, {rrt::Use::bit(1, 1)});
  load.constraints.maxDepth = maxDepth;
  OpId l = p.addOp(load);
  OpId a = p.addOp(makeOp("a", 10));
  OpId b = p.addOp(makeOp("b", 10));
  OpId c = p.addOp(makeOp("c", 10));
  OpId use = p.addOp(makeOp("use", 1, {rrt::Use::bit(0, 1)}));
  p.addDependence({a, b, 10, 0});
  p.addDependence({b, c, 10, 0});
  p.addDependence({c, use, 10, 0});
  p.addDependence({l, use, 1, 0});
  p.finalize();
  return p;
}

TEST(StageSink, LoadMovesFromStageZeroToItsConsumersStage) {
  Problem p = loadFarFromUse();
  // II 4; the load at cycle 0 (stage 0, row 0), the use at cycle 31
  // (stage 7, row 3).
  Schedule s{4, {0, 1, 11, 21, 31}};
  DiagnosticList diags;
  ASSERT_TRUE(p.verify(s, diags));
  Schedule late = sinkStages(p, s);
  // The load may start as late as 31 - 1 = 30 in row 0: cycle 28, stage 7.
  EXPECT_EQ(late.start[0], 28);
  EXPECT_EQ(late.start[0] / late.ii, 7);
  // The chain is already tight; the use has no successor.
  EXPECT_EQ(late.start[1], 1);
  EXPECT_EQ(late.start[2], 11);
  EXPECT_EQ(late.start[3], 21);
  EXPECT_EQ(late.start[4], 31);
  EXPECT_TRUE(p.verify(late, diags));
  EXPECT_EQ(totalStageLifetime(p, s), 2 + 3 + 2 + 7);
  EXPECT_EQ(totalStageLifetime(p, late), 2 + 3 + 2 + 0);
}

TEST(StageSink, RecurrenceSeatedLateIsHoistedAsAWhole) {
  // A load feeds a two-op recurrence (a -> b, b -> a one iteration later)
  // that the generator seated two stages late: the whole recurrence moves
  // back, its internal timing unchanged, and the load's value lives in one
  // stage instead of three.
  Problem p(smallLayout());
  OpId l = p.addOp(makeOp("load", 3, {rrt::Use::bit(1, 1)}));
  OpId a = p.addOp(makeOp("a", 2));
  OpId b = p.addOp(makeOp("b", 2));
  p.addDependence({l, a, 3, 0});
  p.addDependence({a, b, 2, 0});
  p.addDependence({b, a, 2, 1});
  p.finalize();
  Schedule s{10, {0, 25, 27}};
  DiagnosticList diags;
  ASSERT_TRUE(p.verify(s, diags));
  Schedule late = sinkStages(p, s);
  EXPECT_EQ(late.start[a], 5);
  EXPECT_EQ(late.start[b], 7);
  EXPECT_TRUE(p.verify(late, diags));
  EXPECT_LT(totalStageLifetime(p, late), totalStageLifetime(p, s));
  // A recurrence whose input arrives late stays.
  Schedule tight{10, {20, 25, 27}};
  ASSERT_TRUE(p.verify(tight, diags));
  EXPECT_EQ(sinkStages(p, tight).start[a], 25);
}

TEST(StageSink, HonoursMaxDepth) {
  Problem p = loadFarFromUse(/*maxDepth=*/3);
  Schedule late = sinkStages(p, Schedule{4, {0, 1, 11, 21, 31}});
  EXPECT_EQ(late.start[0], 12) << "stage 3, row 0";
  DiagnosticList diags;
  EXPECT_TRUE(p.verify(late, diags));
}

TEST(StageSink, GroupMembersStay) {
  Problem p(smallLayout());
  Operation load = makeOp("load", 1, {rrt::Use::bit(1, 1)});
  load.constraints.gid = 7;
  OpId l = p.addOp(load);
  OpId a = p.addOp(makeOp("a", 20));
  OpId use = p.addOp(makeOp("use", 1, {rrt::Use::bit(0, 1)}));
  p.addDependence({a, use, 20, 0});
  p.addDependence({l, use, 1, 0});
  p.getGroups().addGroup(7);
  p.getGroups().addMember(7, l);
  p.getGroups().freeze();
  p.finalize();
  Schedule late = sinkStages(p, Schedule{4, {0, 1, 21}});
  EXPECT_EQ(late.start[0], 0);
}

TEST(StageSink, DriverOptionSelectsThePolicy) {
  Problem p = loadFarFromUse();
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  DiagnosticList diags;
  options.stages = StagePolicy::Asap;
  std::optional<ScheduleAnalysis> asap = runScheduler(p, options, diags);
  options.stages = StagePolicy::Late;
  std::optional<ScheduleAnalysis> late = runScheduler(p, options, diags);
  ASSERT_TRUE(asap && late);
  EXPECT_EQ(asap->ii, late->ii);
  EXPECT_EQ(*asap->slots[0].moduloCycle, *late->slots[0].moduloCycle);
  EXPECT_LE(totalStageLifetime(p, late->toSchedule()),
            totalStageLifetime(p, asap->toSchedule()));
  EXPECT_LE(asap->slots[0].stage, late->slots[0].stage);
}

} // namespace
