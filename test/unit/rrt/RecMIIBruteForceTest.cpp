//===- RecMIIBruteForceTest.cpp - recMII against Floyd-Warshall -----------===//
//
// The recurrence bound and the positive-cycle test, checked against an
// independent max-plus closure: Floyd-Warshall over weights
// latency - II * distance, where a positive diagonal entry proves II
// infeasible (design decision 2).
//
//===----------------------------------------------------------------------===//

#include "rrt/Bounds.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <climits>

using namespace tilepipe::rrt;
using namespace tilepipe::rrt::test;

namespace {

constexpr int64_t kNoPath = INT64_MIN / 4;

/// Max-plus closure; true when some op reaches itself with positive weight.
bool closureHasPositiveCycle(unsigned n, llvm::ArrayRef<DepEdge> deps,
                             int64_t ii) {
  std::vector<int64_t> d(size_t(n) * n, kNoPath);
  for (const DepEdge &e : deps) {
    int64_t w = e.latency - ii * int64_t(e.distance);
    d[e.src * n + e.dst] = std::max(d[e.src * n + e.dst], w);
  }
  for (unsigned k = 0; k < n; ++k)
    for (unsigned i = 0; i < n; ++i) {
      if (d[i * n + k] == kNoPath)
        continue;
      for (unsigned j = 0; j < n; ++j)
        if (d[k * n + j] != kNoPath)
          d[i * n + j] = std::max(d[i * n + j], d[i * n + k] + d[k * n + j]);
    }
  for (unsigned i = 0; i < n; ++i)
    if (d[i * n + i] != kNoPath && d[i * n + i] > 0)
      return true;
  return false;
}

/// Weight of `cycle` (ops in order, closing back to the first) using the
/// heaviest edge between consecutive ops that `usable` admits; nullopt when
/// some step has no such edge.
template <typename Usable>
std::optional<int64_t> cycleWeight(llvm::ArrayRef<unsigned> cycle,
                                   llvm::ArrayRef<DepEdge> deps, int64_t ii,
                                   Usable usable) {
  if (cycle.empty())
    return std::nullopt;
  int64_t total = 0;
  for (size_t i = 0; i < cycle.size(); ++i) {
    unsigned from = cycle[i], to = cycle[(i + 1) % cycle.size()];
    std::optional<int64_t> best;
    for (const DepEdge &e : deps)
      if (e.src == from && e.dst == to && usable(e))
        best = std::max(best.value_or(kNoPath),
                        e.latency - ii * int64_t(e.distance));
    if (!best)
      return std::nullopt;
    total += *best;
  }
  return total;
}

std::vector<DepEdge> randomGraph(Rng &rng, unsigned n, unsigned maxEdges,
                                 int64_t maxLat) {
  std::vector<DepEdge> deps;
  for (unsigned m = rng.range(0, maxEdges); m; --m) {
    DepEdge e;
    e.src = rng.range(0, n - 1);
    e.dst = rng.range(0, n - 1);
    e.latency = rng.range(-3, maxLat);
    e.distance = rng.chance(45) ? 0 : rng.range(1, 3);
    deps.push_back(e);
  }
  return deps;
}

/// Smallest II with no positive cycle by the closure, scanning (small
/// graphs) or bisecting (feasibility is monotone in II), or nullopt.
std::optional<unsigned> closureRecMII(unsigned n, llvm::ArrayRef<DepEdge> deps,
                                      bool bisect) {
  int64_t positive = 0;
  for (const DepEdge &e : deps)
    positive += std::max<int64_t>(e.latency, 0);
  const int64_t hi = positive + 1;
  if (closureHasPositiveCycle(n, deps, hi))
    return std::nullopt;
  if (!bisect) {
    for (int64_t ii = 1; ii <= hi; ++ii)
      if (!closureHasPositiveCycle(n, deps, ii))
        return unsigned(ii);
    return std::nullopt;
  }
  int64_t lo = 1, top = hi;
  while (lo < top) {
    int64_t mid = lo + (top - lo) / 2;
    if (closureHasPositiveCycle(n, deps, mid))
      lo = mid + 1;
    else
      top = mid;
  }
  return unsigned(lo);
}

TEST(RecMIIBruteForceTest, SmallGraphsMatchClosure) {
  ResourceLayout l;
  unsigned infeasible = 0, nontrivial = 0;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    Rng rng(seed);
    unsigned n = rng.range(1, 6);
    std::vector<DepEdge> deps = randomGraph(rng, n, 10, 6);
    std::vector<Footprint> fps(n, Footprint(l, {}));
    BoundsInput in;
    in.layout = &l;
    in.footprints = fps;
    in.deps = deps;

    std::optional<unsigned> expected = closureRecMII(n, deps, false);
    llvm::SmallVector<unsigned, 8> cycle;
    std::optional<unsigned> got = computeRecMII(in, &cycle);
    ASSERT_EQ(got, expected) << "seed " << seed;

    auto any = [](const DepEdge &) { return true; };
    if (!got) {
      ++infeasible;
      // The reported cycle is a zero-distance cycle of positive latency.
      auto zeroDist = [](const DepEdge &e) { return e.distance == 0; };
      std::optional<int64_t> w = cycleWeight(cycle, deps, 0, zeroDist);
      ASSERT_TRUE(w && *w > 0) << "seed " << seed;
      continue;
    }
    if (*got > 1) {
      ++nontrivial;
      // The critical cycle is what forces the bound: positive one below it.
      std::optional<int64_t> w = cycleWeight(cycle, deps, *got - 1, any);
      ASSERT_TRUE(w && *w > 0) << "seed " << seed;
    } else {
      ASSERT_TRUE(cycle.empty());
    }

    // The positive-cycle test agrees with the closure at every II around
    // the answer, and every cycle it reports is positive.
    for (int64_t ii = -1; ii <= int64_t(*got) + 2; ++ii) {
      llvm::SmallVector<unsigned, 8> c;
      bool pos = hasPositiveCycle(n, deps, ii, &c);
      ASSERT_EQ(pos, closureHasPositiveCycle(n, deps, ii))
          << "seed " << seed << " II " << ii;
      if (pos) {
        std::optional<int64_t> w = cycleWeight(c, deps, ii, any);
        ASSERT_TRUE(w && *w > 0) << "seed " << seed << " II " << ii;
      }
    }
  }
  // The generator must exercise every outcome.
  EXPECT_GT(infeasible, 20u);
  EXPECT_GT(nontrivial, 100u);
}

