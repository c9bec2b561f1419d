//===- ProblemCheckTest.cpp - Problem::check() ----------------------------===//

#include "TestProblems.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

TEST(ProblemCheck, AcceptsWellFormedProblem) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 2, {rrt::Use::bit(0, 2)}));
  p.addOp(makeOp("b", 3, {rrt::Use::pool(0, 2, 2)}));
  p.addDependence({0, 1, 2, 0});
  p.addDependence({1, 0, 3, 1});
  p.finalize();
  DiagnosticList diags;
  EXPECT_TRUE(p.check(diags));
  EXPECT_EQ(diags.size(), 0u);
}

TEST(ProblemCheck, MissingLatency) {
  Problem p(smallLayout());
  Operation op = makeOp("x", 0);
  op.latency.reset();
  op.opClass = "mystery";
  p.addOp(op);
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(p.check(diags));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.all()[0].op, std::optional<OpId>(0));
  EXPECT_NE(diags.all()[0].message.find("no latency"), std::string::npos);
  EXPECT_NE(diags.all()[0].message.find("'mystery'"), std::string::npos);
}

TEST(ProblemCheck, ZeroDistanceCycle) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1));
  p.addOp(makeOp("b", 1));
  p.addOp(makeOp("c", 1));
  p.addDependence({0, 1, 1, 0});
  p.addDependence({1, 2, 1, 0});
  p.addDependence({2, 1, 1, 0});
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(p.check(diags));
  ASSERT_EQ(diags.size(), 1u);
  const std::string &msg = diags.all()[0].message;
  EXPECT_NE(msg.find("distance 0"), std::string::npos);
  EXPECT_NE(msg.find("'b'"), std::string::npos);
  EXPECT_NE(msg.find("'c'"), std::string::npos);
  EXPECT_EQ(msg.find("'a'"), std::string::npos);
}

TEST(ProblemCheck, LoopCarriedCycleIsFine) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1));
  p.addOp(makeOp("b", 1));
  p.addDependence({0, 1, 1, 0});
  p.addDependence({1, 0, 1, 1});
  p.finalize();
  DiagnosticList diags;
  EXPECT_TRUE(p.check(diags));
}

TEST(ProblemCheck, FootprintOverPoolCapacity) {
  Problem p(smallLayout());
  p.addOp(makeOp("wide", 1, {rrt::Use::pool(0, 1, 3)}));
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(p.check(diags));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags.all()[0].message.find("cannot be seated"), std::string::npos);
  EXPECT_NE(diags.all()[0].message.find("pool 'issue'"), std::string::npos);
  EXPECT_NE(diags.all()[0].message.find("capacity is 2"), std::string::npos);
}

TEST(ProblemCheck, FootprintHoldsBitTwice) {
  Problem p(smallLayout());
  p.addOp(makeOp("twice", 1, {rrt::Use::bit(1, 3), rrt::Use::bit(1, 2, 2)}));
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(p.check(diags));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags.all()[0].message.find("slot 'mem'"), std::string::npos);
}

TEST(ProblemCheck, AdjacentClaimsDoNotOverlap) {
  // [0,2) then [2,4) on one bit: never two holders in one cycle.
  Problem p(smallLayout());
  p.addOp(makeOp("ok", 1, {rrt::Use::bit(1, 2), rrt::Use::bit(1, 2, 2)}));
  p.finalize();
  DiagnosticList diags;
  EXPECT_TRUE(p.check(diags));
}

TEST(ProblemCheck, BadDependence) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1));
  p.addDependence({0, 5, 1, 0});
  p.addDependence({0, 0, -2, 1});
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(p.check(diags));
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_NE(diags.all()[0].message.find("names op 5"), std::string::npos);
  EXPECT_NE(diags.all()[1].message.find("negative latency"), std::string::npos);
}

TEST(ProblemCheck, UnknownResource) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1, {rrt::Use::bit(7, 1)}));
  p.addOp(makeOp("b", 1, {rrt::Use::pool(3, 1, 1)}));
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(p.check(diags));
  EXPECT_EQ(diags.size(), 2u);
}

} // namespace
