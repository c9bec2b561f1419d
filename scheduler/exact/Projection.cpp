//===- Projection.cpp - eliminate the ops that hold nothing ---------------===//

#include "scheduler/exact/Projection.h"
#include "scheduler/exact/Model.h"

#include "rrt/Bounds.h"
#include "support/Adjacency.h"
#include "support/SCC.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <climits>
#include <deque>
#include <map>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

namespace {

/// Weights past this magnitude are not projected (sums of them must not
/// overflow int64).
constexpr int64_t kMaxWeight = int64_t(1) << 40;

constexpr int64_t kUnreached = INT64_MIN;

/// Kept ops past which the transitive reduction (cubic) is skipped.
constexpr size_t kMaxReducedOps = 400;

struct Arc {
  unsigned dst;
  int64_t weight;
};

/// Whether two ops with this footprint collide when they start together:
/// a slot, or a pool claim more than half the capacity.
bool strictOrder(const Operation &op) {
  return llvm::any_of(
      op.uses, [](const rrt::Use &u) { return u.kind == rrt::Use::Kind::Bit; });
}

/// Interchangeable ops: the same footprint and the same path weights to and
/// from every other kept op, and between each other both ways. Swapping two
/// of them maps schedules to schedules, so some schedule (if any) has each
/// class in id order; with a slot in the footprint they cannot start
/// together, so the order is strict. These edges cut the symmetric search
/// a SAT solver otherwise pays as a pigeonhole proof (twelve identical
/// memory writes of aes2/graph4).
void orderInterchangeable(const Problem &problem, const std::vector<OpId> &kept,
                          const std::vector<int64_t> &full,
                          std::vector<std::pair<unsigned, unsigned>> &edges) {
  const size_t m = kept.size();
  std::vector<bool> placed(m, false);
  auto sameUses = [&](const Operation &x, const Operation &y) {
    if (x.uses.size() != y.uses.size())
      return false;
    for (size_t u = 0; u < x.uses.size(); ++u) {
      const rrt::Use &a = x.uses[u], &b = y.uses[u];
      if (a.kind != b.kind || a.index != b.index || a.duration != b.duration ||
          a.amount != b.amount || a.offset != b.offset)
        return false;
    }
    return true;
  };
  for (size_t a = 0; a < m; ++a) {
    if (placed[a])
      continue;
    size_t last = a;
    for (size_t b = a + 1; b < m; ++b) {
      if (placed[b] ||
          !sameUses(problem.getOp(kept[a]), problem.getOp(kept[b])) ||
          full[a * m + b] != full[b * m + a])
        continue;
      bool same = true;
      for (size_t c = 0; c < m && same; ++c)
        if (c != a && c != b)
          same = full[a * m + c] == full[b * m + c] &&
                 full[c * m + a] == full[c * m + b];
      if (!same)
        continue;
      placed[b] = true;
      edges.push_back({unsigned(last), unsigned(b)});
      last = b;
    }
  }
}

/// A recurrence through `op` weighs more than zero at `ii`.
std::string recurrenceTooLong(const std::string &op, unsigned ii) {
  return "a recurrence through '" + op + "' needs more than II " +
         std::to_string(ii) + " cycles per iteration";
}

ProjectionResult infeasible(std::string why) {
  ProjectionResult out;
  out.infeasible = std::move(why);
  return out;
}

/// Fourier-Motzkin elimination of the ops `keep` leaves out, in named
/// steps (run()): weigh the dependences at II, close the paths over the
/// removed ops, drop the constraints between recurrences, reduce each
/// recurrence (and order its twins), build the reduced problem.
class ClaimProjector {
public:
  ClaimProjector(const Problem &problem, unsigned ii,
                 const std::vector<bool> &keep);

  ProjectionResult run();

private:
  bool weighDependences();
  std::optional<std::string> closeOverRemoved();
  std::optional<std::string> longestFrom(OpId k);
  void dropArcsBetweenRecurrences();
  std::optional<std::string> reduceRecurrences();
  std::optional<std::string> reduceRecurrence(unsigned c);
  std::vector<int64_t> pathMatrix(unsigned c, const std::vector<int> &local,
                                  size_t m) const;
  std::optional<std::string> buildReduced(Projection &p) const;

