//===- SatCheck.cpp - the exact model as CNF, decided by CaDiCaL ----------===//
//
// The same model as the Z3 one (docs/exact-check.md), in clauses. A start is
// II * k + r; r in [0, II) and k in a window [lb, ub] are order-encoded
// ([r >= q], [k >= v]), so a dependence's difference constraint
// k_dst - k_src >= c (+1 when r_src - r_dst >= 1 - b, +1 more when
// r_src - r_dst >= II + 1 - b) is one clause per stage value. The windows
// come from longest paths: lb with the lower weights floor(lat / II) - dist
// (no schedule has a smaller stage), ub with the upper weights
// ceil((II - 1 + lat) / II) - dist (the least stage vector of any schedule,
// with its rows kept, lies below it; the horizon argument of the docs), cut
// to max_depth and the global horizon K.
//
//===----------------------------------------------------------------------===//

#include "scheduler/exact/SatCheck.h"
#include "scheduler/exact/Cnf.h"
#include "scheduler/exact/SatWindows.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <climits>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

namespace {

/// Longest paths from a source joined to every op with weight 0, over the
/// dependences weighted by `weight` and the groups' equalities; nullopt on a
/// positive cycle.
template <typename WeightFn>
std::optional<std::vector<int64_t>> longestPaths(const Problem &problem,
                                                 WeightFn weight) {
  const unsigned n = problem.getNumOps();
  std::vector<std::tuple<unsigned, unsigned, int64_t>> edges;
  for (const Dependence &d : problem.getDependences())
    edges.push_back({d.src, d.dst, weight(d)});
  const ConstraintGroups &groups = problem.getGroups();
  for (int32_t root : groups.roots()) {
    llvm::ArrayRef<OpId> members = groups.members(root);
    for (OpId m : members.drop_front()) {
      edges.push_back({members.front(), m, 0});
      edges.push_back({m, members.front(), 0});
    }
  }
  std::vector<int64_t> dist(n, 0);
  for (unsigned pass = 0; pass <= n; ++pass) {
    bool changed = false;
    for (auto [u, v, w] : edges)
      if (dist[u] + w > dist[v]) {
        dist[v] = dist[u] + w;
        changed = true;
      }
    if (!changed)
      return dist;
  }
  return std::nullopt;
}

/// Literals per op past which the model is not built.
constexpr uint64_t kMaxStageLiterals = uint64_t(1) << 22;

/// The CNF of the row/stage model: a start is II * k + r, both
/// order-encoded. The steps (run()): stage windows, the order ladders, the
/// pinned row, dependences, groups, one-hot rows, every row of every
/// resource, solve.
class StageRowEncoder {
public:
  StageRowEncoder(const Problem &problem, const ModelInput &in,
                  const ExactOptions &opts)
      : problem(problem), in(in), opts(opts), n(problem.getNumOps()), ii(in.ii),
        deadline(opts.work, opts.timeoutMs) {}

  ExactResult run();

private:
  std::optional<ExactResult> stageWindows();
  void orderStagesAndRows();
  bool encodeDependences();
  void tieGroups();
  void encodeOneHotRows();
  bool encodeResource(unsigned res);
  ExactResult solve();
  Schedule decodeWitness();
  ExactResult outOfTime();

  /// [k_i >= v] and [r_i >= q], constants outside the windows.
  int geK(unsigned i, int64_t v) const {
    if (v <= lo[i])
      return T;
    if (v > hi[i])
      return -T;
    return stageBase[i] + int(v - lo[i] - 1);
  }
  int geR(unsigned i, int64_t q) const {
    if (q <= 0)
      return T;
    if (q >= ii)
      return -T;
    return rowBase[i] + int(q - 1);
  }
  int guard(unsigned src, unsigned dst, int64_t d);
  void atLeast(int g, unsigned src, unsigned dst, int64_t delta);

