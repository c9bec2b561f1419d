//===- ModuloScheduler.cpp - candidate-II search and placement ------------===//
//
// For each candidate II from the lower bound upward: reject the II outright
// when it is provably infeasible (a positive cycle, a footprint that collides
// with itself once folded), otherwise seat the ops one at a time in priority
// order into the RRT. An op that finds no free seat in its dependence window
// evicts what stands in the way (the retry arm) at the seat the cost ranking
// picks (the cost-based arm); a bounded number of steps per II keeps the
// search finite. Ties always break by program order.
//
//===----------------------------------------------------------------------===//

#include "scheduler/ModuloScheduler.h"

#include "rrt/RRT.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <queue>

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

constexpr int64_t kUnscheduled = -1;

/// Why the last attempt at one II gave up: what the failure diagnostic says.
struct Failure {
  unsigned ii = 0;
  std::optional<OpId> op;
  int64_t windowLo = 0, windowHi = 0;
  std::optional<rrt::Conflict> conflict;
  std::string reason;
  bool proven = false;
};

/// How one attempt orders ops and forces seats; the ladder tries them in turn
/// at each candidate II before the II is bumped.
struct Strategy {
  bool heightPriority; ///< Else program order.
  bool costRanked;     ///< Forced seat by the cost ranking, else Rau's rule.
};

/// One placement attempt at a fixed II.
class Placement {
public:
  Placement(const Problem &problem, unsigned ii, const ModuloOptions &options,
            Strategy strategy)
      : problem(problem), ii(ii), options(options), strategy(strategy),
        n(problem.getNumOps()),
        table(problem.getLayout(), ii), time(n, kUnscheduled),
        lastTime(n, kUnscheduled) {
    preds.resize(n);
    succs.resize(n);
    for (auto [idx, d] : llvm::enumerate(problem.getDependences())) {
      preds[d.dst].push_back(idx);
      succs[d.src].push_back(idx);
    }
  }

  /// Returns the start cycles, or nullopt with `failure` filled.
  std::optional<std::vector<int64_t>> run(Failure &failure);

private:
  int64_t weight(const Dependence &d) const {
    return d.latency - int64_t(d.distance) * ii;
  }
  bool fold(Failure &failure);
  void computeHeights();
  /// Earliest start allowed by the seated predecessors.
  int64_t earliestStart(OpId op) const;
  /// The window [lo, hi] the gates allow (G2 max_depth, G4 group depth).
  std::pair<int64_t, int64_t> window(OpId op, int64_t estart) const;
  /// Whether op `j` seated at time[j] claims a resource `op` needs at `t`.
  bool overlaps(OpId op, int64_t t, OpId j) const;
  unsigned evictionsNeeded(OpId op, int64_t t) const;
  bool breaksSuccessor(OpId op, int64_t t) const;
  void seat(OpId op, int64_t t);
  void evict(OpId op);
  std::optional<int32_t> groupDepth(OpId op) const;

  const Problem &problem;
  const unsigned ii;
  const ModuloOptions &options;
  const Strategy strategy;
  const unsigned n;
  rrt::RRT table;
  std::vector<rrt::FoldedFootprint> folded;
  std::vector<int64_t> time, lastTime, height;
  std::vector<std::vector<unsigned>> preds, succs;
  std::priority_queue<std::pair<int64_t, int64_t>> queue; // (height, -id)
  unsigned numSeated = 0;
};

} // namespace

bool Placement::fold(Failure &failure) {
  folded.reserve(n);
  for (OpId op = 0; op < n; ++op) {
    folded.push_back(problem.getFootprints()[op].fold(problem.getLayout(), ii));
    if (folded.back().selfConflict) {
      failure.op = op;
      failure.reason = "its footprint (" +
                       std::to_string(problem.getFootprints()[op].length()) +
                       " cycles) collides with itself modulo II";
      failure.proven = true;
      return false;
    }
  }
  return true;
}

// Height: the longest path to any op, weights latency - II * distance. At an
// II without positive cycles the relaxation converges; the pass limit only
// guards the cost on huge graphs (heights are a priority, not a constraint).
void Placement::computeHeights() {
  height.assign(n, 0);
  const auto deps = problem.getDependences();
  for (unsigned pass = 0; pass < std::min(n + 1, 64u); ++pass) {
    bool changed = false;
    for (size_t k = deps.size(); k-- > 0;) {
      const Dependence &d = deps[k];
      int64_t h = weight(d) + height[d.dst];
      if (h > height[d.src]) {
        height[d.src] = h;
        changed = true;
      }
    }
    if (!changed)
      break;
  }
}

