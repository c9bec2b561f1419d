//===- Placement.cpp ------------------------------------------------------===//

#include "scheduler/modulo/Placement.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::modulo;

Placement::Placement(const Problem &problem, unsigned ii)
    : problem(problem), ii(ii), n(problem.getNumOps()),
      table(problem.getLayout(), ii), seat(n, kUnseated),
      lastSeat(n, kUnseated),
      preds(n,
            [&](auto add) {
              for (auto [idx, d] : llvm::enumerate(problem.getDependences()))
                add(d.dst, idx);
            }),
      succs(n,
            [&](auto add) {
              for (auto [idx, d] : llvm::enumerate(problem.getDependences()))
                add(d.src, idx);
            }),
      occupants(ii),
      closed(problem.getLayout().numBits() + problem.getLayout().numPools(),
             llvm::BitVector(ii)) {}

// Where row k of a folded footprint holds something other than row k - 1.
static bool rowsDiffer(const rrt::FoldedFootprint &fp, unsigned k) {
  const uint64_t *a = fp.rowBits(k - 1), *b = fp.rowBits(k);
  for (unsigned w = 0; w < fp.numWords; ++w)
    if (a[w] != b[w])
      return true;
  llvm::ArrayRef<rrt::PoolClaim> ca = fp.rowClaims(k - 1), cb = fp.rowClaims(k);
  if (ca.size() != cb.size())
    return true;
  for (size_t i = 0; i < ca.size(); ++i)
    if (ca[i].pool != cb[i].pool || ca[i].amount != cb[i].amount)
      return true;
  return false;
}

bool Placement::fold(OpId &selfColliding) {
  folds.reserve(n);
  runBounds.reserve(n);
  holds.reserve(n);
  for (OpId op = 0; op < n; ++op) {
    folds.push_back(problem.getFootprints()[op].fold(problem.getLayout(), ii));
    const rrt::FoldedFootprint &fp = folds.back();
    if (fp.selfConflict) {
      selfColliding = op;
      return false;
    }
    llvm::SmallVector<unsigned, 4> &bounds = runBounds.emplace_back();
    bounds.push_back(0);
    for (unsigned k = 1; k < fp.numRows; ++k)
      if (rowsDiffer(fp, k))
        bounds.push_back(k);
    if (fp.numRows)
      bounds.push_back(fp.numRows);
    const rrt::ResourceLayout &layout = problem.getLayout();
    llvm::SmallBitVector &held =
        holds.emplace_back(layout.numBits() + layout.numPools());
    llvm::SmallVector<uint64_t, 2> words(fp.numWords, 0);
    for (unsigned k = 0; k < fp.numRows; ++k)
      for (unsigned w = 0; w < fp.numWords; ++w)
        words[w] |= fp.rowBits(k)[w];
    for (unsigned b = 0; b < layout.numBits(); ++b)
      if (!words.empty() && (words[b / 64] >> (b % 64)) & 1)
        held.set(b);
    for (const rrt::PoolClaim &c : fp.claims)
      if (layout.poolBinding[c.pool])
        held.set(layout.numBits() + c.pool);
  }
  return true;
}

int64_t Placement::earliestStart(OpId op) const {
  int64_t est = 0;
  for (unsigned e : preds[op]) {
    const Dependence &d = problem.getDependences()[e];
    if (d.src != op && seat[d.src] != kUnseated)
      est = std::max(est, seat[d.src] + weight(d));
  }
  return est;
}

int64_t Placement::latestStart(OpId op) const {
  int64_t lst = INT64_MAX;
  for (unsigned e : succs[op]) {
    const Dependence &d = problem.getDependences()[e];
    if (d.dst != op && seat[d.dst] != kUnseated)
      lst = std::min(lst, seat[d.dst] - weight(d));
  }
  return lst;
}

std::optional<int64_t> Placement::groupDepth(OpId op) const {
  std::optional<int32_t> group = problem.getGroups().groupOf(op);
  if (!group)
    return std::nullopt;
  for (OpId m : problem.getGroups().members(*group))
    if (m != op && seat[m] != kUnseated)
      return seat[m] / ii;
  return std::nullopt;
}

