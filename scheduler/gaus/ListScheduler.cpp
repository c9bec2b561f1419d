//===- ListScheduler.cpp - the list scheduling baseline -------------------===//
//
// List scheduling (A, B): one pass over the steps. At step d the ready ops
// (every predecessor placed and its latency met, d >= ASAP) go in order of
// least slack; an op at its ALAP always goes, the others only while they
// keep the running peak: A, the step's weight; B, the live bytes (an op
// that frees more than it makes always goes). The peak starts at a target;
// a ladder of targets from a lower bound up to ASAP's peak is tried and the
// best schedule kept. C: the modulo legaliser seeded with ASAP, then ALAP.
//
// FDS finishes by the same pass when its deadline passes, so the pass
// (listAcyclic) and the peak floor are declared in BaselineSupport.h.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/BaselineSupport.h"
#include "scheduler/gaus/Baselines.h"
#include "scheduler/gaus/Legalize.h"
#include "scheduler/gaus/Objective.h"

#include <algorithm>
#include <cmath>
#include <queue>

using namespace tilepipe::gaus;
using namespace tilepipe::gaus::detail;

namespace {

struct ListKey {
  int64_t slack;
  double first, second;
  unsigned node;
  bool operator>(const ListKey &o) const {
    if (slack != o.slack)
      return slack > o.slack;
    if (first != o.first)
      return first > o.first;
    if (second != o.second)
      return second > o.second;
    return node > o.node;
  }
};

/// One pass of list scheduling at one peak target (file comment); the
/// steps (run()): per step, offer the ready ops by least slack until none
/// fits, then look again at those refused while freeing values made room.
class ListPass {
public:
  ListPass(const Instance &instance, const Adjacency &adj,
           const std::vector<int64_t> &earliestStart,
           const std::vector<int64_t> &latest, double target);

  std::optional<Steps> run();

private:
  void scheduleStep(bool &peakSeen);
  bool drainHeap(bool &peakSeen);
  bool admits(unsigned v, bool &peakSeen);
  bool place(unsigned v);
  void releaseSuccessors(unsigned v);
  /// B: the live bytes placing v adds (its value) and frees (the values it
  /// reads last).
  double delta(unsigned v) const {
    double d = adj.out[v].empty() ? 0.0 : instance.nodes[v].bytes;
    for (const Arc &a : adj.in[v])
      if (remaining[a.node] == 1)
        d -= instance.nodes[a.node].bytes;
    return d;
  }
  void push(unsigned v) {
    const Node &node = instance.nodes[v];
    if (isA)
      heap.push({latest[v] - d, -double(adj.commIn[v]), -node.weight, v});
    else
      heap.push({latest[v] - d, delta(v), 0.0, v});
  }

  const Instance &instance;
  const Adjacency &adj;
  const std::vector<int64_t> &latest;
  const unsigned n;
  const int64_t depth;
  const bool isA;
  Steps steps;
  std::vector<int64_t> earliest;
  /// Per op, its predecessors not placed yet; per step, the ops that become
  /// ready there; the ops refused at the last step.
  std::vector<unsigned> pending;
  std::vector<std::vector<unsigned>> waiting;
  std::vector<unsigned> carried;
  /// A: the balanced target is what a perfect spread reaches; filling a
  /// step up to it (or to a peak the forced ops already set) costs nothing.
  std::vector<double> stepWeight;
  double peak;
  /// B: values whose consumers are not all placed, and the bytes they hold.
  std::vector<unsigned> remaining;
  double live = 0;
  std::priority_queue<ListKey, std::vector<ListKey>, std::greater<ListKey>>
      heap;
  int64_t d = 0;
  bool broken = false;
  std::vector<unsigned> candidates, rejected;
};

} // namespace

