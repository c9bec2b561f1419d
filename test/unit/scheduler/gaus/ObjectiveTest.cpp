//===- ObjectiveTest.cpp - the exact objective of GauS schedules ----------===//

#include "scheduler/gaus/Objective.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace tilepipe::gaus;

namespace {

struct ObjectiveRng {
  uint64_t state;
  explicit ObjectiveRng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  int64_t below(int64_t n) { return int64_t(next() % uint64_t(n)); }
};

Instance makeInstance(Formulation f, std::vector<double> values, int64_t depth,
                      unsigned ii = 0) {
  Instance inst;
  inst.formulation = f;
  inst.nodes.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    inst.nodes[i].name = std::string(1, char('a' + i));
    inst.nodes[i].weight = values[i];
    inst.nodes[i].bytes = values[i];
  }
  inst.depth = depth;
  inst.ii = ii;
  return inst;
}

void addEdge(Instance &inst, unsigned src, unsigned dst, int64_t latency,
             unsigned distance = 0, double comm = 0) {
  Edge e;
  e.src = src;
  e.dst = dst;
  e.latency = latency;
  e.distance = distance;
  e.comm = comm;
  inst.edges.push_back(e);
}

void addUnit(Instance &inst, double capacity) {
  inst.capacity = {capacity};
  inst.resourceNames = {"unit"};
}

TEST(GausObjective, FormulationAHandComputed) {
  Instance inst = makeInstance(Formulation::A, {2, 3, 5, 1}, 3);
  inst.alpha = 2;
  addEdge(inst, 0, 2, 0, 0, 1);  // Crosses 1 boundary.
  addEdge(inst, 1, 3, 0, 0, 0);  // No communication: not counted.
  addEdge(inst, 0, 3, 0, 0, 40); // Crosses 2 (the weight only gates it).
  addEdge(inst, 2, 3, 0, 0, 1);  // Crosses 1.
  addEdge(inst, 0, 1, 0, 0, 1);  // Same step: 0.
  Evaluation eval = evaluate(inst, {0, 0, 1, 2});
  ASSERT_TRUE(eval.legal) << eval.violation;
  EXPECT_EQ(eval.peak, 5); // Steps weigh 5, 5, 1.
  EXPECT_EQ(eval.comm, 4);
  EXPECT_EQ(eval.objective, 5 + 2 * 4);
}

TEST(GausObjective, FormulationBHandComputed) {
  Instance inst = makeInstance(Formulation::B, {4, 2, 1, 8}, 5);
  addEdge(inst, 0, 1, 1);
  addEdge(inst, 0, 2, 1);
  addEdge(inst, 1, 3, 1);
  addEdge(inst, 2, 3, 1);
  // a lives on [0, 2], b on [1, 3], c on [3, 3]; d is a sink, never live.
  // Steps hold 4, 6, 6, 3, 0.
  Evaluation eval = evaluate(inst, {0, 1, 3, 4});
  ASSERT_TRUE(eval.legal) << eval.violation;
  EXPECT_EQ(eval.peak, 6);
  EXPECT_EQ(eval.objective, 6);
  // b and c both at step 2: a lives on [0, 1], b and c on [2, 3]; steps
  // hold 4, 4, 3, 3.
  Evaluation packed = evaluate(inst, {0, 2, 2, 4});
  ASSERT_TRUE(packed.legal) << packed.violation;
  EXPECT_EQ(packed.objective, 4);
}

TEST(GausObjective, FormulationCFoldsLiveBytes) {
  Instance inst = makeInstance(Formulation::C, {1, 2, 4}, 10, 3);
  addEdge(inst, 0, 1, 1);
  addEdge(inst, 1, 2, 1);
  addEdge(inst, 2, 0, 1, 1); // s_a + 3 >= s_c + 1.
  addEdge(inst, 0, 2, 1, 2); // a is consumed two iterations later.
  // a lives on [1, 8]: 8 steps = two whole turns plus rows 1 and 2, so
  // rows 0, 1, 2 hold 2, 3, 3 of it. b on [2, 2] (row 2), c on [3, 3]
  // (row 0, ended by a's next iteration at 1 + 3). Rows: 6, 3, 5.
  Evaluation eval = evaluate(inst, {1, 2, 3});
  ASSERT_TRUE(eval.legal) << eval.violation;
  EXPECT_EQ(eval.peak, 6);
  EXPECT_EQ(eval.objective, 6);
}

