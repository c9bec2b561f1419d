//===- Legalize.cpp - the nearest legal schedule to a rounded one ---------===//
//
// Both legalisers start from the wanted starts clamped into the frames.
// Every legal schedule lies inside the frames, so a legal input comes back
// unchanged, and the ALAP starts satisfy every edge, so raising a start to
// its predecessors' bound never lifts it past its ALAP: the acyclic pass
// is legal by construction.
//
// The modulo legaliser is cycle-driven modulo list scheduling: step by
// step, the ops whose predecessors allow it take the step's row of the
// reservation table (II rows) if it has room, earliest deadline first (the
// ALAP, tightened through the back edges). An op-driven first fit in order
// of start, tried first, fails on nearly full tables: ops with slack take
// the early rows and the critical ones are pushed past their ALAP. An op
// that has waited II steps has met every row, and rows only fill up, so it
// never fits: the round fails. A seat that breaks an edge into an op
// seated earlier (a back edge) raises that op's lower bound; the
// Bellman-Ford fixed point carries the raise along every edge and the
// placement is redone, a bounded number of times. The wanted starts are
// lower bounds; when no round above them succeeds, the bounds move halfway
// to ASAP, then to ASAP itself.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Legalize.h"
#include "scheduler/gaus/Objective.h"

#include <algorithm>
#include <queue>
#include <tuple>

using namespace tilepipe::gaus;

namespace {

/// Rounds of placement above one set of lower bounds.
constexpr unsigned kModuloRounds = 8;
/// Sets of lower bounds tried: the wanted starts, halfway to ASAP, ASAP.
constexpr unsigned kModuloAttempts = 3;
/// Slack on capacity comparisons; the same as the evaluator's.
constexpr double kCapacityTolerance = 1e-9;

/// One cell of an op's footprint folded modulo II: `amount` units of
/// `resource` in the row `row` steps after its start (mod II).
struct FoldedCell {
  unsigned resource;
  int64_t row;
  double amount;
};

/// Every op's uses folded modulo `ii`, cells of one op merged so that an op
/// whose uses overlap in a row is checked against its total there.
std::vector<std::vector<FoldedCell>> foldUses(const Instance &instance,
                                              int64_t ii) {
  std::vector<std::vector<FoldedCell>> folded(instance.nodes.size());
  for (size_t i = 0; i < instance.nodes.size(); ++i) {
    std::vector<FoldedCell> &cells = folded[i];
    for (const Use &use : instance.nodes[i].uses) {
      if (use.duration <= 0 || use.amount == 0)
        continue;
      int64_t turns = use.duration / ii, rest = use.duration % ii;
      int64_t rows = std::min<int64_t>(use.duration, ii);
      for (int64_t j = 0; j < rows; ++j) {
        int64_t row = ((use.offset + j) % ii + ii) % ii;
        double times = double(turns + (j < rest ? 1 : 0));
        cells.push_back({use.resource, row, use.amount * times});
      }
    }
    std::sort(cells.begin(), cells.end(),
              [](const FoldedCell &a, const FoldedCell &b) {
                return std::tie(a.resource, a.row) <
                       std::tie(b.resource, b.row);
              });
    size_t out = 0;
    for (size_t k = 0; k < cells.size(); ++k) {
      if (out > 0 && cells[out - 1].resource == cells[k].resource &&
          cells[out - 1].row == cells[k].row)
        cells[out - 1].amount += cells[k].amount;
      else
        cells[out++] = cells[k];
    }
    cells.resize(out);
  }
  return folded;
}

/// CSR lists of edge indices by source and by destination.
struct Adjacency {
  std::vector<unsigned> outBegin, outEdge, inBegin, inEdge;
  explicit Adjacency(const Instance &instance) {
    unsigned n = instance.nodes.size();
    outBegin.assign(n + 1, 0);
    inBegin.assign(n + 1, 0);
    for (const Edge &e : instance.edges) {
      ++outBegin[e.src + 1];
      ++inBegin[e.dst + 1];
    }
    for (unsigned i = 0; i < n; ++i) {
      outBegin[i + 1] += outBegin[i];
      inBegin[i + 1] += inBegin[i];
    }
    outEdge.resize(instance.edges.size());
    inEdge.resize(instance.edges.size());
    std::vector<unsigned> outFill(outBegin.begin(), outBegin.end() - 1);
    std::vector<unsigned> inFill(inBegin.begin(), inBegin.end() - 1);
    for (unsigned k = 0; k < instance.edges.size(); ++k) {
      outEdge[outFill[instance.edges[k].src]++] = k;
      inEdge[inFill[instance.edges[k].dst]++] = k;
    }
  }

