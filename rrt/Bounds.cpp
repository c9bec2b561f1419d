//===- Bounds.cpp - lower bounds on the initiation interval ---------------===//
//
// Every bound here is exact in the sense of docs/bounds.md: below it no modulo
// schedule exists, whatever the placement heuristic. The recurrence bound is
// the expensive one; it runs a longest-path positive-cycle test per strongly
// connected component, jumping II to the ratio of each positive cycle it finds
// and interleaving galloping and bisection so the number of tests stays
// logarithmic.
//
//===----------------------------------------------------------------------===//

#include "rrt/Bounds.h"
#include "support/SCC.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <climits>
#include <functional>

using namespace tilepipe::rrt;
using llvm::ArrayRef;

namespace {

constexpr unsigned kNone = UINT_MAX;
// Clamp for edge weights: far enough from the int64 range that adding a
// clamped weight to any label a terminating search can hold stays exact.
constexpr int64_t kWeightLimit = int64_t(1) << 62;

uint64_t ceilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

unsigned clampToUnsigned(uint64_t v) {
  return unsigned(std::min<uint64_t>(v, UINT_MAX));
}

unsigned countOps(const BoundsInput &in) {
  size_t n = in.footprints.size();
  for (const DepEdge &e : in.deps)
    n = std::max<size_t>(n, std::max(e.src, e.dst) + size_t(1));
  return n;
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

/// Dependence edges in CSR form, grouped by source, in input order within a
/// source so every traversal is deterministic.
struct Graph {
  unsigned numNodes = 0;
  std::vector<unsigned> begin; ///< numNodes + 1 offsets.
  std::vector<unsigned> src, dst, dist;
  std::vector<int64_t> lat;

  unsigned numEdges() const { return dst.size(); }
};

template <typename Pred>
Graph buildGraph(unsigned numNodes, ArrayRef<DepEdge> deps, Pred keep) {
  Graph g;
  g.numNodes = numNodes;
  g.begin.assign(numNodes + 1, 0);
  unsigned m = 0;
  for (unsigned i = 0, e = deps.size(); i != e; ++i)
    if (keep(i)) {
      assert(deps[i].src < numNodes && deps[i].dst < numNodes &&
             "dependence names an op out of range");
      ++g.begin[deps[i].src + 1];
      ++m;
    }
  for (unsigned v = 0; v < numNodes; ++v)
    g.begin[v + 1] += g.begin[v];
  g.src.resize(m);
  g.dst.resize(m);
  g.dist.resize(m);
  g.lat.resize(m);
  std::vector<unsigned> fill(g.begin.begin(), g.begin.end() - 1);
  for (unsigned i = 0, e = deps.size(); i != e; ++i) {
    if (!keep(i))
      continue;
    const DepEdge &d = deps[i];
    unsigned at = fill[d.src]++;
    g.src[at] = d.src;
    g.dst[at] = d.dst;
    g.dist[at] = d.distance;
    g.lat[at] = d.latency;
  }
  return g;
}

/// Component id per node (support/SCC.h).
unsigned computeSCCs(const Graph &g, std::vector<unsigned> &comp) {
  return tilepipe::support::stronglyConnectedComponents(
      g.numNodes,
      [&](unsigned v) {
        return ArrayRef<unsigned>(g.dst.data() + g.begin[v],
                                  g.begin[v + 1] - g.begin[v]);
      },
      comp);
}

//===----------------------------------------------------------------------===//
// Positive-cycle test
//===----------------------------------------------------------------------===//

/// Longest paths from a virtual source (a zero-weight edge to every node) by
/// FIFO label correcting with Tarjan's subtree disassembly: when a node's
/// label improves, its subtree in the shortest-path tree is dismantled, and
/// if the improving node sits in that subtree the new parent edge closes a
/// cycle of positive weight. Detection is immediate (no pass counting), and
/// dismantled nodes are not rescanned with stale labels, which keeps the test
/// fast on the large, loosely cyclic graphs a loop body produces.
///
/// The preorder of the tree is kept as a doubly linked thread with depths, so
/// a subtree is the run after its root of nodes deeper than the root.
class PositiveCycleFinder {
public:
  explicit PositiveCycleFinder(const Graph &g)
      : g(g), weight(g.numEdges()), label(g.numNodes, 0),
        parentEdge(g.numNodes, kNone), next(g.numNodes + 1, kNone),
        prev(g.numNodes + 1, kNone), depth(g.numNodes + 1, 0),
        queue(g.numNodes), inTree(g.numNodes, 0), queued(g.numNodes, 0) {}

  /// Tests the subgraph on `nodes` (every edge leaving them must stay among
  /// them, as in one SCC) with weights latency - ii * distance. On a positive
  /// cycle, fills `cycleEdges` (in cycle order) and returns true; otherwise
  /// getLabel() holds the longest path to each node, starting from 0.
  bool run(ArrayRef<unsigned> nodes, int64_t ii,
           llvm::SmallVectorImpl<unsigned> &cycleEdges);

  int64_t getLabel(unsigned v) const { return label[v]; }

private:
  static int64_t edgeWeight(int64_t lat, unsigned dist, int64_t ii) {
    __int128 w = __int128(lat) - __int128(ii) * dist;
    return int64_t(std::clamp<__int128>(w, -kWeightLimit, kWeightLimit));
  }
  void extractCycle(unsigned closing, unsigned v,
                    llvm::SmallVectorImpl<unsigned> &cycleEdges) const;

  const Graph &g;
  std::vector<int64_t> weight;
  std::vector<int64_t> label;
  std::vector<unsigned> parentEdge;
  std::vector<unsigned> next, prev, depth; // Thread; index numNodes is root.
  std::vector<unsigned> queue;
  std::vector<uint8_t> inTree, queued;
};

bool PositiveCycleFinder::run(ArrayRef<unsigned> nodes, int64_t ii,
                              llvm::SmallVectorImpl<unsigned> &cycleEdges) {
  cycleEdges.clear();
  if (nodes.empty())
    return false;
  const unsigned root = g.numNodes;
  depth[root] = 0;
  unsigned last = root;
  for (unsigned v : nodes) {
    for (unsigned e = g.begin[v], end = g.begin[v + 1]; e != end; ++e)
      weight[e] = edgeWeight(g.lat[e], g.dist[e], ii);
    label[v] = 0;
    parentEdge[v] = kNone;
    depth[v] = 1;
    inTree[v] = 1;
    queued[v] = 1;
    prev[v] = last;
    next[last] = v;
    last = v;
  }
  next[last] = kNone;

  // Each node is queued at most once at a time, so a ring of |nodes| slots
  // never overflows.
  const unsigned cap = nodes.size();
  std::copy(nodes.begin(), nodes.end(), queue.begin());
  unsigned head = 0, count = cap;
  while (count) {
    unsigned u = queue[head];
    if (++head == cap)
      head = 0;
    --count;
    queued[u] = 0;
    if (!inTree[u])
      continue; // Dismantled: its label is stale until a parent relabels it.
    const int64_t du = label[u];
    for (unsigned e = g.begin[u], end = g.begin[u + 1]; e != end; ++e) {
      const unsigned v = g.dst[e];
      const int64_t nd = du + weight[e];
      if (nd <= label[v])
        continue;
      if (v == u) {
        cycleEdges.push_back(e);
        return true;
      }
      if (inTree[v]) {
        const unsigned dv = depth[v];
        unsigned x = next[v];
        for (; x != kNone && depth[x] > dv; x = next[x]) {
          if (x == u) {
            extractCycle(e, v, cycleEdges);
            return true;
          }
          inTree[x] = 0;
        }
        const unsigned p = prev[v];
        next[p] = x;
        if (x != kNone)
          prev[x] = p;
      }
      label[v] = nd;
      parentEdge[v] = e;
      depth[v] = depth[u] + 1;
      inTree[v] = 1;
      const unsigned after = next[u];
      next[v] = after;
      if (after != kNone)
        prev[after] = v;
      next[u] = v;
      prev[v] = u;
      if (!queued[v]) {
        queued[v] = 1;
        unsigned tail = head + count;
        queue[tail >= cap ? tail - cap : tail] = v;
        ++count;
      }
    }
  }
  return false;
}

/// The cycle is the tree path v -> ... -> src(closing), then `closing`.
void PositiveCycleFinder::extractCycle(
    unsigned closing, unsigned v,
    llvm::SmallVectorImpl<unsigned> &cycleEdges) const {
  cycleEdges.push_back(closing);
  for (unsigned x = g.src[closing]; x != v; x = g.src[parentEdge[x]])
    cycleEdges.push_back(parentEdge[x]);
  std::reverse(cycleEdges.begin(), cycleEdges.end());
}

/// Ops of a cycle given by its edges, rotated to start at the smallest op id
/// so the report does not depend on where the search happened to close it.
void cycleOps(const Graph &g, ArrayRef<unsigned> edges,
              llvm::SmallVectorImpl<unsigned> &ops) {
  ops.clear();
  for (unsigned e : edges)
    ops.push_back(g.src[e]);
  std::rotate(ops.begin(), std::min_element(ops.begin(), ops.end()), ops.end());
}

//===----------------------------------------------------------------------===//
// Recurrence search per SCC
//===----------------------------------------------------------------------===//

/// Smallest II >= lo with no positive cycle inside one SCC, or nullopt when a
/// zero-distance cycle of positive latency rules out every II. `critical`
/// receives the cycle that last raised lo (positive at the result - 1), and
/// `raised` says whether this SCC raised lo at all.
///
/// Each positive cycle the test finds at x proves every II up to
/// ceil(lat / dist) - 1 infeasible, so lo jumps there (a parametric search
/// in the style of Lawler's, driven by the cycles themselves rather than by
/// bisection alone). Interleaved probes above lo, galloping until some II is
/// proven feasible and then bisecting, keep the number of tests logarithmic
/// even when the jumps are small.
std::optional<unsigned>
solveComponent(const Graph &g, PositiveCycleFinder &finder,
               ArrayRef<unsigned> nodes, unsigned lo,
               llvm::SmallVectorImpl<unsigned> &critical, bool &raised) {
  raised = false;
  llvm::SmallVector<unsigned, 16> found;

  // Every cycle with distance >= 1 is non-positive once II exceeds the sum of
  // positive latencies, so P + 1 is feasible unless a zero-distance positive
  // cycle exists (which the tests below find).
  uint64_t positive = 0;
  for (unsigned v : nodes)
    for (unsigned e = g.begin[v], end = g.begin[v + 1]; e != end; ++e)
      if (g.lat[e] > 0)
        positive = std::min<uint64_t>(positive + g.lat[e], UINT_MAX - 1);
  uint64_t hi = std::max<uint64_t>(positive + 1, lo);
  bool hiProven = false;
  uint64_t step = 1;
  for (unsigned round = 0;; ++round) {
    if (hiProven && lo >= hi)
      return lo;
    // Test lo first: a feasible answer there ends the search, and a positive
    // cycle found there jumps lo. Every other round probes above lo,
    // galloping until some II is proven feasible, then bisecting.
    uint64_t x = lo;
    if ((round & 1) && lo < hi) {
      if (hiProven) {
        x = lo + (hi - lo) / 2;
      } else {
        x = std::min<uint64_t>(hi, lo + step);
        step *= 2;
      }
    }
    if (!finder.run(nodes, int64_t(x), found)) {
      hi = x;
      hiProven = true;
      if (x == lo)
        return lo;
      continue;
    }
    int64_t lat = 0;
    uint64_t dist = 0;
    for (unsigned e : found) {
      lat += g.lat[e];
      dist += g.dist[e];
    }
    critical.assign(found.begin(), found.end());
    if (dist == 0)
      return std::nullopt;
    // The cycle is positive at x, so lat > x * dist and the ratio's ceiling
    // exceeds x: every II below it keeps this cycle positive.
    assert(lat > 0 && uint64_t(lat) > x * dist && "cycle not positive");
    uint64_t ratio = ceilDiv(uint64_t(lat), dist);
    raised = true;
    // A cycle that needs an II past the unsigned range: the bound saturates
    // there instead of probing the same clamped II forever (a 2-op loop on
    // 2^62-element tiles hung here).
    if (ratio >= UINT_MAX)
      return UINT_MAX;
    lo = unsigned(ratio);
  }
}

//===----------------------------------------------------------------------===//
// Per-op self-collision
//===----------------------------------------------------------------------===//

/// Whether the op's uses of `kind` fold onto `ii` rows without colliding:
/// no bit twice in a row, no binding pool over its cap in a row. `scratch`
/// is reused across calls.
bool foldsCleanly(const Footprint &fp, const ResourceLayout &layout,
                  Use::Kind kind, unsigned ii, std::vector<uint64_t> &scratch) {
  const unsigned width =
      kind == Use::Kind::Bit ? layout.numBits() : layout.numPools();
  scratch.assign(size_t(ii) * width, 0);
  for (const Use &u : fp.getUses()) {
    if (u.kind != kind || u.duration == 0)
      continue;
    if (kind == Use::Kind::Pool &&
        (u.amount == 0 || !layout.poolBinding[u.index]))
      continue;
    const uint64_t step = kind == Use::Kind::Bit ? 1 : u.amount;
    // Past ii cycles every row is hit again; add the wraps in bulk.
    const uint64_t full = u.duration / ii;
    if (full)
      for (unsigned row = 0; row < ii; ++row)
        scratch[size_t(row) * width + u.index] += full * step;
    unsigned row = u.offset % ii;
    for (unsigned k = 0, rem = u.duration % ii; k < rem; ++k) {
      scratch[size_t(row) * width + u.index] += step;
      if (++row == ii)
        row = 0;
    }
  }
  for (unsigned row = 0; row < ii; ++row)
    for (unsigned r = 0; r < width; ++r) {
      uint64_t have = scratch[size_t(row) * width + r];
      uint64_t limit = kind == Use::Kind::Bit ? 1 : layout.poolCaps[r];
      if (have > limit)
        return false;
    }
  return true;
}

/// Smallest II >= 1 at which the op's uses of `kind` fold cleanly, or
/// UINT_MAX if even the unfolded footprint collides. `lower` is a pigeonhole
/// bound (below it a collision is certain), where the scan starts. Clean
/// folding is not monotone in II, so this scans rather than bisects.
unsigned smallestCleanII(const Footprint &fp, const ResourceLayout &layout,
                         Use::Kind kind, unsigned lower,
                         std::vector<uint64_t> &scratch) {
  unsigned span = 0;
  for (const Use &u : fp.getUses())
    if (u.kind == kind && u.duration)
      span = std::max(span, u.offset + u.duration);
  if (span == 0)
    return 1;
  // At II >= span nothing wraps; a collision there is one at every II.
  if (!foldsCleanly(fp, layout, kind, span, scratch))
    return UINT_MAX;
  for (unsigned ii = std::max(lower, 1u); ii < span; ++ii)
    if (foldsCleanly(fp, layout, kind, ii, scratch))
      return ii;
  return std::max(lower, span);
}

} // namespace

//===----------------------------------------------------------------------===//
// Resource bounds
//===----------------------------------------------------------------------===//

unsigned tilepipe::rrt::computeResMII(const BoundsInput &in,
                                      std::string *bottleneck) {
  assert(in.layout && "bounds need a layout");
  const ResourceLayout &layout = *in.layout;
  const unsigned numBits = layout.numBits();
  std::vector<uint64_t> demand(numBits, 0);
  std::vector<uint64_t> scratch;
  uint64_t best = 0;
  unsigned bestBit = kNone;
  for (const Footprint &fp : in.footprints) {
    ArrayRef<Use> uses = fp.getUses();
    bool repeated = false;
    for (unsigned i = 0; i < uses.size(); ++i) {
      if (uses[i].kind != Use::Kind::Bit)
        continue;
      demand[uses[i].index] += uses[i].duration;
      for (unsigned j = 0; j < i; ++j)
        repeated |= uses[j].kind == Use::Kind::Bit &&
                    uses[j].index == uses[i].index && uses[i].duration &&
                    uses[j].duration;
    }
    // A single run of d cycles needs II >= d, which the aggregate sum below
    // already implies; only a bit claimed by two runs of one op can collide
    // with itself above its own demand (cycles 0 and 2 need II = 3).
    if (!repeated)
      continue;
    uint64_t lower = 1;
    for (const Use &u : uses)
      if (u.kind == Use::Kind::Bit)
        lower = std::max(lower, fp.bitDemand(u.index));
    unsigned own = smallestCleanII(fp, layout, Use::Kind::Bit,
                                   clampToUnsigned(lower), scratch);
    if (own > best) {
      best = own;
      // Name the lowest bit this op claims more than once.
      bestBit = kNone;
      for (unsigned i = 0; i < uses.size(); ++i)
        for (unsigned j = 0; j < i; ++j)
          if (uses[i].kind == Use::Kind::Bit &&
              uses[j].kind == Use::Kind::Bit && uses[i].index == uses[j].index)
            bestBit = std::min(bestBit, uses[i].index);
    }
  }
  for (unsigned b = 0; b < numBits; ++b)
    if (demand[b] > best) {
      best = demand[b];
      bestBit = b;
    }
  if (bottleneck)
    *bottleneck = bestBit == kNone ? std::string() : layout.bitNames[bestBit];
  return clampToUnsigned(std::max<uint64_t>(best, 1));
}

unsigned tilepipe::rrt::computeFineMII(const BoundsInput &in,
                                       std::string *bottleneck) {
  assert(in.layout && "bounds need a layout");
  const ResourceLayout &layout = *in.layout;
  const unsigned numPools = layout.numPools();
  std::vector<uint64_t> demand(numPools, 0);
  std::vector<uint64_t> scratch;
  uint64_t best = 0;
  unsigned bestPool = kNone;
  auto raise = [&](uint64_t bound, unsigned pool) {
    if (bound > best) {
      best = bound;
      bestPool = pool;
    }
  };

  for (const Footprint &fp : in.footprints) {
    ArrayRef<Use> uses = fp.getUses();
    bool repeated = false;
    for (unsigned i = 0; i < uses.size(); ++i) {
      const Use &u = uses[i];
      if (u.kind != Use::Kind::Pool || !u.duration || !u.amount ||
          !layout.poolBinding[u.index])
        continue;
      demand[u.index] += uint64_t(u.duration) * u.amount;
      for (unsigned j = 0; j < i; ++j)
        repeated |= uses[j].kind == Use::Kind::Pool &&
                    uses[j].index == u.index && uses[j].duration &&
                    uses[j].amount;
      if (repeated)
        continue;
      // One run of d cycles at `amount` units puts ceil(d / II) copies on
      // its busiest row: amount * ceil(d / II) <= cap holds iff
      // II >= ceil(d / floor(cap / amount)).
      const uint64_t perRow = layout.poolCaps[u.index] / u.amount;
      raise(perRow ? ceilDiv(u.duration, perRow) : UINT_MAX, u.index);
    }
    if (!repeated)
      continue;
    // Several runs on one pool: scan for the first II that folds cleanly,
    // from the op's own pigeonhole bound.
    uint64_t lower = 1;
    unsigned lowerPool = kNone;
    for (const Use &u : uses) {
      if (u.kind != Use::Kind::Pool || !layout.poolBinding[u.index])
        continue;
      uint64_t d = fp.poolDemand(u.index);
      if (!d)
        continue;
      uint64_t cap = layout.poolCaps[u.index];
      uint64_t need = cap ? ceilDiv(d, cap) : UINT_MAX;
      if (need >= lower) {
        lower = need;
        lowerPool = u.index;
      }
    }
    unsigned own = smallestCleanII(fp, layout, Use::Kind::Pool,
                                   clampToUnsigned(lower), scratch);
    raise(own, lowerPool);
  }

  for (unsigned p = 0; p < numPools; ++p) {
    if (!layout.poolBinding[p] || !demand[p])
      continue;
    uint64_t cap = layout.poolCaps[p];
    raise(cap ? ceilDiv(demand[p], cap) : UINT_MAX, p);
  }
  if (bottleneck)
    *bottleneck =
        bestPool == kNone ? std::string() : layout.poolNames[bestPool];
  return clampToUnsigned(std::max<uint64_t>(best, 1));
}

namespace {

/// What the ops of one loop hold of bits A and B, for the pair bound.
struct PairDemand {
  bool qualifies = true;
  uint64_t dualB = 0;                ///< B-cycles of the ops holding both.
  uint64_t aOnly = 0;                ///< A-cycles of the ops holding only A.
  uint64_t tails = 0;                ///< Sum of dB - dA over the dual ops.
  uint64_t longestTail = 0;          ///< Largest dB - dA of one dual op.
  std::vector<uint64_t> runs;        ///< Each A-only run's length.
  std::vector<uint64_t> tailLengths; ///< Each dual op's dB - dA.
};

/// The one nonzero run of `fp` on bit `b`, or nullptr when it holds the bit
/// not at all (`count` 0) or in several runs (`count` > 1).
const Use *onlyRun(const Footprint &fp, unsigned b, unsigned &count) {
  const Use *run = nullptr;
  count = 0;
  for (const Use &u : fp.getUses())
    if (u.kind == Use::Kind::Bit && u.index == b && u.duration) {
      run = &u;
      ++count;
    }
  return count == 1 ? run : nullptr;
}

/// Adds one op to the demand of the pair (a, b).
void addToPair(PairDemand &d, const Footprint &fp, unsigned a, unsigned b) {
  unsigned countA = 0, countB = 0;
  const Use *ra = onlyRun(fp, a, countA);
  const Use *rb = onlyRun(fp, b, countB);
  if (countA && countB) {
    // Holds both: only from one cycle, B at least as long as A, is the
    // shape the argument covers.
    if (!ra || !rb || ra->offset != rb->offset || rb->duration < ra->duration) {
      d.qualifies = false;
      return;
    }
    const uint64_t tail = rb->duration - ra->duration;
    d.dualB += rb->duration;
    d.tails += tail;
    d.longestTail = std::max(d.longestTail, tail);
    d.tailLengths.push_back(tail);
    return;
  }
  if (!countA)
    return; // B-only time cancels out of the bound (see computePairMII).
  for (const Use &u : fp.getUses())
    if (u.kind == Use::Kind::Bit && u.index == a && u.duration) {
      d.aOnly += u.duration;
      d.runs.push_back(u.duration);
    }
}

/// An upper bound on the A-only time the dual ops' tails can hide: each run
/// hides at most min(run, longest tail), each tail at most its length, and
/// the runs touch at most as many tails as there are runs.
uint64_t hiddenInTails(PairDemand &d) {
  uint64_t byRuns = 0;
  for (uint64_t c : d.runs)
    byRuns += std::min(c, d.longestTail);
  std::sort(d.tailLengths.begin(), d.tailLengths.end(),
            std::greater<uint64_t>());
  uint64_t byLongest = 0;
  for (size_t i = 0; i < d.tailLengths.size() && i < d.runs.size(); ++i)
    byLongest += d.tailLengths[i];
  return std::min({byRuns, d.tails, byLongest});
}

/// Bit pairs (a, b) that some op holds from one cycle with b at least as
/// long as a and b longer (the only pairs whose bound can exceed the
/// single-bit one), in a deterministic order.
std::vector<std::pair<unsigned, unsigned>>
pairCandidates(ArrayRef<Footprint> footprints) {
  std::vector<std::pair<unsigned, unsigned>> pairs;
  for (const Footprint &fp : footprints) {
    ArrayRef<Use> uses = fp.getUses();
    for (const Use &a : uses)
      for (const Use &b : uses)
        if (a.kind == Use::Kind::Bit && b.kind == Use::Kind::Bit &&
            a.index != b.index && a.duration && a.offset == b.offset &&
            b.duration > a.duration)
          pairs.push_back({a.index, b.index});
  }
  llvm::sort(pairs);
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

} // namespace

/// On the circle of II rows, A or B is held for sumA + sumB - both rows,
/// where `both` counts rows holding A and B at once. An op holding both
/// ("dual") holds them from one cycle with dB >= dA, so its own A rows lie
/// inside its B rows. Two dual ops never overlap A against B: the one
/// holding A at a row holds B there too. An A-only run overlapping a dual
/// op's B must lie in its tail (its B rows past its A rows), and only in
/// the tail it starts in: reaching another tail means passing that op's A
/// rows. Any op may overlap a B-only op. So
///   II >= sumA + sumB - sum(dA) - sumBonly - hidden
///       = sum over dual ops of dB + aOnly - hidden.
unsigned tilepipe::rrt::computePairMII(const BoundsInput &in,
                                       std::string *bottleneck) {
  assert(in.layout && "bounds need a layout");
  uint64_t best = 1;
  for (auto [a, b] : pairCandidates(in.footprints)) {
    PairDemand d;
    for (const Footprint &fp : in.footprints) {
      addToPair(d, fp, a, b);
      if (!d.qualifies)
        break;
    }
    if (!d.qualifies)
      continue;
    const uint64_t bound = d.dualB + d.aOnly - hiddenInTails(d);
    if (bound > best) {
      best = bound;
      if (bottleneck)
        *bottleneck = in.layout->bitNames[a] + "+" + in.layout->bitNames[b];
    }
  }
  return clampToUnsigned(best);
}

//===----------------------------------------------------------------------===//
// Recurrence bound
//===----------------------------------------------------------------------===//

bool tilepipe::rrt::hasPositiveCycle(unsigned numOps, ArrayRef<DepEdge> deps,
                                     int64_t ii,
                                     llvm::SmallVectorImpl<unsigned> *cycle) {
  Graph g = buildGraph(numOps, deps, [](unsigned) { return true; });
  PositiveCycleFinder finder(g);
  std::vector<unsigned> nodes(numOps);
  for (unsigned v = 0; v < numOps; ++v)
    nodes[v] = v;
  llvm::SmallVector<unsigned, 16> edges;
  bool positive = finder.run(nodes, ii, edges);
  if (cycle) {
    cycle->clear();
    if (positive)
      cycleOps(g, edges, *cycle);
  }
  return positive;
}

std::optional<unsigned>
tilepipe::rrt::computeRecMII(const BoundsInput &in,
                             llvm::SmallVectorImpl<unsigned> *cycle) {
  if (cycle)
    cycle->clear();
  const unsigned n = countOps(in);
  if (in.deps.empty() || n == 0)
    return 1u;

  // Only edges inside one SCC lie on cycles; bound each SCC on its own.
  std::vector<unsigned> comp;
  {
    Graph all = buildGraph(n, in.deps, [](unsigned) { return true; });
    computeSCCs(all, comp);
  }
  Graph g = buildGraph(n, in.deps, [&](unsigned i) {
    return comp[in.deps[i].src] == comp[in.deps[i].dst];
  });

  // Nodes of each SCC that has an inner edge, grouped by SCC and ascending
  // within it (counting sort on the component id).
  const unsigned numComps =
      comp.empty() ? 0 : *std::max_element(comp.begin(), comp.end()) + 1;
  std::vector<unsigned> compBegin(numComps + 1, 0);
  for (unsigned v = 0; v < n; ++v)
    if (g.begin[v] != g.begin[v + 1])
      ++compBegin[comp[v] + 1];
  for (unsigned c = 0; c < numComps; ++c)
    compBegin[c + 1] += compBegin[c];
  std::vector<unsigned> order(compBegin.back());
  {
    std::vector<unsigned> fill(compBegin.begin(), compBegin.end() - 1);
    for (unsigned v = 0; v < n; ++v)
      if (g.begin[v] != g.begin[v + 1])
        order[fill[comp[v]]++] = v;
  }

  PositiveCycleFinder finder(g);
  llvm::SmallVector<unsigned, 16> critical, found;
  unsigned lo = 1;
  for (unsigned c = 0; c < numComps; ++c) {
    ArrayRef<unsigned> nodes(order.data() + compBegin[c],
                             compBegin[c + 1] - compBegin[c]);
    if (nodes.empty())
      continue;
    if (nodes.size() == 1) {
      // Only self-loops: each bounds II by its own ratio directly.
      const unsigned v = nodes[0];
      for (unsigned e = g.begin[v], end = g.begin[v + 1]; e != end; ++e) {
        if (g.lat[e] <= 0)
          continue;
        if (g.dist[e] == 0) {
          if (cycle)
            cycle->assign(1, v);
          return std::nullopt;
        }
        unsigned r = clampToUnsigned(ceilDiv(g.lat[e], g.dist[e]));
        if (r > lo) {
          lo = r;
          critical.assign(1, e);
        }
      }
      continue;
    }
    bool raised = false;
    std::optional<unsigned> r =
        solveComponent(g, finder, nodes, lo, found, raised);
    if (!r) {
      if (cycle)
        cycleOps(g, found, *cycle);
      return std::nullopt;
    }
    if (raised) {
      lo = *r;
      critical = found;
    }
  }
  if (cycle && lo > 1)
    cycleOps(g, critical, *cycle);
  return lo;
}

//===----------------------------------------------------------------------===//
// Dependence-depth bound
//===----------------------------------------------------------------------===//

std::optional<std::vector<int64_t>>
tilepipe::rrt::computeASAP(unsigned numOps, ArrayRef<DepEdge> deps) {
  Graph g = buildGraph(numOps, deps,
                       [&](unsigned i) { return deps[i].distance == 0; });
  // Kahn's order first: linear, and the common case (a loop body's
  // intra-iteration edges form a DAG).
  std::vector<unsigned> indeg(numOps, 0), ready;
  for (unsigned e = 0; e < g.numEdges(); ++e)
    ++indeg[g.dst[e]];
  for (unsigned v = 0; v < numOps; ++v)
    if (!indeg[v])
      ready.push_back(v);
  std::vector<int64_t> asap(numOps, 0);
  for (size_t i = 0; i < ready.size(); ++i) {
    unsigned u = ready[i];
    for (unsigned e = g.begin[u], end = g.begin[u + 1]; e != end; ++e) {
      unsigned v = g.dst[e];
      asap[v] = std::max(asap[v], asap[u] + g.lat[e]);
      if (--indeg[v] == 0)
        ready.push_back(v);
    }
  }
  if (ready.size() == numOps)
    return asap;

  // Zero-distance cycles: legal when no cycle has positive latency. The
  // label-correcting search from a virtual source computes exactly
  // max(0, longest path), or finds the positive cycle.
  PositiveCycleFinder finder(g);
  std::vector<unsigned> nodes(numOps);
  for (unsigned v = 0; v < numOps; ++v)
    nodes[v] = v;
  llvm::SmallVector<unsigned, 16> edges;
  if (finder.run(nodes, 0, edges))
    return std::nullopt;
  for (unsigned v = 0; v < numOps; ++v)
    asap[v] = finder.getLabel(v);
  return asap;
}

unsigned tilepipe::rrt::computeDepMII(const BoundsInput &in) {
  bool anyDepth = false;
  for (const std::optional<unsigned> &d : in.maxDepth)
    anyDepth |= d.has_value();
  if (!anyDepth)
    return 1;
  const unsigned n = std::max<unsigned>(countOps(in), in.maxDepth.size());
  std::optional<std::vector<int64_t>> asap = computeASAP(n, in.deps);
  // A zero-distance positive cycle leaves no schedule at all; computeRecMII
  // reports it, and this bound has nothing to add.
  if (!asap)
    return 1;
  uint64_t best = 1;
  for (unsigned v = 0, e = in.maxDepth.size(); v < e; ++v) {
    if (!in.maxDepth[v])
      continue;
    // start >= asap and start <= (D + 1) * II - 1.
    uint64_t t = uint64_t((*asap)[v]);
    best = std::max(best, t / (uint64_t(*in.maxDepth[v]) + 1) + 1);
  }
  return clampToUnsigned(best);
}

/// The same-depth groups' bound: members u and v of one group start in one
/// stage, so start_v - start_u <= II - 1, while a path of distance-0
/// dependences from u to v makes start_v - start_u >= its latency L: II >=
/// L + 1. Longest paths over distance-0 edges only (carried edges can only
/// lengthen paths at a given II, so leaving them out keeps it a bound), from
/// at most kGroupSources members, in O(edges) each.
static unsigned computeGroupMII(const BoundsInput &in) {
  constexpr unsigned kGroupSources = 256;
  if (in.sameDepthGroup.empty())
    return 1;
  const unsigned n = unsigned(in.sameDepthGroup.size());
  std::vector<std::vector<std::pair<unsigned, int64_t>>> succ(n);
  std::vector<unsigned> indegree(n, 0);
  for (const DepEdge &e : in.deps)
    if (e.distance == 0 && e.src < n && e.dst < n && e.src != e.dst) {
      succ[e.src].push_back({e.dst, e.latency});
      ++indegree[e.dst];
    }
  std::vector<unsigned> order;
  for (unsigned v = 0; v < n; ++v)
    if (!indegree[v])
      order.push_back(v);
  for (size_t i = 0; i < order.size(); ++i)
    for (auto [w, lat] : succ[order[i]])
      if (--indegree[w] == 0)
        order.push_back(w);
  if (order.size() != n)
    return 1; // A zero-distance cycle: computeRecMII reports it.
  uint64_t best = 1;
  unsigned sources = 0;
  std::vector<int64_t> dist(n);
  for (unsigned u = 0; u < n && sources < kGroupSources; ++u) {
    if (in.sameDepthGroup[u] < 0)
      continue;
    ++sources;
    std::fill(dist.begin(), dist.end(), INT64_MIN);
    dist[u] = 0;
    for (unsigned v : order) {
      if (dist[v] == INT64_MIN)
        continue;
      if (v != u && in.sameDepthGroup[v] == in.sameDepthGroup[u] &&
          dist[v] >= 0)
        best = std::max(best, uint64_t(dist[v]) + 1);
      for (auto [w, lat] : succ[v])
        dist[w] = std::max(dist[w], dist[v] + lat);
    }
  }
  return clampToUnsigned(best);
}

Bounds tilepipe::rrt::computeBounds(const BoundsInput &in) {
  Bounds b;
  b.resMII = computeResMII(in, &b.resBottleneck);
  std::string pairBits;
  unsigned pairMII = computePairMII(in, &pairBits);
  if (pairMII > b.resMII && b.resMII != UINT_MAX) {
    b.resMII = pairMII;
    b.resBottleneck = pairBits;
    b.resFromPair = true;
  }
  b.fineMII = computeFineMII(in, &b.fineBottleneck);
  std::optional<unsigned> rec = computeRecMII(in, &b.criticalCycle);
  b.recurrenceInfeasible = !rec;
  b.recMII = rec.value_or(1);
  b.depMII = computeDepMII(in);
  unsigned groupMII = computeGroupMII(in);
  if (groupMII > b.depMII) {
    b.depMII = groupMII;
    b.depFromGroup = true;
  }
  b.resourceInfeasible = b.resMII == UINT_MAX || b.fineMII == UINT_MAX;
  b.mii = std::max({b.resMII, b.fineMII, b.recMII, b.depMII});
  return b;
}
