//===- FoldTest.cpp - layouts, footprints and folding ---------------------===//

#include "rrt/Resources.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

using namespace tilepipe::rrt;

namespace {

bool hasBit(const FoldedFootprint &f, unsigned row, unsigned bit) {
  return (f.rowBits(row)[bit / 64] >> (bit % 64)) & 1;
}

ResourceLayout smallLayout() {
  ResourceLayout l;
  l.addBit("tma");
  l.addBit("tp_smem_wr");
  l.addBit("tc_and_mma");
  l.addPool("alu_fma", 4);
  l.addPool("dual_alu", 2);
  l.addPool("table", 3, /*binding=*/false);
  return l;
}

TEST(ResourceLayoutTest, AddReturnsIndices) {
  ResourceLayout l;
  EXPECT_EQ(l.addBit("a"), 0u);
  EXPECT_EQ(l.addBit("b"), 1u);
  EXPECT_EQ(l.addPool("p", 4), 0u);
  EXPECT_EQ(l.addPool("q", 37, false), 1u);
  EXPECT_EQ(l.numBits(), 2u);
  EXPECT_EQ(l.numPools(), 2u);
  EXPECT_EQ(l.numWords(), 1u);
  EXPECT_EQ(l.poolCaps[1], 37u);
  EXPECT_TRUE(l.poolBinding[0]);
  EXPECT_FALSE(l.poolBinding[1]);
  for (unsigned i = 2; i < 65; ++i)
    l.addBit("b" + std::to_string(i));
  EXPECT_EQ(l.numBits(), 65u);
  EXPECT_EQ(l.numWords(), 2u);
}

TEST(FootprintTest, LengthAndDemand) {
  ResourceLayout l = smallLayout();
  Footprint empty(l, {});
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.length(), 0u);

  Footprint fp(l, {Use::bit(0, 8), Use::bit(1, 7, /*offset=*/2),
                   Use::bit(0, 2, /*offset=*/9), Use::pool(0, 3, 2, 1),
                   Use::pool(0, 1, 1)});
  EXPECT_EQ(fp.length(), 11u);
  EXPECT_EQ(fp.bitDemand(0), 10u);
  EXPECT_EQ(fp.bitDemand(1), 7u);
  EXPECT_EQ(fp.bitDemand(2), 0u);
  EXPECT_EQ(fp.poolDemand(0), 7u);
  EXPECT_EQ(fp.poolDemand(1), 0u);
}

TEST(FoldTest, EmptyFootprint) {
  ResourceLayout l = smallLayout();
  FoldedFootprint f = Footprint(l, {}).fold(l, 4);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.ii, 4u);
  EXPECT_EQ(f.claimBegin.size(), 1u);
  EXPECT_FALSE(f.selfConflict);
}

TEST(FoldTest, ShorterThanII) {
  ResourceLayout l = smallLayout();
  Footprint fp(l, {Use::bit(0, 2), Use::bit(2, 1, /*offset=*/2)});
  FoldedFootprint f = fp.fold(l, 8);
  EXPECT_EQ(f.numRows, 3u);
  EXPECT_EQ(f.numWords, 1u);
  EXPECT_FALSE(f.selfConflict);
  EXPECT_EQ(f.rowBits(0)[0], 0b001u);
  EXPECT_EQ(f.rowBits(1)[0], 0b001u);
  EXPECT_EQ(f.rowBits(2)[0], 0b100u);
}

TEST(FoldTest, LongerThanIIWithoutSelfConflict) {
  // tma over cycles 0-3 and tp_smem_wr over 4-7 at II 4: both bits on every
  // row, never twice.
  ResourceLayout l = smallLayout();
  Footprint fp(l, {Use::bit(0, 4), Use::bit(1, 4, /*offset=*/4)});
  FoldedFootprint f = fp.fold(l, 4);
  EXPECT_EQ(f.numRows, 4u);
  EXPECT_FALSE(f.selfConflict);
  for (unsigned r = 0; r < 4; ++r)
    EXPECT_EQ(f.rowBits(r)[0], 0b011u) << "row " << r;

  // At II 3 the 4-cycle tma run wraps onto itself.
  FoldedFootprint g = fp.fold(l, 3);
  EXPECT_EQ(g.numRows, 3u);
  EXPECT_TRUE(g.selfConflict) << "tma cycles 0 and 3 share row 0";
}

