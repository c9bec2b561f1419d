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

// Largest per-cycle claim on each pool and bit, by a sweep over the claim
// intervals: a footprint that exceeds a capacity within one cycle can never
// be seated, whatever the II.
static void checkFootprint(const Problem &problem, OpId id,
                           DiagnosticList &diags) {
  const rrt::ResourceLayout &layout = problem.getLayout();
  const Operation &op = problem.getOp(id);
  // (resource kind, index) -> events (cycle, +amount / -amount).
  std::map<std::pair<int, unsigned>, std::vector<std::pair<int64_t, int64_t>>>
      events;
  for (const rrt::Use &use : op.uses) {
    bool isBit = use.kind == rrt::Use::Kind::Bit;
    if (isBit && use.index >= layout.numBits()) {
      diags.error("'" + op.name + "' claims resource bit " +
                      llvm::Twine(use.index) + ", but the layout has only " +
                      llvm::Twine(layout.numBits()),
                  id);
      continue;
    }
    if (!isBit && use.index >= layout.numPools()) {
      diags.error("'" + op.name + "' claims pool " + llvm::Twine(use.index) +
                      ", but the layout has only " +
                      llvm::Twine(layout.numPools()),
                  id);
      continue;
    }
    if (use.duration == 0 || use.amount == 0)
      continue;
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

bool Problem::check(DiagnosticList &diags) const {
  size_t before = diags.size();
  for (OpId id = 0, e = ops.size(); id < e; ++id) {
    const Operation &op = ops[id];
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
    checkFootprint(*this, id, diags);
  }
  for (size_t i = 0, e = deps.size(); i < e; ++i) {
    const Dependence &d = deps[i];
    if (d.src >= ops.size() || d.dst >= ops.size()) {
      diags.error("dependence " + llvm::Twine(i) + " names op " +
                  llvm::Twine(std::max(d.src, d.dst)) + ", but the loop has " +
                  llvm::Twine(ops.size()) + " ops");
      continue;
    }
    if (d.latency < 0)
      diags.error("dependence from '" + ops[d.src].name + "' to '" +
                      ops[d.dst].name + "' has a negative latency (" +
                      llvm::Twine(d.latency) + ")",
                  d.dst);
  }
  if (diags.size() != before)
    return false;

  // The scheduler's size limit, checked before anything sums cycles or
  // sizes a table by them: every II tried, and so every RRT, is at most the
  // serial length.
  if (int64_t length = serialLength(); length > kMaxSerialLength) {
    OpId longest = 0;
    for (OpId id = 1, e = ops.size(); id < e; ++id)
      if (stepLength(id) > stepLength(longest))
        longest = id;
    diags.error("the loop is too long to schedule: its serial length is " +
                    llvm::Twine(length) + " cycles, over the limit of " +
                    llvm::Twine(kMaxSerialLength) + "; its longest op, '" +
                    ops[longest].name + "', takes " +
                    llvm::Twine(stepLength(longest)) + " cycles",
                longest);
    return false;
  }

  // A cycle of distance-0 edges orders ops within one iteration circularly.
  std::vector<OpId> walk;
  std::vector<OpId> left = programOrderWalk(walk);
  if (!left.empty())
    diags.error("dependence cycle within one iteration (distance 0) through " +
                    describeOps(left),
                left.front());
  return diags.size() == before;
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

bool Problem::verify(const Schedule &schedule, DiagnosticList &diags) const {
  size_t before = diags.size();
  if (schedule.ii == 0) {
    diags.error("schedule has II 0");
    return false;
  }
  if (schedule.start.size() != ops.size()) {
    diags.error("schedule seats " + llvm::Twine(schedule.start.size()) +
                " ops, the loop has " + llvm::Twine(ops.size()));
    return false;
  }
  const unsigned ii = schedule.ii;
  auto depth = [&](OpId id) { return schedule.start[id] / ii; };
  for (OpId id = 0, e = ops.size(); id < e; ++id)
    if (schedule.start[id] < 0)
      diags.error("'" + ops[id].name + "' starts at negative cycle " +
                      llvm::Twine(schedule.start[id]),
                  id);
  if (diags.size() != before)
    return false;

  for (const Dependence &d : deps) {
    int64_t ready = schedule.start[d.src] + d.latency;
    int64_t at = schedule.start[d.dst] + int64_t(d.distance) * ii;
    if (at < ready)
      diags
          .error("dependence from '" + ops[d.src].name + "' to '" +
                     ops[d.dst].name + "' (latency " + llvm::Twine(d.latency) +
                     ", distance " + llvm::Twine(d.distance) +
                     ") is violated at II " + llvm::Twine(ii) +
                     ": the consumer starts at " + llvm::Twine(at) +
                     ", the value is ready at " + llvm::Twine(ready),
                 d.dst)
          .attachNote("producer starts at cycle " +
                          llvm::Twine(schedule.start[d.src]),
                      d.src);
  }

  rrt::RRT table(layout, ii);
  for (OpId id = 0, e = ops.size(); id < e; ++id) {
    if (id >= footprints.size() || footprints[id].empty())
      continue;
    rrt::FoldedFootprint fp = footprints[id].fold(layout, ii);
    std::optional<rrt::Conflict> conflict =
        table.findConflict(fp, schedule.start[id]);
    if (!conflict) {
      table.commit(fp, schedule.start[id]);
      continue;
    }
    std::string what;
    switch (conflict->kind) {
    case rrt::Conflict::Kind::Self:
      what = "its footprint (" + std::to_string(footprints[id].length()) +
             " cycles) overlaps itself modulo II";
      break;
    case rrt::Conflict::Kind::Bit:
      what = "slot '" + layout.bitNames[conflict->resource] +
             "' is already held in modulo cycle " +
             std::to_string(conflict->row);
      break;
    case rrt::Conflict::Kind::Pool:
      what = "pool '" + layout.poolNames[conflict->resource] + "' holds " +
             std::to_string(conflict->used) + " of " +
             std::to_string(conflict->capacity) + " units in modulo cycle " +
             std::to_string(conflict->row) + " and " +
             std::to_string(conflict->requested) + " more are requested";
      break;
    }
    diags.error("resource conflict at II " + llvm::Twine(ii) + ": '" +
                    ops[id].name + "' starting at cycle " +
                    llvm::Twine(schedule.start[id]) + " does not fit: " + what,
                id);
  }

  for (OpId id = 0, e = ops.size(); id < e; ++id) {
    const OpConstraints &c = ops[id].constraints;
    if (c.maxDepth && depth(id) > int64_t(*c.maxDepth))
      diags.error("'" + ops[id].name + "' is seated at depth " +
                      llvm::Twine(depth(id)) + ", above its max_depth " +
                      llvm::Twine(*c.maxDepth),
                  id);
  }
  for (int32_t rootGid : groups.roots()) {
    llvm::ArrayRef<OpId> members = groups.members(rootGid);
    for (OpId m : members)
      if (depth(m) != depth(members.front()))
        diags
            .error("'" + ops[m].name + "' of constraint group " +
                       llvm::Twine(rootGid) + " is at depth " +
                       llvm::Twine(depth(m)) + ", its group leader at depth " +
                       llvm::Twine(depth(members.front())),
                   m)
            .attachNote("group member seated here", members.front());
  }

  if (forceSerial) {
    std::vector<OpId> byStart(ops.size());
    for (OpId id = 0, e = ops.size(); id < e; ++id)
      byStart[id] = id;
    llvm::stable_sort(byStart, [&](OpId a, OpId b) {
      return schedule.start[a] < schedule.start[b];
    });
    int64_t free = 0;
    for (OpId id : byStart) {
      if (schedule.start[id] < free) {
        diags.error("loop is force-serial, but '" + ops[id].name +
                        "' starts at cycle " + llvm::Twine(schedule.start[id]) +
                        " while an earlier op still runs",
                    id);
        break;
      }
      free = schedule.start[id] + stepLength(id);
    }
    if (free > int64_t(ii))
      diags.error("loop is force-serial, but iterations overlap: one "
                  "iteration takes " +
                  llvm::Twine(free) + " cycles at II " + llvm::Twine(ii));
  }
  return diags.size() == before;
}
