//===- ElementwiseTest.cpp - the runtime's elementwise math on the CPU ----===//
//
// The semantics the translation relies on for arith and math ops on register
// tiles (docs/cuda.md, "Elementwise math"), checked on the values where they
// differ from the obvious C: NaN operands, signed zeros, every cmpf
// predicate, broadcasting of per-row vectors and whole-tile conditions.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/emulator/prelude.h"

#include "tilepipe/runtime/frag.cuh"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

template <int N> tp::Frag<float, N> frag(std::initializer_list<float> v) {
  tp::Frag<float, N> f{};
  int i = 0;
  for (float x : v)
    f.v[i++] = x;
  return f;
}

TEST(CpuEmuElementwise, MaxAndMinTakeTheNumber) {
  // tp::max/min are fmaxf/fminf: a NaN operand gives the other one, which
  // is arith.maxnumf/minnumf's meaning (maximumf/minimumf would give the
  // NaN; docs/cuda.md, "Elementwise math").
  auto a = frag<3>({kNaN, 1.0f, 2.0f});
  auto b = frag<3>({3.0f, kNaN, -5.0f});
  auto mx = tp::max(a, b), mn = tp::min(a, b);
  EXPECT_EQ(mx.v[0], 3.0f);
  EXPECT_EQ(mx.v[1], 1.0f);
  EXPECT_EQ(mx.v[2], 2.0f);
  EXPECT_EQ(mn.v[0], 3.0f);
  EXPECT_EQ(mn.v[2], -5.0f);
}

TEST(CpuEmuElementwise, CmpfOrderedAndUnordered) {
  auto a = frag<3>({1.0f, kNaN, 2.0f});
  auto b = frag<3>({1.0f, 1.0f, 1.0f});
  using P = tp::CmpF;
  auto oeq = tp::cmpf<P::OEQ>(a, b), ueq = tp::cmpf<P::UEQ>(a, b);
  auto one = tp::cmpf<P::ONE>(a, b), une = tp::cmpf<P::UNE>(a, b);
  auto ogt = tp::cmpf<P::OGT>(a, b), ule = tp::cmpf<P::ULE>(a, b);
  auto ord = tp::cmpf<P::ORD>(a, b), uno = tp::cmpf<P::UNO>(a, b);
  EXPECT_TRUE(oeq.v[0] && !oeq.v[1] && !oeq.v[2]);
  EXPECT_TRUE(ueq.v[0] && ueq.v[1] && !ueq.v[2]);
  EXPECT_TRUE(!one.v[0] && !one.v[1] && one.v[2]);
  EXPECT_TRUE(!une.v[0] && une.v[1] && une.v[2]);
  EXPECT_TRUE(!ogt.v[0] && !ogt.v[1] && ogt.v[2]);
  EXPECT_TRUE(ule.v[0] && ule.v[1] && !ule.v[2]);
  EXPECT_TRUE(ord.v[0] && !ord.v[1] && ord.v[2]);
  EXPECT_TRUE(!uno.v[0] && uno.v[1] && !uno.v[2]);
  auto t = tp::cmpf<P::True>(a, b), f = tp::cmpf<P::False>(a, b);
  EXPECT_TRUE(t.v[1] && !f.v[1]);
}

TEST(CpuEmuElementwise, SelectBroadcastsAndNegDivAreExact) {
  // Two rows of two: a per-row vector broadcasts over its row.
  tp::Frag<bool, 4> c{{true, false, false, true}};
  auto a = frag<4>({1.0f, 2.0f, 3.0f, 4.0f});
  auto row = frag<2>({-1.0f, -2.0f});
  auto s = tp::select(c, a, row);
  EXPECT_EQ(s.v[0], 1.0f);
  EXPECT_EQ(s.v[1], -1.0f);
  EXPECT_EQ(s.v[2], -2.0f);
  EXPECT_EQ(s.v[3], 4.0f);
  auto whole = tp::select(false, a, row);
  EXPECT_EQ(whole.v[3], -2.0f);
  auto n = tp::neg(frag<2>({0.0f, -3.5f}));
  EXPECT_TRUE(std::signbit(n.v[0]));
  EXPECT_EQ(n.v[1], 3.5f);
  // IEEE division, correctly rounded: 1/3 in float.
  auto q = tp::div(frag<1>({1.0f}), frag<1>({3.0f}));
  EXPECT_EQ(q.v[0], 1.0f / 3.0f);
  auto r = tp::sqrt(frag<1>({2.0f}));
  EXPECT_EQ(r.v[0], std::sqrt(2.0f));
}

} // namespace