  const Problem &problem;
  const unsigned ii;
  const std::vector<bool> &keep;
  const unsigned n;
  /// The kept ops, and each op's id among them (-1: removed).
  std::vector<OpId> kept;
  std::vector<int> reducedId;
  /// The dependences as arcs weighing latency - distance * II.
  std::vector<std::vector<Arc>> succ;
  /// Longest path between two kept ops whose inner ops are all removed.
  std::map<std::pair<unsigned, unsigned>, int64_t> closure;
  /// The recurrence of each kept op (by reduced id), its members, and the
  /// closure's arcs inside each.
  std::vector<unsigned> comp;
  std::vector<std::vector<unsigned>> members;
  std::vector<std::vector<std::pair<OpId, OpId>>> arcsOf;
  /// Twins in id order, as reduced ids.
  std::vector<std::pair<unsigned, unsigned>> symmetry;
  // Scratch of longestFrom(), kept between kept ops.
  std::vector<int64_t> dist;
  std::vector<unsigned> relaxed;
  std::vector<bool> queued;
  std::vector<unsigned> touched;
};

} // namespace

ClaimProjector::ClaimProjector(const Problem &problem, unsigned ii,
                               const std::vector<bool> &keep)
    : problem(problem), ii(ii), keep(keep), n(problem.getNumOps()),
      reducedId(n, -1) {
  for (unsigned i = 0; i < n; ++i)
    if (keep[i]) {
      reducedId[i] = int(kept.size());
      kept.push_back(i);
    }
}

ProjectionResult ClaimProjector::run() {
  // With nothing to remove the projection is still worth building: its
  // reduction and twin ordering are what the solvers gain most from.
  if (!weighDependences())
    return {};
  // A positive cycle anywhere (the searches below start at kept ops only,
  // and may find none): no start vector at all.
  if (rrt::hasPositiveCycle(n, problem.getDepEdges(), ii))
    return infeasible("a recurrence needs more than II " + std::to_string(ii) +
                      " cycles per iteration");
  if (std::optional<std::string> why = closeOverRemoved())
    return infeasible(std::move(*why));
  dropArcsBetweenRecurrences();
  if (std::optional<std::string> why = reduceRecurrences())
    return infeasible(std::move(*why));
  Projection p{Problem(problem.getLayout()), kept};
  if (std::optional<std::string> why = buildReduced(p))
    return infeasible(std::move(*why));
  ProjectionResult out;
  out.projection = std::move(p);
  return out;
}

/// False when a weight passes kMaxWeight (the projection does not apply).
bool ClaimProjector::weighDependences() {
  succ.resize(n);
  for (const Dependence &d : problem.getDependences()) {
    __int128 w = __int128(d.latency) - __int128(d.distance) * ii;
    if (w > kMaxWeight || w < -kMaxWeight)
      return false;
    succ[d.src].push_back({d.dst, int64_t(w)});
  }
  return true;
}

/// Longest paths from each kept op whose inner ops are all removed, into
/// `closure`.
std::optional<std::string> ClaimProjector::closeOverRemoved() {
  dist.assign(n, kUnreached);
  relaxed.assign(n, 0);
  queued.assign(n, false);
  for (OpId k : kept)
    if (std::optional<std::string> why = longestFrom(k))
      return why;
  return std::nullopt;
}

/// The longest paths from kept op `k` through removed ops only. A removed op
/// relaxed more than n times lies on a positive cycle of removed ops: no
/// start vector meets it at this II.
std::optional<std::string> ClaimProjector::longestFrom(OpId k) {
  for (unsigned t : touched) {
    dist[t] = kUnreached;
    relaxed[t] = 0;
  }
  touched.clear();
  std::deque<unsigned> work;
  auto visit = [&](unsigned v, int64_t value) {
    if (dist[v] == kUnreached)
      touched.push_back(v);
    dist[v] = value;
    if (!keep[v] && !queued[v]) {
      queued[v] = true;
      work.push_back(v);
    }
  };
  for (const Arc &a : succ[k])
    if (dist[a.dst] == kUnreached || a.weight > dist[a.dst])
      visit(a.dst, a.weight);
  while (!work.empty()) {
    unsigned u = work.front();
    work.pop_front();
    queued[u] = false;
    if (++relaxed[u] > n)
      return recurrenceTooLong(problem.getOp(u).name, ii);
    for (const Arc &a : succ[u]) {
      int64_t value = dist[u] + a.weight;
      if (dist[a.dst] == kUnreached || value > dist[a.dst])
        visit(a.dst, value);
    }
  }
  for (unsigned t : touched)
    if (keep[t]) {
      auto [it, inserted] = closure.try_emplace({k, t}, dist[t]);
      if (!inserted)
        it->second = std::max(it->second, dist[t]);
    }
  return std::nullopt;
}