ListPass::ListPass(const Instance &instance, const Adjacency &adj,
                   const std::vector<int64_t> &earliestStart,
                   const std::vector<int64_t> &latest, double target)
    : instance(instance), adj(adj), latest(latest), n(instance.nodes.size()),
      depth(instance.depth), isA(instance.formulation == Formulation::A),
      steps(n, -1), earliest(earliestStart), pending(n), waiting(depth),
      stepWeight(isA ? depth : 0, 0.0), peak(target), remaining(n) {
  for (unsigned i = 0; i < n; ++i) {
    pending[i] = adj.in[i].size();
    if (!pending[i])
      waiting[earliest[i]].push_back(i);
  }
  if (!isA)
    for (unsigned i = 0; i < n; ++i)
      remaining[i] = adj.out[i].size();
}

std::optional<Steps> ListPass::run() {
  for (d = 0; d < depth && !broken; ++d) {
    candidates.clear();
    candidates.swap(carried);
    candidates.insert(candidates.end(), waiting[d].begin(), waiting[d].end());
    std::vector<unsigned>().swap(waiting[d]);
    bool peakSeen = false;
    scheduleStep(peakSeen);
    carried.swap(candidates);
    if (isA)
      peak = std::max(peak, stepWeight[d]);
    else
      peak = std::max(peak, live);
  }
  if (broken)
    return std::nullopt;
  for (int64_t s : steps)
    if (s < 0)
      return std::nullopt;
  return steps;
}

/// Offers the candidates of step d; freeing a value can make room (or make
/// another op the last reader of something): the ops refused in a pass get
/// another look. Leaves the refused ones in `candidates`.
void ListPass::scheduleStep(bool &peakSeen) {
  bool again = true;
  while (again && !broken) {
    again = false;
    for (unsigned v : candidates)
      push(v);
    rejected.clear();
    bool changed = drainHeap(peakSeen);
    candidates.swap(rejected);
    again = !isA && changed && !candidates.empty();
  }
}

/// Places the heap's ops in order while they fit; whether a placement
/// changed what some value's last reader is.
bool ListPass::drainHeap(bool &peakSeen) {
  bool changed = false;
  while (!heap.empty()) {
    ListKey key = heap.top();
    heap.pop();
    unsigned v = key.node;
    if (!admits(v, peakSeen)) {
      rejected.push_back(v);
      continue;
    }
    changed |= place(v);
    releaseSuccessors(v);
    if (broken)
      break;
  }
  return changed;
}

/// An op at its ALAP always goes; the others only while they keep the
/// running peak (B: an op that frees more than it makes always goes).
bool ListPass::admits(unsigned v, bool &peakSeen) {
  if (latest[v] == d)
    return true;
  if (!peakSeen) {
    // The forced ops of this step are in (they sort first): what they hold
    // is a peak the others may fill up to.
    peakSeen = true;
    peak = std::max(peak, isA ? stepWeight[d] : live);
  }
  return isA ? fits(stepWeight[d] + instance.nodes[v].weight, peak)
             : (delta(v) <= 0 || fits(live + delta(v), peak));
}

/// Places v at step d; whether some value now has at most one reader left.
bool ListPass::place(unsigned v) {
  steps[v] = d;
  if (isA) {
    stepWeight[d] += instance.nodes[v].weight;
    return false;
  }
  bool changed = false;
  if (!adj.out[v].empty())
    live += instance.nodes[v].bytes;
  for (const Arc &a : adj.in[v]) {
    unsigned left = --remaining[a.node];
    if (left == 0)
      live -= instance.nodes[a.node].bytes;
    changed |= left <= 1;
  }
  return changed;
}

/// The successors whose last predecessor v was become ready, now or at
/// their earliest step; `broken` when one can no longer meet its ALAP.
void ListPass::releaseSuccessors(unsigned v) {
  for (const Arc &a : adj.out[v]) {
    unsigned j = a.node;
    if (--pending[j])
      continue;
    for (const Arc &p : adj.in[j])
      earliest[j] = std::max(earliest[j], steps[p.node] + p.off);
    if (earliest[j] > latest[j]) {
      broken = true;
      return;
    }
    if (earliest[j] <= d) {
      earliest[j] = d;
      push(j);
    } else {
      waiting[earliest[j]].push_back(j);
    }
  }
}

