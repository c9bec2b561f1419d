//===- RRTTest.cpp - probe, commit, release and reset ---------------------===//

#include "rrt/RRT.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

using namespace tilepipe::rrt;
using namespace tilepipe::rrt::test;

namespace {

ResourceLayout rrtLayout() {
  ResourceLayout l;
  l.addBit("tma");
  l.addBit("tp_smem_wr");
  l.addBit("tc_and_mma");
  l.addPool("alu_fma", 4);
  l.addPool("dual_alu", 2);
  l.addPool("table", 3, /*binding=*/false);
  return l;
}

/// Every row's bits and pool usage, to compare whole tables.
std::vector<uint64_t> snapshot(const RRT &t) {
  std::vector<uint64_t> s;
  const ResourceLayout &l = t.getLayout();
  for (unsigned r = 0; r < t.getII(); ++r) {
    for (unsigned w = 0; w < l.numWords(); ++w)
      s.push_back(t.rowBits(r)[w]);
    for (unsigned p = 0; p < l.numPools(); ++p)
      s.push_back(t.poolUsage(r, p));
  }
  return s;
}

TEST(RRTTest, EmptyTableAcceptsAnything) {
  ResourceLayout l = rrtLayout();
  RRT t(l, 4);
  EXPECT_EQ(t.getII(), 4u);
  Footprint fp(l, {Use::bit(0, 4), Use::pool(0, 2, 4)});
  FoldedFootprint f = fp.fold(l, 4);
  for (int64_t s = -9; s < 9; ++s)
    EXPECT_TRUE(t.probe(f, s));
  EXPECT_TRUE(t.probe(Footprint(l, {}).fold(l, 4), 0));
}

TEST(RRTTest, ProbeNeverMutates) {
  ResourceLayout l = rrtLayout();
  RRT t(l, 5);
  FoldedFootprint a =
      Footprint(l, {Use::bit(0, 2), Use::pool(1, 3, 1)}).fold(l, 5);
  t.commit(a, 1);
  std::vector<uint64_t> before = snapshot(t);
  for (int64_t s = -6; s < 12; ++s) {
    (void)t.probe(a, s);
    (void)t.findConflict(a, s);
  }
  EXPECT_EQ(snapshot(t), before);
}

TEST(RRTTest, CommitMarksRowsAndBlocksProbe) {
  ResourceLayout l = rrtLayout();
  RRT t(l, 4);
  FoldedFootprint f = Footprint(l, {Use::bit(1, 2, 1)}).fold(l, 4);
  ASSERT_TRUE(t.probe(f, 2));
  t.commit(f, 2);
  // Cycles 3 and 4 -> rows 3 and 0.
  EXPECT_TRUE(t.testBit(3, 1));
  EXPECT_TRUE(t.testBit(0, 1));
  EXPECT_FALSE(t.testBit(1, 1));
  EXPECT_FALSE(t.testBit(2, 1));
  EXPECT_FALSE(t.probe(f, 2));
  EXPECT_FALSE(t.probe(f, 6)); // Same rows one iteration later.
  EXPECT_FALSE(t.probe(f, 1)); // Rows 2, 3.
  EXPECT_TRUE(t.probe(f, 0));  // Rows 1, 2.
}

TEST(RRTTest, NegativeAndLargeStartsWrap) {
  ResourceLayout l = rrtLayout();
  RRT t(l, 4);
  FoldedFootprint f = Footprint(l, {Use::bit(0, 1)}).fold(l, 4);
  t.commit(f, -1);
  EXPECT_TRUE(t.testBit(3, 0));
  t.commit(f, -6); // -6 mod 4 = 2.
  EXPECT_TRUE(t.testBit(2, 0));
  t.commit(f, 13);
  EXPECT_TRUE(t.testBit(1, 0));
  EXPECT_FALSE(t.testBit(0, 0));
  EXPECT_FALSE(t.probe(f, -5)); // Row 3.
  EXPECT_TRUE(t.probe(f, -4));  // Row 0.
  EXPECT_TRUE(t.probe(f, INT64_C(-4000000000000)));
  EXPECT_FALSE(t.probe(f, INT64_C(4000000000001)));
}

TEST(RRTTest, PoolsCountUpToCapacity) {
  ResourceLayout l = rrtLayout();
  RRT t(l, 3);
  // dual_alu cap 2.
  FoldedFootprint one = Footprint(l, {Use::pool(1, 1, 1)}).fold(l, 3);
  t.commit(one, 0);
  EXPECT_TRUE(t.probe(one, 0));
  t.commit(one, 3);
  EXPECT_EQ(t.poolUsage(0, 1), 2u);
  EXPECT_FALSE(t.probe(one, 0));
  EXPECT_TRUE(t.probe(one, 1));
  t.release(one, 0);
  EXPECT_TRUE(t.probe(one, 0));
}

TEST(RRTTest, NonBindingPoolIsTrackedButNeverRefuses) {
  ResourceLayout l = rrtLayout();
  RRT t(l, 2);
  FoldedFootprint f = Footprint(l, {Use::pool(2, 2, 3)}).fold(l, 2);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(t.probe(f, i));
    t.commit(f, i);
  }
  EXPECT_EQ(t.poolUsage(0, 2), 15u);
  EXPECT_EQ(t.poolUsage(1, 2), 15u);
  for (int i = 0; i < 5; ++i)
    t.release(f, i);
  EXPECT_EQ(t.poolUsage(0, 2), 0u);
}