TEST(FoldTest, BitSelfConflictFromOneLongRun) {
  ResourceLayout l = smallLayout();
  Footprint fp(l, {Use::bit(1, 8)});
  EXPECT_FALSE(fp.fold(l, 8).selfConflict);
  FoldedFootprint f = fp.fold(l, 7);
  EXPECT_TRUE(f.selfConflict);
  EXPECT_EQ(f.selfKind, Use::Kind::Bit);
  EXPECT_EQ(f.selfResource, 1u);
  EXPECT_EQ(f.selfRow, 0u);
  // The bit still shows on every row, so a probe of what is left is exact.
  for (unsigned r = 0; r < 7; ++r)
    EXPECT_TRUE(hasBit(f, r, 1));
}

TEST(FoldTest, BitSelfConflictFromTwoRuns) {
  // Cycles 0 and 2 on one bit: II 1 and 2 collide, II 3 does not.
  ResourceLayout l = smallLayout();
  Footprint fp(l, {Use::bit(0, 1), Use::bit(0, 1, /*offset=*/2)});
  EXPECT_TRUE(fp.fold(l, 1).selfConflict);
  FoldedFootprint f2 = fp.fold(l, 2);
  EXPECT_TRUE(f2.selfConflict);
  EXPECT_EQ(f2.selfRow, 0u);
  EXPECT_FALSE(fp.fold(l, 3).selfConflict);
  EXPECT_FALSE(fp.fold(l, 4).selfConflict);
  // Two runs over the same cycle collide at every II.
  Footprint twice(l, {Use::bit(2, 2), Use::bit(2, 1, /*offset=*/1)});
  for (unsigned ii = 1; ii < 6; ++ii)
    EXPECT_TRUE(twice.fold(l, ii).selfConflict) << "II " << ii;
}

TEST(FoldTest, PoolClaimsSummedAndSorted) {
  ResourceLayout l = smallLayout();
  // Listed out of pool order on purpose: claims come out sorted by pool.
  Footprint fp(l, {Use::pool(2, 2, 3), Use::pool(1, 1, 2, /*offset=*/1),
                   Use::pool(0, 5, 1)});
  FoldedFootprint f = fp.fold(l, 2);
  ASSERT_EQ(f.numRows, 2u);
  EXPECT_FALSE(f.selfConflict);
  // alu_fma: 5 cycles at II 2 -> rows 0, 1, 0, 1, 0 -> 3 and 2.
  // table: 2 cycles at 3 units -> 3 and 3. dual_alu: cycle 1 -> row 1.
  auto r0 = f.rowClaims(0);
  ASSERT_EQ(r0.size(), 2u);
  EXPECT_EQ(r0[0].pool, 0u);
  EXPECT_EQ(r0[0].amount, 3u);
  EXPECT_EQ(r0[1].pool, 2u);
  EXPECT_EQ(r0[1].amount, 3u);
  auto r1 = f.rowClaims(1);
  ASSERT_EQ(r1.size(), 3u);
  EXPECT_EQ(r1[0].pool, 0u);
  EXPECT_EQ(r1[0].amount, 2u);
  EXPECT_EQ(r1[1].pool, 1u);
  EXPECT_EQ(r1[1].amount, 2u);
  EXPECT_EQ(r1[2].pool, 2u);
  EXPECT_EQ(r1[2].amount, 3u);
  EXPECT_EQ(std::vector<unsigned>(f.claimBegin.begin(), f.claimBegin.end()),
            (std::vector<unsigned>{0, 2, 5}));
}

TEST(FoldTest, PoolSelfConflict) {
  ResourceLayout l = smallLayout();
  // dual_alu cap 2: one unit over 5 cycles fits at II 3 (2, 2, 1) but not at
  // II 2 (3, 2).
  Footprint fp(l, {Use::pool(1, 5, 1)});
  EXPECT_FALSE(fp.fold(l, 3).selfConflict);
  FoldedFootprint f = fp.fold(l, 2);
  EXPECT_TRUE(f.selfConflict);
  EXPECT_EQ(f.selfKind, Use::Kind::Pool);
  EXPECT_EQ(f.selfResource, 1u);
  EXPECT_EQ(f.selfRow, 0u);
  EXPECT_EQ(f.selfDemand, 3u);
  // One cycle over the cap collides at every II.
  Footprint wide(l, {Use::pool(1, 1, 3)});
  for (unsigned ii = 1; ii < 4; ++ii)
    EXPECT_TRUE(wide.fold(l, ii).selfConflict);
}

