//===- SatWindows.cpp - the exact model over absolute start windows -------===//
//
// When one op's start may be fixed (ModelInput::pinned: shifting every start
// by a cycle keeps a schedule valid) and every other op lies on a recurrence
// with it, each start has a finite window relative to the pinned op: from the
// longest path pinned -> op up to minus the longest path op -> pinned. Then
// the start itself is order-encoded over its window, a dependence is one
// implication per value, and an RRT row sums the "starts exactly at v"
// literals whose v lands the claim on that row. No row/stage split and no
// guards: on the HLS loops whose memory ports bind (aes2/graph4) this decides
// IIs the stage model leaves open (docs/exact-check.md).
//
//===----------------------------------------------------------------------===//

#include "scheduler/exact/SatWindows.h"
#include "scheduler/exact/Cnf.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <map>
#include <tuple>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

namespace {

constexpr int64_t kNone = INT64_MIN;

/// Longest paths from `from` over `inside`, the dependences of its
/// recurrence (a path that leaves a strongly connected component never
/// returns to it), with weights latency - distance * II, forwards or
/// backwards, into `dist` (indexed by op; only the recurrence's ops are
/// written). False on a positive cycle.
bool longestInside(llvm::ArrayRef<const Dependence *> inside, size_t size,
                   int64_t ii, unsigned from, bool backwards,
                   llvm::ArrayRef<unsigned> members,
                   std::vector<int64_t> &dist) {
  for (unsigned i : members)
    dist[i] = kNone;
  dist[from] = 0;
  for (size_t pass = 0; pass <= size; ++pass) {
    bool changed = false;
    for (const Dependence *d : inside) {
      unsigned u = backwards ? d->dst : d->src, v = backwards ? d->src : d->dst;
      if (dist[u] == kNone)
        continue;
      int64_t value = dist[u] + d->latency - int64_t(d->distance) * ii;
      if (dist[v] == kNone || value > dist[v]) {
        dist[v] = value;
        changed = true;
      }
    }
    if (!changed)
      return true;
  }
  return false;
}

/// Start literals past which the model is not built.
constexpr uint64_t kMaxWindowLiterals = uint64_t(1) << 21;

} // namespace

