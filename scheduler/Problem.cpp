//===- Problem.cpp - check() and verify() ---------------------------------===//

#include "scheduler/Problem.h"

#include "rrt/RRT.h"
#include "support/Adjacency.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>

using namespace tilepipe;
using namespace tilepipe::sched;

Problem::Problem(rrt::ResourceLayout layout) : layout(std::move(layout)) {}

OpId Problem::addOp(Operation op) {
  ops.push_back(std::move(op));
  return ops.size() - 1;
}

void Problem::addDependence(Dependence dep) { deps.push_back(dep); }

void Problem::finalize() {
  footprints.clear();
  footprints.reserve(ops.size());
  for (const Operation &op : ops)
    footprints.emplace_back(layout, op.uses);
  maxOutLatency.assign(ops.size(), 0);
  for (const Dependence &d : deps)
    if (d.src < ops.size())
      maxOutLatency[d.src] = std::max(maxOutLatency[d.src], d.latency);
}

bool Problem::hasAsyncOp() const {
  return llvm::any_of(ops, [](const Operation &op) { return op.isAsync; });
}
bool Problem::hasTMAOp() const {
  return llvm::any_of(ops, [](const Operation &op) { return op.isTMA; });
}
bool Problem::hasMMAOp() const {
  return llvm::any_of(ops, [](const Operation &op) { return op.isMMA; });
}

std::vector<rrt::DepEdge> Problem::getDepEdges() const {
  std::vector<rrt::DepEdge> edges;
  edges.reserve(deps.size());
  for (const Dependence &d : deps)
    edges.push_back({d.src, d.dst, d.latency, d.distance});
  return edges;
}

std::vector<std::optional<unsigned>> Problem::getMaxDepths() const {
  std::vector<std::optional<unsigned>> result;
  result.reserve(ops.size());
  for (const Operation &op : ops)
    result.push_back(op.constraints.maxDepth);
  return result;
}

rrt::Bounds Problem::computeBounds() const {
  std::vector<rrt::DepEdge> edges = getDepEdges();
  std::vector<std::optional<unsigned>> maxDepth = getMaxDepths();
  rrt::BoundsInput in;
  in.layout = &layout;
  in.footprints = footprints;
  in.deps = edges;
  in.maxDepth = maxDepth;
  std::vector<int32_t> group;
  if (!groups.roots().empty()) {
    group.assign(ops.size(), -1);
    for (OpId op = 0; op < ops.size(); ++op)
      if (std::optional<int32_t> g = groups.groupOf(op))
        group[op] = *g;
  }
  in.sameDepthGroup = group;
  return rrt::computeBounds(in);
}

int64_t Problem::stepLength(OpId op) const {
  int64_t lat = ops[op].latency.value_or(0);
  int64_t len = op < footprints.size() ? footprints[op].length() : 0;
  int64_t out = op < maxOutLatency.size() ? maxOutLatency[op] : 0;
  return std::max<int64_t>({lat, len, out, 1});
}

int64_t Problem::serialLength() const {
  // Saturated: a target may give an op any int64 latency.
  int64_t total = 0;
  for (OpId op = 0, e = ops.size(); op < e; ++op) {
    int64_t step = stepLength(op);
    total = step > INT64_MAX - total ? INT64_MAX : total + step;
  }
  return std::max<int64_t>(total, 1);
}

//===----------------------------------------------------------------------===//
// check(): one function per rule, each with its own message.
//===----------------------------------------------------------------------===//

/// Every op has a latency, and it is not negative.
static void checkLatency(const Problem &problem, OpId id,
                         DiagnosticList &diags) {
  const Operation &op = problem.getOp(id);
  if (!op.latency)
    diags.error("'" + op.name +
                    "' has no latency: the target defines no "
                    "op class '" +
                    op.opClass + "'",
                id);
  else if (*op.latency < 0)
    diags.error("'" + op.name + "' has a negative latency (" +
                    llvm::Twine(*op.latency) + ")",
                id);
}

