//===- Engine.cpp - gates and arms at one II ------------------------------===//

#include "scheduler/modulo/Engine.h"
#include "support/ThreadCpuClock.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <tuple>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::modulo;

/// Seats of its window the fuse arm tries for one op.
static constexpr int64_t kFuseSeats = 32;
/// How often G2 may mark one op dead in one attempt before it gives up.
static constexpr unsigned kMaxDeadMarks = 4;

Engine::Engine(const Problem &problem, unsigned ii,
               const ModuloOptions &options, Strategy strategy,
               const PathLengths &paths, const std::vector<int64_t> *preferred)
    : problem(problem), ii(ii), options(options), strategy(strategy),
      paths(paths), preferred(preferred), placement(problem, ii) {}

// The priority key of each op for this rung: the height, or the height
// ranked under block length on saturated slots (packing), or under slack
// (ops on tight recurrences first), or nothing (program order).
void Engine::computeHeights() {
  const unsigned n = problem.getNumOps();
  height.assign(n, 0);
  if (strategy.priority == Priority::ProgramOrder)
    return;
  if (strategy.priority == Priority::Seeded && preferred) {
    // Earliest preferred start first; the queue pops the largest key.
    for (OpId op = 0; op < n; ++op)
      height[op] = -std::clamp<int64_t>((*preferred)[op], -(int64_t(1) << 40),
                                        int64_t(1) << 40);
    return;
  }
  height = paths.height;
  if (strategy.priority == Priority::Packing) {
    // First fit decreasing on the saturated slots: at II = MII a slot whose
    // demand fills (nearly) every row is a bin-packing problem, and the
    // longest blocks go in first.
    const rrt::ResourceLayout &layout = problem.getLayout();
    std::vector<bool> saturated(layout.numBits(), false);
    for (unsigned b = 0; b < layout.numBits(); ++b) {
      uint64_t demand = 0;
      for (const rrt::Footprint &fp : problem.getFootprints())
        demand += fp.bitDemand(b);
      saturated[b] = demand * 10 >= uint64_t(ii) * 9;
    }
    constexpr int64_t kHeightRange = int64_t(1) << 32;
    for (OpId op = 0; op < n; ++op) {
      int64_t block = 0;
      for (const rrt::Use &u : problem.getOp(op).uses)
        if (u.kind == rrt::Use::Kind::Bit && saturated[u.index])
          block = std::max<int64_t>(block, u.duration);
      height[op] = block * kHeightRange +
                   std::clamp<int64_t>(height[op], 0, kHeightRange - 1);
    }
    return;
  }
  if (strategy.priority != Priority::Slack)
    return;
  constexpr int64_t kHeightRange = int64_t(1) << 24;
  for (OpId op = 0; op < n; ++op) {
    int64_t slack = std::max<int64_t>(0, paths.alap[op] - paths.asap[op]);
    height[op] = -slack * kHeightRange +
                 std::clamp<int64_t>(height[op], 0, kHeightRange - 1);
  }
}

void Engine::computeSaturated() {
  const rrt::ResourceLayout &layout = problem.getLayout();
  const unsigned words = (layout.numBits() + 63) / 64;
  saturated.assign(words, 0);
  for (unsigned b = 0; b < layout.numBits(); ++b) {
    uint64_t demand = 0;
    for (const rrt::Footprint &fp : problem.getFootprints())
      demand += fp.bitDemand(b);
    if (demand && demand * 2 >= uint64_t(ii))
      saturated[b / 64] |= uint64_t(1) << (b % 64);
  }
}

