//===- Graph.cpp - time frames of a GauS instance -------------------------===//
//
// ASAP and ALAP are longest paths over the difference constraints
// s_v >= s_u + latency - distance * II. Most instances are DAGs (every
// distance 0), where one pass in topological order is exact. The few back
// edges of a modulo instance are folded in by Bellman-Ford in rounds: a
// topological pass, then a pass over the back edges, the next pass
// expanding only what they raised. A FIFO queue instead would visit a
// deep DAG once per wave of raises (div.dag has 4,372 levels), which made
// an infeasible II cost seconds; rounds cost what they change. A positive
// cycle is caught two ways: labels still rising after (back edges + 1)
// rounds, the bound that guarantees termination, and, every |V|
// relaxations, a cycle in the parent graph, which in practice shows after
// a round or two. Only when the distance-0 edges themselves have a cycle
// is there no topological order; then a queue-based Bellman-Ford with the
// same two checks does the whole job.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Graph.h"

#include <algorithm>
#include <cassert>

using namespace tilepipe::gaus;

namespace {

constexpr unsigned kNone = ~0u;

/// One constraint label[head] >= label[tail] + weight, stored at its tail.
struct Arc {
  unsigned head;
  unsigned edge; ///< Index into Instance::edges, for the reason.
  int64_t weight;
  bool back; ///< distance > 0: not part of the topological pass.
};

/// The constraints as CSR adjacency by tail. Reversed, an edge u -> v
/// becomes v -> u with the same weight: that is the ALAP system written on
/// x = depth - 1 - alap (x_u >= x_v + latency - distance * II).
struct Digraph {
  std::vector<unsigned> begin; ///< numNodes + 1 offsets into arcs.
  std::vector<Arc> arcs;
  bool hasBack = false;