/// Across recurrences only the rows matter. With no placement constraint a
/// recurrence (a strongly connected component of the kept ops) may move by
/// whole stages without changing a row: given a schedule of the kept ops
/// that meets the constraints inside each recurrence, moving each one late
/// enough, in topological order, meets every constraint between them too.
/// So those constraints are dropped: the model keeps the same answer, and
/// its start windows shrink to the recurrences' own spans (a joined loop of
/// fifty bodies whose 108 adds share one adder, graft-s23/g27: from 1.07M
/// variables to 0.3M). extendWitness() moves the recurrences back into
/// order.
void ClaimProjector::dropArcsBetweenRecurrences() {
  tilepipe::support::Adjacency arcs(kept.size(), [&](auto add) {
    for (const auto &[arc, w] : closure)
      add(unsigned(reducedId[arc.first]), unsigned(reducedId[arc.second]));
  });
  const unsigned numComps = tilepipe::support::stronglyConnectedComponents(
      unsigned(kept.size()), [&](unsigned v) { return arcs[v]; }, comp);
  for (auto it = closure.begin(); it != closure.end();)
    it = comp[reducedId[it->first.first]] != comp[reducedId[it->first.second]]
             ? closure.erase(it)
             : std::next(it);
  members.assign(numComps, {});
  for (unsigned r = 0; r < kept.size(); ++r)
    members[comp[r]].push_back(r);
  arcsOf.assign(numComps, {});
  for (const auto &[arc, w] : closure)
    arcsOf[comp[reducedId[arc.first]]].push_back(arc);
}

/// Transitive reduction, one recurrence at a time (no constraint is left
/// between two): a path constraint implied by two others through a kept op
/// adds nothing but clauses. Dropping constraints can only weaken the
/// model, so an Infeasible verdict stays a proof whatever is dropped; with
/// every cycle strictly negative the closure is unchanged (a tie chain
/// cannot return to its start), so a Feasible one is kept too (and
/// verify() checks the extended witness regardless). Twins are found in
/// the same pass: two ops of different recurrences have no path between
/// them, so only ops alone in theirs could be twins across recurrences,
/// and those the start-window model orders itself (SatWindows.cpp).
std::optional<std::string> ClaimProjector::reduceRecurrences() {
  for (unsigned c = 0; c < members.size(); ++c)
    if (std::optional<std::string> why = reduceRecurrence(c))
      return why;
  return std::nullopt;
}

std::optional<std::string> ClaimProjector::reduceRecurrence(unsigned c) {
  const int64_t none = kUnreached;
  const std::vector<unsigned> &inside = members[c];
  const size_t m = inside.size();
  if (m < 2 || m > kMaxReducedOps)
    return std::nullopt;
  std::vector<int> local(kept.size(), -1);
  std::vector<OpId> localKept;
  for (size_t l = 0; l < m; ++l) {
    local[inside[l]] = int(l);
    localKept.push_back(kept[inside[l]]);
  }
  std::vector<int64_t> full = pathMatrix(c, local, m);
  bool negativeCycles = true;
  for (size_t a = 0; a < m; ++a) {
    int64_t cycle = full[a * m + a];
    if (cycle != none && cycle > 0)
      return recurrenceTooLong(problem.getOp(localKept[a]).name, ii);
    negativeCycles = negativeCycles && (cycle == none || cycle < 0);
  }
  if (!negativeCycles)
    return std::nullopt;
  std::vector<std::pair<unsigned, unsigned>> twins;
  orderInterchangeable(problem, localKept, full, twins);
  for (auto [x, y] : twins)
    symmetry.push_back({inside[x], inside[y]});
  for (auto arc : arcsOf[c]) {
    size_t a = local[reducedId[arc.first]], b = local[reducedId[arc.second]];
    const int64_t w = closure.at(arc);
    bool implied = a == b;
    for (size_t via = 0; via < m && !implied; ++via)
      implied = via != a && via != b && full[a * m + via] != none &&
                full[via * m + b] != none &&
                full[a * m + via] + full[via * m + b] >= w;
    if (implied)
      closure.erase(arc);
  }
  return std::nullopt;
}