// Strategy::ringPack. The binding bit's holders in priority order; each
// pick takes, among the next kRingChoice of them, the one that fits
// closest behind the ring's end (trial seats in this attempt's placement,
// taken back afterwards), so a load whose L2 transfer still collides with
// its predecessor's lets a store go first instead of leaving a hole.
void Engine::computeRingTargets() {
  constexpr size_t kRingChoice = 64;
  const unsigned n = problem.getNumOps();
  ringRow.assign(n, -1);
  const rrt::ResourceLayout &layout = problem.getLayout();
  std::optional<unsigned> binding;
  uint64_t most = 0;
  for (unsigned b = 0; b < layout.numBits(); ++b) {
    uint64_t demand = 0;
    for (const rrt::Footprint &fp : problem.getFootprints())
      demand += fp.bitDemand(b);
    if (demand > most) {
      most = demand;
      binding = b;
    }
  }
  if (!binding || most * 2 < uint64_t(ii))
    return;
  auto holdRows = [&](OpId op) {
    const rrt::FoldedFootprint &fp = placement.folded(op);
    unsigned k = 0;
    while (k < fp.numRows &&
           ((fp.rowBits(k)[*binding / 64] >> (*binding % 64)) & 1))
      ++k;
    return k;
  };
  std::vector<OpId> pending;
  for (OpId op = 0; op < n; ++op)
    if (holdRows(op) && placement.folded(op).numRows < ii)
      pending.push_back(op);
  llvm::stable_sort(pending, [&](OpId a, OpId b) {
    return height[a] > height[b];
  });
  std::vector<OpId> trial;
  int64_t cursor = 0;
  while (!pending.empty()) {
    std::optional<size_t> best;
    int64_t bestSeat = 0;
    for (size_t i = 0; i < pending.size() && i < kRingChoice; ++i) {
      int64_t limit = best ? bestSeat - 1 : cursor + ii - 1;
      int64_t first, last;
      for (FitStretches s(placement, pending[i], cursor, limit);
           s.next(first, last);)
        if (placement.fits(pending[i], first)) {
          best = i;
          bestSeat = first;
          break;
        }
      if (best && bestSeat == cursor)
        break;
    }
    if (!best)
      break;
    OpId op = pending[*best];
    placement.placeTrial(op, bestSeat);
    trial.push_back(op);
    ringRow[op] = bestSeat % ii;
    cursor = bestSeat + holdRows(op);
    pending.erase(pending.begin() + *best);
  }
  ringReserved.emplace(layout, ii);
  reservedOps = trial;
  for (OpId op : trial)
    ringReserved->commit(placement.folded(op), ringRow[op]);
  for (OpId op : llvm::reverse(trial))
    placement.remove(op);
}

void Engine::releaseSeatedRing() const {
  if (!ringReserved)
    return;
  llvm::erase_if(reservedOps, [&](OpId op) {
    if (!placement.isSeated(op))
      return false;
    ringReserved->release(placement.folded(op), ringRow[op]);
    work += 1 + placement.folded(op).numRows / 64;
    return true;
  });
}

int64_t Engine::ringSkip(OpId op, int64_t t) const {
  if (!ringReserved || ringRow[op] >= 0)
    return 0;
  const rrt::FoldedFootprint &fp = placement.folded(op);
  work += 1 + fp.numRows / 64;
  std::optional<rrt::Conflict> c = ringReserved->findConflict(fp, t);
  if (!c)
    return 0;
  if (c->kind != rrt::Conflict::Kind::Bit)
    return 1;
  // Every seat that puts the colliding footprint row on the same reserved
  // run collides the same way: step past the run's end.
  int64_t skip = 1;
  unsigned row = c->row;
  while (skip < int64_t(ii)) {
    row = row + 1 == ii ? 0 : row + 1;
    if (!ringReserved->testBit(row, c->resource))
      break;
    ++skip;
  }
  work += skip / 64;
  return skip;
}

// The ring row in the first stage at or after lo. It may lie past the
// window's end (estart + II - 1, where the window has seen every row once)
// when a group pins the op to a later stage than its earliest start: a
// group member seated on the ring in stage 1 takes the others there.
std::optional<int64_t> Engine::ringFit(OpId op, int64_t lo, int64_t hi) const {
  if (ringRow.empty() || ringRow[op] < 0 || lo > hi)
    return std::nullopt;
  int64_t cap = std::min(hi + ii, placement.latestStart(op));
  if (std::optional<unsigned> d = problem.getOp(op).constraints.maxDepth)
    cap = std::min(cap, depthCapEnd(*d, ii));
  if (std::optional<int64_t> g = placement.groupDepth(op))
    cap = std::min(cap, (*g + 1) * ii - 1);
  int64_t t = lo + ((ringRow[op] - lo) % ii + ii) % ii;
  if (t > cap || !placement.fits(op, t))
    return std::nullopt;
  return t;
}

