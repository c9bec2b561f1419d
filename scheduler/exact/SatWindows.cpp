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

/// A claim's signature: (resource, row, amount) of each claim, sorted.
using ClaimSignature = std::vector<std::tuple<unsigned, unsigned, uint64_t>>;

/// Each op's start window [lo, hi] relative to its recurrence's anchor.
struct StartWindows {
  /// The recurrence of each op, the ops of each, and the dependences
  /// inside each.
  std::vector<unsigned> comp;
  std::vector<std::vector<unsigned>> members;
  std::vector<std::vector<const Dependence *>> insideOf;
  std::vector<int64_t> lo, hi;
  /// The windows hold more than kMaxWindowLiterals starts: no model.
  bool tooLarge = false;
};

/// An op that depends on itself by more than II cycles: no II this small.
std::optional<ExactResult> selfLoopTooLong(const Problem &problem, int64_t ii) {
  for (const Dependence &d : problem.getDependences())
    if (d.src == d.dst && d.latency - int64_t(d.distance) * ii > 0)
      return infeasibleResult("'" + problem.getOp(d.src).name +
                              "' depends on itself with more than II " +
                              std::to_string(ii) + " cycles");
  return std::nullopt;
}

/// The recurrences of `problem` and the dependences inside each, into `w`.
void groupRecurrences(const Problem &problem, StartWindows &w) {
  const unsigned numComps = recurrences(problem, w.comp);
  w.members.assign(numComps, {});
  for (unsigned i = 0; i < problem.getNumOps(); ++i)
    w.members[w.comp[i]].push_back(i);
  w.insideOf.assign(numComps, {});
  for (const Dependence &d : problem.getDependences())
    if (w.comp[d.src] == w.comp[d.dst])
      w.insideOf[w.comp[d.src]].push_back(&d);
}

/// The windows of recurrence `c`: from the longest path anchor -> op up to
/// the anchor's last start minus the longest path op -> anchor. An
/// infeasible result when a window is empty or the dependences form a
/// positive cycle.
std::optional<ExactResult> windowRecurrence(const Problem &problem,
                                            const ModelInput &in, unsigned c,
                                            std::vector<int64_t> &ahead,
                                            std::vector<int64_t> &behind,
                                            StartWindows &w) {
  const int64_t ii = in.ii;
  const std::vector<unsigned> &inside = w.members[c];
  const bool pinnedHere = w.comp[*in.pinned] == c;
  const unsigned anchor = pinnedHere ? *in.pinned : inside.front();
  const bool holds =
      llvm::any_of(inside, [&](unsigned i) { return !in.folded[i].empty(); });
  const int64_t anchorHi = pinnedHere || !holds ? 0 : ii - 1;
  if (inside.size() == 1) {
    w.lo[anchor] = 0;
    w.hi[anchor] = anchorHi;
    return std::nullopt;
  }
  if (!longestInside(w.insideOf[c], inside.size(), ii, anchor, false, inside,
                     ahead) ||
      !longestInside(w.insideOf[c], inside.size(), ii, anchor, true, inside,
                     behind))
    return infeasibleResult("the dependences form a positive cycle at II " +
                            std::to_string(ii) +
                            " (interchangeable ops in id order included)");
  for (unsigned i : inside) {
    w.lo[i] = ahead[i];
    w.hi[i] = anchorHi - behind[i];
    if (w.hi[i] < w.lo[i])
      return infeasibleResult("'" + problem.getOp(i).name +
                              "' has no start between the recurrences "
                              "through it at II " +
                              std::to_string(ii));
  }
  return std::nullopt;
}