/// The longest paths between the m ops of recurrence `c` (Floyd-Warshall
/// over its closure), row-major by local id; kUnreached where none.
std::vector<int64_t> ClaimProjector::pathMatrix(unsigned c,
                                                const std::vector<int> &local,
                                                size_t m) const {
  const int64_t none = kUnreached;
  std::vector<int64_t> full(m * m, none);
  for (auto arc : arcsOf[c])
    full[local[reducedId[arc.first]] * m + local[reducedId[arc.second]]] =
        closure.at(arc);
  for (size_t via = 0; via < m; ++via)
    for (size_t a = 0; a < m; ++a) {
      int64_t left = full[a * m + via];
      if (left == none)
        continue;
      for (size_t b = 0; b < m; ++b) {
        int64_t right = full[via * m + b];
        if (right != none && left + right > full[a * m + b])
          full[a * m + b] = left + right;
      }
    }
  return full;
}

/// The kept ops, the twins' order and the closure's path constraints as
/// the reduced problem.
std::optional<std::string> ClaimProjector::buildReduced(Projection &p) const {
  for (auto [a, b] : symmetry)
    p.reduced.addDependence(
        {a, b, strictOrder(problem.getOp(kept[a])) ? 1 : 0, 0});
  for (OpId k : kept)
    p.reduced.addOp(problem.getOp(k));
  for (auto [arc, w] : closure) {
    auto [k, j] = arc;
    if (k == j) {
      if (w > 0)
        return recurrenceTooLong(problem.getOp(k).name, ii);
      continue;
    }
    // At this II, latency - distance * II = w with latency in [0, II) when
    // w < 0.
    unsigned distance = w >= 0 ? 0 : unsigned((-w + ii - 1) / ii);
    p.reduced.addDependence({OpId(reducedId[k]), OpId(reducedId[j]),
                             w + int64_t(distance) * ii, distance});
  }
  p.reduced.finalize();
  return std::nullopt;
}

ProjectionResult exact::projectOntoClaims(const Problem &problem, unsigned ii,
                                          const std::vector<bool> &keep) {
  if (ii == 0 || hasPlacementConstraints(problem))
    return {};
  return ClaimProjector(problem, ii, keep).run();
}

std::optional<RefusableProjection>
exact::projectOntoRefusable(const Problem &problem, unsigned ii,
                            size_t maxKept) {
  if (ii == 0 || problem.getNumOps() > kMaxProjectedOps || malformed(problem) ||
      hasPlacementConstraints(problem))
    return std::nullopt;
  std::optional<std::vector<std::vector<unsigned>>> claimed =
      claimedResources(problem, ii);
  if (!claimed)
    return std::nullopt;
  std::vector<bool> keep(claimed->size());
  for (size_t i = 0; i < claimed->size(); ++i)
    keep[i] = !(*claimed)[i].empty();
  if (size_t(llvm::count(keep, true)) > maxKept)
    return std::nullopt;
  ProjectionResult result = projectOntoClaims(problem, ii, keep);
  return RefusableProjection{std::move(*claimed), std::move(result)};
}

std::optional<Schedule> exact::extendWitness(const Problem &problem,
                                             const Projection &projection,
                                             const Schedule &reduced) {
  const int64_t ii = reduced.ii;
  if (ii <= 0 || reduced.start.size() != projection.kept.size())
    return std::nullopt;
  std::vector<int64_t> row(problem.getNumOps(), -1);
  for (size_t r = 0; r < projection.kept.size(); ++r)
    row[projection.kept[r]] = ((reduced.start[r] % ii) + ii) % ii;
  // The reduced witness proves a schedule with these rows exists (moving
  // the recurrences by whole stages, then Fourier-Motzkin's extension), so
  // the least one is found.
  return settleOnRows(problem, reduced.ii, row);
}