void Engine::enqueue(OpId op) { queue.push({height[op], -int64_t(op)}); }

void tilepipe::sched::modulo::shuffleOrder(llvm::MutableArrayRef<OpId> order,
                                           SplitMix64 &rng) {
  for (size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[rng.next() % i]);
}

std::pair<int64_t, int64_t> Engine::window(OpId op, int64_t estart,
                                           ArmStats *count) const {
  int64_t lo = estart, hi = estart + ii - 1;
  if (std::optional<unsigned> d = problem.getOp(op).constraints.maxDepth) {
    int64_t cap = depthCapEnd(*d, ii);
    if (cap < hi) {
      hi = cap;
      if (count)
        ++count->depthCapped;
    }
  }
  if (std::optional<int64_t> g = placement.groupDepth(op)) {
    int64_t glo = *g * ii, ghi = (*g + 1) * ii - 1;
    if (count && (glo > lo || ghi < hi))
      ++count->groupPinned;
    lo = std::max(lo, glo);
    hi = std::min(hi, ghi);
  }
  return {lo, hi};
}

// G3's seat search. Among the seats the RRT accepts, one that sits flush
// against a seated op on a singleton slot wins over the first free one: at
// II = MII the bottleneck slot has no spare row, and seats dropped in the
// middle of a free stretch leave gaps too short for the ops still to come.
// Strategy::packSaturated. A seat flush behind a seated holder of the
// saturated bit (the row before it holds the bit) extends an arc of the
// table; when no op holds the bit yet, the first free seat starts the arc.
std::optional<int64_t> Engine::packedFit(OpId op, int64_t lo,
                                         int64_t hi) const {
  const rrt::FoldedFootprint &fp = placement.folded(op);
  if (fp.empty() || fp.numRows >= ii)
    return std::nullopt;
  llvm::SmallVector<uint64_t, 2> mask(fp.numWords, 0);
  bool holds = false;
  for (unsigned w = 0; w < fp.numWords && w < saturated.size(); ++w) {
    mask[w] = fp.rowBits(0)[w] & saturated[w];
    holds |= mask[w] != 0;
  }
  if (!holds)
    return std::nullopt;
  const rrt::RRT &table = placement.getTable();
  auto heldAt = [&](int64_t t) {
    const uint64_t *row = table.rowBits(unsigned(((t % ii) + ii) % ii));
    for (unsigned w = 0; w < fp.numWords; ++w)
      if (row[w] & mask[w])
        return true;
    return false;
  };
  // The rows the op holds a saturated bit for from its start: a seat whose
  // hold ends where a seated holder's begins is flush too.
  unsigned holdRows = 1;
  while (holdRows < fp.numRows) {
    bool still = false;
    for (unsigned w = 0; w < fp.numWords; ++w)
      still |= (fp.rowBits(holdRows)[w] & mask[w]) != 0;
    if (!still)
      break;
    ++holdRows;
  }
  // Whether the op fits changes only at seat events, and a flush seat is
  // one: the end of a holder's run (flush behind it) or, for the last seat
  // of a stretch, a holder's start (flush before it). One look at each end
  // of each stretch; the first free seat when none is flush (the first
  // holder of the attempt).
  std::optional<int64_t> firstFree;
  int64_t first, last;
  for (FitStretches stretches(placement, op, lo, hi);
       stretches.next(first, last);) {
    if (!placement.fits(op, first))
      continue;
    if (!firstFree)
      firstFree = first;
    if (heldAt(first - 1) || heldAt(first + holdRows))
      return first;
    if (last > first && heldAt(last + holdRows))
      return last;
  }
  return firstFree;
}

std::optional<int64_t> Engine::firstFit(OpId op, int64_t lo, int64_t hi,
                                        bool keepSuccessors) const {
  if (keepSuccessors)
    hi = std::min(hi, placement.latestStart(op));
  if (strategy.ringPack) {
    if (std::optional<int64_t> t = ringFit(op, lo, hi))
      return t;
    // Off the ring's reserved rows first; where no such seat is left, the
    // plain seats below (the ring op loses its row, as before).
    releaseSeatedRing();
    if (ringReserved && ringRow[op] < 0)
      if (std::optional<int64_t> t = scanFirstFit(op, lo, hi, true))
        return t;
  }
  if (strategy.packSaturated)
    if (std::optional<int64_t> t = packedFit(op, lo, hi))
      return t;
  return scanFirstFit(op, lo, hi, false);
}