  Digraph(const Instance &instance, unsigned ii, bool reversed) {
    unsigned n = instance.nodes.size();
    begin.assign(n + 1, 0);
    for (const Edge &e : instance.edges)
      ++begin[(reversed ? e.dst : e.src) + 1];
    for (unsigned i = 0; i < n; ++i)
      begin[i + 1] += begin[i];
    arcs.resize(instance.edges.size());
    std::vector<unsigned> fill(begin.begin(), begin.end() - 1);
    for (unsigned k = 0; k < instance.edges.size(); ++k) {
      const Edge &e = instance.edges[k];
      unsigned tail = reversed ? e.dst : e.src;
      unsigned head = reversed ? e.src : e.dst;
      int64_t weight = e.latency - int64_t(e.distance) * int64_t(ii);
      arcs[fill[tail]++] = {head, k, weight, e.distance > 0};
      hasBack |= e.distance > 0;
    }
  }
  unsigned numNodes() const { return begin.size() - 1; }
};

std::string nodeName(const Instance &instance, unsigned i) {
  const std::string &name = instance.nodes[i].name;
  if (name.empty())
    return "#" + std::to_string(i);
  return "'" + name + "'";
}

/// Kahn's walk over the distance-0 arcs of `g` (ready nodes by id, so the
/// order is deterministic); false when those arcs have a cycle.
bool topologicalOrder(const Digraph &g, std::vector<unsigned> &order) {
  unsigned n = g.numNodes();
  std::vector<unsigned> indegree(n, 0);
  for (const Arc &a : g.arcs)
    if (!a.back)
      ++indegree[a.head];
  order.clear();
  order.reserve(n);
  for (unsigned i = 0; i < n; ++i)
    if (indegree[i] == 0)
      order.push_back(i);
  for (size_t next = 0; next < order.size(); ++next) {
    unsigned u = order[next];
    for (unsigned k = g.begin[u]; k < g.begin[u + 1]; ++k) {
      const Arc &a = g.arcs[k];
      if (!a.back && --indegree[a.head] == 0)
        order.push_back(a.head);
    }
  }
  return order.size() == n;
}

/// Names the cycle `cycle` (edge indices in order) for a reason.
std::string describeCycle(const Instance &instance, unsigned ii,
                          const std::vector<unsigned> &cycle) {
  int64_t latency = 0, distance = 0;
  for (unsigned k : cycle) {
    latency += instance.edges[k].latency;
    distance += instance.edges[k].distance;
  }
  std::string text;
  if (distance == 0)
    text = "a cycle of distance-0 edges (no II can schedule it): ";
  else
    text = "a positive cycle at II " + std::to_string(ii) + " (latency " +
           std::to_string(latency) + ", distance " + std::to_string(distance) +
           "; it needs II >= " +
           std::to_string((latency + distance - 1) / distance) + "): ";
  constexpr size_t kShown = 8;
  for (size_t i = 0; i < cycle.size() && i < kShown; ++i)
    text += nodeName(instance, instance.edges[cycle[i]].src) + " -> ";
  if (cycle.size() > kShown)
    text += "... -> ";
  text += nodeName(instance, instance.edges[cycle.front()].src);
  return text;
}

/// Looks for a cycle in the parent graph (parentEdge[v]: the edge that last
/// raised v, kNone for none). Any such cycle is positive: every parent link
/// was set by a strict increase. Fills `cycle` with its edges in order.
bool findParentCycle(const Instance &instance, const Digraph &g,
                     const std::vector<unsigned> &parentEdge,
                     std::vector<unsigned> &stamp, std::vector<unsigned> &cycle,
                     bool reversed) {
  unsigned n = g.numNodes();
  std::fill(stamp.begin(), stamp.end(), kNone);
  auto tailOf = [&](unsigned edge) {
    const Edge &e = instance.edges[edge];
    return reversed ? e.dst : e.src;
  };
  for (unsigned start = 0; start < n; ++start) {
    unsigned v = start;
    while (v != kNone && stamp[v] == kNone) {
      stamp[v] = start;
      v = parentEdge[v] == kNone ? kNone : tailOf(parentEdge[v]);
    }
    if (v == kNone || stamp[v] != start)
      continue;
    // v lies on a cycle: walk it once more, collecting the parent edges.
    cycle.clear();
    unsigned w = v;
    do {
      cycle.push_back(parentEdge[w]);
      w = tailOf(parentEdge[w]);
    } while (w != v);
    // The walk goes backwards along the arcs; the reason reads forwards.
    // For the reversed system the arcs already run against the edges.
    if (!reversed)
      std::reverse(cycle.begin(), cycle.end());
    return true;
  }
  return false;
}

/// Raises `label` to the least fixed point of the arcs of `g` at or above
/// it, given a topological order of g's distance-0 arcs. Rounds of one
/// topological pass and one pass over the back arcs; only nodes raised in
/// the round are expanded, so a round costs what it changes. Without a
/// positive cycle a longest path takes each back arc at most once, so the
/// rounds end within (number of back arcs + 1); more means a cycle.
bool relaxInRounds(const Instance &instance, unsigned ii, const Digraph &g,
                   const std::vector<unsigned> &order,
                   std::vector<int64_t> &label, bool reversed,
                   std::string &reason) {
  unsigned n = g.numNodes();
  std::vector<unsigned> backTails;
  for (unsigned u = 0; u < n; ++u)
    for (unsigned k = g.begin[u]; k < g.begin[u + 1]; ++k)
      if (g.arcs[k].back) {
        backTails.push_back(u);
        break;
      }
  // Round 0 expands every node; later rounds only those a back arc raised
  // and what they raise in turn.
  std::vector<char> dirty(n, 1);
  std::vector<unsigned> parentEdge(n, kNone);
  std::vector<unsigned> stamp(n), cycle;
  uint64_t sinceCheck = 0;
  uint64_t maxRounds = uint64_t(backTails.size()) + 2;
  for (uint64_t round = 0;; ++round) {
    for (unsigned u : order) {
      if (!dirty[u])
        continue;
      for (unsigned k = g.begin[u]; k < g.begin[u + 1]; ++k) {
        const Arc &a = g.arcs[k];
        if (a.back || label[u] + a.weight <= label[a.head])
          continue;
        label[a.head] = label[u] + a.weight;
        parentEdge[a.head] = a.edge;
        dirty[a.head] = 1;
        ++sinceCheck;
      }
    }
    // The back arcs read this round's labels; what they raise is
    // expanded next round.
    std::vector<char> raised(n, 0);
    bool changed = false;
    for (unsigned u : backTails)
      for (unsigned k = g.begin[u]; k < g.begin[u + 1]; ++k) {
        const Arc &a = g.arcs[k];
        if (!a.back || label[u] + a.weight <= label[a.head])
          continue;
        label[a.head] = label[u] + a.weight;
        parentEdge[a.head] = a.edge;
        raised[a.head] = 1;
        changed = true;
        ++sinceCheck;
      }
    if (!changed)
      return true;
    dirty.swap(raised);
    // A parent cycle usually shows within a round or two of a positive
    // cycle; looking costs O(V), so only after O(V) relaxations.
    bool last = round + 1 >= maxRounds;
    if (sinceCheck >= n || last) {
      sinceCheck = 0;
      if (findParentCycle(instance, g, parentEdge, stamp, cycle, reversed)) {
        reason = "the edges have " + describeCycle(instance, ii, cycle);
        return false;
      }
    }
    if (last) {
      reason = "the edges have a positive cycle at II " + std::to_string(ii) +
               " (still rising after " + std::to_string(maxRounds) + " rounds)";
      return false;
    }
  }
}

/// Queue-based Bellman-Ford over every arc: the general case, for when
/// the distance-0 arcs have a cycle and there is no topological order.
bool relaxWithQueue(const Instance &instance, unsigned ii, const Digraph &g,
                    std::vector<int64_t> &label, bool reversed,
                    std::string &reason) {
  unsigned n = g.numNodes();
  // A node is queued at most once at a time; a ring buffer of n slots
  // therefore never overflows.
  std::vector<unsigned> queue(std::max(n, 1u));
  std::vector<char> queued(n, 0);
  size_t head = 0, size = 0;
  auto push = [&](unsigned v) {
    if (queued[v])
      return;
    queued[v] = 1;
    queue[(head + size) % n] = v;
    ++size;
  };
  for (unsigned u = 0; u < n; ++u)
    push(u);

  std::vector<unsigned> chain(n, 0); // Relaxations behind each label.
  std::vector<unsigned> parentEdge(n, kNone);
  std::vector<unsigned> stamp(n), cycle;
  uint64_t sinceCheck = 0;
  while (size > 0) {
    unsigned u = queue[head];
    head = (head + 1) % n;
    --size;
    queued[u] = 0;
    for (unsigned k = g.begin[u]; k < g.begin[u + 1]; ++k) {
      const Arc &a = g.arcs[k];
      if (label[u] + a.weight <= label[a.head])
        continue;
      label[a.head] = label[u] + a.weight;
      parentEdge[a.head] = a.edge;
      chain[a.head] = chain[u] + 1;
      bool cycleSuspected = chain[a.head] >= n;
      if (++sinceCheck >= n) {
        sinceCheck = 0;
        cycleSuspected = true;
      }
      if (cycleSuspected) {
        if (findParentCycle(instance, g, parentEdge, stamp, cycle, reversed)) {
          reason = "the edges have " + describeCycle(instance, ii, cycle);
          return false;
        }
        if (chain[a.head] >= n) {
          // A chain of n strict raises repeats a node, which only a
          // positive cycle allows, even if the parents no longer show it.
          reason = "the edges have a positive cycle at II " +
                   std::to_string(ii) + " through " +
                   nodeName(instance, a.head);
          return false;
        }
      }
      push(a.head);
    }
  }
  return true;
}

/// Raises `label` to the least fixed point of the arcs of `g` at or above
/// it. `order`: a topological order of g's distance-0 arcs, or null when
/// they have a cycle.
bool relax(const Instance &instance, unsigned ii, const Digraph &g,
           const std::vector<unsigned> *order, std::vector<int64_t> &label,
           bool reversed, std::string &reason) {
  if (order)
    return relaxInRounds(instance, ii, g, *order, label, reversed, reason);
  return relaxWithQueue(instance, ii, g, label, reversed, reason);
}

bool checkShape(const Instance &instance, std::string &reason) {
  unsigned n = instance.nodes.size();
  for (size_t k = 0; k < instance.edges.size(); ++k) {
    const Edge &e = instance.edges[k];
    if (e.src >= n || e.dst >= n) {
      reason = "edge " + std::to_string(k) + " names node " +
               std::to_string(std::max(e.src, e.dst)) + " of " +
               std::to_string(n);
      return false;
    }
  }
  return true;
}

} // namespace