TEST(FoldTest, NonBindingPoolNeverSelfConflicts) {
  ResourceLayout l = smallLayout();
  Footprint fp(l, {Use::pool(2, 6, 5)});
  FoldedFootprint f = fp.fold(l, 1);
  EXPECT_FALSE(f.selfConflict);
  ASSERT_EQ(f.rowClaims(0).size(), 1u);
  EXPECT_EQ(f.rowClaims(0)[0].amount, 30u);
}

TEST(FoldTest, SecondWordBits) {
  ResourceLayout l;
  for (unsigned i = 0; i < 70; ++i)
    l.addBit("b" + std::to_string(i));
  Footprint fp(l, {Use::bit(69, 2, 1), Use::bit(3, 1)});
  FoldedFootprint f = fp.fold(l, 2);
  EXPECT_EQ(f.numWords, 2u);
  EXPECT_FALSE(f.selfConflict);
  EXPECT_TRUE(hasBit(f, 0, 3));
  EXPECT_TRUE(hasBit(f, 1, 69));
  EXPECT_TRUE(hasBit(f, 0, 69));
  EXPECT_FALSE(hasBit(f, 1, 3));
}

TEST(FoldTest, ZeroDurationAndAmountClaimNothing) {
  ResourceLayout l = smallLayout();
  Footprint fp(l, {Use::bit(0, 0, 3), Use::pool(0, 2, 0)});
  FoldedFootprint f = fp.fold(l, 4);
  EXPECT_EQ(fp.length(), 3u);
  EXPECT_EQ(f.numRows, 3u);
  EXPECT_TRUE(f.claims.empty());
  for (unsigned r = 0; r < 3; ++r)
    EXPECT_EQ(f.rowBits(r)[0], 0u);
}

// The folded rows against a cycle-by-cycle count from the raw uses.
TEST(FoldTest, RandomAgainstNaiveCounts) {
  using namespace tilepipe::rrt::test;
  ResourceLayout l = smallLayout();
  Rng rng(17);
  for (unsigned iter = 0; iter < 2000; ++iter) {
    llvm::SmallVector<Use, 4> uses;
    for (unsigned n = rng.range(1, 4); n; --n) {
      if (rng.chance(50))
        uses.push_back(
            Use::bit(rng.range(0, 2), rng.range(0, 6), rng.range(0, 4)));
      else
        uses.push_back(Use::pool(rng.range(0, 2), rng.range(0, 6),
                                 rng.range(0, 3), rng.range(0, 4)));
    }
    Footprint fp(l, uses);
    unsigned ii = rng.range(1, 9);
    FoldedFootprint f = fp.fold(l, ii);
    NaiveTable t(l, ii);
    t.add(fp, 0);
    ASSERT_EQ(f.numRows, std::min(fp.length(), ii));
    bool self = false;
    for (unsigned r = 0; r < ii; ++r) {
      for (unsigned b = 0; b < l.numBits(); ++b) {
        self |= t.bits(r, b) > 1;
        bool folded = r < f.numRows && hasBit(f, r, b);
        ASSERT_EQ(folded, t.bits(r, b) > 0) << "iter " << iter;
      }
      for (unsigned p = 0; p < l.numPools(); ++p) {
        self |= l.poolBinding[p] && t.pool(r, p) > l.poolCaps[p];
        int64_t folded = 0;
        if (r < f.numRows)
          for (const PoolClaim &c : f.rowClaims(r))
            if (c.pool == p)
              folded += c.amount;
        ASSERT_EQ(folded, t.pool(r, p)) << "iter " << iter;
      }
      if (r < f.numRows) {
        for (unsigned i = 1; i < f.rowClaims(r).size(); ++i)
          ASSERT_LT(f.rowClaims(r)[i - 1].pool, f.rowClaims(r)[i].pool);
      }
    }
    ASSERT_EQ(f.selfConflict, self) << "iter " << iter;
  }
}

} // namespace