/// Whether `use` names a bit or pool the layout has.
static bool inLayout(const rrt::ResourceLayout &layout, const rrt::Use &use) {
  return use.kind == rrt::Use::Kind::Bit ? use.index < layout.numBits()
                                         : use.index < layout.numPools();
}

/// Every claim names a bit or pool of the layout.
static void checkClaimsInLayout(const Problem &problem, OpId id,
                                DiagnosticList &diags) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  const Operation &op = problem.getOp(id);
  for (const rrt::Use &use : op.uses) {
    if (inLayout(layout, use))
      continue;
    if (use.kind == rrt::Use::Kind::Bit)
      diags.error("'" + op.name + "' claims resource bit " +
                      llvm::Twine(use.index) + ", but the layout has only " +
                      llvm::Twine(layout.numBits()),
                  id);
    else
      diags.error("'" + op.name + "' claims pool " + llvm::Twine(use.index) +
                      ", but the layout has only " +
                      llvm::Twine(layout.numPools()),
                  id);
  }
}

/// Largest per-cycle claim on each pool and bit, by a sweep over the claim
/// intervals: a footprint that exceeds a capacity within one cycle can never
/// be seated, whatever the II. Claims outside the layout are
/// checkClaimsInLayout's.
static void checkFootprintFits(const Problem &problem, OpId id,
                               DiagnosticList &diags) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  const Operation &op = problem.getOp(id);
  // (resource kind, index) -> events (cycle, +amount / -amount).
  std::map<std::pair<int, unsigned>, std::vector<std::pair<int64_t, int64_t>>>
      events;
  for (const rrt::Use &use : op.uses) {
    if (!inLayout(layout, use) || use.duration == 0 || use.amount == 0)
      continue;
    bool isBit = use.kind == rrt::Use::Kind::Bit;
    auto &ev = events[{isBit ? 0 : 1, use.index}];
    ev.push_back({use.offset, use.amount});
    ev.push_back({int64_t(use.offset) + use.duration, -int64_t(use.amount)});
  }
  for (auto &[key, ev] : events) {
    llvm::sort(ev); // Releases (negative) sort before claims at one cycle.
    int64_t cur = 0, peak = 0;
    for (auto &[cycle, delta] : ev) {
      cur += delta;
      peak = std::max(peak, cur);
    }
    bool isBit = key.first == 0;
    int64_t cap = isBit ? 1 : layout.poolCaps[key.second];
    if (!isBit && !layout.poolBinding[key.second])
      continue;
    if (peak > cap) {
      const std::string &res =
          isBit ? layout.bitNames[key.second] : layout.poolNames[key.second];
      diags.error("footprint of '" + op.name +
                      "' cannot be seated: it claims " + llvm::Twine(peak) +
                      " units of " + (isBit ? "slot '" : "pool '") + res +
                      "' in one cycle, whose capacity is " + llvm::Twine(cap),
                  id);
    }
  }
}

/// Dependence `i` names ops of the loop.
static bool checkDependenceEnds(const Problem &problem, size_t i,
                                DiagnosticList &diags) {
  const Dependence &d = problem.getDependences()[i];
  const size_t numOps = problem.getNumOps();
  if (d.src < numOps && d.dst < numOps)
    return true;
  diags.error("dependence " + llvm::Twine(i) + " names op " +
              llvm::Twine(std::max(d.src, d.dst)) + ", but the loop has " +
              llvm::Twine(numOps) + " ops");
  return false;
}

/// A dependence's latency is not negative.
static void checkDependenceLatency(const Problem &problem, const Dependence &d,
                                   DiagnosticList &diags) {
  if (d.latency < 0)
    diags.error("dependence from '" + problem.getOp(d.src).name + "' to '" +
                    problem.getOp(d.dst).name + "' has a negative latency (" +
                    llvm::Twine(d.latency) + ")",
                d.dst);
}