bool tilepipe::gaus::raiseToFixedPoint(const Instance &instance, unsigned ii,
                                       std::vector<int64_t> &starts,
                                       std::string &reason) {
  if (!checkShape(instance, reason))
    return false;
  assert(starts.size() == instance.nodes.size() && "one bound per node");
  Digraph forward(instance, ii, /*reversed=*/false);
  std::vector<unsigned> order;
  bool acyclic = topologicalOrder(forward, order);
  return relax(instance, ii, forward, acyclic ? &order : nullptr, starts,
               /*reversed=*/false, reason);
}

std::optional<Frames> tilepipe::gaus::computeFrames(const Instance &instance,
                                                    std::string &reason) {
  unsigned n = instance.nodes.size();
  if (instance.depth < 1) {
    reason = "the depth is " + std::to_string(instance.depth) +
             "; it must be at least 1";
    return std::nullopt;
  }
  if (instance.formulation == Formulation::C && instance.ii == 0) {
    reason = "formulation C needs an II of at least 1";
    return std::nullopt;
  }
  if (!checkShape(instance, reason))
    return std::nullopt;
  unsigned ii = instance.ii;

  Digraph forward(instance, ii, /*reversed=*/false);
  std::vector<unsigned> order;
  bool acyclic = topologicalOrder(forward, order);
  Frames frames;
  frames.asap.assign(n, 0);
  if (!relax(instance, ii, forward, acyclic ? &order : nullptr, frames.asap,
             /*reversed=*/false, reason))
    return std::nullopt;
  int64_t last = instance.depth - 1;
  for (unsigned v = 0; v < n; ++v)
    if (frames.asap[v] > last) {
      int64_t needed =
          *std::max_element(frames.asap.begin(), frames.asap.end()) + 1;
      reason = "the critical path needs " + std::to_string(needed) +
               " steps but the depth is " + std::to_string(instance.depth) +
               " (" + nodeName(instance, v) + " cannot start before step " +
               std::to_string(frames.asap[v]) + ")";
      return std::nullopt;
    }

  // ALAP on x = depth - 1 - alap: the reversed arcs, and the reversed
  // topological order is topological for them.
  Digraph backward(instance, ii, /*reversed=*/true);
  std::reverse(order.begin(), order.end());
  std::vector<int64_t> slack(n, 0);
  if (!relax(instance, ii, backward, acyclic ? &order : nullptr, slack,
             /*reversed=*/true, reason))
    return std::nullopt; // Unreachable: the forward pass saw the same cycles.
  frames.alap.resize(n);
  for (unsigned v = 0; v < n; ++v) {
    frames.alap[v] = last - slack[v];
    // The ASAP starts are a legal schedule, and ALAP is the latest one.
    assert(frames.alap[v] >= frames.asap[v] && "ALAP below ASAP");
  }
  return frames;
}

uint64_t tilepipe::gaus::frameEntries(const Frames &frames) {
  uint64_t total = 0;
  for (size_t i = 0; i < frames.asap.size(); ++i)
    total += uint64_t(frames.alap[i] - frames.asap[i] + 1);
  return total;
}