namespace tilepipe::gaus::detail {

std::optional<Steps> listAcyclic(const Instance &instance, const Adjacency &adj,
                                 const std::vector<int64_t> &earliestStart,
                                 const std::vector<int64_t> &latest,
                                 double target) {
  return ListPass(instance, adj, earliestStart, latest, target).run();
}

double peakFloor(const Instance &instance, const Adjacency &adj) {
  double floor = 0;
  if (instance.formulation == Formulation::A) {
    double total = 0;
    for (const Node &node : instance.nodes) {
      total += node.weight;
      floor = std::max(floor, node.weight);
    }
    return std::max(floor, total / double(instance.depth));
  }
  for (unsigned i = 0; i < instance.nodes.size(); ++i) {
    if (!adj.out[i].empty())
      floor = std::max(floor, instance.nodes[i].bytes);
    double inputs = 0;
    for (const Arc &a : adj.in[i])
      if (a.off >= 1)
        inputs += instance.nodes[a.node].bytes;
    floor = std::max(floor, inputs);
  }
  return floor;
}

} // namespace tilepipe::gaus::detail

namespace {

/// The list scheduler from the floor, then from a ladder of higher targets
/// up to the larger of the peaks it reached and ASAP reaches, keeping the
/// best schedule. A target too low defers ops to their ALAP, where the
/// forced ones pile up above it; one too high degenerates to ASAP. Where
/// the best lies depends on the graph (just above the floor for A's
/// balanced weights, anywhere for B), so the ladder has fine rungs just
/// above the floor and even ones over the whole range; each run is one
/// cheap pass.
std::optional<Steps> listLadder(const Instance &instance, const Adjacency &adj,
                                const std::vector<int64_t> &earliest,
                                const std::vector<int64_t> &latest) {
  constexpr unsigned kEven = 8, kFine = 6;
  double floor = peakFloor(instance, adj);
  std::optional<Steps> best =
      listAcyclic(instance, adj, earliest, latest, floor);
  if (!best)
    return best;
  Evaluation bestEval = evaluate(instance, *best);
  double top = std::max(bestEval.peak, evaluate(instance, earliest).peak);
  std::vector<double> targets;
  for (unsigned k = 1; k <= kEven; ++k)
    targets.push_back(floor + (top - floor) * double(k) / double(kEven));
  for (unsigned j = 1; j <= kFine; ++j)
    targets.push_back(floor * (1 + std::ldexp(1.0, -int(j))));
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  for (double target : targets) {
    if (target <= floor || target > top)
      continue;
    std::optional<Steps> steps =
        listAcyclic(instance, adj, earliest, latest, target);
    if (!steps)
      continue;
    Evaluation eval = evaluate(instance, *steps);
    if (eval.legal &&
        (!bestEval.legal || eval.objective < bestEval.objective)) {
      best = std::move(steps);
      bestEval = eval;
    }
  }
  return best;
}

} // namespace

std::optional<Steps> tilepipe::gaus::listSchedule(const Instance &instance,
                                                  const Frames &frames) {
  if (!wellFormed(instance, frames))
    return std::nullopt;
  if (instance.formulation == Formulation::C) {
    // Modulo list scheduling is the legaliser's placement in order of the
    // wanted starts; ASAP first, then the other ends of the frames.
    std::optional<Steps> steps = legalize(instance, frames, frames.asap);
    if (!steps)
      steps = legalize(instance, frames, frames.alap);
    if (!steps) {
      Steps mid(frames.asap.size());
      for (size_t i = 0; i < mid.size(); ++i)
        mid[i] = (frames.asap[i] + frames.alap[i]) / 2;
      steps = legalize(instance, frames, mid);
    }
    return checked(instance, std::move(steps));
  }
  Adjacency adj(instance);
  return checked(instance, listLadder(instance, adj, frames.asap, frames.alap));
}