int64_t Placement::earliestStart(OpId op) const {
  int64_t est = 0;
  for (unsigned e : preds[op]) {
    const Dependence &d = problem.getDependences()[e];
    if (time[d.src] != kUnscheduled && d.src != op)
      est = std::max(est, time[d.src] + weight(d));
  }
  return est;
}

std::optional<int32_t> Placement::groupDepth(OpId op) const {
  std::optional<int32_t> group = problem.getGroups().groupOf(op);
  if (!group)
    return std::nullopt;
  for (OpId m : problem.getGroups().members(*group))
    if (m != op && time[m] != kUnscheduled)
      return int32_t(time[m] / ii);
  return std::nullopt;
}

std::pair<int64_t, int64_t> Placement::window(OpId op, int64_t estart) const {
  int64_t lo = estart, hi = estart + ii - 1;
  if (std::optional<unsigned> d = problem.getOp(op).constraints.maxDepth)
    hi = std::min<int64_t>(hi, int64_t(*d + 1) * ii - 1);
  if (std::optional<int32_t> g = groupDepth(op)) {
    lo = std::max<int64_t>(lo, int64_t(*g) * ii);
    hi = std::min<int64_t>(hi, int64_t(*g + 1) * ii - 1);
  }
  return {lo, hi};
}

bool Placement::overlaps(OpId op, int64_t t, OpId j) const {
  const rrt::FoldedFootprint &a = folded[op], &b = folded[j];
  if (a.empty() || b.empty())
    return false;
  for (unsigned k = 0; k < a.numRows; ++k) {
    unsigned row = unsigned(((t + k) % ii + ii) % ii);
    unsigned rb = unsigned(((int64_t(row) - time[j]) % ii + ii) % ii);
    if (rb >= b.numRows)
      continue;
    const uint64_t *wa = a.rowBits(k), *wb = b.rowBits(rb);
    for (unsigned w = 0; w < a.numWords; ++w)
      if (wa[w] & wb[w])
        return true;
    for (const rrt::PoolClaim &ca : a.rowClaims(k))
      for (const rrt::PoolClaim &cb : b.rowClaims(rb))
        if (ca.pool == cb.pool &&
            problem.getLayout().poolBinding[ca.pool])
          return true;
  }
  return false;
}

bool Placement::breaksSuccessor(OpId op, int64_t t) const {
  for (unsigned e : succs[op]) {
    const Dependence &d = problem.getDependences()[e];
    if (d.dst != op && time[d.dst] != kUnscheduled &&
        time[d.dst] < t + weight(d))
      return true;
  }
  return false;
}

unsigned Placement::evictionsNeeded(OpId op, int64_t t) const {
  unsigned count = 0;
  for (OpId j = 0; j < n; ++j)
    if (j != op && time[j] != kUnscheduled && overlaps(op, t, j))
      ++count;
  for (unsigned e : succs[op]) {
    const Dependence &d = problem.getDependences()[e];
    if (d.dst != op && time[d.dst] != kUnscheduled &&
        time[d.dst] < t + weight(d))
      ++count;
  }
  return count;
}

void Placement::seat(OpId op, int64_t t) {
  table.commit(folded[op], t);
  time[op] = t;
  lastTime[op] = t;
  ++numSeated;
}

void Placement::evict(OpId op) {
  table.release(folded[op], time[op]);
  time[op] = kUnscheduled;
  --numSeated;
  queue.push({height[op], -int64_t(op)});
}