  static constexpr int T = Cnf::kTrue;
  const Problem &problem;
  const ModelInput &in;
  const ExactOptions &opts;
  const unsigned n;
  const int64_t ii;
  /// The limit covers building the clauses too: at tile-loop IIs (hundreds
  /// of rows) that alone can take seconds.
  Deadline deadline;
  /// Each op's stage window.
  std::vector<int64_t> lo, hi;
  Cnf cnf;
  std::vector<int> stageBase, rowBase;
  /// "Starts in row q" per op (ops that hold something).
  std::vector<std::vector<int>> onRow;
};

ExactResult StageRowEncoder::run() {
  if (std::optional<ExactResult> none = stageWindows())
    return *none;
  orderStagesAndRows();
  if (in.pinned && ii > 1)
    cnf.add({-geR(*in.pinned, 1)});
  if (!encodeDependences())
    return outOfTime();
  tieGroups();
  encodeOneHotRows();
  for (unsigned res = 0; res < in.claims.size(); ++res)
    if (!encodeResource(res))
      return outOfTime();
  return solve();
}

ExactResult StageRowEncoder::outOfTime() {
  ExactResult r = unknownResult(limitReason(
      deadline.timedOut, opts, unsigned(in.ii), "while building the CNF"));
  r.spent = deadline.spentUnits();
  return r;
}

/// The stage windows [lo, hi] (file comment); a result when one is empty,
/// there is no horizon, or the windows are too wide to model.
std::optional<ExactResult> StageRowEncoder::stageWindows() {
  std::optional<std::vector<int64_t>> lb =
      longestPaths(problem, [&](const Dependence &d) {
        return int64_t(floorDiv(d.latency, ii)) - int64_t(d.distance);
      });
  if (!lb)
    return infeasibleResult("a dependence cycle needs more stages than it "
                            "has iterations at II " +
                            std::to_string(ii));
  std::optional<std::vector<int64_t>> ub =
      longestPaths(problem, [&](const Dependence &d) {
        return int64_t(floorDiv(__int128(d.latency) + 2 * ii - 2, ii)) -
               int64_t(d.distance);
      });
  if (!ub && !in.horizon)
    return unknownResult("no stage horizon at II " + std::to_string(ii));
  lo = *lb;
  hi.assign(n, 0);
  uint64_t stageLiterals = 0;
  for (unsigned i = 0; i < n; ++i) {
    hi[i] = ub ? (*ub)[i] : *in.horizon;
    if (in.horizon)
      hi[i] = std::min(hi[i], *in.horizon);
    if (std::optional<unsigned> d = problem.getOp(i).constraints.maxDepth)
      hi[i] = std::min<int64_t>(hi[i], *d);
    if (hi[i] < lo[i])
      return infeasibleResult("'" + problem.getOp(i).name + "' needs stage " +
                              std::to_string(lo[i]) +
                              ", more than it may take at II " +
                              std::to_string(ii));
    stageLiterals += uint64_t(hi[i] - lo[i]);
  }
  if (stageLiterals > kMaxStageLiterals)
    return unknownResult("model too large: " + std::to_string(stageLiterals) +
                         " stage literals at II " + std::to_string(ii));
  return std::nullopt;
}

/// The order encodings: [k_i >= v + 1] implies [k_i >= v], the same for r.
void StageRowEncoder::orderStagesAndRows() {
  stageBase.resize(n);
  rowBase.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    stageBase[i] = cnf.numVars + 1;
    cnf.numVars += int(hi[i] - lo[i]);
    rowBase[i] = cnf.numVars + 1;
    cnf.numVars += int(ii - 1);
  }
  for (unsigned i = 0; i < n; ++i) {
    for (int64_t v = lo[i] + 1; v < hi[i]; ++v)
      cnf.add({-geK(i, v + 1), geK(i, v)});
    for (int64_t q = 1; q + 1 < ii; ++q)
      cnf.add({-geR(i, q + 1), geR(i, q)});
  }
}

/// g <= (r_src - r_dst >= d): with u = r_dst, r_src >= u + d forces g.
int StageRowEncoder::guard(unsigned src, unsigned dst, int64_t d) {
  if (d <= 1 - ii)
    return T;
  int g = cnf.fresh();
  for (int64_t u = 0; u < ii; ++u)
    if (u + d < ii)
      cnf.add({-geR(src, u + d), geR(dst, u + 1), g});
  return g;
}

/// Under `g`: k_dst - k_src >= delta, one clause per stage of src.
void StageRowEncoder::atLeast(int g, unsigned src, unsigned dst,
                              int64_t delta) {
  for (int64_t v = lo[src]; v <= hi[src]; ++v)
    cnf.add({-g, -geK(src, v), geK(dst, v + delta)});
}

/// Dependences: k_dst - k_src >= c, +1 under g1, +2 under g2. False when
/// the deadline passes.
bool StageRowEncoder::encodeDependences() {
  for (const Dependence &d : problem.getDependences()) {
    if (deadline.building(cnf.numClauses))
      return false;
    const int64_t a = int64_t(floorDiv(d.latency, ii));
    const int64_t b = d.latency - a * ii;
    const int64_t c = a - int64_t(d.distance);
    atLeast(T, d.src, d.dst, c);
    if (1 - b <= ii - 1)
      atLeast(guard(d.src, d.dst, 1 - b), d.src, d.dst, c + 1);
    if (ii + 1 - b <= ii - 1)
      atLeast(guard(d.src, d.dst, ii + 1 - b), d.src, d.dst, c + 2);
  }
  return true;
}

