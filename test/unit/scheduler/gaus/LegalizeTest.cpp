//===- LegalizeTest.cpp - the GauS legalisers -----------------------------===//

#include "scheduler/gaus/Legalize.h"
#include "scheduler/gaus/Objective.h"

#include "GausTestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace tilepipe::gaus;
using namespace tilepipe::gaus::test;

namespace {

Frames legalFramesOf(const Instance &inst) {
  std::string reason;
  std::optional<Frames> f = computeFrames(inst, reason);
  EXPECT_TRUE(f) << reason;
  return f ? *f : Frames{};
}

TEST(GausLegalize, AcyclicClampsThenRaises) {
  Instance inst = makeInstance(Formulation::B, 3, 4);
  addEdge(inst, 0, 1, 1);
  addEdge(inst, 1, 2, 1);
  Frames f = legalFramesOf(inst);
  // Frames [0,1], [1,2], [2,3]: {3,0,0} clamps to {1,1,2}, then 1 -> 2 -> 3.
  std::optional<Steps> s = legalize(inst, f, {3, 0, 0});
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (Steps{1, 2, 3}));
  // Far outside the depth on both sides.
  s = legalize(inst, f, {-100, -5, 1000});
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (Steps{0, 1, 3}));
}

TEST(GausLegalize, NonStrictEdgesShareSteps) {
  Instance inst = makeInstance(Formulation::A, 3, 4);
  addEdge(inst, 0, 1, 0);
  addEdge(inst, 1, 2, 0);
  Frames f = legalFramesOf(inst);
  std::optional<Steps> s = legalize(inst, f, {2, 0, 1});
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (Steps{2, 2, 2}));
}

TEST(GausLegalize, ModuloSpreadsOverRows) {
  Instance inst = makeInstance(Formulation::C, 3, 6, 3);
  inst.capacity = {1};
  inst.resourceNames = {"unit"};
  for (Node &node : inst.nodes)
    node.uses.push_back(Use{0, 0, 1, 1});
  Frames f = legalFramesOf(inst);
  std::optional<Steps> s = legalize(inst, f, {0, 0, 0});
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (Steps{0, 1, 2}));
  // Steps 0 and 3 share row 0: the second moves on to row 1.
  s = legalize(inst, f, {0, 3, 5});
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (Steps{0, 4, 5}));
  // Four users of one unit at II 3 cannot fit.
  Instance full = makeInstance(Formulation::C, 4, 8, 3);
  full.capacity = {1};
  for (Node &node : full.nodes)
    node.uses.push_back(Use{0, 0, 1, 1});
  EXPECT_FALSE(legalize(full, legalFramesOf(full), {0, 1, 2, 3}));
}

TEST(GausLegalize, BackEdgesMakeTheirSourcesUrgent) {
  // Nodes a, y, x; y and x share one unit at II 2; x -> a latency 2,
  // distance 1 (s_a >= s_x). With a at 0, x must sit at 0 too, so x goes
  // before y although both want step 0.
  Instance inst = makeInstance(Formulation::C, 3, 6, 2);
  inst.capacity = {1};
  inst.nodes[1].uses.push_back(Use{0, 0, 1, 1});
  inst.nodes[2].uses.push_back(Use{0, 0, 1, 1});
  addEdge(inst, 2, 0, 2, 1);
  std::optional<Steps> s = legalize(inst, legalFramesOf(inst), {0, 0, 0});
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (Steps{0, 1, 0}));
}

TEST(GausLegalize, ModuloRedoesWhenASeatBreaksABackEdge) {
  // As above, and y -> a the same way: y and x are equally urgent, y (the
  // lower id) takes row 0 and x step 1, which breaks x -> a with a at 0.
  // The next round starts a at 1.
  Instance inst = makeInstance(Formulation::C, 3, 6, 2);
  inst.capacity = {1};
  inst.nodes[1].uses.push_back(Use{0, 0, 1, 1});
  inst.nodes[2].uses.push_back(Use{0, 0, 1, 1});
  addEdge(inst, 2, 0, 2, 1);
  addEdge(inst, 1, 0, 2, 1);
  std::optional<Steps> s = legalize(inst, legalFramesOf(inst), {0, 0, 0});
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (Steps{1, 0, 1}));
}

