//===- OptimizerTest.cpp - GauS's anytime loop
//-----------------------------===//
//
// What the optimiser promises: a legal best schedule judged by the exact
// objective, the same result for any thread count, an honest verdict when
// the time limit stops it, and schedules that reach the optimum of tiny
// instances (checked by enumeration) far more often than ASAP does.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Optimizer.h"
#include "scheduler/gaus/Legalize.h"

#include "gtest/gtest.h"

#include <functional>

using namespace tilepipe::gaus;

namespace {

struct OptimizerRng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  unsigned below(unsigned n) { return unsigned(next() % n); }
};

/// A layered DAG: `layers` layers of `width` nodes, each node reading 1-3
/// nodes of earlier layers; unit latency (B) or non-strict (A).
Instance layered(Formulation form, unsigned layers, unsigned width,
                 uint64_t seed) {
  OptimizerRng rng{seed};
  Instance inst;
  inst.formulation = form;
  unsigned n = layers * width;
  for (unsigned i = 0; i < n; ++i) {
    Node node;
    node.name = "v" + std::to_string(i);
    node.weight = double(1 + rng.below(9));
    node.bytes = double(1 + rng.below(3));
    inst.nodes.push_back(node);
  }
  for (unsigned l = 1; l < layers; ++l)
    for (unsigned k = 0; k < width; ++k) {
      unsigned v = l * width + k;
      for (unsigned e = 1 + rng.below(3); e > 0; --e) {
        unsigned from = rng.below(l);
        unsigned u = from * width + rng.below(width);
        Edge edge;
        edge.src = u;
        edge.dst = v;
        edge.latency = form == Formulation::A ? 0 : 1;
        edge.comm = double(rng.below(2));
        inst.edges.push_back(edge);
      }
    }
  inst.depth = layers + 2;
  return inst;
}

TEST(GausOptimizer, SameScheduleForAnyThreadCount) {
  // Large enough that every pass runs on the pool (kParallelWork).
  Instance inst = layered(Formulation::B, 40, 250, 3);
  std::string reason;
  std::optional<Frames> frames = computeFrames(inst, reason);
  ASSERT_TRUE(frames) << reason;
  GausOptions options;
  options.outerIterations = 4;
  options.innerSteps = 10;
  setThreads(1);
  GausResult one = runGaus(inst, *frames, options);
  setThreads(3);
  GausResult three = runGaus(inst, *frames, options);
  setThreads(0);
  GausResult again = runGaus(inst, *frames, options);
  ASSERT_TRUE(one.best && three.best && again.best);
  EXPECT_EQ(*one.best, *three.best);
  EXPECT_EQ(*one.best, *again.best);
  EXPECT_EQ(one.lastTerms.f, three.lastTerms.f);
  EXPECT_EQ(one.lastTerms.dep, three.lastTerms.dep);
}

TEST(GausOptimizer, BestIsLegalAndNoWorseThanTheFirstRounding) {
  for (Formulation form : {Formulation::A, Formulation::B})
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      Instance inst = layered(form, 8, 12, seed);
      std::string reason;
      std::optional<Frames> frames = computeFrames(inst, reason);
      ASSERT_TRUE(frames) << reason;
      GausResult result = runGaus(inst, *frames, GausOptions());
      ASSERT_TRUE(result.best);
      Evaluation eval = evaluate(inst, *result.best);
      EXPECT_TRUE(eval.legal) << eval.violation;
      EXPECT_EQ(eval.objective, result.evaluation.objective);
      // The initial means, rounded and legalised, are the first incumbent.
      Steps mid(inst.nodes.size());
      for (size_t i = 0; i < mid.size(); ++i)
        mid[i] = (frames->asap[i] + frames->alap[i] + 1) / 2;
      std::optional<Steps> first = legalize(inst, *frames, mid);
      ASSERT_TRUE(first);
      EXPECT_LE(eval.objective, evaluate(inst, *first).objective + 1e-9);
    }
}

TEST(GausOptimizer, TimeLimitStopsWithAVerdictAndALegalSchedule) {
  Instance inst = layered(Formulation::B, 40, 250, 5);
  std::string reason;
  std::optional<Frames> frames = computeFrames(inst, reason);
  ASSERT_TRUE(frames);
  GausOptions options;
  options.outerIterations = 100000;
  options.patience = 0;
  options.timeLimitMs = 50;
  GausResult result = runGaus(inst, *frames, options);
  EXPECT_TRUE(result.exhausted);
  EXPECT_LT(result.outerIterations, 100000u);
  ASSERT_TRUE(result.best);
  EXPECT_TRUE(evaluate(inst, *result.best).legal);
}

/// The optimum of a tiny instance by enumerating every start in the frames.
double bruteForceOptimum(const Instance &inst, const Frames &frames) {
  unsigned n = inst.nodes.size();
  Steps s(n);
  double best = 1e300;
  std::function<void(unsigned)> walk = [&](unsigned i) {
    if (i == n) {
      Evaluation eval = evaluate(inst, s);
      if (eval.legal)
        best = std::min(best, eval.objective);
      return;
    }
    for (int64_t d = frames.asap[i]; d <= frames.alap[i]; ++d) {
      s[i] = d;
      walk(i + 1);
    }
  };
  walk(0);
  return best;
}

TEST(GausOptimizer, ReachesTheOptimumOfTinyInstancesMoreOftenThanAsap) {
  for (Formulation form : {Formulation::A, Formulation::B}) {
    unsigned gausHits = 0, asapHits = 0, total = 0;
    double gap = 0;
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      Instance inst = layered(form, 3, 3, seed * 7919);
      inst.depth = 4;
      std::string reason;
      std::optional<Frames> frames = computeFrames(inst, reason);
      ASSERT_TRUE(frames);
      double optimum = bruteForceOptimum(inst, *frames);
      GausResult result = runGaus(inst, *frames, GausOptions());
      ASSERT_TRUE(result.best);
      double got = result.evaluation.objective;
      EXPECT_GE(got, optimum - 1e-9);
      gausHits += got <= optimum + 1e-9;
      asapHits += evaluate(inst, frames->asap).objective <= optimum + 1e-9;
      gap += got / optimum - 1;
      ++total;
    }
    // Measured: B 28 of 30 at the optimum (ASAP 12), 1.1% above it on
    // average; A 8 of 30 (ASAP 0), 7.2% above: the peak-plus-crossings
    // objective is GauS's weak formulation (docs/gaus.md).
    if (form == Formulation::B) {
      EXPECT_GE(gausHits, 25u) << "asap " << asapHits;
      EXPECT_LE(gap / total, 0.03);
    } else {
      EXPECT_GT(gausHits, asapHits);
      EXPECT_LE(gap / total, 0.10);
    }
  }
}

} // namespace