/// A group's members share their leader's stage.
void StageRowEncoder::tieGroups() {
  const ConstraintGroups &groups = problem.getGroups();
  for (int32_t root : groups.roots()) {
    llvm::ArrayRef<OpId> members = groups.members(root);
    for (OpId m : members.drop_front()) {
      OpId l = members.front();
      for (int64_t v = std::min(lo[m], lo[l]); v <= std::max(hi[m], hi[l]) + 1;
           ++v) {
        cnf.add({-geK(m, v), geK(l, v)});
        cnf.add({-geK(l, v), geK(m, v)});
      }
    }
  }
}

/// One-hot rows of the ops that hold something.
void StageRowEncoder::encodeOneHotRows() {
  onRow.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    if (in.folded[i].empty())
      continue;
    onRow[i].resize(ii);
    for (int64_t q = 0; q < ii; ++q) {
      int y = cnf.fresh();
      cnf.add({-y, geR(i, q)});
      cnf.add({-y, -geR(i, q + 1)});
      cnf.add({-geR(i, q), geR(i, q + 1), y});
      onRow[i][q] = y;
    }
  }
}

/// Every row of resource `res` within its capacity; false when the deadline
/// passes.
bool StageRowEncoder::encodeResource(unsigned res) {
  const std::vector<Claim> &list = in.claims[res];
  const uint64_t cap = in.capacity(problem.getLayout(), res);
  if (!in.contended[res])
    return true;
  // Saturated (the claims fill every row): each row holds exactly `cap`
  // (SatWindows.cpp).
  uint64_t demand = 0;
  for (const Claim &cl : list)
    demand += cl.amount;
  const bool saturated = demand == cap * uint64_t(ii);
  for (int64_t q = 0; q < ii; ++q) {
    if (deadline.building(cnf.numClauses))
      return false;
    llvm::DenseMap<int, uint64_t> weight;
    std::vector<int> order;
    for (const Claim &cl : list) {
      int lit = onRow[cl.op][(q + ii - cl.row) % ii];
      auto [it, fresh] = weight.try_emplace(lit, 0);
      if (fresh)
        order.push_back(lit);
      it->second += cl.amount;
    }
    std::vector<std::pair<int, uint64_t>> items;
    for (int lit : order)
      items.push_back({lit, weight[lit]});
    cnf.atMost(items, cap);
    if (saturated)
      cnf.atLeast(items, cap);
  }
  return true;
}

ExactResult StageRowEncoder::solve() {
  int status = cnf.solve(deadline);
  if (status == 20)
    return infeasibleResult("no schedule at II " + std::to_string(ii) +
                            " (proved by CaDiCaL)");
  if (status != 10)
    return unknownResult(limitReason(
        deadline.timedOut, opts, unsigned(ii),
        "(CaDiCaL, " + std::to_string(cnf.numVars) + " variables, " +
            std::to_string(cnf.numClauses) + " clauses)"));
  return acceptWitness(problem, decodeWitness());
}

/// Each op's start II * k + r in the solver's model.
Schedule StageRowEncoder::decodeWitness() {
  Schedule witness;
  witness.ii = unsigned(ii);
  witness.start.resize(n);
  auto holds = [&](int lit) {
    return lit == T || (lit != -T && cnf.solver.val(lit) > 0);
  };
  for (unsigned i = 0; i < n; ++i) {
    int64_t k = lo[i], r = 0;
    for (int64_t v = lo[i] + 1; v <= hi[i]; ++v)
      k += holds(geK(i, v));
    for (int64_t q = 1; q < ii; ++q)
      r += holds(geR(i, q));
    witness.start[i] = k * ii + r;
  }
  return witness;
}

} // namespace

ExactResult exact::solveSat(const Problem &problem, const ModelInput &in,
                            const ExactOptions &opts) {
  if (problem.isForceSerial())
    return unknownResult("force-serial problems are left to Z3");
  // Absolute windows where every op shares a recurrence with the pinned op:
  // no row/stage split, far stronger propagation (SatWindows.cpp).
  if (std::optional<ExactResult> r = solveSatWindows(problem, in, opts))
    return *r;
  return StageRowEncoder(problem, in, opts).run();
}