// Row k of `op`'s folded footprint lands on modulo row `row`, where `other`
// holds its own folded row `otherRow`. They collide on a shared bit, or on a
// binding pool that the op's claim would push over capacity.
bool Placement::rowsCollide(OpId op, unsigned k, OpId other, unsigned otherRow,
                            unsigned row) const {
  const rrt::FoldedFootprint &a = folds[op], &b = folds[other];
  const uint64_t *wa = a.rowBits(k), *wb = b.rowBits(otherRow);
  for (unsigned w = 0; w < a.numWords; ++w)
    if (wa[w] & wb[w])
      return true;
  const rrt::ResourceLayout &layout = problem.getLayout();
  for (const rrt::PoolClaim &ca : a.rowClaims(k)) {
    if (!layout.poolBinding[ca.pool] ||
        table.poolUsage(row, ca.pool) + ca.amount <= layout.poolCaps[ca.pool])
      continue;
    for (const rrt::PoolClaim &cb : b.rowClaims(otherRow))
      if (cb.pool == ca.pool)
        return true;
  }
  return false;
}

void Placement::collisions(OpId op, int64_t t,
                           llvm::SmallVectorImpl<OpId> &out) const {
  const rrt::FoldedFootprint &fp = folds[op];
  work += fp.numRows;
  for (unsigned k = 0; k < fp.numRows; ++k) {
    unsigned row = rowOf(t + k);
    for (OpId j : occupants[row]) {
      if (j == op || llvm::is_contained(out, j))
        continue;
      if (rowsCollide(op, k, j, rowOf(int64_t(row) - seat[j]), row))
        out.push_back(j);
    }
  }
}

void Placement::brokenSuccessors(OpId op, int64_t t,
                                 llvm::SmallVectorImpl<OpId> &out) const {
  for (unsigned e : succs[op]) {
    const Dependence &d = problem.getDependences()[e];
    if (d.dst != op && seat[d.dst] != kUnseated &&
        seat[d.dst] < t + weight(d) && !llvm::is_contained(out, d.dst))
      out.push_back(d.dst);
  }
}

// The rows two cyclic intervals [a, a + la) and [b, b + lb) share, as at
// most two pieces (start row, length); la, lb <= ii.
static unsigned overlapPieces(int64_t a, int64_t la, int64_t b, int64_t lb,
                              int64_t ii,
                              std::pair<unsigned, unsigned> (&out)[2]) {
  unsigned num = 0;
  for (int64_t shift : {-ii, int64_t(0), ii}) {
    int64_t lo = std::max(a, b + shift), hi = std::min(a + la, b + shift + lb);
    if (lo < hi)
      out[num++] = {unsigned(lo % ii), unsigned(hi - lo)};
  }
  return num;
}

// Rows are reduced into [0, II) before the pieces are cut, so `a` and `b`
// lie in [0, II) and a piece never starts past 2 * II.
static int64_t overlapRows(int64_t a, int64_t la, int64_t b, int64_t lb,
                           int64_t ii) {
  std::pair<unsigned, unsigned> pieces[2];
  unsigned num = overlapPieces(a, la, b, lb, ii, pieces);
  int64_t rows = 0;
  for (unsigned i = 0; i < num; ++i)
    rows += pieces[i].second;
  return rows;
}

llvm::ArrayRef<unsigned> Placement::tableBounds() const {
  if (boundsStale) {
    bounds.clear();
    for (OpId j = 0; j < n; ++j)
      if (seat[j] != kUnseated)
        for (unsigned b : runBounds[j])
          bounds.push_back(rowOf(seat[j] + b));
    llvm::sort(bounds);
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    boundsStale = false;
  }
  return bounds;
}

