//===- InstanceBuilder.cpp - a raw graph as a GauS instance ---------------===//
//
// The graph the text readers (TextReaders.cpp) produce becomes an
// instance of the asked formulation here, so the formulation defaults
// live in a single place: A and B take the depth of the longest path in
// nodes, C on a DAG adds recurrences and a resource and searches the II
// (chooseIIAndDepth, which the problem readers use too). The raw graph is
// checked for cycles before any longest path is taken.
//
// Choices the sources leave open (docs/gaus.md):
//   - Bytes in B and C on GS-Schedule graphs are the node's parameter when
//     it is positive and 1 otherwise: about 60% of the nodes have parameter
//     0, and a value that takes no memory would make their lifetimes free.
//   - Duplicate edges are merged (GS-Schedule's graphs are NetworkX
//     DiGraphs, where they cannot exist; the .dag files merged them too);
//     the merged edge keeps the larger weight.
//   - C on a DAG: the II is the smallest at which the edges admit a
//     schedule, from ResMII up. With the capacity set to
//     ceil(users / targetResMII), the reservation table is nearly full at
//     that II whenever ResMII decides it.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Legalize.h"
#include "scheduler/gaus/ReaderSupport.h"
#include "support/SplitMix64.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace tilepipe;
using namespace tilepipe::gaus;
using namespace tilepipe::gaus::detail;

namespace {

/// Merges duplicate edges in place (first occurrence kept, in file order,
/// with the larger weight).
void mergeDuplicates(RawGraph &raw) {
  std::vector<unsigned> byPair(raw.edges.size());
  std::iota(byPair.begin(), byPair.end(), 0u);
  std::sort(byPair.begin(), byPair.end(), [&](unsigned a, unsigned b) {
    const RawEdge &x = raw.edges[a], &y = raw.edges[b];
    return std::tie(x.src, x.dst, a) < std::tie(y.src, y.dst, b);
  });
  std::vector<char> keep(raw.edges.size(), 1);
  bool any = false;
  for (size_t k = 1; k < byPair.size(); ++k) {
    RawEdge &first = raw.edges[byPair[k - 1]];
    const RawEdge &dup = raw.edges[byPair[k]];
    if (first.src != dup.src || first.dst != dup.dst)
      continue;
    // The sort puts a run's first occurrence first; passing it along folds
    // every later duplicate into that one.
    first.weight = std::max(first.weight, dup.weight);
    keep[byPair[k]] = 0;
    byPair[k] = byPair[k - 1];
    any = true;
  }
  if (!any)
    return;
  size_t out = 0;
  for (size_t k = 0; k < raw.edges.size(); ++k)
    if (keep[k])
      raw.edges[out++] = raw.edges[k];
  raw.edges.resize(out);
}

/// Levels with unit latency (the longest path in edges to each node) by a
/// topological walk; on a cycle, reports one of its edges' lines.
bool computeLevels(const RawGraph &raw, std::vector<int64_t> &level,
                   Errors &errors) {
  unsigned n = raw.names.size();
  std::vector<unsigned> begin(n + 1, 0), indegree(n, 0);
  for (const RawEdge &e : raw.edges) {
    ++begin[e.src + 1];
    ++indegree[e.dst];
  }
  for (unsigned i = 0; i < n; ++i)
    begin[i + 1] += begin[i];
  std::vector<unsigned> out(raw.edges.size());
  {
    std::vector<unsigned> fill(begin.begin(), begin.end() - 1);
    for (unsigned k = 0; k < raw.edges.size(); ++k)
      out[fill[raw.edges[k].src]++] = k;
  }
  level.assign(n, 0);
  std::vector<unsigned> order;
  order.reserve(n);
  for (unsigned i = 0; i < n; ++i)
    if (indegree[i] == 0)
      order.push_back(i);
  for (size_t next = 0; next < order.size(); ++next) {
    unsigned u = order[next];
    for (unsigned k = begin[u]; k < begin[u + 1]; ++k) {
      const RawEdge &e = raw.edges[out[k]];
      level[e.dst] = std::max(level[e.dst], level[u] + 1);
      if (--indegree[e.dst] == 0)
        order.push_back(e.dst);
    }
  }
  if (order.size() == n)
    return true;
  // Every node left has an in-edge from another node left: walking those
  // backwards n times ends on a cycle.
  std::vector<unsigned> inEdge(n, ~0u);
  for (unsigned k = 0; k < raw.edges.size(); ++k)
    if (indegree[raw.edges[k].src] > 0 && indegree[raw.edges[k].dst] > 0)
      inEdge[raw.edges[k].dst] = k;
  unsigned v = 0;
  while (indegree[v] == 0)
    ++v;
  for (unsigned step = 0; step < n; ++step)
    v = raw.edges[inEdge[v]].src;
  const RawEdge &e = raw.edges[inEdge[v]];
  return errors.at(e.line, "edge " + raw.names[e.src] + " -> " +
                               raw.names[e.dst] +
                               " closes a cycle; the graph must be a DAG");
}

/// Whether `instance`'s edges admit a schedule at `ii` (and, with a depth
/// given, one inside it); `longest` gets the steps the ASAP starts span.
bool feasibleAt(const Instance &instance, unsigned ii, int64_t depth,
                int64_t &longest, std::string &reason) {
  std::vector<int64_t> starts(instance.nodes.size(), 0);
  if (!raiseToFixedPoint(instance, ii, starts, reason))
    return false;
  longest = maxStart(starts) + 1;
  if (depth > 0 && longest > depth) {
    reason = "the critical path at II " + std::to_string(ii) + " needs " +
             std::to_string(longest) + " steps, more than the depth " +
             std::to_string(depth);
    return false;
  }
  return true;
}

/// The smallest II >= `lowest` at which the edges admit a schedule (within
/// `depth` when it is positive). Feasibility only grows with the II, so a
/// galloping search from `lowest` followed by bisection finds it in
/// O(log) tests, most of them near `lowest` where the answer usually is.
std::optional<unsigned> searchII(const Instance &instance, unsigned lowest,
                                 int64_t depth, std::string &reason) {
  // Above every cycle's latency no cycle is positive, and back edges lift
  // nothing past the zero-distance paths.
  uint64_t latencies = 0;
  for (const Edge &e : instance.edges)
    latencies += uint64_t(std::max<int64_t>(0, e.latency));
  uint64_t highest = std::min<uint64_t>(uint64_t(lowest) + 2 * latencies + 1,
                                        uint64_t(UINT32_MAX));
  int64_t longest;
  if (!feasibleAt(instance, unsigned(highest), depth, longest, reason))
    return std::nullopt;
  uint64_t bad = lowest, step = 1;
  // Gallop: find a feasible II, remembering the last infeasible one.
  uint64_t good = highest;
  for (uint64_t ii = lowest; ii < highest; ii = bad + step, step *= 2) {
    std::string ignored;
    if (feasibleAt(instance, unsigned(ii), depth, longest, ignored)) {
      good = ii;
      break;
    }
    bad = ii;
  }
  if (good == lowest)
    return lowest;
  // Bisect (bad, good]: bad is infeasible, good feasible.
  while (good - bad > 1) {
    uint64_t mid = bad + (good - bad) / 2;
    std::string ignored;
    if (feasibleAt(instance, unsigned(mid), depth, longest, ignored))
      good = mid;
    else
      bad = mid;
  }
  return unsigned(good);
}

} // namespace