std::optional<ExactResult> exact::solveSatWindows(const Problem &problem,
                                                  const ModelInput &in,
                                                  const ExactOptions &opts) {
  if (!in.pinned || problem.isForceSerial())
    return std::nullopt;
  const unsigned n = problem.getNumOps();
  const int64_t ii = in.ii;
  for (const Dependence &d : problem.getDependences())
    if (d.src == d.dst && d.latency - int64_t(d.distance) * ii > 0)
      return infeasibleResult("'" + problem.getOp(d.src).name +
                              "' depends on itself with more than II " +
                              std::to_string(ii) + " cycles");
  // Recurrences: each may move by whole stages (the rows stay) without
  // breaking a schedule once the dependences between recurrences are
  // dropped, and the model keeps its answer when they are (Projection.cpp):
  // each recurrence's first op starts in [0, II), the pinned op's recurrence
  // at 0.
  std::vector<unsigned> comp;
  const unsigned numComps = recurrences(problem, comp);
  std::vector<std::vector<unsigned>> members(numComps);
  for (unsigned i = 0; i < n; ++i)
    members[comp[i]].push_back(i);
  std::vector<std::vector<const Dependence *>> insideOf(numComps);
  for (const Dependence &d : problem.getDependences())
    if (comp[d.src] == comp[d.dst])
      insideOf[comp[d.src]].push_back(&d);
  std::vector<int64_t> ahead(n, kNone), behind(n, kNone);
  std::vector<int64_t> lo(n), hi(n);
  uint64_t literals = 0;
  for (unsigned c = 0; c < numComps; ++c) {
    const std::vector<unsigned> &inside = members[c];
    const bool pinnedHere = comp[*in.pinned] == c;
    const unsigned anchor = pinnedHere ? *in.pinned : inside.front();
    const bool holds =
        llvm::any_of(inside, [&](unsigned i) { return !in.folded[i].empty(); });
    const int64_t anchorHi = pinnedHere || !holds ? 0 : ii - 1;
    if (inside.size() == 1) {
      lo[anchor] = 0;
      hi[anchor] = anchorHi;
    } else {
      if (!longestInside(insideOf[c], inside.size(), ii, anchor, false, inside,
                         ahead) ||
          !longestInside(insideOf[c], inside.size(), ii, anchor, true, inside,
                         behind))
        return infeasibleResult("the dependences form a positive cycle at II " +
                                std::to_string(ii) +
                                " (interchangeable ops in id order included)");
      for (unsigned i : inside) {
        lo[i] = ahead[i];
        hi[i] = anchorHi - behind[i];
        if (hi[i] < lo[i])
          return infeasibleResult("'" + problem.getOp(i).name +
                                  "' has no start between the recurrences "
                                  "through it at II " +
                                  std::to_string(ii));
      }
    }
    for (unsigned i : inside) {
      literals += uint64_t(hi[i] - lo[i]) + 1;
      if (literals > kMaxWindowLiterals)
        return std::nullopt;
    }
  }

  Deadline deadline(opts.work, opts.timeoutMs);
  auto outOfTime = [&] {
    ExactResult r = unknownResult(limitReason(
        deadline.timedOut, opts, unsigned(ii), "while building the CNF"));
    r.spent = deadline.spentUnits();
    return r;
  };
  Cnf cnf;
  const int T = Cnf::kTrue;
  // [t_i >= v], constants outside the window.
  std::vector<int> base(n);
  for (unsigned i = 0; i < n; ++i) {
    base[i] = cnf.numVars + 1;
    cnf.numVars += int(hi[i] - lo[i]);
  }
  auto ge = [&](unsigned i, int64_t v) {
    if (v <= lo[i])
      return T;
    if (v > hi[i])
      return -T;
    return base[i] + int(v - lo[i] - 1);
  };
  for (unsigned i = 0; i < n; ++i)
    for (int64_t v = lo[i] + 1; v < hi[i]; ++v)
      cnf.add({-ge(i, v + 1), ge(i, v)});
  for (const Dependence &d : problem.getDependences()) {
    if (deadline.building(cnf.numClauses))
      return outOfTime();
    if (comp[d.src] != comp[d.dst])
      continue;
    const int64_t w = d.latency - int64_t(d.distance) * ii;
    for (int64_t v = lo[d.src]; v <= hi[d.src]; ++v)
      cnf.add({-ge(d.src, v), ge(d.dst, v + w)});
  }
  // Ops on no recurrence with the same claims are interchangeable: swapping
  // two keeps every row's load, and nothing else constrains them. So some
  // schedule has each such class in id order, strictly when they claim a
  // slot (two at one start would collide). The pinned op is the least id
  // that holds something, so it comes first in its class; the normalisation
  // argument is in docs/exact-check.md.
  {
    std::vector<std::vector<std::tuple<unsigned, unsigned, uint64_t>>> sig(n);
    for (unsigned res = 0; res < in.claims.size(); ++res)
      for (const Claim &cl : in.claims[res])
        sig[cl.op].push_back({res, cl.row, cl.amount});
    std::map<std::vector<std::tuple<unsigned, unsigned, uint64_t>>, unsigned>
        last;
    for (unsigned i = 0; i < n; ++i) {
      if (members[comp[i]].size() != 1 || sig[i].empty())
        continue;
      llvm::sort(sig[i]);
      auto [it, first] = last.try_emplace(sig[i], i);
      if (first)
        continue;
      const unsigned prev = it->second;
      it->second = i;
      const int64_t gap = std::get<0>(sig[i].front()) < in.numBits ? 1 : 0;
      for (int64_t v = lo[prev]; v <= hi[prev]; ++v)
        cnf.add({-ge(prev, v), ge(i, v + gap)});
    }
  }
  // "Starts exactly at v", for the ops that hold something.
  std::vector<std::vector<int>> at(n);
  for (unsigned i = 0; i < n; ++i) {
    if (in.folded[i].empty())
      continue;
    at[i].resize(hi[i] - lo[i] + 1);
    for (int64_t v = lo[i]; v <= hi[i]; ++v) {
      int a = ge(i, v), b = ge(i, v + 1);
      if (b == -T) {
        at[i][v - lo[i]] = a;
        continue;
      }
      int y = cnf.fresh();
      cnf.add({-y, a});
      cnf.add({-y, -b});
      cnf.add({-a, b, y});
      at[i][v - lo[i]] = y;
    }
  }
  // Row q of resource res: op i claims it when (start + claim row) mod II is
  // q. A window wider than II lands several starts on one row; one literal
  // per (op, row) stands for them (implied by each, so it never forbids a
  // start it does not cover).
  auto mod = [&](int64_t x) { return ((x % ii) + ii) % ii; };
  for (unsigned res = 0; res < in.claims.size(); ++res) {
    const std::vector<Claim> &list = in.claims[res];
    const uint64_t cap = in.capacity(problem.getLayout(), res);
    if (!in.contended[res])
      continue;
    // Saturated: the claims fill every row to capacity, so each row holds
    // exactly `cap` (a row below it would push another above). Said to the
    // solver, a row that loses its last candidates fails at once instead of
    // after the pigeonhole search on the others (a 141-op projection whose
    // memory port is full at II 41: CaDiCaL ran out of its 500 ms without
    // it). The row literals then have to mean "lands on q", both ways.
    uint64_t demand = 0;
    for (const Claim &cl : list)
      demand += cl.amount;
    const bool saturated = demand == cap * uint64_t(ii);
    std::vector<std::vector<std::pair<int, uint64_t>>> rows(ii);
    llvm::DenseMap<std::pair<unsigned, int64_t>, std::vector<int>> either;
    for (const Claim &cl : list)
      for (int64_t v = lo[cl.op]; v <= hi[cl.op]; ++v) {
        int64_t q = mod(v + cl.row);
        int lit = at[cl.op][v - lo[cl.op]];
        if (hi[cl.op] - lo[cl.op] + 1 > ii) {
          auto [it, fresh] = either.try_emplace(std::make_pair(cl.op, q));
          if (fresh) {
            it->second.push_back(cnf.fresh());
            rows[q].push_back({it->second.front(), cl.amount});
          }
          cnf.add({-lit, it->second.front()});
          it->second.push_back(lit);
          continue;
        }
        rows[q].push_back({lit, cl.amount});
      }
    if (saturated)
      for (auto &[key, lits] : either) {
        std::vector<int> clause = {-lits.front()};
        clause.insert(clause.end(), lits.begin() + 1, lits.end());
        cnf.addClause(clause);
      }
    for (int64_t q = 0; q < ii; ++q) {
      if (deadline.building(cnf.numClauses))
        return outOfTime();
      cnf.atMost(rows[q], cap);
      if (saturated)
        cnf.atLeast(rows[q], cap);
    }
  }

  int status = cnf.solve(deadline);
  if (status == 20)
    return infeasibleResult("no schedule at II " + std::to_string(ii) +
                            " (proved by CaDiCaL over start windows)");
  if (status != 10)
    return unknownResult(limitReason(
        deadline.timedOut, opts, unsigned(ii),
        "(CaDiCaL over start windows, " + std::to_string(cnf.numVars) + " variables, " +
            std::to_string(cnf.numClauses) + " clauses)"));
  std::vector<int64_t> row(n);
  for (unsigned i = 0; i < n; ++i) {
    int64_t t = lo[i];
    for (int64_t v = lo[i] + 1; v <= hi[i]; ++v) {
      int lit = ge(i, v);
      t += lit == T || (lit != -T && cnf.solver.val(lit) > 0);
    }
    row[i] = ((t % ii) + ii) % ii;
  }
  // The recurrences back into order by whole stages: the least starts with
  // these rows.
  std::optional<Schedule> witness = settleOnRows(problem, unsigned(ii), row);
  if (!witness)
    return unknownResult("internal: the start windows' rows at II " +
                         std::to_string(ii) + " did not settle");
  return acceptWitness(problem, std::move(*witness));
}