unsigned Placement::maxPoolUsage(unsigned pool, unsigned row,
                                 unsigned len) const {
  unsigned most = table.poolUsage(row, pool);
  llvm::ArrayRef<unsigned> rows = tableBounds();
  // Usage changes only at a table bound: read it at each one inside.
  auto scan = [&](unsigned from, unsigned to) {
    for (auto it = llvm::lower_bound(rows, from); it != rows.end() && *it < to;
         ++it)
      most = std::max(most, table.poolUsage(*it, pool));
  };
  uint64_t end = uint64_t(row) + len;
  scan(row + 1, unsigned(std::min<uint64_t>(end, ii)));
  if (end > ii)
    scan(0, unsigned(end - ii));
  return most;
}

bool Placement::fitsByRuns(OpId op, int64_t t) const {
  const rrt::FoldedFootprint &fp = folds[op];
  work += 1 + seated;
  if (fp.selfConflict)
    return table.probe(fp, t);
  const rrt::ResourceLayout &layout = problem.getLayout();
  auto rowFits = [&](unsigned k, unsigned row) {
    const uint64_t *want = fp.rowBits(k), *have = table.rowBits(row);
    for (unsigned w = 0; w < fp.numWords; ++w)
      if (want[w] & have[w])
        return false;
    for (const rrt::PoolClaim &c : fp.rowClaims(k))
      if (layout.poolBinding[c.pool] &&
          uint64_t(table.poolUsage(row, c.pool)) + c.amount >
              layout.poolCaps[c.pool])
        return false;
    return true;
  };
  llvm::ArrayRef<unsigned> rows = tableBounds();
  llvm::ArrayRef<unsigned> runs = runBounds[op];
  for (unsigned i = 0; i + 1 < runs.size(); ++i) {
    // The run holds the same in each of its rows, and a table row holds the
    // same as the table bound at or before it: the run's first row and the
    // bounds inside the run are the only rows to read.
    const unsigned k = runs[i], row = rowOf(t + k);
    if (!rowFits(k, row))
      return false;
    const uint64_t end = uint64_t(row) + (runs[i + 1] - k);
    auto scan = [&](unsigned from, unsigned to) {
      for (auto it = llvm::lower_bound(rows, from);
           it != rows.end() && *it < to; ++it)
        if (!rowFits(k, *it))
          return false;
      return true;
    };
    if (!scan(row + 1, unsigned(std::min<uint64_t>(end, ii))) ||
        (end > ii && !scan(0, unsigned(end - ii))))
      return false;
  }
  return true;
}

bool Placement::runsCollide(OpId op, int64_t t, unsigned i, OpId other,
                            unsigned m) const {
  const rrt::FoldedFootprint &a = folds[op], &b = folds[other];
  unsigned ka = runBounds[op][i], kb = runBounds[other][m];
  std::pair<unsigned, unsigned> pieces[2];
  unsigned num = overlapPieces(rowOf(t + ka), runBounds[op][i + 1] - ka,
                               rowOf(seat[other] + kb),
                               runBounds[other][m + 1] - kb, ii, pieces);
  if (!num)
    return false;
  const uint64_t *wa = a.rowBits(ka), *wb = b.rowBits(kb);
  for (unsigned w = 0; w < a.numWords; ++w)
    if (wa[w] & wb[w])
      return true;
  const rrt::ResourceLayout &layout = problem.getLayout();
  for (const rrt::PoolClaim &ca : a.rowClaims(ka)) {
    if (!layout.poolBinding[ca.pool] ||
        !llvm::any_of(b.rowClaims(kb), [&](const rrt::PoolClaim &cb) {
          return cb.pool == ca.pool;
        }))
      continue;
    for (unsigned p = 0; p < num; ++p)
      if (uint64_t(maxPoolUsage(ca.pool, pieces[p].first, pieces[p].second)) +
              ca.amount >
          layout.poolCaps[ca.pool])
        return true;
  }
  return false;
}

void Placement::colliders(OpId op, int64_t t,
                          llvm::SmallVectorImpl<OpId> &out) const {
  if (byRows(op)) {
    size_t from = out.size();
    collisions(op, t, out);
    std::sort(out.begin() + from, out.end());
    return;
  }
  const unsigned opRuns = runBounds[op].size() - 1;
  work += n;
  for (OpId j = 0; j < n; ++j) {
    if (j == op || seat[j] == kUnseated || !holds[op].anyCommon(holds[j]))
      continue;
    const unsigned jRuns = runBounds[j].size() - 1;
    bool hit = false;
    for (unsigned i = 0; i < opRuns && !hit; ++i)
      for (unsigned m = 0; m < jRuns && !hit; ++m)
        hit = runsCollide(op, t, i, j, m);
    if (hit && !llvm::is_contained(out, j))
      out.push_back(j);
  }
}

