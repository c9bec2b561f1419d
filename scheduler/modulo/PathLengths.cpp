//===- PathLengths.cpp ----------------------------------------------------===//

#include "scheduler/modulo/PathLengths.h"
#include "scheduler/modulo/Placement.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::modulo;

namespace {

enum class Direction { Forward, Backward };

/// The dependence graph in the order the relaxations sweep it: ops in a
/// topological order of the distance-0 dependences, each with its incoming
/// and outgoing edges.
struct SweepOrder {
  std::vector<OpId> topo;
  support::Adjacency preds, succs;

  explicit SweepOrder(const Problem &problem) {
    const unsigned n = problem.getNumOps();
    auto deps = problem.getDependences();
    auto edges = [&](bool in) {
      return [&, in](auto add) {
        for (auto [idx, d] : llvm::enumerate(deps))
          if (d.src != d.dst)
            add(in ? d.dst : d.src, idx);
      };
    };
    preds = support::Adjacency(n, edges(true));
    succs = support::Adjacency(n, edges(false));
    std::vector<unsigned> indegree(n, 0);
    for (const Dependence &d : deps)
      if (d.src != d.dst && d.distance == 0)
        ++indegree[d.dst];
    // Kahn's walk. A checked problem has no distance-0 cycle; should one be
    // left, its ops go last in program order and the sweeps still converge,
    // only in more passes.
    topo.reserve(n);
    for (OpId op = 0; op < n; ++op)
      if (!indegree[op])
        topo.push_back(op);
    for (size_t head = 0; head < topo.size(); ++head)
      for (unsigned e : succs[topo[head]])
        if (deps[e].distance == 0 && --indegree[deps[e].dst] == 0)
          topo.push_back(deps[e].dst);
    if (topo.size() < n)
      for (OpId op = 0; op < n; ++op)
        if (indegree[op])
          topo.push_back(op);
  }
};

// Longest-path relaxation of `value` along every dependence: forward,
// value[dst] >= value[src] + w; backward, value[src] <= value[dst] - w.
// INT64_MAX marks "unbounded" on the backward side and is never relaxed from.
//
// Each pass sweeps the ops in topological order of the distance-0 edges
// (reversed for the backward direction), so one pass settles every path
// made of distance-0 edges however long; only the carried edges need
// further passes, one per carried edge on the longest path. Without a
// positive cycle (the caller rejects such IIs first) the passes reach the
// fixpoint within n of them; the bound is a guard only.
void relax(const Problem &problem, const SweepOrder &order, unsigned ii,
           Direction dir, std::vector<int64_t> &value) {
  auto deps = problem.getDependences();
  const unsigned n = problem.getNumOps();
  auto weight = [&](const Dependence &d) {
    return d.latency - int64_t(d.distance) * ii;
  };
  for (unsigned pass = 0; pass <= n; ++pass) {
    bool changed = false;
    if (dir == Direction::Forward) {
      for (OpId op : order.topo)
        for (unsigned e : order.preds[op]) {
          const Dependence &d = deps[e];
          int64_t v = value[d.src] + weight(d);
          if (v > value[op]) {
            value[op] = v;
            changed = true;
          }
        }
    } else {
      for (OpId op : llvm::reverse(order.topo))
        for (unsigned e : order.succs[op]) {
          const Dependence &d = deps[e];
          if (value[d.dst] == INT64_MAX)
            continue;
          int64_t v = value[d.dst] - weight(d);
          if (v < value[op]) {
            value[op] = v;
            changed = true;
          }
        }
    }
    if (!changed)
      break;
  }
}

} // namespace

PathLengths PathLengths::compute(const Problem &problem, unsigned ii) {
  const unsigned n = problem.getNumOps();
  PathLengths p;
  SweepOrder order(problem);
  // Height is the longest path to a sink: a backward relaxation of the
  // negated values, kept positive.
  std::vector<int64_t> negHeight(n, 0);
  relax(problem, order, ii, Direction::Backward, negHeight);
  p.height.resize(n);
  for (OpId op = 0; op < n; ++op)
    p.height[op] = -negHeight[op];

  p.asap.assign(n, 0);
  relax(problem, order, ii, Direction::Forward, p.asap);

  p.deadline.assign(n, INT64_MAX);
  bool capped = false;
  for (OpId op = 0; op < n; ++op)
    if (std::optional<unsigned> d = problem.getOp(op).constraints.maxDepth) {
      p.deadline[op] = depthCapEnd(*d, ii);
      capped = true;
    }
  if (capped)
    relax(problem, order, ii, Direction::Backward, p.deadline);

  int64_t length = n ? *std::max_element(p.asap.begin(), p.asap.end()) : 0;
  p.alap.assign(n, length);
  for (OpId op = 0; op < n; ++op)
    p.alap[op] = std::min(p.alap[op], p.deadline[op]);
  relax(problem, order, ii, Direction::Backward, p.alap);
  return p;
}