  /// Kahn's order over the distance-0 edges; it leaves out the ops on or
  /// behind a distance-0 cycle.
  std::vector<unsigned> topologicalOrder(const Instance &instance) const {
    unsigned n = instance.nodes.size();
    std::vector<unsigned> indegree(n, 0), order;
    for (const Edge &e : instance.edges)
      if (e.distance == 0)
        ++indegree[e.dst];
    for (unsigned v = 0; v < n; ++v)
      if (indegree[v] == 0)
        order.push_back(v);
    for (size_t next = 0; next < order.size(); ++next)
      for (unsigned k = outBegin[order[next]]; k < outBegin[order[next] + 1];
           ++k) {
        const Edge &e = instance.edges[outEdge[k]];
        if (e.distance == 0 && --indegree[e.dst] == 0)
          order.push_back(e.dst);
      }
    return order;
  }
};

/// Deadlines: the ALAP, tightened by every back edge as if its target sat
/// at its lower bound, and carried back along the distance-0 edges. A
/// recurrence with no slack then shows on all of its ops, which are seated
/// before others with more room; by the ALAP alone they look relaxed, get
/// pushed back by a step, break the back edge, and every round repeats it a
/// little later.
Steps roundDeadlines(const Instance &instance, const Frames &frames,
                     const Adjacency &adj, const std::vector<unsigned> &order,
                     const Steps &lower) {
  const int64_t ii = instance.ii;
  Steps deadline(frames.alap);
  for (const Edge &e : instance.edges)
    if (e.distance > 0)
      deadline[e.src] = std::min(
          deadline[e.src], lower[e.dst] + int64_t(e.distance) * ii - e.latency);
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (unsigned k = adj.outBegin[*it]; k < adj.outBegin[*it + 1]; ++k) {
      const Edge &e = instance.edges[adj.outEdge[k]];
      if (e.distance == 0)
        deadline[*it] = std::min(deadline[*it], deadline[e.dst] - e.latency);
    }
  return deadline;
}

/// Ready ops by urgency: deadline, then lower bound, then id.
struct Urgency {
  const Steps &deadline;
  const Steps &lower;
  bool operator()(unsigned a, unsigned b) const {
    // std::priority_queue pops the largest: "less urgent" compares less.
    return std::tie(deadline[a], lower[a], a) >
           std::tie(deadline[b], lower[b], b);
  }
};

/// The state of one placeRound: the modulo table, the ops waiting for
/// their step and those ready at the current step `t`.
class RoundPlacer {
public:
  RoundPlacer(const Instance &instance, const Frames &frames,
              const Adjacency &adj,
              const std::vector<std::vector<FoldedCell>> &folded,
              const Steps &deadline, Steps &lower, Steps &start, bool &raised);

  bool run();

private:
  bool seatReady();
  void seat(unsigned v);
  size_t cell(const FoldedCell &c, int64_t at) const {
    return c.resource * ii + (at + c.row) % ii;
  }
  bool fits(unsigned v, int64_t at) const {
    for (const FoldedCell &c : folded[v])
      if (table[cell(c, at)] + c.amount >
          instance.capacity[c.resource] + kCapacityTolerance)
        return false;
    return true;
  }

