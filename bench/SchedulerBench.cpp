//===- SchedulerBench.cpp - generators and problem checks -----------------===//

#include "scheduler/Driver.h"
#include "scheduler/SerialGenerator.h"

#include <benchmark/benchmark.h>

#include <random>

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

// A layered loop body: each op depends on up to three earlier ops, a few
// values are carried to the next iteration. Footprints: one of four
// singleton slots for 1-4 cycles (slot 0 is the busy one), or units of a
// four-unit pool. With
// `uniform`, every op on slot k holds it k + 1 cycles: at MII the
// bottleneck slot must then be tiled exactly by equal blocks, the hardest
// packing for a list scheduler.
Problem makeLoop(unsigned numOps, bool uniform = false) {
  rrt::ResourceLayout layout;
  for (unsigned b = 0; b < 4; ++b)
    layout.addBit("slot" + std::to_string(b));
  layout.addPool("issue", 4);
  Problem p(layout);
  std::mt19937 rng(numOps);
  std::uniform_int_distribution<int> lat(1, 8), dur(1, 4);
  // One busy unit, as in a tile loop: slot 0 takes 40% of the ops.
  std::discrete_distribution<int> kind({40, 15, 10, 5, 30});
  for (unsigned i = 0; i < numOps; ++i) {
    Operation op;
    op.name = "op" + std::to_string(i);
    op.latency = lat(rng);
    int k = kind(rng);
    unsigned d = uniform ? unsigned(1 + k) : unsigned(dur(rng));
    op.uses.push_back(k < 4 ? rrt::Use::bit(k, d)
                            : rrt::Use::pool(0, 2, 1 + i % 2));
    p.addOp(std::move(op));
    for (unsigned back = 1; back <= 3 && back <= i; ++back)
      if (rng() % 2)
        p.addDependence({i - back, i, int64_t(lat(rng)), 0});
    if (i > 4 && rng() % 16 == 0)
      p.addDependence({i, unsigned(rng() % i), int64_t(lat(rng)), 1});
  }
  p.finalize();
  return p;
}

void BM_SerialSchedule(benchmark::State &state) {
  Problem p = makeLoop(state.range(0));
  for (auto _ : state) {
    DiagnosticList diags;
    auto s = generateSerialSchedule(p, diags);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_SerialSchedule)
    ->Arg(100)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(50000)
    ->Unit(benchmark::kMillisecond);

void BM_CheckAndVerify(benchmark::State &state) {
  Problem p = makeLoop(state.range(0));
  DiagnosticList diags;
  auto s = generateSerialSchedule(p, diags);
  Schedule schedule = s->toSchedule();
  for (auto _ : state) {
    DiagnosticList d;
    benchmark::DoNotOptimize(p.check(d));
    benchmark::DoNotOptimize(p.verify(schedule, d));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_CheckAndVerify)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(50000)
    ->Unit(benchmark::kMillisecond);

void BM_ModuloSchedule(benchmark::State &state) {
  Problem p = makeLoop(state.range(0), state.range(1));
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  unsigned ii = 0, mii = 0;
  for (auto _ : state) {
    DiagnosticList diags;
    auto s = runScheduler(p, options, diags);
    ii = s ? s->ii : 0;
    mii = s ? s->bounds.mii : 0;
    benchmark::DoNotOptimize(s);
  }
  state.counters["II"] = ii;
  state.counters["MII"] = mii;
}
BENCHMARK(BM_ModuloSchedule)
    ->ArgsProduct({{100, 1000, 10000, 50000}, {0}})
    ->Args({100, 1})
    ->Args({1000, 1})
    ->Unit(benchmark::kMillisecond);

} // namespace
