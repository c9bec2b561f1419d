//===- BaselineSupport.h - what the two baselines share ---------*- C++ -*-===//
//
// Internal to TilePipeGaus. The list scheduler (ListScheduler.cpp) and
// force-directed scheduling (ForceDirected.cpp) walk the same merged view
// of the graph and check their inputs and results the same way, and FDS
// finishes by the list rule when its deadline passes, so what they share
// is declared once here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_BASELINESUPPORT_H
#define TILEPIPE_SCHEDULER_GAUS_BASELINESUPPORT_H

#include "scheduler/gaus/Graph.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace tilepipe::gaus::detail {

inline constexpr int64_t kNone = std::numeric_limits<int64_t>::min();

inline int64_t floorMod(int64_t a, int64_t m) { return ((a % m) + m) % m; }

/// Room for rounding when a sum of doubles is compared with a peak.
inline bool fits(double value, double limit) {
  return value <= limit + 1e-9 * std::max(1.0, std::abs(limit));
}

//===- Graph views --------------------------------------------------===//

/// A dependence between two distinct nodes, parallel edges merged: `off` is
/// the start gap they impose (latency - distance * II, the largest), and
/// `shift` how much later than the consumer's start the value is last read
/// (distance * II, the largest).
struct Arc {
  unsigned node;
  int64_t off;
  int64_t shift;
  unsigned comm; ///< A: how many of the merged edges communicate.
};

struct Adjacency {
  std::vector<std::vector<Arc>> out, in;
  /// Edges with comm > 0 (A), as counts: E[s_v - s_u] is linear in the
  /// means, so the expected crossings move by (in - out) * the mean shift.
  std::vector<unsigned> commIn, commOut;
  explicit Adjacency(const Instance &instance);
};

/// Whether `frames` fit `instance`: a positive depth (and II for C), a
/// frame per node inside [0, depth), and edges between existing nodes.
bool wellFormed(const Instance &instance, const Frames &frames);

/// `steps` when it is a legal schedule of `instance`, else nullopt.
std::optional<Steps> checked(const Instance &instance,
                             std::optional<Steps> steps);

//===- List scheduling (ListScheduler.cpp) -------------------------===//

/// The time-constrained list scheduler of A and B, every start inside
/// [earliest, latest] (the instance's frames, or FDS's narrowed ones).
std::optional<Steps> listAcyclic(const Instance &instance, const Adjacency &adj,
                                 const std::vector<int64_t> &earliestStart,
                                 const std::vector<int64_t> &latest,
                                 double target);

/// A peak no schedule goes below. A: the balanced step weight, or the
/// heaviest op. B: with unit latency every input of an op is live in the
/// step before it, so the largest input set (or the largest value).
double peakFloor(const Instance &instance, const Adjacency &adj);

} // namespace tilepipe::gaus::detail

#endif // TILEPIPE_SCHEDULER_GAUS_BASELINESUPPORT_H