  const Instance &instance;
  const Frames &frames;
  const Adjacency &adj;
  const std::vector<std::vector<FoldedCell>> &folded;
  Steps &lower, &start;
  bool &raised;
  const unsigned n;
  const int64_t ii;
  std::vector<double> table;
  /// Unseated distance-0 predecessors, and the earliest step each op's
  /// seated predecessors allow.
  std::vector<unsigned> waitingOn;
  Steps earliest;
  std::vector<char> seated;
  std::vector<int64_t> firstTry;
  /// Ops whose predecessors are seated, by the step they may start; and the
  /// ops that may start now, by deadline.
  using Key = std::pair<int64_t, unsigned>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> waiting;
  std::priority_queue<unsigned, std::vector<unsigned>, Urgency> ready;
  unsigned numSeated = 0;
  std::vector<unsigned> retry;
  int64_t t = 0;
};

RoundPlacer::RoundPlacer(const Instance &instance, const Frames &frames,
                         const Adjacency &adj,
                         const std::vector<std::vector<FoldedCell>> &folded,
                         const Steps &deadline, Steps &lower, Steps &start,
                         bool &raised)
    : instance(instance), frames(frames), adj(adj), folded(folded),
      lower(lower), start(start), raised(raised), n(instance.nodes.size()),
      ii(instance.ii), table(instance.capacity.size() * ii, 0.0),
      waitingOn(n, 0), earliest(lower), seated(n, 0), firstTry(n, INT64_MIN),
      ready(Urgency{deadline, lower}) {
  for (const Edge &e : instance.edges)
    if (e.distance == 0)
      ++waitingOn[e.dst];
  for (unsigned v = 0; v < n; ++v)
    if (waitingOn[v] == 0)
      waiting.push({earliest[v], v});
}

bool RoundPlacer::run() {
  while (numSeated < n) {
    if (ready.empty()) {
      if (waiting.empty())
        return false; // A distance-0 cycle: its ops never become ready.
      t = std::max(t, waiting.top().first);
    }
    while (!waiting.empty() && waiting.top().first <= t) {
      ready.push(waiting.top().second);
      waiting.pop();
    }
    if (!seatReady())
      return false;
    for (unsigned v : retry)
      ready.push(v);
    ++t;
  }
  return true;
}

/// Seats the ready ops at step t in order of urgency where the table has
/// room; the others wait for the next step. False when one cannot be
/// seated at all.
bool RoundPlacer::seatReady() {
  retry.clear();
  while (!ready.empty()) {
    unsigned v = ready.top();
    ready.pop();
    if (t > frames.alap[v])
      return false; // Past its ALAP: no legal schedule from here.
    if (firstTry[v] == INT64_MIN)
      firstTry[v] = t;
    if (!fits(v, t)) {
      // Past II steps it has met every row, and rows only fill up.
      if (t - firstTry[v] + 1 >= ii)
        return false;
      retry.push_back(v);
      continue;
    }
    seat(v);
  }
  return true;
}

/// Seats v at t: its cells fill the table, a seated successor whose edge
/// breaks raises its bound, the others learn their earliest step.
void RoundPlacer::seat(unsigned v) {
  start[v] = t;
  seated[v] = 1;
  ++numSeated;
  for (const FoldedCell &c : folded[v])
    table[cell(c, t)] += c.amount;
  for (unsigned k = adj.outBegin[v]; k < adj.outBegin[v + 1]; ++k) {
    const Edge &e = instance.edges[adj.outEdge[k]];
    int64_t bound = t + e.latency - int64_t(e.distance) * ii;
    if (seated[e.dst]) {
      if (start[e.dst] < bound) {
        lower[e.dst] = std::max(lower[e.dst], bound);
        raised = true;
      }
      continue;
    }
    earliest[e.dst] = std::max(earliest[e.dst], bound);
    if (e.distance == 0 && --waitingOn[e.dst] == 0) {
      // A zero-latency successor may still take this very step.
      if (earliest[e.dst] <= t)
        ready.push(e.dst);
      else
        waiting.push({earliest[e.dst], e.dst});
    }
  }
}

/// One round of cycle-driven modulo list scheduling above `lower`: step
/// by step, the ready ops in order of deadline take the step if the table
/// has room. An op is ready once its distance-0 predecessors are
/// seated and their latencies have passed. Edges from ops seated later
/// (back edges) are checked when those are seated: a break raises the
/// successor's bound in `lower` and sets `raised`. Returns false when an op
/// cannot be seated (past its ALAP, it has met every row without room, or
/// it never became ready).
bool placeRound(const Instance &instance, const Frames &frames,
                const Adjacency &adj, const std::vector<unsigned> &order,
                const std::vector<std::vector<FoldedCell>> &folded,
                Steps &lower, Steps &start, bool &raised) {
  raised = false;
  Steps deadline = roundDeadlines(instance, frames, adj, order, lower);
  return RoundPlacer(instance, frames, adj, folded, deadline, lower, start,
                     raised)
      .run();
}

/// Rounds of placement above `lower` until no seat breaks an edge.
std::optional<Steps>
placeAbove(const Instance &instance, const Frames &frames, const Adjacency &adj,
           const std::vector<unsigned> &order,
           const std::vector<std::vector<FoldedCell>> &folded, Steps lower) {
  unsigned n = instance.nodes.size();
  Steps start(n, 0);
  std::string reason;
  for (unsigned round = 0; round < kModuloRounds; ++round) {
    if (!raiseToFixedPoint(instance, instance.ii, lower, reason))
      return std::nullopt;
    // ALAP is the latest start of any legal schedule: bounds above it
    // admit none.
    for (unsigned v = 0; v < n; ++v)
      if (lower[v] > frames.alap[v])
        return std::nullopt;
    bool raised;
    if (!placeRound(instance, frames, adj, order, folded, lower, start, raised))
      return std::nullopt;
    if (!raised)
      return evaluate(instance, start).legal ? std::optional<Steps>(start)
                                             : std::nullopt;
  }
  return std::nullopt;
}

std::optional<Steps> legalizeModulo(const Instance &instance,
                                    const Frames &frames,
                                    const Steps &clamped) {
  size_t numResources = instance.capacity.size();
  for (const Node &node : instance.nodes)
    for (const Use &use : node.uses)
      if (use.resource >= numResources)
        return std::nullopt;
  std::vector<std::vector<FoldedCell>> folded = foldUses(instance, instance.ii);
  Adjacency adj(instance);
  std::vector<unsigned> order = adj.topologicalOrder(instance);
  // The wanted starts are lower bounds, and one late in its frame leaves
  // no room to move when its row is full. When no schedule is found above
  // them, halve their distance to ASAP, then drop them: a legal schedule
  // further away beats none.
  Steps lower = clamped;
  for (unsigned attempt = 0; attempt < kModuloAttempts; ++attempt) {
    if (std::optional<Steps> steps =
            placeAbove(instance, frames, adj, order, folded, lower))
      return steps;
    bool last = attempt + 2 == kModuloAttempts;
    for (size_t v = 0; v < lower.size(); ++v)
      lower[v] = last ? frames.asap[v]
                      : frames.asap[v] + (lower[v] - frames.asap[v]) / 2;
  }
  return std::nullopt;
}

} // namespace

std::optional<Steps> tilepipe::gaus::legalize(const Instance &instance,
                                              const Frames &frames,
                                              const Steps &wanted) {
  unsigned n = instance.nodes.size();
  if (wanted.size() != n || frames.asap.size() != n || frames.alap.size() != n)
    return std::nullopt;
  if (instance.formulation == Formulation::C && instance.ii == 0)
    return std::nullopt;
  Steps steps(n);
  for (unsigned v = 0; v < n; ++v) {
    if (frames.asap[v] > frames.alap[v])
      return std::nullopt;
    steps[v] = std::clamp(wanted[v], frames.asap[v], frames.alap[v]);
  }
  if (instance.formulation == Formulation::C)
    return legalizeModulo(instance, frames, steps);

  // A and B: a DAG, so the fixed point is the one topological pass (a back
  // edge, if any, gets the Bellman-Ford rounds, as in C).
  std::string reason;
  if (!raiseToFixedPoint(instance, instance.ii, steps, reason))
    return std::nullopt;
  if (!evaluate(instance, steps).legal)
    return std::nullopt;
  return steps;
}
