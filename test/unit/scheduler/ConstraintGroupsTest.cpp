//===- ConstraintGroupsTest.cpp -------------------------------------------===//

#include "scheduler/Constraints.h"

#include <gtest/gtest.h>

using namespace tilepipe::sched;

namespace {

TEST(ConstraintGroups, OpWithoutLeaderLeadsItsOwnGroup) {
  ConstraintGroups g;
  g.addMember(5, 0);
  g.addMember(0, 1);
  g.freeze();
  EXPECT_EQ(g.groupOf(0), std::optional<int32_t>(5));
  EXPECT_EQ(g.groupOf(1), std::optional<int32_t>(0));
  EXPECT_FALSE(g.groupOf(2));
}

TEST(ConstraintGroups, LeaderChainsResolveToOneRoot) {
  ConstraintGroups g;
  g.addMember(3, 0);
  g.addMember(2, 1);
  g.addMember(1, 2);
  EXPECT_FALSE(g.setLeader(3, 2));
  EXPECT_FALSE(g.setLeader(2, 1));
  g.freeze();
  EXPECT_EQ(g.root(3), 1);
  EXPECT_EQ(g.groupOf(0), std::optional<int32_t>(1));
  EXPECT_EQ(g.members(1).size(), 3u);
  // The leader op is the member whose own gid is the root: op 2.
  EXPECT_EQ(g.leaderOp(0), std::optional<OpId>(2));
  // Ops seen before their leader op wait for it (G1).
  EXPECT_TRUE(g.isPending(0));
  EXPECT_TRUE(g.isPending(1));
  EXPECT_FALSE(g.isPending(2));
}

TEST(ConstraintGroups, ContradictoryLeaderIsReported) {
  ConstraintGroups g;
  EXPECT_FALSE(g.setLeader(4, 7));
  EXPECT_FALSE(g.setLeader(4, 7)); // Repeating the same leader is fine.
  EXPECT_EQ(g.setLeader(4, 3), std::optional<int32_t>(7));
}

TEST(ConstraintGroups, RootIndependentOfVisitOrder) {
  ConstraintGroups a, b;
  a.setLeader(1, 2);
  a.setLeader(2, 1); // A leader cycle: the smallest gid is the root.
  b.setLeader(2, 1);
  b.setLeader(1, 2);
  a.freeze();
  b.freeze();
  EXPECT_EQ(a.root(1), 1);
  EXPECT_EQ(a.root(2), 1);
  EXPECT_EQ(b.root(1), 1);
  EXPECT_EQ(b.root(2), 1);
}

} // namespace