std::optional<std::vector<int64_t>> Placement::run(Failure &failure) {
  failure.ii = ii;
  if (!fold(failure))
    return std::nullopt;
  computeHeights();
  if (!strategy.heightPriority)
    for (OpId op = 0; op < n; ++op)
      height[op] = 0; // Program order alone (ties break by id).
  for (OpId op = 0; op < n; ++op)
    queue.push({height[op], -int64_t(op)});

  uint64_t budget = options.budget ? options.budget
                                   : std::max<uint64_t>(200, uint64_t(n) * 8);
  const ConstraintGroups &groups = problem.getGroups();
  while (!queue.empty()) {
    OpId op = OpId(-queue.top().second);
    queue.pop();
    if (time[op] != kUnscheduled)
      continue; // Stale entry of an op seated since.
    if (budget-- == 0) {
      failure.op = op;
      failure.reason = "the placement budget ran out";
      return std::nullopt;
    }
    // G1: a pending op waits for its group's leader op.
    if (groups.isPending(op)) {
      std::optional<OpId> leader = groups.leaderOp(op);
      if (leader && time[*leader] == kUnscheduled) {
        queue.push({height[op], -int64_t(op)});
        queue.push({std::max(height[*leader], height[op] + 1),
                    -int64_t(*leader)});
        continue;
      }
    }

    int64_t estart = earliestStart(op);
    auto [lo, hi] = window(op, estart);
    if (lo > hi) {
      // G2/G4 leave no seat: free the group members that pin the depth and
      // retry the op with its dependence window alone.
      if (!(options.arms & ArmRetry) || !groupDepth(op)) {
        failure.op = op;
        failure.windowLo = lo;
        failure.windowHi = hi;
        failure.reason = "max_depth or its group's depth leaves no seat";
        return std::nullopt;
      }
      std::optional<int32_t> group = groups.groupOf(op);
      for (OpId m : groups.members(*group))
        if (m != op && time[m] != kUnscheduled)
          evict(m);
      std::tie(lo, hi) = window(op, estart);
      if (lo > hi) {
        failure.op = op;
        failure.reason = "max_depth leaves no seat after the dependences";
        return std::nullopt;
      }
    }

    // G3: the first seat in the window the RRT accepts.
    std::optional<int64_t> chosen;
    for (int64_t t = lo; t <= hi; ++t) {
      // A seat the RRT accepts overlaps no seated op, so only the seated
      // successors remain to check.
      if (table.probe(folded[op], t) && !breaksSuccessor(op, t)) {
        chosen = t;
        break;
      }
    }
    if (!chosen) {
      if (!(options.arms & ArmRetry)) {
        failure.op = op;
        failure.windowLo = lo;
        failure.windowHi = hi;
        failure.conflict = table.findConflict(folded[op], lo);
        failure.reason = "no seat in its window and the retry arm is off";
        return std::nullopt;
      }
      // Pick the seat to force. The cost-based arm ranks every seat in the
      // window lexicographically by (ops evicted, distance from the window
      // start); without it, Rau's rule: one past the op's previous seat.
      int64_t forced;
      if ((options.arms & ArmCostBased) && strategy.costRanked) {
        unsigned best = UINT_MAX;
        forced = lo;
        for (int64_t t = lo; t <= hi; ++t) {
          if (lastTime[op] == t)
            continue; // Do not force the seat that just failed.
          unsigned cost = evictionsNeeded(op, t);
          if (cost < best) {
            best = cost;
            forced = t;
          }
        }
      } else {
        forced = lastTime[op] == kUnscheduled
                     ? lo
                     : std::max(lo, lastTime[op] + 1);
        if (forced > hi)
          forced = lo;
      }
      failure.conflict = table.findConflict(folded[op], forced);
      for (OpId j = 0; j < n; ++j)
        if (j != op && time[j] != kUnscheduled && overlaps(op, forced, j))
          evict(j);
      chosen = forced;
    }
    seat(op, *chosen);
    // Successors whose dependence the new seat breaks go back to the queue.
    for (unsigned e : succs[op]) {
      const Dependence &d = problem.getDependences()[e];
      if (d.dst != op && time[d.dst] != kUnscheduled &&
          time[d.dst] < *chosen + weight(d))
        evict(d.dst);
    }
  }

  // Shift by whole stages so the first stage is 0; rows, depth differences
  // and every dependence are unchanged.
  int64_t minStart = n ? *std::min_element(time.begin(), time.end()) : 0;
  int64_t shift = (minStart / ii) * ii;
  for (int64_t &t : time)
    t -= shift;
  return time;
}

