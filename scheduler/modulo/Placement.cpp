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
      lastSeat(n, kUnseated), preds(n), succs(n), occupants(ii) {
  for (auto [idx, d] : llvm::enumerate(problem.getDependences())) {
    preds[d.dst].push_back(idx);
    succs[d.src].push_back(idx);
  }
}

bool Placement::fold(OpId &selfColliding) {
  folds.reserve(n);
  for (OpId op = 0; op < n; ++op) {
    folds.push_back(problem.getFootprints()[op].fold(problem.getLayout(), ii));
    if (folds.back().selfConflict) {
      selfColliding = op;
      return false;
    }
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

SeatCost Placement::cost(OpId op, int64_t t, int64_t estart) const {
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

void Placement::place(OpId op, int64_t t) {
  placeTrial(op, t);
  lastSeat[op] = t;
}

void Placement::placeTrial(OpId op, int64_t t) {
  table.commit(folds[op], t);
  seat[op] = t;
  ++seated;
  const rrt::FoldedFootprint &fp = folds[op];
  for (unsigned k = 0; k < fp.numRows; ++k)
    occupants[rowOf(t + k)].push_back(op);
}

void Placement::remove(OpId op) {
  const rrt::FoldedFootprint &fp = folds[op];
  for (unsigned k = 0; k < fp.numRows; ++k) {
    auto &row = occupants[rowOf(seat[op] + k)];
    auto it = llvm::find(row, op);
    if (it != row.end()) {
      *it = row.back();
      row.pop_back();
    }
  }
  table.release(fp, seat[op]);
  seat[op] = kUnseated;
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