std::optional<int64_t> Engine::scanFirstFit(OpId op, int64_t lo, int64_t hi,
                                            bool honourRing) const {
  // Seats refused by a reservation are probed one by one; past this many
  // the scan gives up (the caller then ignores the reservations).
  constexpr unsigned kRingProbes = 256;
  unsigned refused = 0;
  const rrt::FoldedFootprint &fp = placement.folded(op);
  const rrt::RRT &table = placement.getTable();
  auto flush = [&](int64_t t) {
    if (fp.empty() || fp.numRows >= ii)
      return false;
    unsigned before = unsigned(((t - 1) % ii + ii) % ii);
    unsigned after = unsigned(((t + fp.numRows) % ii + ii) % ii);
    const uint64_t *first = fp.rowBits(0), *last = fp.rowBits(fp.numRows - 1);
    const uint64_t *rowBefore = table.rowBits(before),
                   *rowAfter = table.rowBits(after);
    for (unsigned w = 0; w < fp.numWords; ++w)
      if ((first[w] & rowBefore[w]) || (last[w] & rowAfter[w]))
        return true;
    return false;
  };
  std::optional<int64_t> firstFree;
  bool holdsBits = false;
  for (unsigned w = 0; w < fp.numWords && !fp.empty(); ++w)
    holdsBits |= fp.rowBits(0)[w] != 0;
  // A flush seat a little past the first free one is worth the wait; one
  // far past it delays the op and everything after it.
  constexpr int64_t reach = 16;
  // Aligned blocks: at II = MII a saturated pool of capacity c and ops of
  // length b has no spare unit, and first fit leaves single free rows that
  // no op of length b can use (the generated 10k-op loops fail at 1.5% above
  // the bound that way; aligned, at the bound).
  const bool aligned = strategy.alignPools && !holdsBits && !fp.empty() &&
                       !fp.rowClaims(0).empty() && fp.numRows > 1 &&
                       fp.numRows <= reach && fp.numRows < ii;
  auto alignedRow = [&](int64_t t) {
    int64_t row = ((t % ii) + ii) % ii;
    return row % fp.numRows == 0 && row + fp.numRows <= ii;
  };
  // Whether the op fits changes only at the placement's seat events.
  int64_t first, last;
  for (FitStretches stretches(placement, op, lo, hi);
       stretches.next(first, last);) {
    if (firstFree && first > *firstFree + reach)
      break;
    if (!placement.fits(op, first))
      continue;
    for (int64_t t = first; t <= last; ++t) {
      if (firstFree && t > *firstFree + reach)
        return firstFree;
      if (honourRing)
        if (int64_t skip = ringSkip(op, t)) {
          if (++refused > kRingProbes)
            return firstFree;
          t += skip - 1;
          continue;
        }
      if (aligned) {
        if (alignedRow(t)) {
          ++stats.aligned;
          return t;
        }
      } else if (!holdsBits || flush(t)) {
        return t;
      }
      if (!firstFree)
        firstFree = t;
    }
  }
  return firstFree;
}

void Engine::evict(OpId op) {
  placement.remove(op);
  enqueue(op);
  ++stats.evictions;
}

void Engine::force(OpId op, int64_t t) {
  llvm::SmallVector<OpId, 8> leaving;
  placement.collisions(op, t, leaving);
  // Pool sharers leave one at a time, only until the op fits.
  for (OpId j : leaving) {
    if (placement.fits(op, t))
      break;
    evict(j);
  }
  leaving.clear();
  placement.brokenSuccessors(op, t, leaving);
  for (OpId j : leaving)
    evict(j);
  placement.place(op, t);
}

