//===- StageSink.cpp ------------------------------------------------------===//

#include "scheduler/StageSink.h"

#include "support/Adjacency.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdint>

using namespace tilepipe;
using namespace tilepipe::sched;

// Strongly connected components of the dependence graph (Tarjan, no
// recursion): comp[op] is the component's index.
static std::vector<unsigned> components(const Problem &problem,
                                        const support::Adjacency &succs,
                                        unsigned &count) {
  const unsigned n = problem.getNumOps();
  auto deps = problem.getDependences();
  std::vector<unsigned> comp(n, ~0u), index(n, ~0u), low(n, 0);
  std::vector<bool> onStack(n, false);
  std::vector<OpId> stack;
  std::vector<std::pair<OpId, size_t>> work;
  unsigned next = 0;
  count = 0;
  for (OpId root = 0; root < n; ++root) {
    if (index[root] != ~0u)
      continue;
    work.push_back({root, 0});
    while (!work.empty()) {
      auto &[v, edge] = work.back();
      if (edge == 0 && index[v] == ~0u) {
        index[v] = low[v] = next++;
        stack.push_back(v);
        onStack[v] = true;
      }
      if (edge < succs[v].size()) {
        OpId w = deps[succs[v][edge++]].dst;
        if (index[w] == ~0u)
          work.push_back({w, 0});
        else if (onStack[w])
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      if (low[v] == index[v]) {
        OpId w;
        do {
          w = stack.back();
          stack.pop_back();
          onStack[w] = false;
          comp[w] = count;
        } while (w != v);
        ++count;
      }
      OpId done = v;
      work.pop_back();
      if (!work.empty())
        low[work.back().first] = std::min(low[work.back().first], low[done]);
    }
  }
  return comp;
}

// A recurrence (a cycle of dependences, FA4's S -> softmax -> P -> PV -> S of
// one Q tile) keeps its internal timing when all its ops move by the same
// multiple of II. Each is moved as early as its incoming dependences allow
// when that does not lengthen the total stage lifetime: a generator that
// seated a whole recurrence a stage late holds every value feeding it (a K
// or V tile) one stage longer.
static void hoistRecurrences(const Problem &problem, Schedule &out,
                             const support::Adjacency &succs) {
  const unsigned n = problem.getNumOps();
  const int64_t ii = out.ii;
  auto deps = problem.getDependences();
  unsigned count = 0;
  std::vector<unsigned> comp = components(problem, succs, count);
  support::Adjacency members(count, [&](auto add) {
    for (OpId id = 0; id < n; ++id)
      add(comp[id], id);
  });
  // Moving a component k stages earlier shortens each dependence into it by
  // k stages and lengthens each one out of it by k: the total lifetime does
  // not grow exactly when it has at least as many of the first.
  auto crosses = [&](const Dependence &dep) {
    return dep.src < n && dep.dst < n && comp[dep.src] != comp[dep.dst];
  };
  support::Adjacency incoming(count, [&](auto add) {
    for (auto [idx, dep] : llvm::enumerate(deps))
      if (crosses(dep))
        add(comp[dep.dst], idx);
  });
  std::vector<size_t> outgoing(count, 0);
  for (const Dependence &dep : deps)
    if (crosses(dep))
      ++outgoing[comp[dep.src]];
  const ConstraintGroups &groups = problem.getGroups();
  std::vector<unsigned> movable;
  for (unsigned c = 0; c < count; ++c)
    if (members[c].size() >= 2 && outgoing[c] <= incoming[c].size() &&
        llvm::none_of(members[c],
                      [&](OpId id) { return groups.groupOf(id).has_value(); }))
      movable.push_back(c);
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned c : movable) {
      // The earliest start the incoming dependences allow, in whole IIs.
      int64_t shift = INT64_MAX;
      for (OpId v : members[c])
        shift = std::min(shift, out.start[v] / ii);
      for (unsigned e : incoming[c]) {
        const Dependence *dep = &deps[e];
        int64_t slack = out.start[dep->dst] + int64_t(dep->distance) * ii -
                        out.start[dep->src] - dep->latency;
        shift = std::min(shift, slack >= 0 ? slack / ii : int64_t(0));
      }
      if (shift <= 0)
        continue;
      for (OpId v : members[c])
        out.start[v] -= shift * ii;
      changed = true;
    }
  }
}

Schedule tilepipe::sched::sinkStages(const Problem &problem,
                                     const Schedule &schedule) {
  Schedule out = schedule;
  const unsigned n = problem.getNumOps();
  const int64_t ii = schedule.ii;
  if (!ii || n == 0 || schedule.start.size() != n || problem.isForceSerial())
    return out;

  // Bounds no op may cross: the last stage and the latest completion.
  int64_t lastStage = 0, end = 0;
  for (OpId id = 0; id < n; ++id) {
    lastStage = std::max(lastStage, schedule.start[id] / ii);
    end = std::max(end,
                   schedule.start[id] + problem.getOp(id).latency.value_or(0));
  }

  auto deps = problem.getDependences();
  auto counted = [&](const Dependence &dep) {
    return dep.src != dep.dst && dep.src < n && dep.dst < n;
  };
  support::Adjacency succs(n, [&](auto add) {
    for (auto [idx, dep] : llvm::enumerate(deps))
      if (counted(dep))
        add(dep.src, idx);
  });
  std::vector<unsigned> numPreds(n, 0);
  for (const Dependence &dep : deps)
    if (counted(dep))
      ++numPreds[dep.dst];

  hoistRecurrences(problem, out, succs);
  // The hoist may have emptied the last stages.
  lastStage = 0;
  end = 0;
  for (OpId id = 0; id < n; ++id) {
    lastStage = std::max(lastStage, out.start[id] / ii);
    end = std::max(end, out.start[id] + problem.getOp(id).latency.value_or(0));
  }

  const ConstraintGroups &groups = problem.getGroups();
  // Moving a consumer later relaxes its producers: sweep until nothing
  // moves. Starts only grow and are bounded, so this terminates.
  for (bool changed = true; changed;) {
    changed = false;
    for (OpId u = n; u-- > 0;) {
      // Moving u by k stages shortens each outgoing edge by k and lengthens
      // each incoming one by k: only ops with at least as many consumers as
      // producers move, so the total lifetime never grows.
      if (succs[u].empty() || numPreds[u] > succs[u].size() ||
          groups.groupOf(u))
        continue;
      const Operation &op = problem.getOp(u);
      int64_t cur = out.start[u];
      int64_t limit = end - op.latency.value_or(0);
      for (unsigned e : succs[u])
        limit = std::min(limit, out.start[deps[e].dst] +
                                    int64_t(deps[e].distance) * ii -
                                    deps[e].latency);
      int64_t maxStage = lastStage;
      if (op.constraints.maxDepth)
        maxStage = std::min<int64_t>(maxStage, *op.constraints.maxDepth);
      int64_t row = cur % ii;
      limit = std::min(limit, maxStage * ii + row);
      if (limit <= cur)
        continue;
      int64_t shift = (limit - cur) / ii;
      if (shift > 0) {
        out.start[u] = cur + shift * ii;
        changed = true;
      }
    }
  }
  return out;
}

int64_t tilepipe::sched::totalStageLifetime(const Problem &problem,
                                            const Schedule &schedule) {
  int64_t total = 0;
  const int64_t ii = schedule.ii;
  if (!ii)
    return 0;
  for (const Dependence &dep : problem.getDependences())
    if (dep.src != dep.dst)
      total += schedule.start[dep.dst] / ii + int64_t(dep.distance) -
               schedule.start[dep.src] / ii;
  return total;
}
