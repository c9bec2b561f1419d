//===- AgentProgramTest.cpp - plans laid out as agents, then checked ------===//

#include "materialize/plan/AgentProgram.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::materialize;

namespace {

// load (op 0, TMA) -> mma (op 1, UMMA) -> simt (op 2) through two pipes,
// plus a loop-carried use of the SIMT value by the next iteration's load.
struct Loop {
  sched::Problem problem;
  sched::ScheduleAnalysis schedule;
  Loop() {
    for (int i = 0; i < 3; ++i) {
      sched::Operation op;
      op.name = "op" + std::to_string(i);
      op.latency = 5;
      problem.addOp(op);
    }
    problem.addDependence({0, 1, 5, 0});
    problem.addDependence({1, 2, 5, 0});
    problem.finalize();
    schedule = sched::ScheduleAnalysis::fromSchedule(
        problem, {4, {0, 5, 10}}, sched::GeneratorKind::CostBased);
  }
};

BufferPlan twoPipes(unsigned depth) {
  BufferPlan plan;
  PipePlan a;
  a.producer = 0;
  a.consumers = {1};
  a.producerUnit = Unit::TMA;
  a.consumerUnit = Unit::UMMA;
  a.depth = depth;
  PipePlan b;
  b.producer = 1;
  b.consumers = {2};
  b.producerUnit = Unit::UMMA;
  b.consumerUnit = Unit::SIMT;
  b.cls = BufferClass::TMEM;
  b.depth = depth;
  plan.pipes = {a, b};
  return plan;
}

TEST(AgentProgram, LayoutAndCleanCheck) {
  Loop loop;
  std::vector<Unit> units = {Unit::TMA, Unit::UMMA, Unit::SIMT};
  std::vector<std::optional<unsigned>> groups(3);
  for (unsigned depth : {1u, 2u, 4u}) {
    protocol::Program program = buildAgentProgram(
        loop.schedule, units, groups, twoPipes(depth), {}, {"a", "b", "c"});
    ASSERT_EQ(program.agents.size(), 3u);
    EXPECT_EQ(program.agents[0].name, "load");
    EXPECT_EQ(program.agents[1].name, "mma");
    EXPECT_EQ(program.agents[2].name, "simt0");
    // load: acquire, write, commit; mma: wait, read, acquire, write,
    // commit, release; simt: wait, read, release.
    EXPECT_EQ(program.agents[0].body.size(), 3u);
    EXPECT_EQ(program.agents[1].body.size(), 6u);
    EXPECT_EQ(program.agents[2].body.size(), 3u);
    EXPECT_FALSE(checkAgentProgram(program, loop.schedule.numStages, 10))
        << "depth " << depth;
  }
}

TEST(AgentProgram, CatchesADroppedWait) {
  Loop loop;
  std::vector<Unit> units = {Unit::TMA, Unit::UMMA, Unit::SIMT};
  std::vector<std::optional<unsigned>> groups(3);
  protocol::Program program = buildAgentProgram(
      loop.schedule, units, groups, twoPipes(2), {}, {"a", "b", "c"});
  auto &simt = program.agents[2].body;
  simt.erase(simt.begin()); // The wait before the read.
  std::optional<protocol::Violation> v =
      checkAgentProgram(program, loop.schedule.numStages, 10);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, protocol::Violation::ReadBeforeCommit);
}

TEST(AgentProgram, SoftmaxGroupsTakeTurnsOnTheMufu) {
  Loop loop;
  // Ops 1 and 2 are SIMT ops of warp groups 0 and 1, both on the MUFU.
  std::vector<Unit> units = {Unit::TMA, Unit::SIMT, Unit::SIMT};
  std::vector<std::optional<unsigned>> groups = {std::nullopt, 0u, 1u};
  MutexPlan m;
  m.slot = 2;
  m.groups = {0, 1};
  m.ops = {1, 2};
  m.namedBarrier = 8;
  BufferPlan plan;
  protocol::Program program = buildAgentProgram(loop.schedule, units, groups,
                                                plan, {m}, {"a", "b", "c"});
  ASSERT_EQ(program.agents.size(), 3u);
  ASSERT_EQ(program.mutexes.size(), 1u);
  EXPECT_EQ(program.agents[1].body.front().step, protocol::Step::Lock);
  EXPECT_EQ(program.agents[2].body.back().step, protocol::Step::Unlock);
  EXPECT_FALSE(checkAgentProgram(program, loop.schedule.numStages, 10));
}

} // namespace