// A ready constraint group is seated as one unit: each topological order of
// its unseated members (exhaustive up to the budget, then a fixed-seed
// sample) seats every member at its earliest legal seat; the order with the
// least total delay wins.
bool Engine::armPermute(OpId op) {
  std::optional<int32_t> group = problem.getGroups().groupOf(op);
  if (!group)
    return false;
  llvm::SmallVector<OpId, 8> members = readyUnit(*group);
  if (members.size() < 2)
    return false;
  std::vector<llvm::SmallVector<OpId, 8>> orders = unitOrders(*group, members);
  // Orders compare lexicographically: how far members land past their
  // deadline (a late member pushes a successor past its max_depth), then
  // the total delay past their earliest starts. With ringPack, a member off
  // its ring row counts before the delay: the ring's other rows are taken
  // by ops still to come.
  std::optional<size_t> best;
  std::tuple<int64_t, int64_t, int64_t> bestCost{INT64_MAX, INT64_MAX,
                                                 INT64_MAX};
  std::vector<int64_t> bestSeats;
  for (size_t o = 0; o < orders.size(); ++o)
    if (trySeatingOrder(orders[o], bestCost, bestSeats))
      best = o;
  if (!best)
    return false;
  for (auto [m, t] : llvm::zip(orders[*best], bestSeats))
    placement.place(m, t);
  ++stats.permute;
  return true;
}

/// The unseated members of `group`, or none when fewer than two or some
/// predecessor outside them is not seated yet (the unit is not ready).
llvm::SmallVector<OpId, 8> Engine::readyUnit(int32_t group) const {
  llvm::SmallVector<OpId, 8> members;
  for (OpId m : problem.getGroups().members(group))
    if (!placement.isSeated(m))
      members.push_back(m);
  if (members.size() < 2)
    return members;
  for (OpId m : members)
    for (unsigned e : placement.predEdges(m)) {
      const Dependence &d = problem.getDependences()[e];
      if (!placement.isSeated(d.src) && !llvm::is_contained(members, d.src))
        return {};
    }
  return members;
}

/// Whether `a` must be seated before `b` within a unit.
bool Engine::mustPrecede(OpId a, OpId b) const {
  for (unsigned e : placement.succEdges(a)) {
    const Dependence &d = problem.getDependences()[e];
    if (d.dst == b && d.distance == 0)
      return true;
  }
  // G1: a pending member waits for its leader; within the unit that means
  // the leader is seated first (the other arms never see a pending op
  // before its leader is seated).
  const ConstraintGroups &groups = problem.getGroups();
  return groups.isPending(b) && groups.leaderOp(b) == a;
}

/// Candidate orders: topological permutations in lexicographic order, up to
/// the permute budget; past eight members a fixed-seed sample of shuffled
/// orders, kept when topological.
std::vector<llvm::SmallVector<OpId, 8>>
Engine::unitOrders(int32_t group, llvm::ArrayRef<OpId> members) const {
  auto admissible = [&](llvm::ArrayRef<OpId> order) {
    for (size_t i = 0; i < order.size(); ++i)
      for (size_t j = i + 1; j < order.size(); ++j)
        if (mustPrecede(order[j], order[i]))
          return false;
    return true;
  };
  std::vector<llvm::SmallVector<OpId, 8>> orders;
  llvm::SmallVector<OpId, 8> perm(members.begin(), members.end());
  unsigned budget = std::max(1u, options.permuteBudget);
  do {
    if (admissible(perm))
      orders.push_back(perm);
  } while (orders.size() < budget && perm.size() <= 8 &&
           std::next_permutation(perm.begin(), perm.end()));
  if (perm.size() > 8) {
    SplitMix64 rng(options.seed ^ uint64_t(group));
    for (unsigned tries = 0; orders.size() < budget && tries < 4 * budget;
         ++tries) {
      shuffleOrder(perm, rng);
      if (admissible(perm))
        orders.push_back(perm);
    }
  }
  return orders;
}