// The same counts as costByRows: the colliders as a set, and the pressure
// as the rows each seated op shares with the footprint (every op sits once
// in each row it spans, so a row's occupant count sums these overlaps).
SeatCost Placement::cost(OpId op, int64_t t, int64_t estart) const {
  if (byRows(op))
    return costByRows(op, t, estart);
  llvm::SmallVector<OpId, 8> leaving;
  colliders(op, t, leaving);
  brokenSuccessors(op, t, leaving);
  SeatCost c;
  c.evicted = leaving.size();
  const rrt::FoldedFootprint &fp = folds[op];
  int64_t rows = 0;
  for (OpId j = 0; j < n; ++j)
    if (seat[j] != kUnseated)
      rows += overlapRows(rowOf(t), fp.numRows, rowOf(seat[j]),
                          folds[j].numRows, ii);
  c.pressure = unsigned(rows);
  c.delay = t - estart;
  return c;
}

SeatCost Placement::costByRows(OpId op, int64_t t, int64_t estart) const {
  llvm::SmallVector<OpId, 8> leaving;
  collisions(op, t, leaving);
  brokenSuccessors(op, t, leaving);
  SeatCost c;
  c.evicted = leaving.size();
  const rrt::FoldedFootprint &fp = folds[op];
  for (unsigned k = 0; k < fp.numRows; ++k)
    c.pressure += occupants[rowOf(t + k)].size();
  c.delay = t - estart;
  return c;
}

std::optional<int64_t> Placement::cheapestSeatLinear(OpId op, int64_t lo,
                                                     int64_t hi, int64_t estart,
                                                     int64_t skip) const {
  return cheapestSeatEach(op, lo, hi, estart, skip, /*rows=*/true);
}

std::optional<int64_t> Placement::cheapestSeatEach(OpId op, int64_t lo,
                                                   int64_t hi, int64_t estart,
                                                   int64_t skip,
                                                   bool rows) const {
  std::optional<int64_t> best;
  SeatCost bestCost;
  for (int64_t t = lo; t <= hi; ++t) {
    if (t == skip && hi > lo)
      continue;
    SeatCost c = rows ? costByRows(op, t, estart) : cost(op, t, estart);
    if (!best || c < bestCost) {
      best = t;
      bestCost = c;
    }
  }
  return best;
}

bool Placement::seatEvents(OpId op, int64_t lo, int64_t hi, bool withPressure,
                           llvm::SmallVectorImpl<int64_t> &events) const {
  events.clear();
  if (lo > hi)
    return false;
  const int64_t iiWide = ii;
  // When the events could outnumber the seats, the caller scores seat by
  // seat: as exact, and it spares building the list.
  const uint64_t most = 1 + 2 * uint64_t(seatedBounds) * runBounds[op].size();
  if (!alwaysByRuns && most > uint64_t(hi - lo))
    return false;
  // A short footprint is probed seat by seat for the price of a few rows,
  // while the list costs a pass over every seated op (quadratic in a loop
  // of many short ops).
  if (!alwaysByRuns && !withPressure && folds[op].numRows <= kShortRows)
    return false;
  events.push_back(lo);
  // A window of at most II seats (every window the engine scans) meets each
  // row residue once; a wider one meets it once per II.
  auto addResidue = [&](int64_t r) {
    for (int64_t off = ((r - lo) % iiWide + iiWide) % iiWide; off <= hi - lo;
         off += iiWide)
      events.push_back(lo + off);
  };
  const unsigned opRows = folds[op].numRows;
  for (OpId j = 0; j < n; ++j) {
    if (seat[j] == kUnseated)
      continue;
    if (j != op && holds[op].anyCommon(holds[j])) {
      // A seated op that shares a resource: its runs meet the op's runs.
      for (unsigned tb : runBounds[j]) {
        int64_t tableBound = rowOf(seat[j] + tb);
        for (unsigned ob : runBounds[op]) {
          addResidue(tableBound - ob);
          addResidue(tableBound - ob + 1);
        }
      }
    } else if (withPressure) {
      // One that shares nothing only counts in the pressure, whose step
      // occ(t + numRows) - occ(t) changes where row t or row t + numRows
      // crosses the rows it spans.
      for (int64_t end : {rowOf(seat[j]), rowOf(seat[j] + folds[j].numRows)}) {
        addResidue(end);
        addResidue(end - int64_t(opRows));
      }
    }
  }
  llvm::sort(events);
  events.erase(std::unique(events.begin(), events.end()), events.end());
  return true;
}