TEST(GausLegalize, RejectsMismatchedInput) {
  Instance inst = makeInstance(Formulation::B, 2, 3);
  Frames f = legalFramesOf(inst);
  EXPECT_FALSE(legalize(inst, f, {0}));
  Frames bad = f;
  bad.asap.pop_back();
  EXPECT_FALSE(legalize(inst, bad, {0, 0}));
}

/// A random instance with frames; C gets recurrences, two resources and an
/// II at or above its resource bound and its recurrences.
Instance randomInstance(Rng &rng, Formulation f, Frames &frames,
                        unsigned maxNodes = 12) {
  for (;;) {
    unsigned n = 1 + rng.below(maxNodes);
    Instance inst = makeInstance(f, n, 1);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = i + 1; j < n; ++j)
        if (rng.below(4) == 0)
          addEdge(inst, i, j,
                  f == Formulation::A   ? 0
                  : f == Formulation::B ? 1
                                        : rng.below(3));
    unsigned ii = 0;
    if (f == Formulation::C) {
      for (unsigned k = rng.below(4); k > 0; --k)
        addEdge(inst, rng.below(n), rng.below(n), rng.below(4),
                1 + rng.below(2));
      inst.capacity = {double(1 + rng.below(2)), double(1 + rng.below(3))};
      inst.resourceNames = {"r0", "r1"};
      std::vector<double> demand(2, 0);
      for (Node &node : inst.nodes)
        for (unsigned k = rng.below(3); k > 0; --k) {
          Use use{unsigned(rng.below(2)), rng.below(2), 1 + rng.below(2), 1};
          demand[use.resource] += use.duration * use.amount;
          node.uses.push_back(use);
        }
      double resMII =
          std::max(demand[0] / inst.capacity[0], demand[1] / inst.capacity[1]);
      ii = std::max<unsigned>(2, unsigned(std::ceil(resMII))) +
           unsigned(rng.below(3));
    }
    // The longest path at that II, then some slack.
    inst.ii = ii;
    inst.depth = 1000;
    std::string reason;
    std::optional<Frames> wide = computeFrames(inst, reason);
    if (!wide)
      continue; // A positive cycle at this II: draw again.
    int64_t longest = *std::max_element(wide->asap.begin(), wide->asap.end());
    inst.depth = longest + 1 + rng.below(3) + (f == Formulation::C ? ii : 0);
    std::optional<Frames> tight = computeFrames(inst, reason);
    EXPECT_TRUE(tight) << reason;
    frames = *tight;
    return inst;
  }
}

Steps randomWanted(Rng &rng, const Instance &inst) {
  Steps wanted(inst.nodes.size());
  for (int64_t &w : wanted)
    w = rng.below(inst.depth + 4) - 2; // Some outside [0, depth).
  return wanted;
}

TEST(GausLegalize, RandomAcyclicAlwaysLegal) {
  Rng rng(3);
  for (unsigned trial = 0; trial < 2000; ++trial) {
    Frames frames;
    Formulation f = trial % 2 ? Formulation::A : Formulation::B;
    Instance inst = randomInstance(rng, f, frames);
    Steps wanted = randomWanted(rng, inst);
    std::optional<Steps> s = legalize(inst, frames, wanted);
    ASSERT_TRUE(s) << "trial " << trial;
    Evaluation eval = evaluate(inst, *s);
    ASSERT_TRUE(eval.legal) << "trial " << trial << ": " << eval.violation;
    for (size_t i = 0; i < s->size(); ++i) {
      // Only raised above the clamped wish, never lowered.
      EXPECT_GE((*s)[i], std::clamp(wanted[i], frames.asap[i], frames.alap[i]));
      EXPECT_LE((*s)[i], frames.alap[i]);
    }
    // A legal schedule is its own legalisation.
    std::optional<Steps> again = legalize(inst, frames, *s);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *s) << "trial " << trial;
  }
}

