//===- Objective.cpp - the exact objective of an integer schedule ---------===//
//
// Every usage profile is a difference array swept once, so the cost is
// O(V + E + depth) (C: O(V + E + II + the uses' folded lengths)), and the
// sums run in a fixed order: the same schedule always gets bit-identical
// numbers. With integer weights and bytes (all the readers produce) the
// sums are exact.
//
// The objective is computed for any schedule whose starts lie in
// [0, depth), legal or not, so that a caller can see how far off an illegal
// one is; `legal` and `violation` say whether it counts.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Objective.h"

#include <algorithm>
#include <cmath>

using namespace tilepipe::gaus;

namespace {

/// Slack on capacity comparisons, for fractional amounts summed in a row.
constexpr double kCapacityTolerance = 1e-9;

std::string nodeName(const Instance &instance, unsigned i) {
  const std::string &name = instance.nodes[i].name;
  if (name.empty())
    return "#" + std::to_string(i);
  return "'" + name + "'";
}

int64_t floorMod(int64_t a, int64_t m) {
  int64_t r = a % m;
  return r < 0 ? r + m : r;
}

/// Adds `amount` to the rows [begin, begin + length) of a table of `ii`
/// rows, wrapping: whole turns go to `base` (every row), the rest to the
/// difference array at `diff` (ii + 1 entries).
void addFolded(int64_t begin, int64_t length, double amount, int64_t ii,
               double &base, double *diff) {
  if (length <= 0 || amount == 0)
    return;
  base += double(length / ii) * amount;
  int64_t rest = length % ii;
  if (rest == 0)
    return;
  int64_t first = floorMod(begin, ii);
  int64_t end = first + rest;
  diff[first] += amount;
  if (end <= ii) {
    diff[end] -= amount;
  } else {
    diff[ii] -= amount;
    diff[0] += amount;
    diff[end - ii] -= amount;
  }
}

/// Peak of a difference array over its first `size` entries, plus `base`.
double sweepPeak(const std::vector<double> &diff, size_t size, double base) {
  double running = 0, peak = 0;
  for (size_t d = 0; d < size; ++d) {
    running += diff[d];
    peak = std::max(peak, base + running);
  }
  return std::max(peak, base);
}

void fail(Evaluation &eval, std::string message) {
  if (eval.legal) {
    eval.legal = false;
    eval.violation = std::move(message);
  }
}

/// A: peak step weight plus alpha times the boundaries crossed.
void objectiveA(const Instance &instance, const Steps &steps,
                Evaluation &eval) {
  std::vector<double> weight(instance.depth, 0.0);
  for (size_t i = 0; i < steps.size(); ++i)
    weight[steps[i]] += instance.nodes[i].weight;
  double peak = 0;
  for (double w : weight)
    peak = std::max(peak, w);
  double comm = 0;
  for (const Edge &e : instance.edges)
    if (e.comm > 0)
      comm += double(std::max<int64_t>(0, steps[e.dst] - steps[e.src]));
  eval.peak = peak;
  eval.comm = comm;
  eval.objective = peak + instance.alpha * comm;
}

/// The step after each value's last use (B: max s_j; C: max s_j + k II),
/// or INT64_MIN for a node without consumers.
std::vector<int64_t> lastUse(const Instance &instance, const Steps &steps,
                             int64_t ii) {
  std::vector<int64_t> end(steps.size(), INT64_MIN);
  for (const Edge &e : instance.edges)
    end[e.src] = std::max(end[e.src], steps[e.dst] + int64_t(e.distance) * ii);
  return end;
}

/// B: peak over steps of the bytes live on [s_i, end_i - 1].
void objectiveB(const Instance &instance, const Steps &steps,
                Evaluation &eval) {
  std::vector<int64_t> end = lastUse(instance, steps, 0);
  std::vector<double> diff(instance.depth + 1, 0.0);
  for (size_t i = 0; i < steps.size(); ++i) {
    // Consumers are inside [0, depth) too, so end <= depth - 1.
    if (end[i] <= steps[i])
      continue; // No consumer, or all in its own step (illegal in B).
    diff[steps[i]] += instance.nodes[i].bytes;
    diff[end[i]] -= instance.nodes[i].bytes;
  }
  eval.peak = sweepPeak(diff, instance.depth, 0);
  eval.objective = eval.peak;
}

/// C: as B with the consumers shifted by distance * II, folded mod II.
void objectiveC(const Instance &instance, const Steps &steps,
                Evaluation &eval) {
  int64_t ii = instance.ii;
  std::vector<int64_t> end = lastUse(instance, steps, ii);
  std::vector<double> diff(ii + 1, 0.0);
  double base = 0;
  for (size_t i = 0; i < steps.size(); ++i)
    if (end[i] != INT64_MIN)
      addFolded(steps[i], end[i] - steps[i], instance.nodes[i].bytes, ii, base,
                diff.data());
  eval.peak = sweepPeak(diff, ii, base);
  eval.objective = eval.peak;
}

/// C: the modulo reservation table against the capacities.
void checkResources(const Instance &instance, const Steps &steps,
                    Evaluation &eval) {
  int64_t ii = instance.ii;
  size_t numResources = instance.capacity.size();
  // One difference array per resource, rows [r * (ii + 1), ...).
  std::vector<double> diff(numResources * (ii + 1), 0.0);
  std::vector<double> base(numResources, 0.0);
  for (size_t i = 0; i < steps.size(); ++i)
    for (const Use &use : instance.nodes[i].uses) {
      if (use.resource >= numResources) {
        fail(eval, "node " + nodeName(instance, i) + " uses resource " +
                       std::to_string(use.resource) + " of " +
                       std::to_string(numResources));
        return;
      }
      addFolded(steps[i] + use.offset, use.duration, use.amount, ii,
                base[use.resource], &diff[use.resource * (ii + 1)]);
    }
  for (size_t r = 0; r < numResources; ++r) {
    size_t at = r * (ii + 1);
    double running = 0;
    for (int64_t row = 0; row < ii; ++row) {
      running += diff[at + row];
      double held = base[r] + running;
      if (held > instance.capacity[r] + kCapacityTolerance) {
        std::string name = r < instance.resourceNames.size()
                               ? "'" + instance.resourceNames[r] + "'"
                               : "#" + std::to_string(r);
        fail(eval, "resource " + name + " holds " + std::to_string(held) +
                       " in modulo slot " + std::to_string(row) +
                       ", over its capacity " +
                       std::to_string(instance.capacity[r]));
        return;
      }
    }
  }
}

} // namespace