TEST(RRTTest, ReleaseRestoresExactly) {
  ResourceLayout l = rrtLayout();
  RRT t(l, 6);
  FoldedFootprint base =
      Footprint(l, {Use::bit(2, 3), Use::pool(0, 4, 2)}).fold(l, 6);
  t.commit(base, 4);
  std::vector<uint64_t> before = snapshot(t);
  FoldedFootprint f = Footprint(l, {Use::bit(0, 5), Use::bit(1, 2, 4),
                                    Use::pool(0, 6, 1), Use::pool(2, 3, 2)})
                          .fold(l, 6);
  ASSERT_TRUE(t.probe(f, -2));
  t.commit(f, -2);
  EXPECT_NE(snapshot(t), before);
  t.release(f, -2);
  EXPECT_EQ(snapshot(t), before);
}

TEST(RRTTest, ResetClearsAndResizes) {
  ResourceLayout l = rrtLayout();
  RRT t(l, 4);
  FoldedFootprint f =
      Footprint(l, {Use::bit(0, 4), Use::pool(0, 4, 4)}).fold(l, 4);
  t.commit(f, 0);
  EXPECT_FALSE(t.probe(f, 0));
  t.reset(7);
  EXPECT_EQ(t.getII(), 7u);
  for (unsigned r = 0; r < 7; ++r) {
    EXPECT_FALSE(t.testBit(r, 0));
    EXPECT_EQ(t.poolUsage(r, 0), 0u);
  }
  FoldedFootprint g = Footprint(l, {Use::bit(0, 7)}).fold(l, 7);
  EXPECT_TRUE(t.probe(g, 3));
  // A layout that grew since construction is picked up by reset.
  l.addBit("late");
  l.addPool("late_pool", 1);
  t.reset(2);
  FoldedFootprint h =
      Footprint(l, {Use::bit(3, 1), Use::pool(3, 1, 1)}).fold(l, 2);
  t.commit(h, 1);
  EXPECT_TRUE(t.testBit(1, 3));
  EXPECT_EQ(t.poolUsage(1, 3), 1u);
  EXPECT_FALSE(t.probe(h, 3));
}

TEST(RRTTest, WideLayout) {
  ResourceLayout l;
  for (unsigned i = 0; i < 130; ++i)
    l.addBit("b" + std::to_string(i));
  RRT t(l, 3);
  FoldedFootprint f =
      Footprint(l, {Use::bit(129, 1), Use::bit(64, 2)}).fold(l, 3);
  t.commit(f, 0);
  EXPECT_TRUE(t.testBit(0, 129));
  EXPECT_TRUE(t.testBit(0, 64));
  EXPECT_TRUE(t.testBit(1, 64));
  EXPECT_FALSE(t.probe(f, 1));
  EXPECT_FALSE(t.probe(f, 2)); // Cycle 1 of bit 64 lands on row 0.
  FoldedFootprint g = Footprint(l, {Use::bit(128, 3)}).fold(l, 3);
  EXPECT_TRUE(t.probe(g, 0));
}

// Random sequences of probe, commit and release against the naive table:
// the probe answers as the cycle-by-cycle count does, and releasing in any
// order returns the table to empty.
TEST(RRTTest, RandomAgainstNaiveTable) {
  ResourceLayout l = rrtLayout();
  Rng rng(2024);
  for (unsigned inst = 0; inst < 300; ++inst) {
    unsigned ii = rng.range(1, 8);
    RRT t(l, ii);
    NaiveTable naive(l, ii);
    struct Placed {
      Footprint fp;
      FoldedFootprint folded;
      int64_t start;
    };
    std::vector<Placed> placed;
    for (unsigned step = 0; step < 40; ++step) {
      if (!placed.empty() && rng.chance(25)) {
        size_t i = rng.range(0, placed.size() - 1);
        t.release(placed[i].folded, placed[i].start);
        naive.add(placed[i].fp, placed[i].start, -1);
        placed.erase(placed.begin() + i);
        continue;
      }
      llvm::SmallVector<Use, 4> uses;
      for (unsigned n = rng.range(1, 3); n; --n) {
        if (rng.chance(60))
          uses.push_back(
              Use::bit(rng.range(0, 2), rng.range(1, 4), rng.range(0, 3)));
        else
          uses.push_back(Use::pool(rng.range(0, 2), rng.range(1, 4),
                                   rng.range(1, 3), rng.range(0, 3)));
      }
      Footprint fp(l, uses);
      FoldedFootprint folded = fp.fold(l, ii);
      int64_t start = rng.range(-20, 20);
      bool fits = naive.fits(fp, start);
      ASSERT_EQ(t.probe(folded, start), fits)
          << "instance " << inst << " step " << step;
      if (!fits)
        continue;
      t.commit(folded, start);
      naive.add(fp, start);
      placed.push_back({fp, std::move(folded), start});
      for (unsigned r = 0; r < ii; ++r) {
        for (unsigned b = 0; b < l.numBits(); ++b)
          ASSERT_EQ(t.testBit(r, b), naive.bits(r, b) == 1);
        for (unsigned p = 0; p < l.numPools(); ++p)
          ASSERT_EQ(int64_t(t.poolUsage(r, p)), naive.pool(r, p));
      }
    }
    while (!placed.empty()) {
      t.release(placed.back().folded, placed.back().start);
      placed.pop_back();
    }
    RRT fresh(l, ii);
    ASSERT_EQ(snapshot(t), snapshot(fresh));
  }
}

} // namespace