TEST(GausObjective, ModuloReservationTable) {
  Instance inst = makeInstance(Formulation::C, {1, 1, 1}, 10, 3);
  addUnit(inst, 1);
  for (Node &node : inst.nodes)
    node.uses.push_back(Use{0, 0, 1, 1});
  EXPECT_TRUE(evaluate(inst, {0, 1, 5}).legal); // Rows 0, 1, 2.
  Evaluation clash = evaluate(inst, {0, 1, 3}); // Rows 0, 1, 0.
  EXPECT_FALSE(clash.legal);
  EXPECT_NE(clash.violation.find("'unit'"), std::string::npos)
      << clash.violation;
  EXPECT_NE(clash.violation.find("modulo slot 0"), std::string::npos)
      << clash.violation;

  // A use longer than II lands on itself: 4 steps at II 3 hold its first
  // row twice.
  Instance self = makeInstance(Formulation::C, {1}, 10, 3);
  addUnit(self, 1);
  self.nodes[0].uses.push_back(Use{0, 0, 4, 1});
  EXPECT_FALSE(evaluate(self, {0}).legal);
  self.capacity[0] = 2;
  EXPECT_TRUE(evaluate(self, {0}).legal);

  // Offsets wrap: start 2, offset 2, duration 2 holds rows 1 and 2.
  Instance wrap = makeInstance(Formulation::C, {1, 1}, 10, 3);
  addUnit(wrap, 1);
  wrap.nodes[0].uses.push_back(Use{0, 2, 2, 1});
  wrap.nodes[1].uses.push_back(Use{0, 0, 1, 1});
  EXPECT_TRUE(evaluate(wrap, {2, 3}).legal);  // Node 1 at row 0.
  EXPECT_FALSE(evaluate(wrap, {2, 4}).legal); // Node 1 at row 1.

  // Fractional amounts within the tolerance.
  Instance frac = makeInstance(Formulation::C, {1, 1, 1}, 10, 1);
  addUnit(frac, 0.3);
  for (Node &node : frac.nodes)
    node.uses.push_back(Use{0, 0, 1, 0.1});
  EXPECT_TRUE(evaluate(frac, {0, 1, 2}).legal);
}

TEST(GausObjective, ViolationsAreNamed) {
  Instance inst = makeInstance(Formulation::B, {1, 1}, 3);
  addEdge(inst, 0, 1, 1);
  Evaluation size = evaluate(inst, {0});
  EXPECT_FALSE(size.legal);
  EXPECT_NE(size.violation.find("1 starts for 2 nodes"), std::string::npos);

  Evaluation range = evaluate(inst, {0, 3});
  EXPECT_FALSE(range.legal);
  EXPECT_NE(range.violation.find("'b' starts at step 3"), std::string::npos)
      << range.violation;

  Evaluation negative = evaluate(inst, {-1, 1});
  EXPECT_FALSE(negative.legal);

  Evaluation edge = evaluate(inst, {1, 1});
  EXPECT_FALSE(edge.legal);
  EXPECT_NE(edge.violation.find("'a' -> 'b'"), std::string::npos)
      << edge.violation;
  // The objective is still reported for an illegal schedule in range.
  EXPECT_EQ(edge.objective, 0);

  Instance noII = makeInstance(Formulation::C, {1}, 3, 0);
  EXPECT_FALSE(evaluate(noII, {0}).legal);
}