Evaluation tilepipe::gaus::evaluate(const Instance &instance,
                                    const Steps &steps) {
  Evaluation eval;
  eval.legal = true;
  unsigned n = instance.nodes.size();
  if (steps.size() != n) {
    fail(eval, "the schedule has " + std::to_string(steps.size()) +
                   " starts for " + std::to_string(n) + " nodes");
    return eval;
  }
  if (instance.depth < 1) {
    fail(eval, "the depth is " + std::to_string(instance.depth));
    return eval;
  }
  bool modulo = instance.formulation == Formulation::C;
  if (modulo && instance.ii == 0) {
    fail(eval, "formulation C needs an II of at least 1");
    return eval;
  }
  for (unsigned i = 0; i < n; ++i)
    if (steps[i] < 0 || steps[i] >= instance.depth) {
      fail(eval, "node " + nodeName(instance, i) + " starts at step " +
                     std::to_string(steps[i]) + ", outside [0, " +
                     std::to_string(instance.depth) + ")");
      return eval;
    }
  for (const Edge &e : instance.edges)
    if (e.src >= n || e.dst >= n) {
      fail(eval, "an edge names node " +
                     std::to_string(std::max(e.src, e.dst)) + " of " +
                     std::to_string(n));
      return eval;
    }

  switch (instance.formulation) {
  case Formulation::A:
    objectiveA(instance, steps, eval);
    break;
  case Formulation::B:
    objectiveB(instance, steps, eval);
    break;
  case Formulation::C:
    objectiveC(instance, steps, eval);
    break;
  }

  // Every formulation reads an edge the same way (Graph.h); outside C the
  // II is 0 and so are the distances.
  int64_t ii = instance.ii;
  for (const Edge &e : instance.edges) {
    int64_t need = steps[e.src] + e.latency - int64_t(e.distance) * ii;
    if (steps[e.dst] < need) {
      fail(eval, "edge " + nodeName(instance, e.src) + " -> " +
                     nodeName(instance, e.dst) + " (latency " +
                     std::to_string(e.latency) + ", distance " +
                     std::to_string(e.distance) + ") needs the consumer at " +
                     "step " + std::to_string(need) + " or later, it is at " +
                     std::to_string(steps[e.dst]));
      return eval;
    }
  }
  if (modulo)
    checkResources(instance, steps, eval);
  return eval;
}