/// The scheduler's size limit, checked before anything sums cycles or sizes
/// a table by them: every II tried, and so every RRT, is at most the serial
/// length.
static bool checkSerialLength(const Problem &problem, DiagnosticList &diags) {
  const int64_t length = problem.serialLength();
  if (length <= Problem::kMaxSerialLength)
    return true;
  OpId longest = 0;
  for (OpId id = 1, e = problem.getNumOps(); id < e; ++id)
    if (problem.stepLength(id) > problem.stepLength(longest))
      longest = id;
  diags.error("the loop is too long to schedule: its serial length is " +
                  llvm::Twine(length) + " cycles, over the limit of " +
                  llvm::Twine(Problem::kMaxSerialLength) +
                  "; its longest op, '" + problem.getOp(longest).name +
                  "', takes " + llvm::Twine(problem.stepLength(longest)) +
                  " cycles",
              longest);
  return false;
}

/// No cycle of distance-0 edges orders ops within one iteration circularly.
static bool checkIterationAcyclic(const Problem &problem,
                                  DiagnosticList &diags) {
  std::vector<OpId> walk;
  std::vector<OpId> left = problem.programOrderWalk(walk);
  if (left.empty())
    return true;
  diags.error("dependence cycle within one iteration (distance 0) through " +
                  problem.describeOps(left),
              left.front());
  return false;
}

bool Problem::check(DiagnosticList &diags) const {
  size_t before = diags.size();
  // The rules of one op or one dependence: every violation is reported.
  for (OpId id = 0, e = ops.size(); id < e; ++id) {
    checkLatency(*this, id, diags);
    checkClaimsInLayout(*this, id, diags);
    checkFootprintFits(*this, id, diags);
  }
  for (size_t i = 0, e = deps.size(); i < e; ++i)
    if (checkDependenceEnds(*this, i, diags))
      checkDependenceLatency(*this, deps[i], diags);
  if (diags.size() != before)
    return false;
  // The rules of the whole loop, which need the ones above.
  return checkSerialLength(*this, diags) && checkIterationAcyclic(*this, diags);
}

std::vector<OpId> Problem::programOrderWalk(std::vector<OpId> &walk) const {
  const unsigned n = ops.size();
  std::vector<unsigned> indeg(n, 0);
  support::Adjacency succ(n, [&](auto add) {
    for (const Dependence &d : deps)
      if (d.distance == 0 && d.src < n && d.dst < n)
        add(d.src, d.dst);
  });
  for (const Dependence &d : deps)
    if (d.distance == 0 && d.src < n && d.dst < n)
      ++indeg[d.dst];
  std::priority_queue<OpId, std::vector<OpId>, std::greater<OpId>> ready;
  for (OpId id = 0; id < n; ++id)
    if (!indeg[id])
      ready.push(id);
  walk.clear();
  walk.reserve(n);
  while (!ready.empty()) {
    OpId id = ready.top();
    ready.pop();
    walk.push_back(id);
    for (OpId s : succ[id])
      if (--indeg[s] == 0)
        ready.push(s);
  }
  std::vector<OpId> left;
  for (OpId id = 0; id < n; ++id)
    if (indeg[id])
      left.push_back(id);
  return left;
}

std::string Problem::describeOps(llvm::ArrayRef<OpId> ids) const {
  std::vector<std::string> names;
  for (OpId id : ids.take_front(8))
    names.push_back("'" + ops[id].name + "'");
  return llvm::join(names, ", ");
}

//===----------------------------------------------------------------------===//
// verify(): one function per rule, each with its own message.
//===----------------------------------------------------------------------===//

/// The schedule has an II.
static bool verifyII(const Schedule &schedule, DiagnosticList &diags) {
  if (schedule.ii != 0)
    return true;
  diags.error("schedule has II 0");
  return false;
}

/// The schedule seats every op of the loop, and no other.
static bool verifySeatsEveryOp(const Problem &problem, const Schedule &schedule,
                               DiagnosticList &diags) {
  if (schedule.start.size() == problem.getNumOps())
    return true;
  diags.error("schedule seats " + llvm::Twine(schedule.start.size()) +
              " ops, the loop has " + llvm::Twine(problem.getNumOps()));
  return false;
}

