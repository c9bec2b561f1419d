//===- SerialGeneratorTest.cpp --------------------------------------------===//

#include "TestProblems.h"

#include "scheduler/SerialGenerator.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

TEST(SerialGenerator, KahnWalkTiesByProgramOrder) {
  // c has no predecessor, b depends on a: walk a, b? No: ready {a, c} pops a
  // (smaller id), then ready {b, c} pops b, then c.
  Problem p(smallLayout());
  p.addOp(makeOp("a", 2));
  p.addOp(makeOp("b", 1));
  p.addOp(makeOp("c", 3));
  p.addDependence({0, 1, 2, 0});
  p.finalize();
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = generateSerialSchedule(p, diags);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->orderedOps, (std::vector<OpId>{0, 1, 2}));
  EXPECT_EQ(s->slots[0].cycle, 0);
  EXPECT_EQ(s->slots[1].cycle, 2);
  EXPECT_EQ(s->slots[2].cycle, 3);
  EXPECT_EQ(s->ii, 6u);
  EXPECT_EQ(s->numStages, 1u);
  for (const ScheduleSlot &slot : s->slots) {
    EXPECT_EQ(slot.stage, 0u);
    EXPECT_FALSE(slot.depth); // Serial leaves the cost-based cells empty.
  }
  EXPECT_EQ(s->generator, GeneratorKind::Serial);
}

TEST(SerialGenerator, DependenceOverridesProgramOrder) {
  Problem p(smallLayout());
  p.addOp(makeOp("late", 1));
  p.addOp(makeOp("early", 1));
  p.addDependence({1, 0, 1, 0});
  p.finalize();
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = generateSerialSchedule(p, diags);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->orderedOps, (std::vector<OpId>{1, 0}));
  EXPECT_EQ(s->slots[1].order, 0u);
  EXPECT_EQ(s->slots[0].order, 1u);
}

TEST(SerialGenerator, DetectsCycle) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1));
  p.addOp(makeOp("b", 1));
  p.addOp(makeOp("c", 1));
  p.addDependence({1, 2, 1, 0});
  p.addDependence({2, 1, 1, 0});
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(generateSerialSchedule(p, diags));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags.all()[0].message.find("'b', 'c'"), std::string::npos);
  EXPECT_EQ(diags.all()[0].op, std::optional<OpId>(1));
}

TEST(SerialGenerator, StepCoversFootprintLongerThanLatency) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1, {rrt::Use::bit(0, 5)}));
  p.addOp(makeOp("b", 1, {rrt::Use::bit(0, 1)}));
  p.finalize();
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = generateSerialSchedule(p, diags);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->slots[1].cycle, 5);
  EXPECT_EQ(s->ii, 6u);
}

TEST(SerialGenerator, EmptyLoop) {
  Problem p(smallLayout());
  p.finalize();
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = generateSerialSchedule(p, diags);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->ii, 1u);
  EXPECT_EQ(s->numStages, 0u);
}

// Property: on random problems that pass check(), the serial schedule always
// passes verify(), never warns, and is identical on a second run.
TEST(SerialGenerator, RandomProblemsVerify) {
  std::mt19937 rng(20261122);
  unsigned checked = 0;
  for (unsigned iter = 0; iter < 2000; ++iter) {
    Problem p = tilepipe::testing::randomProblem(rng, 1 + iter % 24);
    DiagnosticList diags;
    if (!p.check(diags))
      continue;
    ++checked;
    std::optional<ScheduleAnalysis> s = generateSerialSchedule(p, diags);
    ASSERT_TRUE(s) << "iteration " << iter;
    EXPECT_EQ(diags.size(), 0u) << "iteration " << iter;
    DiagnosticList violations;
    EXPECT_TRUE(p.verify(s->toSchedule(), violations))
        << "iteration " << iter << ": "
        << (violations.size() ? violations.all()[0].message : "");
    std::optional<ScheduleAnalysis> again = generateSerialSchedule(p, diags);
    ASSERT_TRUE(again);
    EXPECT_EQ(s->toSchedule().start, again->toSchedule().start);
    EXPECT_EQ(s->orderedOps, again->orderedOps);
  }
  EXPECT_GT(checked, 1500u);
}

} // namespace
