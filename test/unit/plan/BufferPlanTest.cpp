//===- BufferPlanTest.cpp - pipe depths, budgets and sharing --------------===//

#include "materialize/plan/BufferPlan.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::materialize;
using sched::OpId;

namespace {

/// A loop of `n` ops seated at `starts` with II `ii` (no resources: the
/// planner reads the schedule only).
struct Fixture {
  sched::Problem problem;
  sched::ScheduleAnalysis schedule;
  PlanInput input;

  Fixture(std::vector<int64_t> starts, unsigned ii, std::vector<Unit> units) {
    for (size_t i = 0; i < starts.size(); ++i) {
      sched::Operation op;
      op.name = "op" + std::to_string(i);
      op.latency = 1;
      problem.addOp(op);
    }
    problem.finalize();
    schedule = sched::ScheduleAnalysis::fromSchedule(
        problem, {ii, starts}, sched::GeneratorKind::CostBased);
    input.problem = &problem;
    input.schedule = &schedule;
    input.units = std::move(units);
  }
  std::optional<BufferPlan> plan(sched::DiagnosticList &diags) {
    return planBuffers(input, diags);
  }
};

Value smem(OpId producer, int64_t bytes,
           std::vector<std::pair<OpId, unsigned>> consumers,
           std::string key = "a") {
  Value v;
  v.producer = producer;
  v.cls = BufferClass::SMEM;
  v.bytes = bytes;
  v.typeKey = std::move(key);
  v.consumers = std::move(consumers);
  return v;
}

// The GEMM example's schedule at II 1967: B at 0, A at 1311, UMMA at 4901
// (stage 2). Lifetimes span 3 stages; A (16 KiB) + B (32 KiB) = 48 KiB a
// stage, so (232448 - 1024) / 49152 -> 4 stages, as CUTLASS picks for a
// 128x256x64 bf16 tile.
TEST(BufferPlan, GemmMainloopDepths) {
  Fixture f({1311, 0, 4901}, 1967, {Unit::TMA, Unit::TMA, Unit::UMMA});
  f.input.values = {smem(0, 16384, {{2, 0}}), smem(1, 32768, {{2, 0}}, "b")};
  sched::DiagnosticList diags;
  auto plan = f.plan(diags);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->pipes.size(), 2u);
  EXPECT_EQ(plan->pipes[0].stageDistance, 2u);
  EXPECT_EQ(plan->pipes[0].minDepth, 3u);
  EXPECT_EQ(plan->pipes[0].depth, 4u);
  EXPECT_EQ(plan->pipes[1].depth, 4u);
  EXPECT_EQ(plan->pipes[0].producerUnit, Unit::TMA);
  EXPECT_EQ(plan->pipes[0].consumerUnit, Unit::UMMA);
  EXPECT_EQ(plan->smemBytes, 4 * 49152);
}

TEST(BufferPlan, LoopCarriedUseLengthensTheLifetime) {
  // Produced at 10 (stage 0), read at 5 of the next iteration: 5 + 20 = 25,
  // stage 1 -> two buffers.
  Fixture f({10, 5}, 20, {Unit::SIMT, Unit::SIMT});
  f.input.values = {smem(0, 1024, {{1, 1}})};
  sched::DiagnosticList diags;
  auto plan = f.plan(diags);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->pipes[0].minDepth, 2u);
  EXPECT_EQ(plan->pipes[0].depth, 2u); // SIMT pipes are not widened.
}

TEST(BufferPlan, DisjointLifetimesShareABuffer) {
  // v0 lives [0, 3], v1 lives [5, 8] within an II of 10: one buffer.
  Fixture f({0, 3, 5, 8}, 10, {Unit::SIMT, Unit::SIMT, Unit::SIMT, Unit::SIMT});
  f.input.values = {smem(0, 4096, {{1, 0}}), smem(2, 4096, {{3, 0}})};
  sched::DiagnosticList diags;
  auto plan = f.plan(diags);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->pipes[1].sharesWith, std::optional<unsigned>(0));
  EXPECT_EQ(plan->smemBytes, 4096);
  // A different size never shares.
  f.input.values[1].bytes = 2048;
  auto other = f.plan(diags);
  ASSERT_TRUE(other);
  EXPECT_FALSE(other->pipes[1].sharesWith);
}

TEST(BufferPlan, SmemBudgetExceeded) {
  Fixture f({0, 500}, 100, {Unit::TMA, Unit::UMMA});
  f.input.values = {smem(0, 65536, {{1, 0}})}; // 6 stages x 64 KiB.
  sched::DiagnosticList diags;
  EXPECT_FALSE(f.plan(diags));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.all()[0].message,
            "fails to assign smem buffer: the pipes need 393216 bytes at "
            "their minimum depths, 231424 bytes are available (232448 minus "
            "1024 reserved)");
}

TEST(BufferPlan, TmemBudgetAndDoubleBuffering) {
  Fixture f({0, 50}, 100, {Unit::UMMA, Unit::SIMT});
  Value acc;
  acc.producer = 0;
  acc.cls = BufferClass::TMEM;
  acc.tmemColumns = 256;
  acc.typeKey = "acc";
  acc.consumers = {{1, 0}};
  f.input.values = {acc};
  sched::DiagnosticList diags;
  auto plan = f.plan(diags);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->pipes[0].depth, 2u); // 2 x 256 columns fit in 512.
  EXPECT_EQ(plan->tmemColumns, 512);
  f.input.values[0].tmemColumns = 384; // 384 -> 512 allocated: no room for 2.
  plan = f.plan(diags);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->pipes[0].depth, 1u);
  // A 256-column accumulator carried across the loop leaves room for one
  // 256-column buffer only.
  f.input.values[0].tmemColumns = 256;
  f.input.fixedTmemColumns = 256;
  plan = f.plan(diags);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->pipes[0].depth, 1u);
  EXPECT_EQ(plan->tmemColumns, 512);
  f.input.fixedTmemColumns = 0;
  f.input.values[0].tmemColumns = 600;
  EXPECT_FALSE(f.plan(diags));
  EXPECT_NE(diags.all().back().message.find("fails to assign tmem buffer"),
            std::string::npos);
}

TEST(BufferPlan, RejectsAFailedSchedule) {
  Fixture f({0}, 4, {Unit::SIMT});
  f.schedule.success = false;
  sched::DiagnosticList diags;
  EXPECT_FALSE(f.plan(diags));
  EXPECT_EQ(diags.all()[0].message, "no valid schedule to materialize");
}

} // namespace
