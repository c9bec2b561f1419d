//===- WindowScanBench.cpp - the cost arm's window scan against the II ----===//
//
// A tile-loop shape: a dozen ops holding slots for hundreds of cycles, eleven
// seated, the twelfth scored over a whole II-wide window. The event scan's
// time should stay flat as the II grows; the seat-by-seat reference grows
// with it.
//
//===----------------------------------------------------------------------===//

#include "scheduler/modulo/Placement.h"

#include <benchmark/benchmark.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::modulo;

namespace {

Problem makeTileLoop(unsigned scale) {
  rrt::ResourceLayout layout;
  for (unsigned b = 0; b < 6; ++b)
    layout.addBit("slot" + std::to_string(b));
  layout.addPool("issue", 2);
  Problem p(layout);
  for (unsigned i = 0; i < 12; ++i) {
    Operation op;
    op.name = "op" + std::to_string(i);
    op.latency = 4;
    unsigned len = (20 + 7 * i) * scale;
    op.uses.push_back(rrt::Use::bit(i % 6, len));
    op.uses.push_back(rrt::Use::pool(0, len / 4, 1, len / 8));
    p.addOp(std::move(op));
  }
  p.finalize();
  return p;
}

void scan(benchmark::State &state, bool linear) {
  const unsigned scale = unsigned(state.range(0));
  Problem p = makeTileLoop(scale);
  const unsigned ii = 300 * scale;
  Placement pl(p, ii);
  OpId colliding;
  if (!pl.fold(colliding)) {
    state.SkipWithError("footprint folds onto itself");
    return;
  }
  // Seat the others where the RRT takes them (or leave them out), so the
  // table is one the engine could reach.
  for (OpId op = 0; op + 1 < p.getNumOps(); ++op)
    for (int64_t t = int64_t(op) * 37 * scale; t < int64_t(2 * ii); ++t)
      if (pl.fits(op, t)) {
        pl.place(op, t);
        break;
      }
  state.counters["seated"] = pl.numSeated();
  const OpId last = p.getNumOps() - 1;
  for (auto _ : state) {
    std::optional<int64_t> seat =
        linear ? pl.cheapestSeatLinear(last, 0, ii - 1, 0, kUnseated)
               : pl.cheapestSeat(last, 0, ii - 1, 0, kUnseated);
    benchmark::DoNotOptimize(seat);
  }
  state.counters["II"] = ii;
}

void BM_CheapestSeatEvents(benchmark::State &state) { scan(state, false); }
void BM_CheapestSeatLinear(benchmark::State &state) { scan(state, true); }

BENCHMARK(BM_CheapestSeatEvents)->Arg(1)->Arg(10)->Arg(100);
BENCHMARK(BM_CheapestSeatLinear)->Arg(1)->Arg(10);

} // namespace
