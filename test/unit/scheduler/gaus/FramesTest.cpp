//===- FramesTest.cpp - ASAP/ALAP frames of GauS instances ----------------===//

#include "scheduler/gaus/Graph.h"
#include "scheduler/gaus/Objective.h"

#include "GausTestUtil.h"

#include "gtest/gtest.h"

using namespace tilepipe::gaus;
using namespace tilepipe::gaus::test;

namespace {

/// Plain Bellman-Ford over the edge list: |V| + 1 rounds, the reference
/// the fast paths must agree with. nullopt on a positive cycle or overflow.
std::optional<Frames> referenceFrames(const Instance &inst) {
  size_t n = inst.nodes.size();
  Frames f;
  f.asap.assign(n, 0);
  f.alap.assign(n, inst.depth - 1);
  int64_t ii = inst.ii;
  for (size_t round = 0;; ++round) {
    bool changed = false;
    for (const Edge &e : inst.edges) {
      int64_t w = e.latency - int64_t(e.distance) * ii;
      if (f.asap[e.src] + w > f.asap[e.dst]) {
        f.asap[e.dst] = f.asap[e.src] + w;
        changed = true;
      }
      if (f.alap[e.dst] - w < f.alap[e.src]) {
        f.alap[e.src] = f.alap[e.dst] - w;
        changed = true;
      }
    }
    if (!changed)
      break;
    if (round > n + 1)
      return std::nullopt;
  }
  for (size_t i = 0; i < n; ++i)
    if (f.asap[i] > inst.depth - 1 || f.alap[i] < f.asap[i])
      return std::nullopt;
  return f;
}

TEST(GausFrames, ChainWithUnitLatency) {
  Instance inst = makeInstance(Formulation::B, 3, 5);
  addEdge(inst, 0, 1, 1);
  addEdge(inst, 1, 2, 1);
  std::string reason;
  std::optional<Frames> f = computeFrames(inst, reason);
  ASSERT_TRUE(f) << reason;
  EXPECT_EQ(f->asap, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(f->alap, (std::vector<int64_t>{2, 3, 4}));
}

TEST(GausFrames, DiamondTakesTheLongestBranch) {
  // 0 -> 1 (lat 3) -> 3, 0 -> 2 (lat 1) -> 3, every edge into 3 latency 1.
  Instance inst = makeInstance(Formulation::B, 5, 7);
  addEdge(inst, 0, 1, 3);
  addEdge(inst, 0, 2, 1);
  addEdge(inst, 1, 3, 1);
  addEdge(inst, 2, 3, 1);
  // Node 4 is isolated: its frame is the whole depth.
  std::string reason;
  std::optional<Frames> f = computeFrames(inst, reason);
  ASSERT_TRUE(f) << reason;
  EXPECT_EQ(f->asap, (std::vector<int64_t>{0, 3, 1, 4, 0}));
  EXPECT_EQ(f->alap, (std::vector<int64_t>{2, 5, 5, 6, 6}));
}

TEST(GausFrames, NonStrictEdgesLeaveWholeDepth) {
  Instance inst = makeInstance(Formulation::A, 3, 4);
  addEdge(inst, 0, 1, 0);
  addEdge(inst, 1, 2, 0);
  std::string reason;
  std::optional<Frames> f = computeFrames(inst, reason);
  ASSERT_TRUE(f) << reason;
  EXPECT_EQ(f->asap, (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(f->alap, (std::vector<int64_t>{3, 3, 3}));
}

TEST(GausFrames, PathLongerThanDepthIsRefused) {
  Instance inst = makeInstance(Formulation::B, 3, 2);
  addEdge(inst, 0, 1, 1);
  addEdge(inst, 1, 2, 1);
  std::string reason;
  EXPECT_FALSE(computeFrames(inst, reason));
  EXPECT_NE(reason.find("critical path needs 3 steps"), std::string::npos)
      << reason;
}

TEST(GausFrames, RecurrenceAtAndBelowItsII) {
  // 0 -> 1 latency 3, back 1 -> 0 latency 0 distance 1: RecMII 3.
  Instance inst = makeInstance(Formulation::C, 2, 6, 2);
  addEdge(inst, 0, 1, 3);
  addEdge(inst, 1, 0, 0, 1);
  std::string reason;
  EXPECT_FALSE(computeFrames(inst, reason));
  EXPECT_NE(reason.find("positive cycle at II 2"), std::string::npos) << reason;
  EXPECT_NE(reason.find("needs II >= 3"), std::string::npos) << reason;

  inst.ii = 3;
  std::optional<Frames> f = computeFrames(inst, reason);
  ASSERT_TRUE(f) << reason;
  EXPECT_EQ(f->asap, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(f->alap, (std::vector<int64_t>{2, 5}));
}

TEST(GausFrames, BackEdgeRaisesItsTarget) {
  // s_0 + 1 * 2 >= s_1 + 5, read the other way round: an edge 1 -> 0 with
  // latency 5, distance 1 at II 2 pushes node 0 three steps past node 1.
  Instance inst = makeInstance(Formulation::C, 3, 8, 2);
  addEdge(inst, 1, 0, 5, 1);
  addEdge(inst, 0, 2, 1);
  std::string reason;
  std::optional<Frames> f = computeFrames(inst, reason);
  ASSERT_TRUE(f) << reason;
  EXPECT_EQ(f->asap, (std::vector<int64_t>{3, 0, 4}));
  EXPECT_EQ(f->alap, (std::vector<int64_t>{6, 3, 7}));
}

TEST(GausFrames, ZeroDistanceCycleIsRefused) {
  Instance inst = makeInstance(Formulation::C, 3, 10, 4);
  addEdge(inst, 0, 1, 1);
  addEdge(inst, 1, 2, 1);
  addEdge(inst, 2, 0, 1);
  std::string reason;
  EXPECT_FALSE(computeFrames(inst, reason));
  EXPECT_NE(reason.find("distance-0"), std::string::npos) << reason;
  EXPECT_NE(reason.find("'n0'"), std::string::npos) << reason;
}

TEST(GausFrames, ZeroLatencyCycleIsLegal) {
  // A zero-weight cycle forces equal starts; it is not positive.
  Instance inst = makeInstance(Formulation::A, 2, 3);
  addEdge(inst, 0, 1, 0);
  addEdge(inst, 1, 0, 0);
  std::string reason;
  std::optional<Frames> f = computeFrames(inst, reason);
  ASSERT_TRUE(f) << reason;
  EXPECT_EQ(f->asap, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(f->alap, (std::vector<int64_t>{2, 2}));
}

TEST(GausFrames, MalformedInstancesAreRefused) {
  std::string reason;
  Instance noDepth = makeInstance(Formulation::B, 2, 0);
  EXPECT_FALSE(computeFrames(noDepth, reason));
  EXPECT_NE(reason.find("depth"), std::string::npos);

  Instance noII = makeInstance(Formulation::C, 2, 4, 0);
  EXPECT_FALSE(computeFrames(noII, reason));
  EXPECT_NE(reason.find("II"), std::string::npos);

  Instance badEdge = makeInstance(Formulation::B, 2, 4);
  addEdge(badEdge, 0, 7, 1);
  EXPECT_FALSE(computeFrames(badEdge, reason));
  EXPECT_NE(reason.find("node 7"), std::string::npos) << reason;

  Instance empty = makeInstance(Formulation::B, 0, 1);
  std::optional<Frames> f = computeFrames(empty, reason);
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->asap.empty());
}

TEST(GausFrames, RaiseToFixedPointFromLowerBounds) {
  Instance inst = makeInstance(Formulation::C, 3, 100, 4);
  addEdge(inst, 0, 1, 2);
  addEdge(inst, 1, 2, 1);
  addEdge(inst, 2, 0, 1, 1); // s_0 >= s_2 + 1 - II.
  // At II 4 the cycle (latency 4, distance 1) has weight 0.
  std::vector<int64_t> starts{0, 5, 0};
  std::string reason;
  ASSERT_TRUE(raiseToFixedPoint(inst, 4, starts, reason)) << reason;
  EXPECT_EQ(starts, (std::vector<int64_t>{3, 5, 6}));
  // At II 3 it is positive.
  std::vector<int64_t> again{0, 0, 0};
  EXPECT_FALSE(raiseToFixedPoint(inst, 3, again, reason));
  EXPECT_NE(reason.find("positive cycle at II 3"), std::string::npos) << reason;
}

/// Random graphs, DAGs and graphs with back edges, against the plain
/// Bellman-Ford; every frame found is achieved by a legal schedule.
TEST(GausFrames, AgreesWithReferenceOnRandomGraphs) {
  Rng rng(7);
  unsigned feasible = 0, infeasible = 0;
  for (unsigned trial = 0; trial < 2000; ++trial) {
    bool modulo = trial % 2;
    unsigned n = 1 + rng.below(14);
    Instance inst =
        makeInstance(modulo ? Formulation::C : Formulation::B, n,
                     1 + rng.below(12), modulo ? 1 + rng.below(5) : 0);
    // Forward edges between a random permutation, so ids are not in
    // topological order.
    std::vector<unsigned> perm(n);
    for (unsigned i = 0; i < n; ++i)
      perm[i] = i;
    for (unsigned i = n; i > 1; --i)
      std::swap(perm[i - 1], perm[rng.below(i)]);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = i + 1; j < n; ++j)
        if (rng.below(4) == 0)
          addEdge(inst, perm[i], perm[j], rng.below(3));
    if (modulo)
      for (unsigned k = rng.below(4); k > 0; --k)
        addEdge(inst, rng.below(n), rng.below(n), rng.below(4),
                1 + rng.below(2));
    std::string reason;
    std::optional<Frames> f = computeFrames(inst, reason);
    std::optional<Frames> ref = referenceFrames(inst);
    ASSERT_EQ(bool(f), bool(ref)) << "trial " << trial << ": " << reason;
    if (!f) {
      EXPECT_FALSE(reason.empty());
      ++infeasible;
      continue;
    }
    ++feasible;
    EXPECT_EQ(f->asap, ref->asap) << "trial " << trial;
    EXPECT_EQ(f->alap, ref->alap) << "trial " << trial;
    inst.capacity.clear(); // No uses: evaluate checks the edges only.
    EXPECT_TRUE(evaluate(inst, f->asap).legal) << "trial " << trial;
    EXPECT_TRUE(evaluate(inst, f->alap).legal) << "trial " << trial;
  }
  // Both outcomes must be exercised for the comparison to mean anything.
  EXPECT_GT(feasible, 500u);
  EXPECT_GT(infeasible, 100u);
}

} // namespace
