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

#include <algorithm>
#include <climits>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

namespace {

constexpr int64_t kNone = INT64_MIN;

/// Longest paths from `from` over weights latency - distance * II, forwards
/// or backwards; empty on a positive cycle.
std::vector<int64_t> longestFrom(const Problem &problem, int64_t ii,
                                 unsigned from, bool backwards) {
  const unsigned n = problem.getNumOps();
  std::vector<int64_t> dist(n, kNone);
  dist[from] = 0;
  for (unsigned pass = 0; pass <= n; ++pass) {
    bool changed = false;
    for (const Dependence &d : problem.getDependences()) {
      unsigned u = backwards ? d.dst : d.src, v = backwards ? d.src : d.dst;
      if (dist[u] == kNone)
        continue;
      int64_t value = dist[u] + d.latency - int64_t(d.distance) * ii;
      if (dist[v] == kNone || value > dist[v]) {
        dist[v] = value;
        changed = true;
      }
    }
    if (!changed)
      return dist;
  }
  return {};
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
  const unsigned p = *in.pinned;
  std::vector<int64_t> ahead = longestFrom(problem, ii, p, false);
  std::vector<int64_t> behind = longestFrom(problem, ii, p, true);
  if (ahead.empty() || behind.empty())
    return infeasibleResult("the dependences form a positive cycle at II " +
                            std::to_string(ii) +
                            " (interchangeable ops in id order included)");
  std::vector<int64_t> lo(n), hi(n);
  uint64_t literals = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (ahead[i] == kNone || behind[i] == kNone)
      return std::nullopt; // Not on a recurrence with the pinned op.
    lo[i] = ahead[i];
    hi[i] = -behind[i];
    if (hi[i] < lo[i])
      return infeasibleResult("'" + problem.getOp(i).name +
                              "' has no start between the recurrences "
                              "through it at II " +
                              std::to_string(ii));
    literals += uint64_t(hi[i] - lo[i]) + 1;
    if (literals > kMaxWindowLiterals)
      return std::nullopt;
  }

  Deadline deadline(opts.timeoutMs);
  auto outOfTime = [&] {
    return unknownResult("timeout after " + std::to_string(opts.timeoutMs) +
                         " ms at II " + std::to_string(ii) +
                         " while building the CNF");
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
    if (deadline.terminate())
      return outOfTime();
    const int64_t w = d.latency - int64_t(d.distance) * ii;
    for (int64_t v = lo[d.src]; v <= hi[d.src]; ++v)
      cnf.add({-ge(d.src, v), ge(d.dst, v + w)});
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
    std::vector<std::vector<std::pair<int, uint64_t>>> rows(ii);
    llvm::DenseMap<std::pair<unsigned, int64_t>, int> either;
    for (const Claim &cl : list)
      for (int64_t v = lo[cl.op]; v <= hi[cl.op]; ++v) {
        int64_t q = mod(v + cl.row);
        int lit = at[cl.op][v - lo[cl.op]];
        if (hi[cl.op] - lo[cl.op] + 1 > ii) {
          auto [it, fresh] = either.try_emplace(std::make_pair(cl.op, q), 0);
          if (fresh) {
            it->second = cnf.fresh();
            rows[q].push_back({it->second, cl.amount});
          }
          cnf.add({-lit, it->second});
          continue;
        }
        rows[q].push_back({lit, cl.amount});
      }
    for (int64_t q = 0; q < ii; ++q) {
      if (deadline.terminate())
        return outOfTime();
      cnf.atMost(rows[q], cap);
    }
  }

  int status = cnf.solve(deadline);
  if (status == 20)
    return infeasibleResult("no schedule at II " + std::to_string(ii) +
                            " (proved by CaDiCaL over start windows)");
  if (status != 10)
    return unknownResult("timeout after " + std::to_string(opts.timeoutMs) +
                         " ms at II " + std::to_string(ii) +
                         " (CaDiCaL over start windows, " +
                         std::to_string(cnf.numVars) + " variables, " +
                         std::to_string(cnf.numClauses) + " clauses)");
  Schedule witness;
  witness.ii = unsigned(ii);
  witness.start.resize(n);
  int64_t least = INT64_MAX;
  for (unsigned i = 0; i < n; ++i) {
    int64_t t = lo[i];
    for (int64_t v = lo[i] + 1; v <= hi[i]; ++v) {
      int lit = ge(i, v);
      t += lit == T || (lit != -T && cnf.solver.val(lit) > 0);
    }
    witness.start[i] = t;
    least = std::min(least, t);
  }
  // Whole stages up, so the earliest start lies in [0, II).
  int64_t shift =
      least >= 0 ? -(least / ii) * ii : ((-least + ii - 1) / ii) * ii;
  for (int64_t &t : witness.start)
    t += shift;
  return acceptWitness(problem, std::move(witness));
}