/// No op starts before cycle 0.
static bool verifyStartsNonNegative(const Problem &problem,
                                    const Schedule &schedule,
                                    DiagnosticList &diags) {
  bool ok = true;
  for (OpId id = 0, e = problem.getNumOps(); id < e; ++id)
    if (schedule.start[id] < 0) {
      diags.error("'" + problem.getOp(id).name + "' starts at negative cycle " +
                      llvm::Twine(schedule.start[id]),
                  id);
      ok = false;
    }
  return ok;
}

/// Every dependence holds modulo II.
static void verifyDependences(const Problem &problem, const Schedule &schedule,
                              DiagnosticList &diags) {
  const unsigned ii = schedule.ii;
  for (const Dependence &d : problem.getDependences()) {
    int64_t ready = schedule.start[d.src] + d.latency;
    int64_t at = schedule.start[d.dst] + int64_t(d.distance) * ii;
    if (at < ready)
      diags
          .error("dependence from '" + problem.getOp(d.src).name + "' to '" +
                     problem.getOp(d.dst).name + "' (latency " +
                     llvm::Twine(d.latency) + ", distance " +
                     llvm::Twine(d.distance) + ") is violated at II " +
                     llvm::Twine(ii) + ": the consumer starts at " +
                     llvm::Twine(at) + ", the value is ready at " +
                     llvm::Twine(ready),
                 d.dst)
          .attachNote("producer starts at cycle " +
                          llvm::Twine(schedule.start[d.src]),
                      d.src);
  }
}

/// What `conflict` collides on, for verifyResources' message.
static std::string describeConflict(const Problem &problem, OpId id,
                                    const rrt::Conflict &conflict) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  switch (conflict.kind) {
  case rrt::Conflict::Kind::Self:
    return "its footprint (" +
           std::to_string(problem.getFootprints()[id].length()) +
           " cycles) overlaps itself modulo II";
  case rrt::Conflict::Kind::Bit:
    return "slot '" + layout.bitNames[conflict.resource] +
           "' is already held in modulo cycle " + std::to_string(conflict.row);
  case rrt::Conflict::Kind::Pool:
    return "pool '" + layout.poolNames[conflict.resource] + "' holds " +
           std::to_string(conflict.used) + " of " +
           std::to_string(conflict.capacity) + " units in modulo cycle " +
           std::to_string(conflict.row) + " and " +
           std::to_string(conflict.requested) + " more are requested";
  }
  return {};
}

/// The folded footprints fit every RRT row and pool, seated in op order.
static void verifyResources(const Problem &problem, const Schedule &schedule,
                            DiagnosticList &diags) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  llvm::ArrayRef<rrt::Footprint> footprints = problem.getFootprints();
  const unsigned ii = schedule.ii;
  rrt::RRT table(layout, ii);
  for (OpId id = 0, e = problem.getNumOps(); id < e; ++id) {
    if (id >= footprints.size() || footprints[id].empty())
      continue;
    rrt::FoldedFootprint fp = footprints[id].fold(layout, ii);
    std::optional<rrt::Conflict> conflict =
        table.findConflict(fp, schedule.start[id]);
    if (!conflict) {
      table.commit(fp, schedule.start[id]);
      continue;
    }
    diags.error("resource conflict at II " + llvm::Twine(ii) + ": '" +
                    problem.getOp(id).name + "' starting at cycle " +
                    llvm::Twine(schedule.start[id]) + " does not fit: " +
                    describeConflict(problem, id, *conflict),
                id);
  }
}

/// The stage (depth) an op is seated in.
static int64_t depthOf(const Schedule &schedule, OpId id) {
  return schedule.start[id] / schedule.ii;
}