bool tilepipe::gaus::detail::chooseIIAndDepth(Instance &instance,
                                              unsigned lowest,
                                              const ReadOptions &options,
                                              unsigned slackStages,
                                              Errors &errors) {
  std::string reason;
  unsigned ii;
  if (options.ii > 0) {
    ii = options.ii;
  } else {
    std::optional<unsigned> found =
        searchII(instance, std::max(lowest, 1u), options.depth, reason);
    if (!found)
      return errors.whole("no II admits a schedule: " + reason);
    ii = *found;
  }
  int64_t longest;
  if (!feasibleAt(instance, ii, options.depth, longest, reason))
    return errors.whole("II " + std::to_string(ii) +
                        " admits no schedule: " + reason);
  instance.ii = ii;
  instance.depth = options.depth > 0
                       ? options.depth
                       : longest + int64_t(slackStages) * int64_t(ii);
  return true;
}

namespace {

/// Formulation C on a DAG: recurrences by a fixed seed, one shared
/// resource, then the II and the depth.
bool augmentModulo(const RawGraph &raw, const std::vector<int64_t> &level,
                   const ReadOptions &options, Instance &instance,
                   Errors &errors) {
  unsigned n = instance.nodes.size();
  // Nodes by (level, id): the ones with level <= L form a prefix.
  int64_t maxLevel = maxStart(level);
  std::vector<unsigned> prefixEnd(maxLevel + 2, 0);
  for (unsigned i = 0; i < n; ++i)
    ++prefixEnd[level[i] + 1];
  for (int64_t l = 0; l <= maxLevel; ++l)
    prefixEnd[l + 1] += prefixEnd[l];
  std::vector<unsigned> byLevel(n);
  {
    std::vector<unsigned> fill(prefixEnd.begin(), prefixEnd.end() - 1);
    for (unsigned i = 0; i < n; ++i)
      byLevel[fill[level[i]]++] = i;
  }

  uint64_t wanted =
      uint64_t(std::llround(double(n) * options.recurrencesPer100 / 100.0));
  // support/SplitMix64.h: the same recurrences with every standard library.
  SplitMix64 rng(options.augmentSeed);
  llvm::DenseSet<uint64_t> added;
  // A pick can be refused (no earlier node, or a repeat); the attempt cap
  // keeps tiny graphs from spinning.
  for (uint64_t attempt = 0; attempt < 8 * wanted + 64 && added.size() < wanted;
       ++attempt) {
    if (n < 2)
      break;
    unsigned v = unsigned(rng.next() % n);
    unsigned earlier = prefixEnd[level[v] + 1]; // Nodes with level <= v's.
    unsigned u = byLevel[rng.next() % earlier];
    unsigned distance = 1 + unsigned(rng.next() & 1);
    if (u == v || !added.insert((uint64_t(v) << 32) | u).second)
      continue;
    Edge back;
    back.src = v;
    back.dst = u;
    back.latency = 1;
    back.distance = distance;
    back.comm = 0;
    instance.edges.push_back(back);
  }

  unsigned users = 0;
  for (unsigned i = 0; i < n; ++i)
    if (raw.usesUnit[i]) {
      instance.nodes[i].uses.push_back(Use{0, 0, 1, 1});
      ++users;
    }
  unsigned capacity =
      std::max(1u, (users + options.targetResMII - 1) / options.targetResMII);
  unsigned resMII = std::max(1u, (users + capacity - 1) / capacity);
  instance.capacity = {double(capacity)};
  instance.resourceNames = {"unit"};
  if (!chooseIIAndDepth(instance, resMII, options, /*slackStages=*/1, errors))
    return false;
  if (options.ii > 0)
    return true;
  // At the bound the table is (nearly) full and the recurrences have no
  // slack, and on many DAGs no method finds a schedule at all; the first
  // II (up to twice the bound) where the legaliser seats the ASAP starts
  // gives every method a known legal schedule to beat (docs/gaus.md).
  unsigned bound = instance.ii;
  for (unsigned ii = bound; ii <= 2 * bound; ++ii) {
    ReadOptions at = options;
    at.ii = ii;
    // A larger II only loosens the recurrences: feasible at the bound,
    // feasible here.
    if (!chooseIIAndDepth(instance, ii, at, /*slackStages=*/1, errors))
      return false;
    std::string reason;
    std::optional<Frames> frames = computeFrames(instance, reason);
    if (frames && legalize(instance, *frames, frames->asap))
      return true;
  }
  ReadOptions at = options;
  at.ii = bound;
  return chooseIIAndDepth(instance, bound, at, /*slackStages=*/1, errors);
}

} // namespace