/// Seats `order` on trial, each member at its first fit, and takes it back;
/// true (with `bestCost` and `bestSeats` updated) when every member fits
/// and the cost is below `bestCost`.
bool Engine::trySeatingOrder(llvm::ArrayRef<OpId> order,
                             std::tuple<int64_t, int64_t, int64_t> &bestCost,
                             std::vector<int64_t> &bestSeats) {
  llvm::SmallVector<OpId, 8> done;
  int64_t delay = 0, late = 0, offRing = 0;
  bool ok = true;
  for (OpId m : order) {
    int64_t estart = placement.earliestStart(m);
    auto [lo, hi] = window(m, estart);
    std::optional<int64_t> t = lo <= hi ? firstFit(m, lo, hi) : std::nullopt;
    if (!t) {
      ok = false;
      break;
    }
    placement.placeTrial(m, *t);
    done.push_back(m);
    delay += *t - estart;
    if (!ringRow.empty() && ringRow[m] >= 0 && *t % ii != ringRow[m])
      ++offRing;
    if (paths.deadline[m] != INT64_MAX)
      late += std::max<int64_t>(0, *t - paths.deadline[m]);
  }
  bool better = ok && std::make_tuple(late, offRing, delay) < bestCost;
  if (better) {
    bestCost = {late, offRing, delay};
    bestSeats.clear();
    for (OpId m : order)
      bestSeats.push_back(placement.seatOf(m));
  }
  for (OpId m : llvm::reverse(done))
    placement.remove(m);
  return better;
}

// FUSE: the op and one seated op of the same slot group go in as a pair.
// The op takes a seat where that partner is the only obstacle, and the
// partner moves to another legal seat of its own. Ops with a dependence
// between them are never paired.
bool Engine::armFuse(OpId op, int64_t lo, int64_t hi) {
  auto related = [&](OpId a, OpId b) {
    for (unsigned e : placement.succEdges(a))
      if (problem.getDependences()[e].dst == b)
        return true;
    for (unsigned e : placement.predEdges(a))
      if (problem.getDependences()[e].src == b)
        return true;
    return false;
  };
  // A handful of seats from the window start: a pair swap is a local repair,
  // and scanning the whole window for one costs O(II) collision searches.
  hi = std::min({hi, placement.latestStart(op), lo + kFuseSeats - 1});
  llvm::SmallVector<OpId, 4> colliders, tried;
  for (int64_t t = lo; t <= hi; ++t) {
    colliders.clear();
    placement.colliders(op, t, colliders);
    if (colliders.size() != 1)
      continue;
    OpId partner = colliders.front();
    if (related(op, partner) || placement.groupDepth(partner))
      continue;
    // One trial per partner, at the first seat where it alone collides: a
    // trial moves two footprints through the RRT (thousands of rows for a
    // tile op), and a partner that finds no seat beside the op at one seat
    // rarely does one cycle later (FA4's loop: 187 ms of failed trials).
    if (llvm::is_contained(tried, partner))
      continue;
    tried.push_back(partner);
    int64_t old = placement.seatOf(partner);
    // Trial seats until the partner has a new one: a failed pair leaves the
    // previous seats (Rau's retry reads them) as they were.
    placement.remove(partner);
    if (!placement.fits(op, t)) {
      placement.placeTrial(partner, old);
      continue;
    }
    placement.placeTrial(op, t);
    int64_t pe = placement.earliestStart(partner);
    auto [plo, phi] = window(partner, pe);
    std::optional<int64_t> pt =
        plo <= phi ? firstFit(partner, plo, phi) : std::nullopt;
    if (pt) {
      placement.keep(op);
      placement.place(partner, *pt);
      ++stats.fuse;
      return true;
    }
    placement.remove(op);
    placement.placeTrial(partner, old);
  }
  return false;
}

// RETRY: Rau's forced seat, one past the op's previous seat, taken only when
// it costs at most one seated op.
bool Engine::armRetry(OpId op, int64_t lo, int64_t hi) {
  int64_t prev = placement.previousSeat(op);
  int64_t t = prev == kUnseated ? lo : std::max(lo, prev + 1);
  if (t > hi)
    t = lo;
  llvm::SmallVector<OpId, 8> leaving;
  placement.colliders(op, t, leaving);
  placement.brokenSuccessors(op, t, leaving);
  if (leaving.size() > 1 && !strategy.rauOnly)
    return false;
  force(op, t);
  ++stats.retry;
  return true;
}

