//===- RRTBench.cpp - probe/commit and lower-bound throughput -------------===//
//
// The scheduler's inner loop is probe (millions of times per loop body) and
// commit/release (once per seat); the bounds run once per problem on graphs
// of up to 50,000 ops. These cases measure both on the sm_100a shape: 24
// slot bits and the 9 capacity pools.
//
//===----------------------------------------------------------------------===//

#include "rrt/Bounds.h"
#include "rrt/RRT.h"

#include "benchmark/benchmark.h"

#include <cstdint>

using namespace tilepipe::rrt;

namespace {

uint64_t mix(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// 24 slot bits and the 9 pools {37, 4, 7, 37, 5, 1, 3, 6, 2}; pools 0 and 3
/// are table widths and do not bind (design decision 5).
ResourceLayout blackwellLayout() {
  ResourceLayout l;
  for (unsigned i = 0; i < 24; ++i)
    l.addBit("slot" + std::to_string(i + 1));
  const unsigned caps[9] = {37, 4, 7, 37, 5, 1, 3, 6, 2};
  for (unsigned p = 0; p < 9; ++p)
    l.addPool("pool" + std::to_string(p), caps[p], p != 0 && p != 3);
  return l;
}

/// Footprints shaped like the classifier's: one or two slot triples of 2 to
/// 8 cycles, sometimes a pool request.
std::vector<Footprint> randomFootprints(const ResourceLayout &l, unsigned n,
                                        uint64_t seed) {
  std::vector<Footprint> fps;
  fps.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    llvm::SmallVector<Use, 3> uses;
    unsigned dur = 2 + mix(seed) % 7;
    uses.push_back(Use::bit(mix(seed) % 24, dur));
    if (mix(seed) % 4 == 0)
      uses.push_back(Use::bit(mix(seed) % 24, dur));
    if (mix(seed) % 3 == 0)
      uses.push_back(Use::pool(mix(seed) % 9, 1 + mix(seed) % 4, 1));
    // A duplicate slot in one op would collide with itself; drop it.
    if (uses.size() > 1 && uses[1].kind == Use::Kind::Bit &&
        uses[1].index == uses[0].index)
      uses.erase(uses.begin() + 1);
    fps.emplace_back(l, uses);
  }
  return fps;
}

void BM_ProbeMiss(benchmark::State &state) {
  // A well-filled table: most probes are refused, as at a tight II.
  ResourceLayout l = blackwellLayout();
  const unsigned ii = state.range(0);
  std::vector<Footprint> fps = randomFootprints(l, 256, 1);
  std::vector<FoldedFootprint> folded;
  for (const Footprint &fp : fps)
    folded.push_back(fp.fold(l, ii));
  RRT rrt(l, ii);
  uint64_t seed = 7;
  for (const FoldedFootprint &f : folded) {
    int64_t s = mix(seed) % 1000;
    if (rrt.probe(f, s))
      rrt.commit(f, s);
  }
  size_t i = 0;
  int64_t start = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(rrt.probe(folded[i], start));
    if (++i == folded.size())
      i = 0;
    ++start;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ProbeMiss)->Arg(8)->Arg(32)->Arg(128);

void BM_ProbeCommitRelease(benchmark::State &state) {
  // Seat and unseat on a half-full table: the retry arm's pattern.
  ResourceLayout l = blackwellLayout();
  const unsigned ii = state.range(0);
  std::vector<Footprint> fps = randomFootprints(l, 256, 2);
  std::vector<FoldedFootprint> folded;
  for (const Footprint &fp : fps)
    folded.push_back(fp.fold(l, ii));
  RRT rrt(l, ii);
  uint64_t seed = 11;
  for (size_t k = 0; k < folded.size() / 2; ++k) {
    int64_t s = mix(seed) % 1000;
    if (rrt.probe(folded[k], s))
      rrt.commit(folded[k], s);
  }
  size_t i = folded.size() / 2;
  int64_t start = 0;
  for (auto _ : state) {
    const FoldedFootprint &f = folded[i];
    if (rrt.probe(f, start)) {
      rrt.commit(f, start);
      rrt.release(f, start);
    }
    if (++i == folded.size())
      i = folded.size() / 2;
    ++start;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ProbeCommitRelease)->Arg(8)->Arg(32)->Arg(128);

void BM_Fold(benchmark::State &state) {
  ResourceLayout l = blackwellLayout();
  std::vector<Footprint> fps = randomFootprints(l, 256, 3);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(fps[i].fold(l, 6));
    if (++i == fps.size())
      i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Fold);

/// A loop body: mostly forward zero-distance edges between nearby ops, with
/// a fraction carried back across iterations, which knits most of the body
/// into a few large SCCs. Four edges per op.
struct Body {
  ResourceLayout layout = blackwellLayout();
  std::vector<Footprint> fps;
  std::vector<DepEdge> deps;
};

Body randomBody(unsigned n, uint64_t seed) {
  Body b;
  b.fps = randomFootprints(b.layout, n, seed);
  b.deps.reserve(size_t(4) * n);
  static const int64_t lats[] = {2, 4, 4, 7, 8};
  for (unsigned e = 0; e < 4 * n; ++e) {
    DepEdge d;
    d.src = mix(seed) % n;
    unsigned reach = 1 + mix(seed) % 64;
    d.latency = lats[mix(seed) % 5];
    if (mix(seed) % 10 == 0) {
      d.dst = d.src >= reach ? d.src - reach : 0;
      d.distance = 1 + mix(seed) % 2;
    } else {
      d.dst = std::min<unsigned>(d.src + reach, n - 1);
      d.distance = 0;
      if (d.dst == d.src)
        d.distance = 1;
    }
    b.deps.push_back(d);
  }
  return b;
}

void BM_ComputeBounds(benchmark::State &state) {
  Body b = randomBody(state.range(0), 42);
  BoundsInput in;
  in.layout = &b.layout;
  in.footprints = b.fps;
  in.deps = b.deps;
  unsigned mii = 0;
  for (auto _ : state) {
    Bounds bounds = computeBounds(in);
    mii = bounds.mii;
    benchmark::DoNotOptimize(mii);
  }
  state.counters["mii"] = mii;
  state.SetItemsProcessed(state.iterations() * b.deps.size());
}
BENCHMARK(BM_ComputeBounds)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(50000)
    ->Unit(benchmark::kMillisecond);

void BM_RecMII(benchmark::State &state) {
  Body b = randomBody(state.range(0), 43);
  BoundsInput in;
  in.layout = &b.layout;
  in.footprints = b.fps;
  in.deps = b.deps;
  for (auto _ : state)
    benchmark::DoNotOptimize(computeRecMII(in));
}
BENCHMARK(BM_RecMII)->Arg(50000)->Unit(benchmark::kMillisecond);

void BM_RecMIIDenseSCC(benchmark::State &state) {
  // The hard case for the recurrence search: edges between any two ops, so
  // nearly every op lands in one SCC with many competing cycles.
  const unsigned n = state.range(0);
  uint64_t seed = 44;
  std::vector<DepEdge> deps;
  for (unsigned e = 0; e < 4 * n; ++e) {
    DepEdge d;
    d.src = mix(seed) % n;
    d.dst = mix(seed) % n;
    d.latency = mix(seed) % 100;
    d.distance = mix(seed) % 4 == 0 ? 1 + mix(seed) % 5 : 0;
    // Keep zero-distance edges forward so some II is feasible.
    if (d.distance == 0 && d.src >= d.dst)
      d.distance = 1;
    deps.push_back(d);
  }
  ResourceLayout l;
  BoundsInput in;
  in.layout = &l;
  in.deps = deps;
  unsigned rec = 0;
  for (auto _ : state) {
    rec = computeRecMII(in).value_or(0);
    benchmark::DoNotOptimize(rec);
  }
  state.counters["recMII"] = rec;
}
BENCHMARK(BM_RecMIIDenseSCC)
    ->Arg(10000)
    ->Arg(50000)
    ->Unit(benchmark::kMillisecond);

} // namespace
