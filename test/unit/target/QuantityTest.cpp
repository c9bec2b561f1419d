//===- QuantityTest.cpp - Quantity::evaluate and print --------------------===//

#include "target/Target.h"

#include "gtest/gtest.h"

#include <limits>

using namespace tilepipe::target;

namespace {

OpWork bytes(int64_t b) { return {b, 0, 0}; }

std::string text(const Quantity &q) {
  std::string s;
  llvm::raw_string_ostream os(s);
  q.print(os);
  return s;
}

TEST(Quantity, Constant) {
  Quantity q = Quantity::constant(7);
  EXPECT_TRUE(q.isConstant());
  EXPECT_EQ(q.evaluate({}), 7);
  EXPECT_EQ(q.evaluate({1000, 1000, 1000}), 7);
  EXPECT_EQ(text(q), "7");
  EXPECT_EQ(Quantity().evaluate({}), 0);
}

TEST(Quantity, BytesRateRoundsUp) {
  Quantity q = Quantity::constant(30);
  q.bytesPerCycle = 128;
  EXPECT_FALSE(q.isConstant());
  EXPECT_EQ(q.evaluate(bytes(0)), 30);
  EXPECT_EQ(q.evaluate(bytes(1)), 31);
  EXPECT_EQ(q.evaluate(bytes(128)), 31);
  EXPECT_EQ(q.evaluate(bytes(129)), 32);
  EXPECT_EQ(text(q), "30 + bytes/128");
}

TEST(Quantity, FlopsAndElementsRates) {
  Quantity f;
  f.flopsPerCycle = 8192;
  EXPECT_EQ(f.evaluate({0, 2 * 128 * 128 * 16, 0}), 64);
  EXPECT_EQ(f.evaluate({0, 8193, 0}), 2);
  EXPECT_EQ(text(f), "flops/8192");

  Quantity e = Quantity::constant(20);
  e.elementsPerCycle = 16;
  EXPECT_EQ(e.evaluate({0, 0, 128 * 128}), 20 + 1024);
  EXPECT_EQ(e.evaluate({0, 0, 17}), 22);
}

TEST(Quantity, AllTermsAdd) {
  Quantity q = Quantity::constant(1);
  q.bytesPerCycle = 10;
  q.flopsPerCycle = 100;
  q.elementsPerCycle = 1000;
  // 1 + ceil(25/10) + ceil(250/100) + ceil(2500/1000) = 1 + 3 + 3 + 3.
  EXPECT_EQ(q.evaluate({25, 250, 2500}), 10);
  EXPECT_EQ(text(q), "1 + bytes/10 + flops/100 + elements/1000");
}

TEST(Quantity, ZeroRatesAreUnused) {
  Quantity q = Quantity::constant(3);
  q.flopsPerCycle = 0;
  EXPECT_EQ(q.evaluate({1 << 20, 1 << 20, 1 << 20}), 3);
}

TEST(Quantity, NegativeWorkCountsAsZero) {
  Quantity q = Quantity::constant(5);
  q.bytesPerCycle = 4;
  q.elementsPerCycle = 4;
  EXPECT_EQ(q.evaluate({-100, 0, -7}), 5);
}

Quantity tmaTable() {
  Quantity q;
  q.bytesTable = {{1024, 1413},  {2048, 1606},  {4096, 1845},  {8192, 2088},
                  {16384, 3590}, {32768, 4586}, {65536, 5405}, {131072, 9559}};
  return q;
}

TEST(Quantity, TableHitsItsPoints) {
  Quantity q = tmaTable();
  EXPECT_FALSE(q.isConstant());
  for (auto [b, cycles] : q.bytesTable)
    EXPECT_EQ(q.evaluate(bytes(b)), cycles) << b;
}

TEST(Quantity, TableInterpolatesRoundingUp) {
  Quantity q = tmaTable();
  // 1413 + 512 * 193 / 1024 = 1509.5 -> 1510.
  EXPECT_EQ(q.evaluate(bytes(1536)), 1510);
  // 3590 + 8192 * 996 / 16384 = 4088 exactly.
  EXPECT_EQ(q.evaluate(bytes(24576)), 4088);
  EXPECT_EQ(q.evaluate(bytes(1025)), 1414);
}

TEST(Quantity, TableClampsBelowFirstPoint) {
  Quantity q = tmaTable();
  EXPECT_EQ(q.evaluate(bytes(0)), 1413);
  EXPECT_EQ(q.evaluate(bytes(512)), 1413);
  EXPECT_EQ(q.evaluate(bytes(-5)), 1413);
}

TEST(Quantity, TableExtendsLastSegment) {
  Quantity q = tmaTable();
  // Slope of the last segment: (9559 - 5405) / 65536 cycles per byte.
  EXPECT_EQ(q.evaluate(bytes(262144)), 9559 + 2 * 4154);
  EXPECT_EQ(q.evaluate(bytes(131073)), 9560);
}

TEST(Quantity, SinglePointTableIsFlat) {
  Quantity q;
  q.bytesTable = {{4096, 100}};
  EXPECT_EQ(q.evaluate(bytes(0)), 100);
  EXPECT_EQ(q.evaluate(bytes(4096)), 100);
  EXPECT_EQ(q.evaluate(bytes(1 << 30)), 100);
}

TEST(Quantity, TablePlusBaseAndOtherTerms) {
  Quantity q = tmaTable();
  q.base = 10;
  q.elementsPerCycle = 2;
  EXPECT_EQ(q.evaluate({2048, 0, 5}), 10 + 1606 + 3);
  EXPECT_EQ(text(q), "10 + table(bytes; 1024:1413 2048:1606 4096:1845 "
                     "8192:2088 16384:3590 32768:4586 65536:5405 "
                     "131072:9559) + elements/2");
}

TEST(Quantity, DecreasingTableRoundsUpAndStaysNonNegative) {
  Quantity q;
  q.bytesTable = {{0, 10}, {3, 0}};
  EXPECT_EQ(q.evaluate(bytes(1)), 7); // 10 - 3.33 -> 6.67 -> 7
  EXPECT_EQ(q.evaluate(bytes(2)), 4); // 10 - 6.67 -> 3.33 -> 4
  EXPECT_EQ(q.evaluate(bytes(3)), 0);
  EXPECT_EQ(q.evaluate(bytes(100)), 0) << "extrapolation is clamped at 0";
}

TEST(Quantity, HugeWorkSaturates) {
  constexpr int64_t max = std::numeric_limits<int64_t>::max();
  Quantity q = Quantity::constant(max);
  q.bytesPerCycle = 1;
  EXPECT_EQ(q.evaluate(bytes(max)), max);
  Quantity t;
  t.bytesTable = {{0, 0}, {1, max}};
  EXPECT_EQ(t.evaluate(bytes(max)), max);
}

TEST(Quantity, Equality) {
  EXPECT_EQ(tmaTable(), tmaTable());
  Quantity other = tmaTable();
  other.bytesTable.back().second += 1;
  EXPECT_NE(other, tmaTable());
  EXPECT_NE(Quantity::constant(1), Quantity::constant(2));
}

} // namespace

namespace {
TEST(Quantity, HbmAndFetchedBytes) {
  Quantity q;
  q.hbmBytesPerCycle = 25;
  q.fetchedBytesPerCycle = 64;
  EXPECT_FALSE(q.isConstant());
  OpWork work{32768, 0, 0};
  // Nothing stated: every byte fetched and every byte from HBM.
  EXPECT_EQ(q.evaluate(work), 1311 + 512);
  work.multicast = 2; // this CTA fetches half the tile
  EXPECT_EQ(work.fetchedBytes(), 16384);
  EXPECT_EQ(q.evaluate(work), 656 + 256);
  work.l2Reuse = 3; // a third of that from HBM: ceil(16384 / 3) = 5462
  EXPECT_EQ(work.hbmBytes(), 5462);
  EXPECT_EQ(q.evaluate(work), 219 + 256);
  std::string text;
  llvm::raw_string_ostream os(text);
  q.print(os);
  EXPECT_EQ(text, "hbm_bytes/25 + fetched_bytes/64");
  Quantity other = q;
  EXPECT_EQ(other, q);
  other.fetchedBytesPerCycle = 32;
  EXPECT_NE(other, q);
}
} // namespace