TEST(RecMIIBruteForceTest, MediumGraphsMatchClosure) {
  // Larger SCCs, many parallel cycles: exercises the jump-and-bisect search.
  ResourceLayout l;
  for (uint64_t seed = 1000; seed < 1060; ++seed) {
    Rng rng(seed);
    unsigned n = rng.range(8, 40);
    std::vector<DepEdge> deps;
    // Mostly forward zero-distance edges, back edges carried across
    // iterations: the shape of a loop body.
    for (unsigned m = rng.range(n, 3 * n); m; --m) {
      DepEdge e;
      e.src = rng.range(0, n - 1);
      e.dst = rng.range(0, n - 1);
      e.latency = rng.range(-2, 40);
      if (e.src < e.dst)
        e.distance = rng.chance(80) ? 0 : rng.range(1, 3);
      else
        e.distance = rng.range(1, 4);
      deps.push_back(e);
    }
    std::vector<Footprint> fps(n, Footprint(l, {}));
    BoundsInput in;
    in.layout = &l;
    in.footprints = fps;
    in.deps = deps;
    llvm::SmallVector<unsigned, 8> cycle;
    std::optional<unsigned> got = computeRecMII(in, &cycle);
    ASSERT_EQ(got, closureRecMII(n, deps, true)) << "seed " << seed;
    if (got && *got > 1) {
      std::optional<int64_t> w = cycleWeight(
          cycle, deps, *got - 1, [](const DepEdge &) { return true; });
      ASSERT_TRUE(w && *w > 0) << "seed " << seed;
    }
  }
}

} // namespace