bool tilepipe::gaus::detail::buildFromRaw(RawGraph &raw,
                                          const ReadOptions &options,
                                          Instance &instance, Errors &errors) {
  mergeDuplicates(raw);
  std::vector<int64_t> level;
  if (!computeLevels(raw, level, errors))
    return false;
  unsigned n = raw.names.size();
  int64_t longest = n == 0 ? 0 : maxStart(level) + 1; // Nodes on it.
  if (raw.levels && n > 0 && int64_t(*raw.levels) != longest - 1)
    return errors.at(raw.headerLine,
                     "the header gives " + std::to_string(*raw.levels) +
                         " levels but the longest path has " +
                         std::to_string(longest - 1) + " edges");

  instance.formulation = options.formulation;
  instance.alpha = options.alpha;
  instance.nodes.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    Node &node = instance.nodes[i];
    node.name = std::move(raw.names[i]);
    node.weight = raw.weight[i];
    node.bytes = raw.unitBytes || raw.weight[i] <= 0 ? 1 : raw.weight[i];
  }
  // A's dependences are non-strict (GS-Schedule's LP: v_src <= v_dst).
  int64_t latency = options.formulation == Formulation::A ? 0 : 1;
  instance.edges.reserve(raw.edges.size());
  for (const RawEdge &e : raw.edges) {
    Edge edge;
    edge.src = e.src;
    edge.dst = e.dst;
    edge.latency = latency;
    edge.distance = 0;
    edge.comm = e.weight;
    instance.edges.push_back(edge);
  }

  if (options.formulation == Formulation::C)
    return augmentModulo(raw, level, options, instance, errors);
  instance.ii = 0;
  instance.depth =
      options.depth > 0 ? options.depth : std::max<int64_t>(longest, 1);
  if (options.formulation == Formulation::B && instance.depth < longest)
    return errors.whole("depth " + std::to_string(instance.depth) +
                        " is below the longest path (" +
                        std::to_string(longest) + " nodes)");
  return true;
}