TEST(GausLegalize, RandomModuloLegalWhenFound) {
  Rng rng(5);
  unsigned found = 0, trials = 3000;
  for (unsigned trial = 0; trial < trials; ++trial) {
    Frames frames;
    Instance inst = randomInstance(rng, Formulation::C, frames);
    Steps wanted = randomWanted(rng, inst);
    std::optional<Steps> s = legalize(inst, frames, wanted);
    if (!s)
      continue;
    ++found;
    Evaluation eval = evaluate(inst, *s);
    ASSERT_TRUE(eval.legal) << "trial " << trial << ": " << eval.violation;
    std::optional<Steps> again = legalize(inst, frames, *s);
    ASSERT_TRUE(again) << "trial " << trial;
    EXPECT_EQ(*again, *s) << "trial " << trial;
  }
  // Many of these instances have no schedule at all (see the next test);
  // this one is about what comes back being legal.
  EXPECT_GT(found, trials / 2) << found << " of " << trials;
}

/// Whether any legal schedule exists, by depth-first search over the
/// frames (nodes in id order, edges and rows checked as they are placed).
/// nullopt when the search gives up.
std::optional<bool> exactlyFeasible(const Instance &inst, const Frames &f) {
  unsigned n = inst.nodes.size();
  int64_t ii = inst.ii;
  Steps s(n, 0);
  std::vector<double> held(inst.capacity.size() * ii, 0);
  uint64_t visits = 0;
  auto place = [&](unsigned i, double sign) {
    bool fits = true;
    for (const Use &u : inst.nodes[i].uses)
      for (int64_t d = 0; d < u.duration; ++d) {
        double &h = held[u.resource * ii + (s[i] + u.offset + d) % ii];
        h += sign * u.amount;
        fits &= h <= inst.capacity[u.resource] + 1e-9;
      }
    return fits;
  };
  std::function<std::optional<bool>(unsigned)> search =
      [&](unsigned i) -> std::optional<bool> {
    if (i == n)
      return true;
    for (s[i] = f.asap[i]; s[i] <= f.alap[i]; ++s[i]) {
      if (++visits > 200000)
        return std::nullopt;
      bool ok = true;
      for (const Edge &e : inst.edges)
        if (e.src <= i && e.dst <= i && (e.src == i || e.dst == i))
          ok &= s[e.dst] + int64_t(e.distance) * ii >= s[e.src] + e.latency;
      if (!ok)
        continue;
      bool fits = place(i, 1);
      std::optional<bool> rest = fits ? search(i + 1) : false;
      place(i, -1);
      if (!rest || *rest)
        return rest;
    }
    return false;
  };
  return search(0);
}

TEST(GausLegalize, ModuloFindsMostSchedulesThatExist) {
  Rng rng(13);
  unsigned feasible = 0, infeasible = 0, found = 0;
  for (unsigned trial = 0; trial < 1500; ++trial) {
    Frames frames;
    Instance inst = randomInstance(rng, Formulation::C, frames, 8);
    Steps wanted = randomWanted(rng, inst);
    std::optional<Steps> s = legalize(inst, frames, wanted);
    std::optional<bool> exists = exactlyFeasible(inst, frames);
    if (!exists)
      continue;
    if (s) {
      ASSERT_TRUE(*exists) << "trial " << trial;
    }
    (*exists ? feasible : infeasible) += 1;
    found += bool(s);
  }
  // Both kinds of instance occur, and the legaliser (a heuristic) finds a
  // schedule for nine in ten of those that have one.
  EXPECT_GT(feasible, 500u);
  EXPECT_GT(infeasible, 100u);
  EXPECT_GE(found * 10, feasible * 9) << found << " of " << feasible;
}

TEST(GausLegalize, ModuloWithoutContentionIsTheFixedPoint) {
  // With capacity to spare every op sits at its lower bound: the result is
  // the least schedule above the clamped wish.
  Rng rng(9);
  for (unsigned trial = 0; trial < 1000; ++trial) {
    Frames frames;
    Instance inst = randomInstance(rng, Formulation::C, frames);
    for (double &c : inst.capacity)
      c = 1000;
    Steps wanted = randomWanted(rng, inst);
    std::optional<Steps> s = legalize(inst, frames, wanted);
    ASSERT_TRUE(s) << "trial " << trial;
    ASSERT_TRUE(evaluate(inst, *s).legal);
    Steps expect(wanted.size());
    for (size_t i = 0; i < expect.size(); ++i)
      expect[i] = std::clamp(wanted[i], frames.asap[i], frames.alap[i]);
    std::string reason;
    ASSERT_TRUE(raiseToFixedPoint(inst, inst.ii, expect, reason));
    EXPECT_EQ(*s, expect) << "trial " << trial;
  }
}

} // namespace