// COST: rank every seat of the window (cheapestSeat scores only the seats
// where the rank can change) and force the cheapest. The seat the
// op just lost is skipped when there is another, so two ops cannot keep
// trading one seat.
bool Engine::armCost(OpId op, int64_t lo, int64_t hi, int64_t estart) {
  std::optional<int64_t> best =
      placement.cheapestSeat(op, lo, hi, estart, placement.previousSeat(op));
  if (!best)
    return false;
  force(op, *best);
  ++stats.cost;
  return true;
}

void Engine::fail(AttemptFailure &failure, OpId op, std::string reason) {
  int64_t estart = placement.earliestStart(op);
  auto [lo, hi] = window(op, estart);
  failure.op = op;
  failure.windowLo = lo;
  failure.windowHi = hi;
  failure.stage = lo / ii;
  failure.reason = std::move(reason);
  // The first seat the RRT refuses: the fit holds still between seat
  // events, so one probe per stretch finds it.
  if (lo <= hi)
    failure.conflict.reset();
  int64_t first, last;
  for (FitStretches stretches(placement, op, lo, hi, /*skipClosed=*/false);
       stretches.next(first, last);) {
    if (placement.fits(op, first))
      continue;
    failure.conflict =
        placement.getTable().findConflict(placement.folded(op), first);
    failure.conflictRow = placement.describeRow(failure.conflict->row);
    break;
  }
}

std::optional<std::vector<int64_t>> Engine::run(AttemptFailure &failure) {
  failure.ii = ii;
  if (!foldFootprints(failure))
    return std::nullopt;
  prepareQueue();
  const unsigned n = problem.getNumOps();
  uint64_t budget = options.budget ? options.budget
                                   : std::max<uint64_t>(200, uint64_t(n) * 8);
  while (!queue.empty()) {
    OpId op = OpId(-queue.top().second);
    queue.pop();
    if (placement.isSeated(op))
      continue; // A stale entry: the op was seated since.
    if (!chargeStep(op, budget, failure) || !step(op, failure))
      return std::nullopt;
  }
  return startsFromStageZero();
}

/// Folds every footprint at II; false (a proven failure) when one collides
/// with itself.
bool Engine::foldFootprints(AttemptFailure &failure) {
  OpId colliding = 0;
  if (placement.fold(colliding))
    return true;
  failure.op = colliding;
  failure.reason = "its footprint (" +
                   std::to_string(problem.getFootprints()[colliding].length()) +
                   " cycles) collides with itself modulo II";
  failure.proven = true;
  return false;
}

/// The priority keys and what the strategy needs, then every op queued.
void Engine::prepareQueue() {
  computeHeights();
  if (strategy.packSaturated)
    computeSaturated();
  if (strategy.ringPack)
    computeRingTargets();
  const unsigned n = problem.getNumOps();
  dead.assign(n, 0);
  for (OpId op = 0; op < n; ++op)
    enqueue(op);
}

/// One placement step of `op` against the budgets: the step budget, the
/// work budget and the user's deadline; false (with `failure`) when one
/// ran out.
bool Engine::chargeStep(OpId op, uint64_t &budget, AttemptFailure &failure) {
  if (budget-- == 0) {
    fail(failure, op, "the placement budget ran out");
    return false;
  }
  // Deterministic work: a step, plus one unit per 64 rows the op's folded
  // footprint holds (what seating, probing and evicting it move through the
  // RRT and the occupant lists).
  work += placementWork(placement.folded(op).numRows);
  if (options.workLeft && getWork() > *options.workLeft) {
    fail(failure, op,
         "the placement work budget ran out during this "
         "attempt");
    failure.outOfWork = true;
    return false;
  }
  // The user's time limit, checked at every step: a step costs far more
  // than reading the clock, and with footprints of 2^20 rows a few steps
  // already take seconds.
  if (options.deadline && ThreadCpuClock::now() >= *options.deadline) {
    fail(failure, op, "the time limit ran out during this attempt");
    return false;
  }
  return true;
}

