//===- MinBuffer.cpp - fewest buffered bytes, exactly ---------------------===//

#include "scheduler/stages/MinBuffer.h"

#include "scheduler/stages/StageConstraints.h"

#include <lemon/network_simplex.h>
#include <lemon/smart_graph.h>

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

/// pi[to] - pi[from] >= gap over nodes 0 (the reference, stage 0), 1..n (the
/// ops), n+1.. (one per value: the stage of its latest use).
struct Arc {
  unsigned from, to;
  int64_t gap;
};

/// Minimises sum coef[v] * pi[v] subject to `arcs`; returns the potentials,
/// and the arcs the optimal flow uses (tight in every optimal solution).
std::optional<std::vector<int64_t>> solve(unsigned numNodes,
                                          const std::vector<Arc> &arcs,
                                          const std::vector<int64_t> &coef,
                                          std::vector<bool> &used) {
  using Graph = lemon::SmartDigraph;
  Graph g;
  g.reserveNode(int(numNodes));
  g.reserveArc(int(arcs.size()));
  std::vector<Graph::Node> nodes;
  for (unsigned i = 0; i < numNodes; ++i)
    nodes.push_back(g.addNode());
  Graph::ArcMap<int64_t> cost(g);
  Graph::NodeMap<int64_t> supply(g);
  std::vector<Graph::Arc> handles;
  for (const Arc &a : arcs) {
    Graph::Arc h = g.addArc(nodes[a.from], nodes[a.to]);
    cost[h] = -a.gap;
    handles.push_back(h);
  }
  // The dual of min coef . pi: inflow - outflow = coef at every node.
  for (unsigned i = 0; i < numNodes; ++i)
    supply[nodes[i]] = -coef[i];
  lemon::NetworkSimplex<Graph, int64_t, int64_t> flow(g);
  flow.costMap(cost).supplyMap(supply);
  if (flow.run() != decltype(flow)::OPTIMAL)
    return std::nullopt;
  std::vector<int64_t> pi(numNodes);
  for (unsigned i = 0; i < numNodes; ++i)
    pi[i] = -flow.potential(nodes[i]);
  used.assign(arcs.size(), false);
  for (size_t i = 0; i < arcs.size(); ++i)
    used[i] = flow.flow(handles[i]) > 0;
  return pi;
}

} // namespace

std::optional<Schedule>
tilepipe::sched::minBufferStages(const Problem &problem,
                                 const Schedule &schedule) {
  if (problem.isForceSerial() || schedule.ii == 0)
    return std::nullopt;
  StageConstraints c = stageConstraints(problem, schedule);
  const unsigned n = problem.getNumOps();

  // Value nodes: one per op whose result another op uses.
  std::vector<int> valueNode(n, -1);
  unsigned numNodes = n + 1;
  std::vector<Arc> arcs;
  for (const Dependence &d : problem.getDependences())
    if (d.src != d.dst && valueNode[d.src] < 0)
      valueNode[d.src] = int(numNodes++);
  for (const Dependence &d : problem.getDependences())
    if (d.src != d.dst)
      arcs.push_back(
          {d.dst + 1, unsigned(valueNode[d.src]), int64_t(d.distance)});
  for (OpId id = 0; id < n; ++id) {
    arcs.push_back({0, id + 1, 0});
    if (c.maxStage[id])
      arcs.push_back({id + 1, 0, -*c.maxStage[id]});
  }
  for (const StageArc &a : c.arcs)
    arcs.push_back({a.from + 1, a.to + 1, a.gap});

  auto objective = [&](auto weight) {
    std::vector<int64_t> coef(numNodes, 0);
    bool any = false;
    for (OpId id = 0; id < n; ++id)
      if (valueNode[id] >= 0) {
        int64_t w = weight(problem.getOp(id));
        coef[unsigned(valueNode[id])] += w;
        coef[id + 1] -= w;
        any |= w != 0;
      }
    return any ? coef : std::vector<int64_t>();
  };
  std::vector<std::vector<int64_t>> phases = {
      objective([](const Operation &op) {
        return op.resultMemory == ValueMemory::Register ? int64_t(0)
                                                        : op.resultBytes;
      }),
      objective([](const Operation &op) {
        return op.resultMemory == ValueMemory::Register ? op.resultBytes
                                                        : int64_t(0);
      })};
  std::vector<int64_t> earliest(numNodes, 0);
  for (OpId id = 0; id < n; ++id)
    earliest[id + 1] = 1;
  earliest[0] = -int64_t(n);
  phases.push_back(earliest);

  std::vector<int64_t> pi;
  for (const std::vector<int64_t> &coef : phases) {
    if (coef.empty())
      continue;
    std::vector<bool> used;
    std::optional<std::vector<int64_t>> solved =
        solve(numNodes, arcs, coef, used);
    if (!solved)
      return std::nullopt;
    pi = std::move(*solved);
    // Later objectives may not give up what this one reached.
    size_t numArcs = arcs.size();
    for (size_t i = 0; i < numArcs; ++i)
      if (used[i])
        arcs.push_back({arcs[i].to, arcs[i].from, -arcs[i].gap});
  }
  std::vector<int64_t> stages(n);
  for (OpId id = 0; id < n; ++id)
    stages[id] = pi[id + 1] - pi[0];
  Schedule out = c.scheduleOf(stages);
  DiagnosticList ignored;
  if (!problem.verify(out, ignored))
    return std::nullopt;
  return out;
}