/// Recurrences: each may move by whole stages (the rows stay) without
/// breaking a schedule once the dependences between recurrences are
/// dropped, and the model keeps its answer when they are (Projection.cpp):
/// each recurrence's first op starts in [0, II), the pinned op's recurrence
/// at 0. An infeasible result when some window is empty; `w.tooLarge` when
/// the windows are too wide to model.
std::optional<ExactResult>
computeWindows(const Problem &problem, const ModelInput &in, StartWindows &w) {
  const unsigned n = problem.getNumOps();
  groupRecurrences(problem, w);
  std::vector<int64_t> ahead(n, kNone), behind(n, kNone);
  w.lo.assign(n, 0);
  w.hi.assign(n, 0);
  uint64_t literals = 0;
  for (unsigned c = 0; c < w.members.size(); ++c) {
    if (std::optional<ExactResult> none =
            windowRecurrence(problem, in, c, ahead, behind, w))
      return none;
    for (unsigned i : w.members[c]) {
      literals += uint64_t(w.hi[i] - w.lo[i]) + 1;
      if (literals > kMaxWindowLiterals) {
        w.tooLarge = true;
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

/// The CNF over the start windows: each start order-encoded over its
/// window, one implication per value for each dependence, and an RRT row
/// summing the "starts exactly at v" literals that land a claim on it.
class WindowEncoder {
public:
  WindowEncoder(const Problem &problem, const ModelInput &in,
                const ExactOptions &opts, const StartWindows &w)
      : problem(problem), in(in), opts(opts), w(w), n(problem.getNumOps()),
        ii(in.ii), deadline(opts.work, opts.timeoutMs), base(n), at(n) {}

  ExactResult run();

private:
  void orderStarts();
  bool encodeDependences();
  void orderInterchangeable();
  void encodeStartsAt();
  bool encodeResource(unsigned res);
  ExactResult solve();
  std::vector<int64_t> decodeRows();
  ExactResult outOfTime();

  /// [t_i >= v], constants outside the window.
  int ge(unsigned i, int64_t v) const {
    if (v <= w.lo[i])
      return T;
    if (v > w.hi[i])
      return -T;
    return base[i] + int(v - w.lo[i] - 1);
  }

  static constexpr int T = Cnf::kTrue;
  const Problem &problem;
  const ModelInput &in;
  const ExactOptions &opts;
  const StartWindows &w;
  const unsigned n;
  const int64_t ii;
  Deadline deadline;
  Cnf cnf;
  /// The first variable of each op's [t_i >= v] ladder.
  std::vector<int> base;
  /// "Starts exactly at v" per op and value (ops that hold something).
  std::vector<std::vector<int>> at;
};

ExactResult WindowEncoder::run() {
  orderStarts();
  if (!encodeDependences())
    return outOfTime();
  orderInterchangeable();
  encodeStartsAt();
  for (unsigned res = 0; res < in.claims.size(); ++res)
    if (!encodeResource(res))
      return outOfTime();
  return solve();
}

ExactResult WindowEncoder::outOfTime() {
  ExactResult r = unknownResult(limitReason(
      deadline.timedOut, opts, unsigned(ii), "while building the CNF"));
  r.spent = deadline.spentUnits();
  return r;
}

/// The order encoding: [t_i >= v + 1] implies [t_i >= v].
void WindowEncoder::orderStarts() {
  for (unsigned i = 0; i < n; ++i) {
    base[i] = cnf.numVars + 1;
    cnf.numVars += int(w.hi[i] - w.lo[i]);
  }
  for (unsigned i = 0; i < n; ++i)
    for (int64_t v = w.lo[i] + 1; v < w.hi[i]; ++v)
      cnf.add({-ge(i, v + 1), ge(i, v)});
}

/// The dependences inside each recurrence, one implication per start of
/// the source; false when the deadline passes.
bool WindowEncoder::encodeDependences() {
  for (const Dependence &d : problem.getDependences()) {
    if (deadline.building(cnf.numClauses))
      return false;
    if (w.comp[d.src] != w.comp[d.dst])
      continue;
    const int64_t wt = d.latency - int64_t(d.distance) * ii;
    for (int64_t v = w.lo[d.src]; v <= w.hi[d.src]; ++v)
      cnf.add({-ge(d.src, v), ge(d.dst, v + wt)});
  }
  return true;
}

/// Ops on no recurrence with the same claims are interchangeable: swapping
/// two keeps every row's load, and nothing else constrains them. So some
/// schedule has each such class in id order, strictly when they claim a
/// slot (two at one start would collide). The pinned op is the least id
/// that holds something, so it comes first in its class; the normalisation
/// argument is in docs/exact-check.md.
void WindowEncoder::orderInterchangeable() {
  std::vector<ClaimSignature> sig(n);
  for (unsigned res = 0; res < in.claims.size(); ++res)
    for (const Claim &cl : in.claims[res])
      sig[cl.op].push_back({res, cl.row, cl.amount});
  std::map<ClaimSignature, unsigned> last;
  for (unsigned i = 0; i < n; ++i) {
    if (w.members[w.comp[i]].size() != 1 || sig[i].empty())
      continue;
    llvm::sort(sig[i]);
    auto [it, first] = last.try_emplace(sig[i], i);
    if (first)
      continue;
    const unsigned prev = it->second;
    it->second = i;
    const int64_t gap = std::get<0>(sig[i].front()) < in.numBits ? 1 : 0;
    for (int64_t v = w.lo[prev]; v <= w.hi[prev]; ++v)
      cnf.add({-ge(prev, v), ge(i, v + gap)});
  }
}

/// "Starts exactly at v", for the ops that hold something.
void WindowEncoder::encodeStartsAt() {
  for (unsigned i = 0; i < n; ++i) {
    if (in.folded[i].empty())
      continue;
    at[i].resize(w.hi[i] - w.lo[i] + 1);
    for (int64_t v = w.lo[i]; v <= w.hi[i]; ++v) {
      int a = ge(i, v), b = ge(i, v + 1);
      if (b == -T) {
        at[i][v - w.lo[i]] = a;
        continue;
      }
      int y = cnf.fresh();
      cnf.add({-y, a});
      cnf.add({-y, -b});
      cnf.add({-a, b, y});
      at[i][v - w.lo[i]] = y;
    }
  }
}

/// Row q of resource res: op i claims it when (start + claim row) mod II is
/// q. A window wider than II lands several starts on one row; one literal
/// per (op, row) stands for them (implied by each, so it never forbids a
/// start it does not cover). False when the deadline passes.
bool WindowEncoder::encodeResource(unsigned res) {
  auto mod = [&](int64_t x) { return ((x % ii) + ii) % ii; };
  const std::vector<Claim> &list = in.claims[res];
  const uint64_t cap = in.capacity(problem.getLayout(), res);
  if (!in.contended[res])
    return true;
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
    for (int64_t v = w.lo[cl.op]; v <= w.hi[cl.op]; ++v) {
      int64_t q = mod(v + cl.row);
      int lit = at[cl.op][v - w.lo[cl.op]];
      if (w.hi[cl.op] - w.lo[cl.op] + 1 > ii) {
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
      return false;
    cnf.atMost(rows[q], cap);
    if (saturated)
      cnf.atLeast(rows[q], cap);
  }
  return true;
}

/// CaDiCaL on the CNF; a model's rows settled into a verified witness.
ExactResult WindowEncoder::solve() {
  int status = cnf.solve(deadline);
  if (status == 20)
    return infeasibleResult("no schedule at II " + std::to_string(ii) +
                            " (proved by CaDiCaL over start windows)");
  if (status != 10)
    return unknownResult(limitReason(
        deadline.timedOut, opts, unsigned(ii),
        "(CaDiCaL over start windows, " + std::to_string(cnf.numVars) +
            " variables, " + std::to_string(cnf.numClauses) + " clauses)"));
  // The recurrences back into order by whole stages: the least starts with
  // these rows.
  std::optional<Schedule> witness =
      settleOnRows(problem, unsigned(ii), decodeRows());
  if (!witness)
    return unknownResult("internal: the start windows' rows at II " +
                         std::to_string(ii) + " did not settle");
  return acceptWitness(problem, std::move(*witness));
}

/// Each op's row in the model: its start mod II.
std::vector<int64_t> WindowEncoder::decodeRows() {
  std::vector<int64_t> row(n);
  for (unsigned i = 0; i < n; ++i) {
    int64_t t = w.lo[i];
    for (int64_t v = w.lo[i] + 1; v <= w.hi[i]; ++v) {
      int lit = ge(i, v);
      t += lit == T || (lit != -T && cnf.solver.val(lit) > 0);
    }
    row[i] = ((t % ii) + ii) % ii;
  }
  return row;
}

} // namespace

std::optional<ExactResult> exact::solveSatWindows(const Problem &problem,
                                                  const ModelInput &in,
                                                  const ExactOptions &opts) {
  if (!in.pinned || problem.isForceSerial())
    return std::nullopt;
  if (std::optional<ExactResult> tooLong = selfLoopTooLong(problem, in.ii))
    return tooLong;
  StartWindows windows;
  if (std::optional<ExactResult> empty = computeWindows(problem, in, windows))
    return empty;
  if (windows.tooLarge)
    return std::nullopt;
  return WindowEncoder(problem, in, opts, windows).run();
}
