//===- WindowScanTest.cpp - event scans against seat-by-seat ones -------===//
//
// The placement scores a window from its seat events (where what a seat
// meets can change) and reads RRT rows per run of equal rows, so its cost
// follows the seated ops rather than the II. These tests hold it to the
// seat-by-seat, row-by-row reference on random problems and IIs: the same
// cheapest seat, the same cost and colliders at every seat, the same fit,
// and between two events a constant fit and collider set (what firstFit's
// one probe per stretch relies on) and a pressure that moves by one step
// (why cheapestSeat scores only the ends of a stretch).
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"

#include "scheduler/modulo/Placement.h"

#include <gtest/gtest.h>

#include <random>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::modulo;
using tilepipe::testing::makeOp;

namespace {

/// Three bits, a binding pool of 3 and a non-binding pool of 1.
rrt::ResourceLayout scanLayout() {
  rrt::ResourceLayout layout;
  layout.addBit("a");
  layout.addBit("b");
  layout.addBit("c");
  layout.addPool("p", 3);
  layout.addPool("q", 1, /*binding=*/false);
  return layout;
}

/// Ops of one to three uses with offsets and durations up to `span`, so
/// footprints have gaps, several runs, and fold over small IIs.
Problem randomScanProblem(std::mt19937 &rng, unsigned numOps, unsigned span) {
  Problem p(scanLayout());
  std::uniform_int_distribution<unsigned> numUses(0, 3), kind(0, 4),
      offset(0, span), dur(1, span), amount(1, 2), lat(0, span);
  for (unsigned i = 0; i < numOps; ++i) {
    std::vector<rrt::Use> uses;
    for (unsigned u = 0, e = numUses(rng); u < e; ++u) {
      unsigned k = kind(rng);
      if (k < 3)
        uses.push_back(rrt::Use::bit(k, dur(rng), offset(rng)));
      else
        uses.push_back(
            rrt::Use::pool(k - 3, dur(rng), amount(rng), offset(rng)));
    }
    p.addOp(makeOp("op" + std::to_string(i), lat(rng), uses));
  }
  std::uniform_int_distribution<unsigned> coin(0, 3);
  for (unsigned dst = 1; dst < numOps; ++dst)
    for (unsigned src = 0; src < dst; ++src)
      if (coin(rng) == 0)
        p.addDependence({src, dst, int64_t(lat(rng)), coin(rng) % 2});
  p.finalize();
  return p;
}

/// Seats a random subset at random seats the RRT accepts, then takes a few
/// back out, so rows hold several ops in a shuffled occupant order.
void seatSome(Placement &pl, std::mt19937 &rng) {
  const unsigned ii = pl.getII();
  std::uniform_int_distribution<int64_t> seat(0, 3 * int64_t(ii));
  std::uniform_int_distribution<unsigned> coin(0, 3);
  for (OpId op = 0; op < pl.getNumOps(); ++op) {
    if (coin(rng) == 0)
      continue;
    for (unsigned tries = 0; tries < 8; ++tries) {
      int64_t t = seat(rng);
      if (pl.getTable().probe(pl.folded(op), t)) {
        pl.place(op, t);
        break;
      }
    }
  }
  for (OpId op = 0; op < pl.getNumOps(); ++op)
    if (pl.isSeated(op) && coin(rng) == 0)
      pl.remove(op);
}

llvm::SmallVector<OpId, 8> sorted(llvm::SmallVector<OpId, 8> ops) {
  llvm::sort(ops);
  return ops;
}

/// One random problem at one II: every unseated op against the references.
/// With `byRuns`, the placement takes its run-based paths and event lists
/// even where its size rule would read rows or score seat by seat.
/// Returns the windows checked where some op was seated (0 when a footprint
/// folds onto itself), so a test can tell it did not check empty tables.
unsigned checkOne(std::mt19937 &rng, unsigned numOps, unsigned span,
                  unsigned ii, bool byRuns) {
  Problem p = randomScanProblem(rng, numOps, span);
  Placement pl(p, ii);
  pl.setAlwaysByRuns(byRuns);
  OpId colliding;
  if (!pl.fold(colliding))
    return 0;
  seatSome(pl, rng);
  unsigned checked = 0;
  std::uniform_int_distribution<int64_t> base(0, 2 * int64_t(ii));
  std::uniform_int_distribution<int64_t> width(0, int64_t(ii) - 1);
  for (OpId op = 0; op < pl.getNumOps(); ++op) {
    if (pl.isSeated(op))
      continue;
    for (unsigned w = 0; w < 4; ++w) {
      int64_t lo = base(rng);
      int64_t hi = lo + (w == 0 ? int64_t(ii) - 1 : width(rng));
      int64_t estart = lo - base(rng) % 3;
      int64_t skip = w == 1   ? kUnseated
                     : w == 2 ? lo
                              : lo + width(rng) % (hi - lo + 1);
      SCOPED_TRACE("op " + std::to_string(op) + " ii " + std::to_string(ii) +
                   " window [" + std::to_string(lo) + ", " +
                   std::to_string(hi) + "] skip " + std::to_string(skip));
      EXPECT_EQ(pl.cheapestSeat(op, lo, hi, estart, skip),
                pl.cheapestSeatLinear(op, lo, hi, estart, skip));

      llvm::SmallVector<int64_t, 64> events;
      if (!pl.seatEvents(op, lo, hi, /*withPressure=*/false, events)) {
        // Seat by seat: every seat is an event.
        EXPECT_FALSE(byRuns);
        EXPECT_TRUE(events.empty());
        for (int64_t t = lo; t <= hi; ++t)
          events.push_back(t);
      }
      EXPECT_FALSE(events.empty());
      EXPECT_EQ(events.front(), lo);
      llvm::SmallVector<int64_t, 64> pressureEvents;
      if (!pl.seatEvents(op, lo, hi, /*withPressure=*/true, pressureEvents))
        for (int64_t t = lo; t <= hi; ++t)
          pressureEvents.push_back(t);
      size_t next = 0, nextP = 0;
      unsigned lastPressure = 0;
      std::optional<int64_t> step;
      bool segmentFits = false;
      llvm::SmallVector<OpId, 8> segmentColliders;
      for (int64_t t = lo; t <= hi; ++t) {
        SeatCost fast = pl.cost(op, t, estart),
                 slow = pl.costByRows(op, t, estart);
        EXPECT_EQ(fast.evicted, slow.evicted) << "t " << t;
        EXPECT_EQ(fast.pressure, slow.pressure) << "t " << t;
        EXPECT_EQ(fast.delay, slow.delay) << "t " << t;
        bool fits = pl.fits(op, t);
        EXPECT_EQ(fits, pl.getTable().probe(pl.folded(op), t)) << "t " << t;
        llvm::SmallVector<OpId, 8> runColliders, rowColliders;
        pl.colliders(op, t, runColliders);
        pl.collisions(op, t, rowColliders);
        EXPECT_EQ(runColliders, sorted(rowColliders)) << "t " << t;
        // Between two events the fit and the colliders hold still.
        if (next < events.size() && events[next] == t) {
          ++next;
          segmentFits = fits;
          segmentColliders = runColliders;
        } else {
          EXPECT_EQ(fits, segmentFits) << "t " << t;
          EXPECT_EQ(runColliders, segmentColliders) << "t " << t;
        }
        // Between two pressure events the pressure moves by one step.
        if (nextP < pressureEvents.size() && pressureEvents[nextP] == t) {
          ++nextP;
          step.reset();
        } else {
          int64_t moved = int64_t(fast.pressure) - int64_t(lastPressure);
          if (!step)
            step = moved;
          EXPECT_EQ(moved, *step) << "t " << t;
        }
        lastPressure = fast.pressure;
      }
      EXPECT_EQ(next, events.size());
      EXPECT_EQ(nextP, pressureEvents.size());
      checked += pl.numSeated() != 0;
    }
  }
  return checked;
}

TEST(WindowScan, MatchesLinearScanOnSmallIIs) {
  std::mt19937 rng(20261123);
  unsigned checked = 0;
  for (unsigned iter = 0; iter < 400; ++iter) {
    unsigned ii = 1 + iter % 24;
    checked +=
        checkOne(rng, 2 + iter % 7, 1 + iter % 9, ii, (iter / 24) % 2 == 0);
  }
  EXPECT_GT(checked, 1000u);
}

TEST(WindowScan, MatchesLinearScanOnFoldedFootprints) {
  // Uses longer than the II: the folded footprints wrap onto themselves
  // (or are refused), and runs start and end across the row wrap.
  std::mt19937 rng(8);
  unsigned checked = 0;
  for (unsigned iter = 0; iter < 300; ++iter) {
    unsigned ii = 2 + iter % 13;
    checked +=
        checkOne(rng, 3 + iter % 5, ii + iter % 20, ii, (iter / 13) % 2 == 0);
  }
  EXPECT_GT(checked, 200u);
}

TEST(WindowScan, MatchesLinearScanOnLargeIIs) {
  // Tile-loop shape: a few ops, hundreds of cycles each, II in the hundreds.
  std::mt19937 rng(3122);
  unsigned checked = 0;
  for (unsigned iter = 0; iter < 30; ++iter) {
    unsigned ii = 150 + iter * 17;
    checked += checkOne(rng, 3 + iter % 6, 60 + iter * 9, ii, iter % 2 == 0);
  }
  EXPECT_GT(checked, 50u);
}

// The scan's work does not grow with the II: the same ops seated at the
// same phase give the same number of events at II 6400 and at II 640000
// (at a small II some events coincide mod II, so it gives fewer).
TEST(WindowScan, EventsDoNotGrowWithII) {
  auto events = [](unsigned ii) {
    Problem p(scanLayout());
    p.addOp(makeOp("x", 1, {rrt::Use::bit(0, 40), rrt::Use::pool(0, 8, 2, 4)}));
    p.addOp(makeOp("y", 1, {rrt::Use::bit(1, 30, 5)}));
    p.addOp(makeOp("z", 1, {rrt::Use::bit(0, 20), rrt::Use::bit(1, 10, 12)}));
    p.finalize();
    Placement pl(p, ii);
    pl.setAlwaysByRuns(true);
    OpId colliding;
    EXPECT_TRUE(pl.fold(colliding));
    pl.place(0, 3);
    pl.place(1, 17);
    llvm::SmallVector<int64_t, 64> out;
    EXPECT_TRUE(pl.seatEvents(2, 0, ii - 1, /*withPressure=*/true, out));
    std::optional<int64_t> fast = pl.cheapestSeat(2, 0, ii - 1, 0, kUnseated);
    EXPECT_EQ(fast, pl.cheapestSeatLinear(2, 0, ii - 1, 0, kUnseated));
    return out.size();
  };
  size_t small = events(6400), large = events(640000);
  EXPECT_EQ(small, large);
  // 2 events per (table bound, op bound) pair at most, plus the window
  // start: x and y give 6 table bounds, z has 4 op bounds.
  EXPECT_LE(large, 1u + 2u * 6u * 4u);
}

} // namespace