/// Seats `op`, or queues it again (held for its leader, or after a
/// recovery); false (with `failure`) when nothing can seat it.
bool Engine::step(OpId op, AttemptFailure &failure) {
  if (holdForLeader(op))
    return true;
  if ((options.arms & ArmPermute) && armPermute(op))
    return true;
  int64_t estart = placement.earliestStart(op);
  auto [lo, hi] = window(op, estart, &stats);
  if (lo <= hi) {
    if (seatFirstFit(op, lo, hi))
      return true;
    ++stats.rrtRefused;
    if (strategy.firstFitOnly) {
      fail(failure, op, "first fit found no free seat in its window");
      return false;
    }
    if (runArms(op, lo, hi, estart))
      return true;
  }
  if ((lo > hi && freeDepthCap(op)) || retryWithoutGroup(op))
    return true;
  fail(failure, op,
       lo > hi ? "max_depth leaves no seat after its predecessors"
               : "no arm could seat it in its window");
  return false;
}

/// G1: a pending op is held over until its group's leader op is seated.
bool Engine::holdForLeader(OpId op) {
  const ConstraintGroups &groups = problem.getGroups();
  if (!groups.isPending(op))
    return false;
  std::optional<OpId> leader = groups.leaderOp(op);
  if (!leader || placement.isSeated(*leader))
    return false;
  enqueue(op);
  queue.push({std::max(height[*leader], height[op] + 1), -int64_t(*leader)});
  ++stats.pendingHeld;
  return true;
}

/// G3 at the earliest legal seat of [lo, hi]. A seeded op tries its
/// preferred seat (and the free ones after it) first: the seed placed it
/// there with its neighbours in mind.
bool Engine::seatFirstFit(OpId op, int64_t lo, int64_t hi) {
  if (strategy.priority == Priority::Seeded && preferred &&
      (*preferred)[op] > lo && (*preferred)[op] <= hi)
    if (std::optional<int64_t> t = firstFit(op, (*preferred)[op], hi)) {
      placement.place(op, *t);
      return true;
    }
  if (std::optional<int64_t> t = firstFit(op, lo, hi)) {
    placement.place(op, *t);
    return true;
  }
  return false;
}

/// The evicting arms in order, each when enabled: fuse, retry, cost.
bool Engine::runArms(OpId op, int64_t lo, int64_t hi, int64_t estart) {
  if ((options.arms & ArmFuse) && armFuse(op, lo, hi))
    return true;
  if ((options.arms & ArmRetry) && armRetry(op, lo, hi))
    return true;
  return (options.arms & ArmCostBased) && !strategy.rauOnly &&
         armCost(op, lo, hi, estart);
}

/// G2's recovery: the op is marked dead for this try; the seated
/// predecessors that hold its earliest start past its max_depth leave, and
/// the op goes again ahead of them.
bool Engine::freeDepthCap(OpId op) {
  std::optional<unsigned> maxDepth = problem.getOp(op).constraints.maxDepth;
  if (!maxDepth || dead[op] >= kMaxDeadMarks)
    return false;
  int64_t cap = depthCapEnd(*maxDepth, ii);
  bool freed = false;
  for (unsigned e : placement.predEdges(op)) {
    const Dependence &d = problem.getDependences()[e];
    if (d.src != op && placement.isSeated(d.src) &&
        placement.seatOf(d.src) + placement.weight(d) > cap) {
      evict(d.src);
      freed = true;
    }
  }
  if (!freed)
    return false;
  ++dead[op];
  ++stats.dead;
  queue.push({INT64_MAX, -int64_t(op)});
  return true;
}

/// Desperate retry: free the group members that pin the depth (G4) and
/// take the op again with its dependence window alone.
bool Engine::retryWithoutGroup(OpId op) {
  const ConstraintGroups &groups = problem.getGroups();
  std::optional<int32_t> group = groups.groupOf(op);
  if (!group || !placement.groupDepth(op))
    return false;
  for (OpId m : groups.members(*group))
    if (m != op && placement.isSeated(m))
      evict(m);
  enqueue(op);
  ++stats.desperate;
  return true;
}

/// Shift by whole stages so the first stage is 0: rows, depth differences
/// and every dependence stay as they are.
std::vector<int64_t> Engine::startsFromStageZero() const {
  std::vector<int64_t> starts = placement.seats();
  const unsigned n = problem.getNumOps();
  int64_t minStart = n ? *std::min_element(starts.begin(), starts.end()) : 0;
  int64_t shift = minStart >= 0 ? (minStart / ii) * ii : 0;
  for (int64_t &t : starts)
    t -= shift;
  return starts;
}
