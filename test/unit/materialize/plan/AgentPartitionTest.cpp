//===- AgentPartitionTest.cpp ---------------------------------------------===//

#include "materialize/plan/AgentPartition.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::materialize;
using sched::OpId;

namespace {

/// A schedule of ops given as (stage, cycle); orders follow the list.
sched::ScheduleAnalysis schedule(unsigned ii,
                                 std::vector<std::pair<unsigned, int64_t>> at) {
  sched::ScheduleAnalysis s;
  s.success = true;
  s.ii = ii;
  for (auto [i, slot] : llvm::enumerate(at)) {
    s.slots.push_back({slot.first, unsigned(i), slot.second, {}, {}});
    s.orderedOps.push_back(OpId(i));
    s.numStages = std::max(s.numStages, slot.first + 1);
  }
  llvm::stable_sort(s.orderedOps, [&](OpId x, OpId y) {
    return s.slots[x].stage < s.slots[y].stage;
  });
  return s;
}

PartitionInput input(std::vector<Unit> units,
                     std::vector<std::optional<unsigned>> groups = {}) {
  PartitionInput in;
  in.units = units;
  in.warpGroups = groups.empty()
                      ? std::vector<std::optional<unsigned>>(units.size())
                      : groups;
  in.isFree.assign(units.size(), false);
  return in;
}

std::vector<OpId> ids(std::initializer_list<OpId> list) { return list; }

TEST(RoleTable, RowsPerUnit) {
  EXPECT_EQ(unitRole(Unit::TMA).role, Role::Load);
  EXPECT_EQ(unitRole(Unit::CpAsync).role, Role::Load);
  EXPECT_EQ(unitRole(Unit::UMMA).role, Role::Mma);
  EXPECT_TRUE(unitRole(Unit::UMMA).resultInTmem);
  EXPECT_EQ(unitRole(Unit::UMMA).warps, 1u);
  EXPECT_EQ(unitRole(Unit::SIMT).warps, 4u);
  EXPECT_TRUE(unitRole(Unit::SIMT).perWarpGroup);
  EXPECT_TRUE(unitRole(Unit::SIMT).runsEpilogue);
  EXPECT_EQ(unitRole(Unit::TMAStore).role, Role::Simt);
  EXPECT_EQ(stringifyRole(Role::Load), "load");
  EXPECT_EQ(stringifyRole(roleRow(Role::All).role), "all");
}

TEST(AgentPartition, LoadAndMmaAgents) {
  // Two TMA loads in stage 0, the MMA in stage 1.
  auto s = schedule(100, {{0, 0}, {0, 10}, {1, 120}});
  AgentPartition p =
      partitionAgents(input({Unit::TMA, Unit::TMA, Unit::UMMA}), s);
  ASSERT_EQ(p.agents.size(), 2u);
  EXPECT_EQ(p.agents[0].key.role, Role::Load);
  EXPECT_EQ(p.agents[0].ops, ids({0, 1}));
  EXPECT_EQ(p.agents[1].key.role, Role::Mma);
  EXPECT_EQ(p.agents[1].minStage, 1u);
  EXPECT_EQ(p.agents[1].maxStage, 1u);
  EXPECT_EQ(p.agentOf, std::vector<int>({0, 0, 1}));
}

TEST(AgentPartition, OneSimtAgentPerWarpGroup) {
  // SIMT work of two warp groups; the TMA store runs in its warp group's.
  auto s = schedule(50, {{0, 0}, {0, 5}, {1, 60}, {1, 70}});
  AgentPartition p = partitionAgents(
      input({Unit::SIMT, Unit::SIMT, Unit::TMAStore, Unit::UMMA},
            {1u, 0u, 1u, std::nullopt}),
      s);
  ASSERT_EQ(p.agents.size(), 3u);
  EXPECT_EQ(p.agents[0].key, (AgentKey{Role::Simt, 1}));
  EXPECT_EQ(p.agents[0].ops, ids({0, 2}));
  EXPECT_EQ(p.agents[0].minStage, 0u);
  EXPECT_EQ(p.agents[0].maxStage, 1u);
  EXPECT_EQ(p.agents[1].key, (AgentKey{Role::Simt, 0}));
  EXPECT_EQ(p.agents[2].key, (AgentKey{Role::Mma, 0}));
}

TEST(AgentPartition, PeeledRunsAllInOneAgent) {
  auto s = schedule(100, {{0, 0}, {1, 110}, {1, 150}});
  PartitionInput in = input({Unit::TMA, Unit::UMMA, Unit::SIMT});
  in.peeled = true;
  AgentPartition p = partitionAgents(in, s);
  ASSERT_EQ(p.agents.size(), 1u);
  EXPECT_EQ(p.agents[0].key.role, Role::All);
  EXPECT_EQ(p.agents[0].ops, ids({0, 1, 2}));
}

TEST(AgentPartition, FreeOpsBelongToNoAgent) {
  auto s = schedule(100, {{0, 0}, {0, 0}, {0, 10}});
  PartitionInput in = input({Unit::SIMT, Unit::TMA, Unit::TMA});
  in.isFree[0] = true;
  AgentPartition p = partitionAgents(in, s);
  ASSERT_EQ(p.agents.size(), 1u);
  EXPECT_EQ(p.agentOf[0], -1);
  EXPECT_EQ(p.agents[0].ops, ids({1, 2}));
}

TEST(AgentPartition, RowOrderByModuloCycleOlderIterationFirst) {
  // II 100: op 0 at cycle 30 (stage 0), op 1 at 130 (stage 1, modulo 30),
  // op 2 at 110 (stage 1, modulo 10). A row runs 2, then 1 before 0 (the
  // older iteration first at the tie).
  auto s = schedule(100, {{0, 30}, {1, 130}, {1, 110}});
  AgentPartition p =
      partitionAgents(input({Unit::SIMT, Unit::SIMT, Unit::SIMT}), s);
  ASSERT_EQ(p.agents.size(), 1u);
  EXPECT_EQ(p.agents[0].ops, ids({0, 1, 2}));
  EXPECT_EQ(p.agents[0].rowOrder, ids({2, 1, 0}));
}

TEST(AgentPartition, Prints) {
  auto s = schedule(100, {{0, 0}, {1, 120}, {0, 0}});
  PartitionInput in = input({Unit::TMA, Unit::UMMA, Unit::SIMT});
  in.isFree[2] = true;
  std::string text;
  llvm::raw_string_ostream os(text);
  printAgentPartition(os, partitionAgents(in, s), s,
                      [](OpId id) { return "op" + std::to_string(id); });
  EXPECT_EQ(text, "agent 0: load, 1 warp, stages 0..0\n"
                  "  stage 0: op0\n"
                  "agent 1: mma, 1 warp, stages 1..1\n"
                  "  stage 1: op1\n"
                  "recomputed by each agent: op2\n");
}

} // namespace
