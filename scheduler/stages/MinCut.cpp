//===- MinCut.cpp - XLS-style stage assignment by min-cuts ----------------===//

#include "scheduler/stages/MinCut.h"

#include "scheduler/stages/BufferCost.h"
#include "scheduler/stages/StageConstraints.h"

#include <lemon/preflow.h>
#include <lemon/smart_graph.h>

#include <algorithm>
#include <limits>

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

struct Windows {
  std::vector<int64_t> lo, hi;
};

/// What every cut and every propagation reads, built once: the arcs at each
/// op, and how many same-iteration uses each value has.
struct CutGraph {
  std::vector<std::vector<unsigned>> out, in; ///< Arc indices per op.
  std::vector<unsigned> fanout;

  CutGraph(const Problem &problem, const StageConstraints &c)
      : out(problem.getNumOps()), in(problem.getNumOps()),
        fanout(problem.getNumOps(), 0) {
    for (unsigned i = 0; i < c.arcs.size(); ++i) {
      out[c.arcs[i].from].push_back(i);
      in[c.arcs[i].to].push_back(i);
    }
    for (const Dependence &d : problem.getDependences())
      if (d.src != d.dst && d.distance == 0)
        ++fanout[d.src];
  }
};

/// Narrows the windows until every arc holds between them; false when one
/// empties. A worklist: only the arcs at an op whose window moved are looked
/// at again.
bool propagate(const StageConstraints &c, const CutGraph &graph, Windows &w) {
  const size_t n = w.lo.size();
  std::vector<unsigned> work(n);
  std::vector<bool> queued(n, true);
  for (unsigned i = 0; i < n; ++i)
    work[i] = i;
  while (!work.empty()) {
    unsigned v = work.back();
    work.pop_back();
    queued[v] = false;
    if (w.lo[v] > w.hi[v])
      return false;
    auto push = [&](unsigned u) {
      if (!queued[u]) {
        queued[u] = true;
        work.push_back(u);
      }
    };
    for (unsigned i : graph.out[v]) { // v's lower bound pushes its successors.
      const StageArc &a = c.arcs[i];
      if (w.lo[v] + a.gap > w.lo[a.to]) {
        w.lo[a.to] = w.lo[v] + a.gap;
        push(a.to);
      }
    }
    for (unsigned i : graph.in[v]) { // v's upper bound pulls its predecessors.
      const StageArc &a = c.arcs[i];
      if (w.hi[v] - a.gap < w.hi[a.from]) {
        w.hi[a.from] = w.hi[v] - a.gap;
        push(a.from);
      }
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (w.lo[i] > w.hi[i])
      return false;
  return true;
}

/// One boundary: the ops that stay before stage `b` (true) and after.
std::vector<bool> cut(const Problem &problem, const StageConstraints &c,
                      const CutGraph &graph, const Windows &w, int64_t b,
                      const std::vector<double> &weight) {
  using Graph = lemon::SmartDigraph;
  const unsigned n = problem.getNumOps();
  const double inf = std::numeric_limits<double>::infinity();
  Graph g;
  Graph::Node source = g.addNode(), sink = g.addNode();
  std::vector<Graph::Node> op(n);
  for (OpId i = 0; i < n; ++i)
    op[i] = g.addNode();
  Graph::ArcMap<double> cap(g);
  auto arc = [&](Graph::Node from, Graph::Node to, double capacity) {
    cap[g.addArc(from, to)] = capacity;
  };
  for (OpId i = 0; i < n; ++i) {
    if (w.hi[i] < b)
      arc(source, op[i], inf);
    if (w.lo[i] >= b)
      arc(op[i], sink, inf);
  }
  // stage_to >= stage_from + gap, gap >= 0: `from` after the boundary puts
  // `to` after it too, so no cut may separate them that way.
  for (const StageArc &a : c.arcs)
    if (a.gap >= 0)
      arc(op[a.to], op[a.from], inf);
  // A value crosses when its producer is before and a use after; the
  // fan-out node makes all its uses crossing cost its bytes once.
  std::vector<Graph::Node> sinkOf(n, lemon::INVALID);
  for (const Dependence &d : problem.getDependences()) {
    if (d.src == d.dst || d.distance != 0 || weight[d.src] == 0)
      continue;
    double share = weight[d.src] / graph.fanout[d.src];
    if (sinkOf[d.src] == lemon::INVALID)
      sinkOf[d.src] = g.addNode();
    arc(op[d.src], op[d.dst], share);
    arc(op[d.dst], sinkOf[d.src], share);
  }
  lemon::Preflow<Graph, Graph::ArcMap<double>> flow(g, cap, source, sink);
  flow.runMinCut();
  std::vector<bool> before(n);
  for (OpId i = 0; i < n; ++i)
    before[i] = flow.minCut(op[i]);
  return before;
}

} // namespace

std::optional<Schedule>
tilepipe::sched::minCutStages(const Problem &problem,
                              const Schedule &schedule) {
  if (problem.isForceSerial() || schedule.ii == 0)
    return std::nullopt;
  StageConstraints c = stageConstraints(problem, schedule);
  const unsigned n = problem.getNumOps();
  std::vector<int64_t> given = c.stagesOf(schedule);
  int64_t numStages = 1;
  for (int64_t s : given)
    numStages = std::max(numStages, s + 1);

  CutGraph graph(problem, c);
  Windows initial;
  initial.lo.assign(n, 0);
  initial.hi.assign(n, numStages - 1);
  for (OpId i = 0; i < n; ++i)
    if (c.maxStage[i])
      initial.hi[i] = std::min(initial.hi[i], *c.maxStage[i]);
  if (!propagate(c, graph, initial))
    return std::nullopt;

  // Pipe bytes dominate; register bytes break ties.
  std::vector<double> weight(n);
  for (OpId i = 0; i < n; ++i) {
    const Operation &op = problem.getOp(i);
    weight[i] = op.resultMemory == ValueMemory::Register
                    ? double(op.resultBytes) * 1e-6
                    : double(op.resultBytes);
  }

  std::vector<std::vector<int64_t>> orders(3);
  for (int64_t b = 1; b < numStages; ++b) {
    orders[0].push_back(b);
    orders[1].insert(orders[1].begin(), b);
  }
  for (int64_t lo = numStages / 2, hi = lo + 1; lo >= 1 || hi < numStages;
       --lo, ++hi) {
    if (lo >= 1)
      orders[2].push_back(lo);
    if (hi < numStages)
      orders[2].push_back(hi);
  }

  // With few stages the orders coincide; each distinct one runs once.
  std::sort(orders.begin(), orders.end());
  orders.erase(std::unique(orders.begin(), orders.end()), orders.end());

  std::optional<Schedule> best;
  BufferedBytes bestBytes;
  for (const std::vector<int64_t> &order : orders) {
    Windows w = initial;
    bool ok = true;
    for (int64_t b : order) {
      std::vector<bool> before = cut(problem, c, graph, w, b, weight);
      for (OpId i = 0; i < n; ++i) {
        if (before[i])
          w.hi[i] = std::min(w.hi[i], b - 1);
        else
          w.lo[i] = std::max(w.lo[i], b);
      }
      if (!(ok = propagate(c, graph, w)))
        break;
    }
    if (!ok)
      continue;
    Schedule candidate = c.scheduleOf(w.lo);
    DiagnosticList ignored;
    if (!problem.verify(candidate, ignored))
      continue;
    BufferedBytes bytes = bufferedBytes(problem, candidate);
    if (!best || bytes < bestBytes) {
      best = std::move(candidate);
      bestBytes = bytes;
    }
  }
  return best;
}