/// No op is seated deeper than its max_depth.
static void verifyMaxDepth(const Problem &problem, const Schedule &schedule,
                           DiagnosticList &diags) {
  for (OpId id = 0, e = problem.getNumOps(); id < e; ++id) {
    const OpConstraints &c = problem.getOp(id).constraints;
    if (c.maxDepth && depthOf(schedule, id) > int64_t(*c.maxDepth))
      diags.error("'" + problem.getOp(id).name + "' is seated at depth " +
                      llvm::Twine(depthOf(schedule, id)) +
                      ", above its max_depth " + llvm::Twine(*c.maxDepth),
                  id);
  }
}

/// Every member of a constraint group sits at its leader's depth.
static void verifyGroupDepths(const Problem &problem, const Schedule &schedule,
                              DiagnosticList &diags) {
  const ConstraintGroups &groups = problem.getGroups();
  for (int32_t rootGid : groups.roots()) {
    llvm::ArrayRef<OpId> members = groups.members(rootGid);
    const int64_t leaderDepth = depthOf(schedule, members.front());
    for (OpId m : members)
      if (depthOf(schedule, m) != leaderDepth)
        diags
            .error("'" + problem.getOp(m).name + "' of constraint group " +
                       llvm::Twine(rootGid) + " is at depth " +
                       llvm::Twine(depthOf(schedule, m)) +
                       ", its group leader at depth " +
                       llvm::Twine(leaderDepth),
                   m)
            .attachNote("group member seated here", members.front());
  }
}

/// A force-serial loop's ops in order of start: the first that starts while
/// an earlier one runs (if any), and the cycle the ops before it end.
struct SerialWalk {
  std::optional<OpId> overlapping;
  int64_t end = 0;
};

static SerialWalk walkByStart(const Problem &problem,
                              const Schedule &schedule) {
  std::vector<OpId> byStart(problem.getNumOps());
  for (OpId id = 0, e = problem.getNumOps(); id < e; ++id)
    byStart[id] = id;
  llvm::stable_sort(byStart, [&](OpId a, OpId b) {
    return schedule.start[a] < schedule.start[b];
  });
  SerialWalk walk;
  for (OpId id : byStart) {
    if (schedule.start[id] < walk.end) {
      walk.overlapping = id;
      break;
    }
    walk.end = schedule.start[id] + problem.stepLength(id);
  }
  return walk;
}

/// A force-serial loop runs one op at a time within an iteration.
static void verifySerialOps(const Problem &problem, const Schedule &schedule,
                            const SerialWalk &walk, DiagnosticList &diags) {
  if (!walk.overlapping)
    return;
  OpId id = *walk.overlapping;
  diags.error("loop is force-serial, but '" + problem.getOp(id).name +
                  "' starts at cycle " + llvm::Twine(schedule.start[id]) +
                  " while an earlier op still runs",
              id);
}

/// A force-serial loop's iterations do not overlap.
static void verifySerialIterations(const Schedule &schedule,
                                   const SerialWalk &walk,
                                   DiagnosticList &diags) {
  if (walk.end > int64_t(schedule.ii))
    diags.error("loop is force-serial, but iterations overlap: one "
                "iteration takes " +
                llvm::Twine(walk.end) + " cycles at II " +
                llvm::Twine(schedule.ii));
}

bool Problem::verify(const Schedule &schedule, DiagnosticList &diags) const {
  // The shape of the schedule, which every rule below reads.
  if (!verifyII(schedule, diags) ||
      !verifySeatsEveryOp(*this, schedule, diags) ||
      !verifyStartsNonNegative(*this, schedule, diags))
    return false;
  size_t before = diags.size();
  verifyDependences(*this, schedule, diags);
  verifyResources(*this, schedule, diags);
  verifyMaxDepth(*this, schedule, diags);
  verifyGroupDepths(*this, schedule, diags);
  if (forceSerial) {
    SerialWalk walk = walkByStart(*this, schedule);
    verifySerialOps(*this, schedule, walk, diags);
    verifySerialIterations(schedule, walk, diags);
  }
  return diags.size() == before;
}
