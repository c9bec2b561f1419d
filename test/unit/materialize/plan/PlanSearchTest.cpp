//===- PlanSearchTest.cpp - fitting a plan by searching its options -------===//

#include "materialize/plan/PlanSearch.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::materialize;
using sched::OpId;

namespace {

struct SearchFixture {
  sched::Problem problem;
  sched::ScheduleAnalysis schedule;
  PlanInput input;

  SearchFixture(std::vector<int64_t> starts, unsigned ii,
                std::vector<Unit> units) {
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
};

Value tile(OpId producer, BufferClass cls, int64_t size,
           std::vector<std::pair<OpId, unsigned>> consumers) {
  Value v;
  v.producer = producer;
  v.cls = cls;
  if (cls == BufferClass::TMEM) {
    v.tmemColumns = size;
    v.bytes = size * 512;
  } else {
    v.bytes = size;
  }
  v.typeKey = "t";
  v.consumers = std::move(consumers);
  return v;
}

// K loaded at 0 and read until 1100, V loaded at 500 and read until 1600,
// at II 1000: each needs two slots (by stages and by its timeline), four in
// all; as one ring, three (K of iteration i takes V of i - 2's slot, freed
// at 1000 i - 400; V of i takes K of i - 1's, freed at 1000 i + 100). Beside
// 96 KiB of other tiles only the ring fits.
TEST(PlanSearch, RingsTilesWhenOnlyTheRingFits) {
  SearchFixture f({0, 500, 1099, 1599}, 1000,
                  {Unit::TMA, Unit::TMA, Unit::UMMA, Unit::UMMA});
  f.input.values = {tile(0, BufferClass::SMEM, 32768, {{2, 0}}),
                    tile(1, BufferClass::SMEM, 32768, {{3, 0}})};
  f.input.fixedSmemBytes = 3 * 32768;
  f.input.caps.smemBytes = 6 * 32768 + 1024;
  f.input.maxMainloopDepth = 1; // No widening: the depths are the minima.
  PlanCandidates candidates;
  candidates.rings = {{0, 1}};
  PlanChoice choice;
  sched::DiagnosticList diags;
  std::optional<BufferPlan> plan =
      searchBuffers(f.input, candidates, choice, diags);
  ASSERT_TRUE(plan) << (diags.all().empty() ? "" : diags.all()[0].message);
  EXPECT_TRUE(choice.searched);
  EXPECT_EQ(choice.asWritten.smemBytes, 7 * 32768);
  ASSERT_EQ(choice.rings.size(), 1u);
  EXPECT_TRUE(choice.rings[0]);
  EXPECT_FALSE(choice.timelineDepths);
  EXPECT_EQ(plan->pipes[0].depth, 3u);
  EXPECT_EQ(plan->pipes[1].ringOf, 0u);
  EXPECT_EQ(plan->smemBytes, 6 * 32768);
  // The chosen options are written back for the stage code.
  EXPECT_EQ(f.input.values[0].ring, f.input.values[1].ring);
  EXPECT_FALSE(f.input.values[0].ring.empty());
}

// A plan that fits as written is taken as written: nothing is searched.
TEST(PlanSearch, AsWrittenWhenItFits) {
  SearchFixture f({0, 500, 1099, 1599}, 1000,
                  {Unit::TMA, Unit::TMA, Unit::UMMA, Unit::UMMA});
  f.input.values = {tile(0, BufferClass::SMEM, 32768, {{2, 0}}),
                    tile(1, BufferClass::SMEM, 32768, {{3, 0}})};
  f.input.maxMainloopDepth = 1;
  PlanCandidates candidates;
  candidates.rings = {{0, 1}};
  PlanChoice choice;
  sched::DiagnosticList diags;
  std::optional<BufferPlan> plan =
      searchBuffers(f.input, candidates, choice, diags);
  ASSERT_TRUE(plan);
  EXPECT_FALSE(choice.searched);
  EXPECT_EQ(choice.tried, 1u);
  EXPECT_FALSE(choice.rings[0]);
  EXPECT_FALSE(plan->pipes[1].ringOf);
  EXPECT_TRUE(f.input.values[0].ring.empty());
}

// S (128 columns) read by SIMT, P (64 columns) stored from it and read by
// the tensor core, and 384 columns held outside the pipes: side by side
// 384 + 128 + 64 = 576 > 512 (allocated as 1024); P over S fits in 512.
TEST(PlanSearch, StoresOverTheTileItRead) {
  SearchFixture f({0, 100, 300, 400}, 1000,
                  {Unit::UMMA, Unit::SIMT, Unit::SIMT, Unit::UMMA});
  f.input.values = {tile(0, BufferClass::TMEM, 128, {{1, 0}}),
                    tile(2, BufferClass::TMEM, 64, {{3, 0}})};
  f.input.fixedTmemColumns = 384;
  PlanCandidates candidates;
  candidates.aliases = {{1, 0}};
  PlanChoice choice;
  sched::DiagnosticList diags;
  std::optional<BufferPlan> plan =
      searchBuffers(f.input, candidates, choice, diags);
  ASSERT_TRUE(plan);
  EXPECT_TRUE(choice.aliases[0]);
  EXPECT_EQ(choice.asWritten.tmemColumns, 1024);
  EXPECT_EQ(plan->pipes[1].aliasOf, 0u);
  EXPECT_EQ(plan->tmemColumns, 512);
}

// Only budgets are searched: a ring of tiles of different sizes is an
// error as written, and no other plan is tried.
TEST(PlanSearch, AStorageErrorIsNotSearched) {
  SearchFixture f({0, 10, 500}, 100, {Unit::TMA, Unit::TMA, Unit::UMMA});
  f.input.values = {tile(0, BufferClass::SMEM, 65536, {{2, 0}}),
                    tile(1, BufferClass::SMEM, 1024, {{2, 0}})};
  f.input.values[0].ring = f.input.values[1].ring = "kv";
  PlanCandidates candidates;
  PlanChoice choice;
  sched::DiagnosticList diags;
  EXPECT_FALSE(searchBuffers(f.input, candidates, choice, diags));
  EXPECT_FALSE(choice.searched);
  EXPECT_EQ(choice.tried, 1u);
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.all()[0].message,
            "fails to assign buffer: ring 'kv' holds tiles of different sizes");
}

// Nothing fits: the error names the smallest plan tried.
TEST(PlanSearch, NamesTheSmallestPlan) {
  // Read 20 cycles after the load, one stage later: two slots by stages,
  // one by the timeline, and still 265536 B beside the other tiles.
  SearchFixture f({90, 110}, 100, {Unit::TMA, Unit::UMMA});
  f.input.values = {tile(0, BufferClass::SMEM, 65536, {{1, 0}})};
  f.input.fixedSmemBytes = 200000;
  PlanCandidates candidates;
  PlanChoice choice;
  sched::DiagnosticList diags;
  EXPECT_FALSE(searchBuffers(f.input, candidates, choice, diags));
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_NE(diags.all()[0].message.find(
                "the smallest of the 2 plans tried (depths by the timeline) "
                "needs 265536 bytes of shared memory"),
            std::string::npos)
      << diags.all()[0].message;
}

} // namespace