static void reportFailure(const Problem &problem, const rrt::Bounds &bounds,
                          unsigned cap, const Failure &f,
                          DiagnosticList &diags) {
  Diagnostic &d = diags.error(
      "cost-based generator found no schedule for II in [" +
          llvm::Twine(bounds.mii) + ", " + llvm::Twine(cap) + "]" +
          (f.proven ? " (proven: no schedule exists at the last II tried)"
                    : " (heuristic: a schedule may still exist)"),
      f.op);
  d.attachNote("candidate II " + llvm::Twine(f.ii) + ": " + f.reason, f.op);
  if (f.op) {
    const Operation &op = problem.getOp(*f.op);
    std::string uses;
    for (const rrt::Use &u : op.uses) {
      const rrt::ResourceLayout &l = problem.getLayout();
      uses += (uses.empty() ? "" : ", ") +
              (u.kind == rrt::Use::Kind::Bit ? l.bitNames[u.index]
                                             : l.poolNames[u.index]) +
              " x" + std::to_string(u.amount) + " for " +
              std::to_string(u.duration) + " cycles";
    }
    d.attachNote("'" + op.name + "' lasts " +
                     llvm::Twine(problem.getFootprints()[*f.op].length()) +
                     " cycles and claims " + (uses.empty() ? "nothing" : uses),
                 f.op);
    d.attachNote("dependence window [" + llvm::Twine(f.windowLo) + ", " +
                     llvm::Twine(f.windowHi) + "]",
                 f.op);
    if (std::optional<int32_t> g = problem.getGroups().groupOf(*f.op))
      d.attachNote("constraint group " + llvm::Twine(*g), f.op);
  }
  if (f.conflict) {
    const rrt::ResourceLayout &l = problem.getLayout();
    switch (f.conflict->kind) {
    case rrt::Conflict::Kind::Bit:
      d.attachNote("slot '" + l.bitNames[f.conflict->resource] +
                       "' is held in modulo cycle " +
                       llvm::Twine(f.conflict->row),
                   f.op);
      break;
    case rrt::Conflict::Kind::Pool:
      d.attachNote("pool '" + l.poolNames[f.conflict->resource] +
                       "' refused: " + llvm::Twine(f.conflict->used) + " of " +
                       llvm::Twine(f.conflict->capacity) +
                       " units held in modulo cycle " +
                       llvm::Twine(f.conflict->row) + ", " +
                       llvm::Twine(f.conflict->requested) + " requested",
                   f.op);
      break;
    case rrt::Conflict::Kind::Self:
      d.attachNote("the footprint collides with itself modulo II", f.op);
      break;
    }
  }
}

std::optional<ScheduleAnalysis>
tilepipe::sched::generateModuloSchedule(const Problem &problem,
                                        const rrt::Bounds &bounds,
                                        const ModuloOptions &options,
                                        DiagnosticList &diags) {
  if (bounds.recurrenceInfeasible || bounds.resourceInfeasible) {
    diags.error("no II can be scheduled: " +
                llvm::Twine(bounds.recurrenceInfeasible
                                ? "a dependence cycle within one iteration "
                                  "has positive latency"
                                : "an op collides with itself at every II"));
    return std::nullopt;
  }
  const int64_t serial = problem.serialLength();
  const unsigned cap = options.iiCap
                           ? options.iiCap
                           : unsigned(std::min<int64_t>(serial, UINT_MAX - 1));
  const unsigned lo = std::max(1u, bounds.mii);
  std::vector<rrt::DepEdge> edges = problem.getDepEdges();

  Failure failure;
  auto attempt = [&](unsigned ii) -> std::optional<std::vector<int64_t>> {
    Failure f;
    f.ii = ii;
    if (rrt::hasPositiveCycle(problem.getNumOps(), edges, ii)) {
      f.reason = "a dependence cycle is longer than II times its distance";
      f.proven = true;
      failure = f;
      return std::nullopt;
    }
    // The strategy ladder: the heights with cost-ranked forced seats, then
    // Rau's forced seats, then program order.
    static constexpr Strategy ladder[] = {
        {true, true}, {true, false}, {false, true}};
    for (const Strategy &strategy : ladder) {
      Placement placement(problem, ii, options, strategy);
      Failure attemptFailure;
      if (std::optional<std::vector<int64_t>> starts =
              placement.run(attemptFailure))
        return starts;
      if (!failure.op || attemptFailure.ii == ii)
        failure = attemptFailure;
      if (attemptFailure.proven)
        break;
    }
    return std::nullopt;
  };
  auto finish = [&](unsigned ii, std::vector<int64_t> starts) {
    Schedule s;
    s.ii = ii;
    s.start = std::move(starts);
    return ScheduleAnalysis::fromSchedule(problem, s, GeneratorKind::CostBased);
  };

  if (options.search == IISearch::Linear || lo >= cap) {
    for (unsigned ii = lo; ii <= cap; ++ii)
      if (std::optional<std::vector<int64_t>> starts = attempt(ii))
        return finish(ii, std::move(*starts));
  } else {
    // Galloping then binary search: fast over wide ranges, but heuristic
    // placement is not monotone in II, so it can miss a smaller II.
    unsigned hi = lo;
    std::optional<std::vector<int64_t>> best = attempt(hi);
    while (!best && hi < cap) {
      hi = unsigned(std::min<uint64_t>(uint64_t(hi) * 2, cap));
      best = attempt(hi);
    }
    if (best) {
      unsigned bestII = hi, left = lo, right = hi;
      while (left < right) {
        unsigned mid = left + (right - left) / 2;
        if (mid == bestII)
          break;
        if (std::optional<std::vector<int64_t>> s = attempt(mid)) {
          best = std::move(s);
          bestII = right = mid;
        } else {
          left = mid + 1;
        }
      }
      return finish(bestII, std::move(*best));
    }
  }
  reportFailure(problem, bounds, cap, failure, diags);
  return std::nullopt;
}
