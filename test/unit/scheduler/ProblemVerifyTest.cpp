//===- ProblemVerifyTest.cpp - Problem::verify() --------------------------===//

#include "TestProblems.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

// a -(lat 3)-> b, b -(lat 2, dist 1)-> a; both on bit "alu" for 2 cycles.
Problem twoOps() {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 3, {rrt::Use::bit(0, 2)}));
  p.addOp(makeOp("b", 2, {rrt::Use::bit(0, 2)}));
  p.addDependence({0, 1, 3, 0});
  p.addDependence({1, 0, 2, 1});
  p.finalize();
  return p;
}

bool mentions(const DiagnosticList &d, llvm::StringRef text) {
  for (const Diagnostic &x : d.all())
    if (llvm::StringRef(x.message).contains(text))
      return true;
  return false;
}

TEST(ProblemVerify, AcceptsValidSchedule) {
  Problem p = twoOps();
  DiagnosticList diags;
  // b at 3 (a ready), rows {0,1} for a, {3,0}? II=5: a rows 0,1; b rows 3,4.
  EXPECT_TRUE(p.verify({5, {0, 3}}, diags));
  EXPECT_EQ(diags.size(), 0u);
}

TEST(ProblemVerify, Precedence) {
  Problem p = twoOps();
  DiagnosticList diags;
  EXPECT_FALSE(p.verify({5, {0, 2}}, diags));
  EXPECT_TRUE(mentions(diags, "from 'a' to 'b'"));
  EXPECT_TRUE(mentions(diags, "violated at II 5"));
}

TEST(ProblemVerify, LoopCarriedPrecedence) {
  Problem p = twoOps();
  DiagnosticList diags;
  // b at 3 ready at 5; a of the next iteration starts at II=4 < 5.
  EXPECT_FALSE(p.verify({4, {0, 3}}, diags));
  EXPECT_TRUE(mentions(diags, "from 'b' to 'a'"));
}

TEST(ProblemVerify, ResourceConflictModuloII) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1, {rrt::Use::bit(0, 2)}));
  p.addOp(makeOp("b", 1, {rrt::Use::bit(0, 2)}));
  p.finalize();
  DiagnosticList diags;
  // II 4: a rows 0,1; b at 5 -> rows 1,2: collides on row 1.
  EXPECT_FALSE(p.verify({4, {0, 5}}, diags));
  EXPECT_TRUE(mentions(diags, "slot 'alu'"));
  diags.clear();
  EXPECT_TRUE(p.verify({4, {0, 6}}, diags));
}

TEST(ProblemVerify, PoolCapacity) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1, {rrt::Use::pool(0, 1, 1)}));
  p.addOp(makeOp("b", 1, {rrt::Use::pool(0, 1, 1)}));
  p.addOp(makeOp("c", 1, {rrt::Use::pool(0, 1, 1)}));
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(p.verify({1, {0, 0, 0}}, diags));
  EXPECT_TRUE(mentions(diags, "pool 'issue'"));
  diags.clear();
  EXPECT_TRUE(p.verify({2, {0, 0, 1}}, diags));
}

TEST(ProblemVerify, FootprintLongerThanIIFoldsOntoItself) {
  Problem p(smallLayout());
  p.addOp(makeOp("long", 1, {rrt::Use::bit(0, 3)}));
  p.finalize();
  DiagnosticList diags;
  EXPECT_FALSE(p.verify({2, {0}}, diags));
  EXPECT_TRUE(mentions(diags, "overlaps itself"));
  diags.clear();
  EXPECT_TRUE(p.verify({3, {0}}, diags));
}

TEST(ProblemVerify, NegativeStartAndShape) {
  Problem p = twoOps();
  DiagnosticList diags;
  EXPECT_FALSE(p.verify({5, {-1, 3}}, diags));
  EXPECT_TRUE(mentions(diags, "negative cycle"));
  diags.clear();
  EXPECT_FALSE(p.verify({5, {0}}, diags));
  EXPECT_TRUE(mentions(diags, "seats 1 ops"));
  diags.clear();
  EXPECT_FALSE(p.verify({0, {0, 3}}, diags));
}

TEST(ProblemVerify, MaxDepth) {
  Problem p(smallLayout());
  Operation op = makeOp("a", 1);
  op.constraints.maxDepth = 1;
  p.addOp(op);
  p.finalize();
  DiagnosticList diags;
  EXPECT_TRUE(p.verify({4, {7}}, diags));
  EXPECT_FALSE(p.verify({4, {8}}, diags));
  EXPECT_TRUE(mentions(diags, "above its max_depth 1"));
}

TEST(ProblemVerify, SameDepthGroup) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1));
  p.addOp(makeOp("b", 1));
  p.getGroups().addMember(3, 0);
  p.getGroups().addMember(3, 1);
  p.getGroups().freeze();
  p.finalize();
  DiagnosticList diags;
  EXPECT_TRUE(p.verify({4, {0, 3}}, diags));
  EXPECT_FALSE(p.verify({4, {0, 4}}, diags));
  EXPECT_TRUE(mentions(diags, "constraint group 3"));
}

TEST(ProblemVerify, ForceSerial) {
  Problem p = twoOps();
  p.setForceSerial(true);
  DiagnosticList diags;
  // Each op runs alone: a [0,3), b [3,5); II must cover both.
  EXPECT_TRUE(p.verify({5, {0, 3}}, diags));
  EXPECT_FALSE(p.verify({6, {0, 2}}, diags));
  diags.clear();
  Problem q(smallLayout());
  q.addOp(makeOp("x", 4));
  q.setForceSerial(true);
  q.finalize();
  EXPECT_FALSE(q.verify({2, {0}}, diags));
  EXPECT_TRUE(mentions(diags, "iterations overlap"));
}

} // namespace