/// The objective and legality straight from the definitions, step by step.
Evaluation reference(const Instance &inst, const Steps &s) {
  Evaluation eval;
  size_t n = inst.nodes.size();
  int64_t ii = inst.ii;
  for (size_t i = 0; i < n; ++i)
    if (s[i] < 0 || s[i] >= inst.depth)
      return eval;
  eval.legal = true;
  for (const Edge &e : inst.edges)
    if (s[e.dst] + int64_t(e.distance) * ii < s[e.src] + e.latency)
      eval.legal = false;
  if (inst.formulation == Formulation::A) {
    for (int64_t d = 0; d < inst.depth; ++d) {
      double w = 0;
      for (size_t i = 0; i < n; ++i)
        if (s[i] == d)
          w += inst.nodes[i].weight;
      eval.peak = std::max(eval.peak, w);
    }
    for (const Edge &e : inst.edges)
      if (e.comm > 0)
        for (int64_t k = 0; k + 1 < inst.depth; ++k)
          if (s[e.src] <= k && k < s[e.dst])
            eval.comm += 1;
    eval.objective = eval.peak + inst.alpha * eval.comm;
    return eval;
  }
  bool modulo = inst.formulation == Formulation::C;
  std::vector<double> live(modulo ? ii : inst.depth, 0);
  for (size_t i = 0; i < n; ++i) {
    int64_t end = INT64_MIN;
    for (const Edge &e : inst.edges)
      if (e.src == i)
        end = std::max(end, s[e.dst] + (modulo ? int64_t(e.distance) * ii : 0));
    for (int64_t t = s[i]; t < end; ++t)
      live[modulo ? t % ii : t] += inst.nodes[i].bytes;
  }
  for (double v : live)
    eval.peak = std::max(eval.peak, v);
  eval.objective = eval.peak;
  if (modulo) {
    std::vector<double> held(inst.capacity.size() * ii, 0);
    for (size_t i = 0; i < n; ++i)
      for (const Use &u : inst.nodes[i].uses)
        for (int64_t t = 0; t < u.duration; ++t)
          held[u.resource * ii + (s[i] + u.offset + t) % ii] += u.amount;
    for (size_t r = 0; r < inst.capacity.size(); ++r)
      for (int64_t row = 0; row < ii; ++row)
        if (held[r * ii + row] > inst.capacity[r])
          eval.legal = false;
  }
  return eval;
}

TEST(GausObjective, AgreesWithDefinitionOnRandomSchedules) {
  ObjectiveRng rng(11);
  unsigned legal = 0, illegal = 0;
  for (unsigned trial = 0; trial < 3000; ++trial) {
    Formulation f = Formulation(trial % 3);
    unsigned n = 1 + rng.below(10);
    std::vector<double> values(n);
    for (double &v : values)
      v = double(rng.below(6));
    Instance inst = makeInstance(f, values, 1 + rng.below(9),
                                 f == Formulation::C ? 1 + rng.below(4) : 0);
    inst.alpha = double(rng.below(3));
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = i + 1; j < n; ++j)
        if (rng.below(3) == 0)
          addEdge(inst, i, j, f == Formulation::A ? 0 : rng.below(2), 0,
                  double(rng.below(2)));
    if (f == Formulation::C) {
      for (unsigned k = rng.below(3); k > 0; --k)
        addEdge(inst, rng.below(n), rng.below(n), rng.below(3),
                1 + rng.below(2));
      inst.capacity = {double(1 + rng.below(2)), double(1 + rng.below(3))};
      inst.resourceNames = {"r0", "r1"};
      for (Node &node : inst.nodes)
        for (unsigned k = rng.below(3); k > 0; --k)
          node.uses.push_back(Use{unsigned(rng.below(2)), rng.below(3),
                                  1 + rng.below(5), double(1 + rng.below(2))});
    }
    Steps s(n);
    for (int64_t &x : s)
      x = rng.below(inst.depth);
    Evaluation got = evaluate(inst, s);
    Evaluation want = reference(inst, s);
    ASSERT_EQ(got.legal, want.legal)
        << "trial " << trial << ": " << got.violation;
    EXPECT_EQ(got.legal, got.violation.empty());
    EXPECT_EQ(got.objective, want.objective) << "trial " << trial;
    EXPECT_EQ(got.peak, want.peak) << "trial " << trial;
    EXPECT_EQ(got.comm, want.comm) << "trial " << trial;
    (got.legal ? legal : illegal) += 1;
  }
  EXPECT_GT(legal, 300u);
  EXPECT_GT(illegal, 300u);
}

TEST(GausObjective, Deterministic) {
  Instance inst = makeInstance(Formulation::C, {3, 5, 7}, 8, 2);
  addEdge(inst, 0, 1, 1);
  addEdge(inst, 1, 2, 1);
  addEdge(inst, 2, 0, 1, 2);
  Steps s{0, 2, 3};
  Evaluation a = evaluate(inst, s), b = evaluate(inst, s);
  EXPECT_EQ(a.legal, b.legal);
  EXPECT_EQ(a.objective, b.objective);
  EXPECT_EQ(a.violation, b.violation);
}

} // namespace
