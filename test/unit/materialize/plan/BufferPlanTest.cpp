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

TEST(BufferPlan, DisjointLifetimesDoNotShareByTimingAlone) {
  // v0 lives [0, 3], v1 lives [5, 8] within an II of 10. Agents run
  // unsynchronized, so the schedule's timing alone proves nothing: two
  // buffers (the protocol check found the stale read FA4's statistics tiles
  // would get from a shared one).
  Fixture f({0, 3, 5, 8}, 10, {Unit::SIMT, Unit::SIMT, Unit::SIMT, Unit::SIMT});
  f.input.values = {smem(0, 4096, {{1, 0}}), smem(2, 4096, {{3, 0}})};
  sched::DiagnosticList diags;
  auto plan = f.plan(diags);
  ASSERT_TRUE(plan);
  EXPECT_FALSE(plan->pipes[1].sharesWith);
  EXPECT_EQ(plan->smemBytes, 8192);
}

TEST(BufferPlan, AliasRingAndInPlaceAccumulator) {
  // Ops: 0 S umma, 1 softmax reads S, 2 P stored over S, 3 PV umma,
  // 4 K load, 5 V load, 6 correction store (O rescaled), 7 O read next
  // iteration. II 100.
  Fixture f({0, 20, 40, 60, 0, 10, 50, 30}, 100,
            {Unit::UMMA, Unit::SIMT, Unit::SIMT, Unit::UMMA, Unit::TMA,
             Unit::TMA, Unit::SIMT, Unit::SIMT});
  auto tmem = [](sched::OpId producer, int64_t cols,
                 std::vector<std::pair<sched::OpId, unsigned>> consumers) {
    Value v;
    v.producer = producer;
    v.cls = BufferClass::TMEM;
    v.tmemColumns = cols;
    v.bytes = cols * 512;
    v.typeKey = std::to_string(cols);
    v.consumers = std::move(consumers);
    return v;
  };
  Value s = tmem(0, 128, {{1, 0}, {2, 0}});
  Value pv = tmem(2, 64, {{3, 0}});
  pv.aliasOf = 0;
  Value k = smem(4, 32768, {{0, 0}});
  k.ring = "kv";
  Value v = smem(5, 32768, {{3, 0}});
  v.ring = "kv";
  Value o = tmem(3, 128, {{7, 1}});
  o.carried = true;
  Value oc = tmem(6, 128, {{3, 0}});
  oc.inPlaceOf = 4;
  f.input.values = {s, pv, k, v, o, oc};
  sched::DiagnosticList diags;
  auto plan = f.plan(diags);
  ASSERT_TRUE(plan) << (diags.size() ? diags.all()[0].message : "");
  ASSERT_EQ(plan->pipes.size(), 6u);
  EXPECT_EQ(plan->pipes[1].aliasOf, std::optional<unsigned>(0));
  EXPECT_EQ(plan->pipes[1].depth, plan->pipes[0].depth);
  EXPECT_EQ(plan->pipes[3].ringOf, std::optional<unsigned>(2));
  EXPECT_EQ(plan->pipes[3].ringMember, 1u);
  EXPECT_EQ(plan->pipes[2].ringSize, 2u);
  EXPECT_TRUE(plan->pipes[4].carried);
  EXPECT_EQ(plan->pipes[4].depth, 1u);
  EXPECT_EQ(plan->pipes[5].sharesWith, std::optional<unsigned>(4));
  // SMEM: the ring only, widened as one pipe (the member adds nothing).
  EXPECT_EQ(plan->smemBytes % 32768, 0);
  EXPECT_EQ(plan->smemBytes, int64_t(plan->pipes[2].depth) * 32768);
  // TMEM: S (its columns hold P) and the accumulator (its columns hold the
  // rescaled O): 128 x S depth + 128, rounded to a power of two.
  EXPECT_LE(plan->tmemColumns, 512);
  EXPECT_GE(plan->tmemColumns, 256);
}

// The FA4 example's K/V ring at II 3006 (latency 1 per op here): K loaded
// at 702 and last read at 3592 (stage 1), V loaded at 1234 and last read at
// 6086 (stage 2). Counting stages it would take 2 + 3 = 5 slots; in the
// timeline K of iteration i + 1 reuses V's slot of iteration i - 1 (freed at
// 6087 < 702 + 2 x 3006) and V of i + 1 K's slot of i (3593 <= 1234 + 3006):
// three slots.
TEST(BufferPlan, RingDepthFollowsTheTimeline) {
  auto ringPlan = [](int64_t kRead, int64_t vRead) {
    Fixture f({702, 1234, kRead, vRead}, 3006,
              {Unit::TMA, Unit::TMA, Unit::UMMA, Unit::UMMA});
    Value k = smem(0, 32768, {{2, 0}});
    k.ring = "kv";
    Value v = smem(1, 32768, {{3, 0}});
    v.ring = "kv";
    f.input.values = {k, v};
    f.input.caps.smemBytes = 3 * 32768 + 1024;
    sched::DiagnosticList diags;
    auto plan = f.plan(diags);
    return plan ? int64_t(plan->pipes[0].depth) : -1;
  };
  EXPECT_EQ(ringPlan(3592, 6086), 3);
  // V read one cycle later: K of iteration i + 2 would overwrite V of i
  // while it is still read, so the ring needs a fourth slot (over budget).
  EXPECT_EQ(ringPlan(3592, 6716), -1);
  // K read later than V's next load: V of i + 1 needs a slot of its own.
  EXPECT_EQ(ringPlan(4240, 6086), -1);
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

// The need says whether a budget, and nothing else, failed: the plan
// search fixes budgets only.
TEST(BufferPlan, NeedSaysWhetherABudgetFailed) {
  Fixture f({0, 500}, 100, {Unit::TMA, Unit::UMMA});
  f.input.values = {smem(0, 65536, {{1, 0}})};
  sched::DiagnosticList diags;
  PlanNeed need;
  EXPECT_FALSE(planBuffers(f.input, diags, &need));
  EXPECT_TRUE(need.overBudget);
  EXPECT_EQ(need.smemBytes, 393216);
  f.input.values[0].bytes = 1024;
  need = PlanNeed();
  EXPECT_TRUE(planBuffers(f.input, diags, &need));
  EXPECT_FALSE(need.overBudget);
  EXPECT_EQ(need.smemBytes, 6144);
  // A tile stored over one that is no pipe: a storage error, no budget.
  f.input.values[0].aliasOf = 7;
  need = PlanNeed();
  EXPECT_FALSE(planBuffers(f.input, diags, &need));
  EXPECT_FALSE(need.overBudget);
  EXPECT_NE(diags.all().back().message.find("fails to assign buffer"),
            std::string::npos);
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