// The event scan. Cut the op's folded rows into runs of equal content
// (runBounds) and the RRT's rows into runs where the seated ops that share a
// resource with the op hold the same content, so the same bits and the
// same usage of the op's pools; those runs start only where such an op's
// runs do, at (seat + bound) mod II (an op that shares nothing never
// collides). A seat t pairs each op run with the table runs it
// overlaps, and the colliders are a function of those pairs alone. The
// pairs change only where an op run's first row moves past a table run's
// end (t = tableBound - opBound) or its last row reaches a table run's
// first (t = tableBound - opBound + 1). The broken successors change only
// where t passes seat(succ) - weight, and the skipped seat is a segment of
// its own. Between two such events `evicted` is constant, the pressure moves
// by the same step each cycle (row t and row t + numRows each stay in one
// table run), and the delay rises by one: the cheapest seat of a segment is
// its first or its last, and scoring both ends of every segment (exactly,
// with cost()) in increasing t finds the seat scoring every t would.
std::optional<int64_t> Placement::cheapestSeat(OpId op, int64_t lo, int64_t hi,
                                               int64_t estart,
                                               int64_t skip) const {
  if (lo > hi)
    return std::nullopt;
  llvm::SmallVector<int64_t, 64> events;
  if (!seatEvents(op, lo, hi, /*withPressure=*/true, events)) {
    work += uint64_t(hi - lo + 1) * (1 + folds[op].numRows / 8);
    return cheapestSeatEach(op, lo, hi, estart, skip, byRows(op));
  }
  work += events.size() * (1 + seated);
  auto addSeat = [&](int64_t t) {
    if (t > lo && t <= hi)
      events.push_back(t);
  };
  for (unsigned e : succs[op]) {
    const Dependence &d = problem.getDependences()[e];
    if (d.dst != op && seat[d.dst] != kUnseated)
      addSeat(seat[d.dst] - weight(d) + 1);
  }
  const bool skipping = hi > lo;
  if (skipping && skip >= lo && skip <= hi) {
    addSeat(skip);
    if (skip < hi)
      addSeat(skip + 1);
  }
  llvm::sort(events);
  events.erase(std::unique(events.begin(), events.end()), events.end());

  std::optional<int64_t> best;
  SeatCost bestCost;
  auto score = [&](int64_t t) {
    if (skipping && t == skip)
      return;
    SeatCost c = cost(op, t, estart);
    if (!best || c < bestCost) {
      best = t;
      bestCost = c;
    }
  };
  for (size_t i = 0; i < events.size(); ++i) {
    int64_t first = events[i];
    int64_t last = i + 1 < events.size() ? events[i + 1] - 1 : hi;
    score(first);
    if (last != first)
      score(last);
  }
  return best;
}

void Placement::place(OpId op, int64_t t) {
  placeTrial(op, t);
  lastSeat[op] = t;
}

void Placement::placeTrial(OpId op, int64_t t) {
  work += 2 * uint64_t(folds[op].numRows);
  table.commit(folds[op], t);
  seat[op] = t;
  boundsStale = true;
  seatedBounds += runBounds[op].size();
  ++seated;
  const rrt::FoldedFootprint &fp = folds[op];
  for (unsigned k = 0; k < fp.numRows; ++k)
    occupants[rowOf(t + k)].push_back(op);
  updateClosed(op, t);
}

