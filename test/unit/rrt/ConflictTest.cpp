//===- ConflictTest.cpp - what a refused probe reports --------------------===//

#include "rrt/RRT.h"

#include "gtest/gtest.h"

using namespace tilepipe::rrt;

namespace {

ResourceLayout conflictLayout() {
  ResourceLayout l;
  l.addBit("tma");        // 0
  l.addBit("tp_smem_wr"); // 1
  l.addBit("tc_and_mma"); // 2
  l.addBit("tp_mma");     // 3
  l.addPool("alu_fma", 4);
  l.addPool("dual_alu", 2);
  l.addPool("table", 3, /*binding=*/false);
  return l;
}

TEST(ConflictTest, NoConflictIsNullopt) {
  ResourceLayout l = conflictLayout();
  RRT t(l, 4);
  EXPECT_FALSE(t.findConflict(Footprint(l, {Use::bit(0, 3)}).fold(l, 4), 7));
}

TEST(ConflictTest, BitConflictNamesRowOffsetAndLowestBit) {
  ResourceLayout l = conflictLayout();
  RRT t(l, 8);
  // The worked TMA load: tma + tp_smem_wr for 8 cycles fills II 8.
  FoldedFootprint load =
      Footprint(l, {Use::bit(0, 8), Use::bit(1, 8)}).fold(l, 8);
  t.commit(load, 0);
  // smem_write wants tp_smem_wr (and tp_mma, to check which bit is named).
  FoldedFootprint write =
      Footprint(l, {Use::bit(3, 7), Use::bit(1, 7)}).fold(l, 8);
  std::optional<Conflict> c = t.findConflict(write, 11);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, Conflict::Kind::Bit);
  EXPECT_EQ(c->resourceKind, Use::Kind::Bit);
  EXPECT_EQ(c->row, 3u);
  EXPECT_EQ(c->offset, 0u);
  EXPECT_EQ(c->resource, 1u);
  EXPECT_EQ(c->requested, 0u);
  EXPECT_EQ(c->capacity, 0u);
}

TEST(ConflictTest, FirstConflictInFootprintOrder) {
  ResourceLayout l = conflictLayout();
  RRT t(l, 6);
  t.commit(Footprint(l, {Use::bit(2, 1)}).fold(l, 6), 4); // row 4: bit 2
  t.commit(Footprint(l, {Use::bit(0, 1)}).fold(l, 6), 5); // row 5: bit 0
  // Starting at row 3: offset 1 meets bit 2 at row 4 before offset 2 meets
  // bit 0 at row 5.
  FoldedFootprint f = Footprint(l, {Use::bit(0, 3), Use::bit(2, 3)}).fold(l, 6);
  std::optional<Conflict> c = t.findConflict(f, -3);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->row, 4u);
  EXPECT_EQ(c->offset, 1u);
  EXPECT_EQ(c->resource, 2u);
}

TEST(ConflictTest, BitsBeforePoolsWithinARow) {
  ResourceLayout l = conflictLayout();
  RRT t(l, 2);
  t.commit(Footprint(l, {Use::bit(1, 1), Use::pool(1, 1, 2)}).fold(l, 2), 0);
  FoldedFootprint f =
      Footprint(l, {Use::bit(1, 1), Use::pool(1, 1, 1)}).fold(l, 2);
  std::optional<Conflict> c = t.findConflict(f, 0);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, Conflict::Kind::Bit);
}

TEST(ConflictTest, PoolConflictReportsAmounts) {
  ResourceLayout l = conflictLayout();
  RRT t(l, 4);
  t.commit(Footprint(l, {Use::pool(0, 2, 3)}).fold(l, 4), 1); // rows 1, 2
  // Asks 1 unit on rows 0..1 then 2 units on row 2: fails at row 2.
  FoldedFootprint f =
      Footprint(l, {Use::pool(0, 2, 1), Use::pool(0, 1, 2, 2)}).fold(l, 4);
  std::optional<Conflict> c = t.findConflict(f, 0);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, Conflict::Kind::Pool);
  EXPECT_EQ(c->resourceKind, Use::Kind::Pool);
  EXPECT_EQ(c->row, 2u);
  EXPECT_EQ(c->offset, 2u);
  EXPECT_EQ(c->resource, 0u);
  EXPECT_EQ(c->requested, 2u);
  EXPECT_EQ(c->used, 3u);
  EXPECT_EQ(c->capacity, 4u);
}

TEST(ConflictTest, PoolConflictOnFoldedRow) {
  // A footprint longer than II: its folded claim is what is reported.
  ResourceLayout l = conflictLayout();
  RRT t(l, 2);
  t.commit(Footprint(l, {Use::pool(1, 1, 1)}).fold(l, 2), 1);
  FoldedFootprint f = Footprint(l, {Use::pool(1, 3, 1)}).fold(l, 2);
  // Rows: 0 gets cycles 0 and 2 (2 units), 1 gets cycle 1.
  std::optional<Conflict> c = t.findConflict(f, 0);
  EXPECT_FALSE(c) << "row 0: 0 + 2 <= 2, row 1: 1 + 1 <= 2";
  c = t.findConflict(f, 1);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->row, 1u);
  EXPECT_EQ(c->offset, 0u);
  EXPECT_EQ(c->requested, 2u);
  EXPECT_EQ(c->used, 1u);
  EXPECT_EQ(c->capacity, 2u);
}

TEST(ConflictTest, NonBindingPoolNeverConflicts) {
  ResourceLayout l = conflictLayout();
  RRT t(l, 1);
  FoldedFootprint f = Footprint(l, {Use::pool(2, 1, 3)}).fold(l, 1);
  t.commit(f, 0);
  t.commit(f, 0);
  EXPECT_FALSE(t.findConflict(f, 0));
}

TEST(ConflictTest, SelfConflictComesFirst) {
  ResourceLayout l = conflictLayout();
  RRT t(l, 3);
  t.commit(Footprint(l, {Use::bit(0, 1)}).fold(l, 3), 0);
  // tp_mma for 4 cycles wraps onto itself at II 3, whatever the table holds.
  FoldedFootprint f = Footprint(l, {Use::bit(0, 1), Use::bit(3, 4)}).fold(l, 3);
  std::optional<Conflict> c = t.findConflict(f, 4);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, Conflict::Kind::Self);
  EXPECT_EQ(c->resourceKind, Use::Kind::Bit);
  EXPECT_EQ(c->resource, 3u);
  EXPECT_EQ(c->offset, 0u);
  EXPECT_EQ(c->row, 1u);
  RRT empty(l, 3);
  EXPECT_FALSE(empty.probe(f, 0));
}

TEST(ConflictTest, PoolSelfConflictReport) {
  ResourceLayout l = conflictLayout();
  RRT t(l, 2);
  // dual_alu (cap 2): 1 unit over 5 cycles puts 3 units on row 0.
  FoldedFootprint f = Footprint(l, {Use::pool(1, 5, 1)}).fold(l, 2);
  std::optional<Conflict> c = t.findConflict(f, 1);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, Conflict::Kind::Self);
  EXPECT_EQ(c->resourceKind, Use::Kind::Pool);
  EXPECT_EQ(c->resource, 1u);
  EXPECT_EQ(c->offset, 0u);
  EXPECT_EQ(c->row, 1u);
  EXPECT_EQ(c->requested, 3u);
  EXPECT_EQ(c->capacity, 2u);
}

} // namespace