void Placement::updateClosed(OpId op, int64_t t) {
  const rrt::FoldedFootprint &fp = folds[op];
  const rrt::ResourceLayout &layout = problem.getLayout();
  for (unsigned k = 0; k < fp.numRows; ++k) {
    const unsigned row = rowOf(t + k);
    const uint64_t *want = fp.rowBits(k);
    for (unsigned w = 0; w < fp.numWords; ++w)
      for (uint64_t m = want[w]; m; m &= m - 1) {
        unsigned b = w * 64 + unsigned(llvm::countr_zero(m));
        closed[b][row] = table.testBit(row, b);
      }
    for (const rrt::PoolClaim &c : fp.rowClaims(k))
      if (layout.poolBinding[c.pool])
        closed[layout.numBits() + c.pool][row] =
            table.poolUsage(row, c.pool) >= layout.poolCaps[c.pool];
  }
}

void Placement::firstRowNeeds(OpId op,
                              llvm::SmallVectorImpl<unsigned> &needs) const {
  needs.clear();
  const rrt::FoldedFootprint &fp = folds[op];
  if (fp.empty())
    return;
  const rrt::ResourceLayout &layout = problem.getLayout();
  for (unsigned w = 0; w < fp.numWords; ++w)
    for (uint64_t m = fp.rowBits(0)[w]; m; m &= m - 1)
      needs.push_back(w * 64 + unsigned(llvm::countr_zero(m)));
  for (const rrt::PoolClaim &c : fp.rowClaims(0))
    if (layout.poolBinding[c.pool])
      needs.push_back(layout.numBits() + c.pool);
}

int64_t Placement::nextOpenSeat(llvm::ArrayRef<unsigned> needs, int64_t t,
                                int64_t hi) const {
  if (needs.empty() || t > hi)
    return t;
  for (int64_t at = t; at <= hi;) {
    const unsigned row = rowOf(at);
    bool moved = false;
    for (unsigned res : needs) {
      const llvm::BitVector &rows = closed[res];
      if (!rows.test(row))
        continue;
      int next = rows.find_next_unset(row);
      if (next < 0) {
        next = rows.find_first_unset();
        if (next < 0)
          return hi + 1; // Every row is taken.
        next += int(ii);
      }
      at += next - int64_t(row);
      moved = true;
      break;
    }
    if (!moved)
      return at;
  }
  return hi + 1;
}

void Placement::remove(OpId op) {
  const rrt::FoldedFootprint &fp = folds[op];
  work += 2 * uint64_t(fp.numRows);
  for (unsigned k = 0; k < fp.numRows; ++k) {
    auto &row = occupants[rowOf(seat[op] + k)];
    auto it = llvm::find(row, op);
    if (it != row.end()) {
      *it = row.back();
      row.pop_back();
    }
  }
  table.release(fp, seat[op]);
  updateClosed(op, seat[op]);
  seat[op] = kUnseated;
  boundsStale = true;
  seatedBounds -= runBounds[op].size();
  --seated;
}

std::string Placement::describeRow(unsigned row) const {
  const rrt::ResourceLayout &layout = problem.getLayout();
  std::string text;
  for (unsigned b = 0; b < layout.numBits(); ++b)
    if (table.testBit(row, b))
      text += (text.empty() ? "slot " : ", ") + layout.bitNames[b];
  for (unsigned p = 0; p < layout.numPools(); ++p)
    if (unsigned used = table.poolUsage(row, p))
      text += (text.empty() ? "pool " : "; pool ") + layout.poolNames[p] + " " +
              std::to_string(used) + "/" + std::to_string(layout.poolCaps[p]);
  if (text.empty())
    return "nothing";
  llvm::SmallVector<OpId, 4> holders(occupants[row].begin(),
                                     occupants[row].end());
  llvm::sort(holders);
  for (auto [i, op] : llvm::enumerate(holders)) {
    if (i == 4) {
      text += ", ...";
      break;
    }
    text += (i ? ", '" : "; held by '") + problem.getOp(op).name + "'";
  }
  return text;
}
