//===- Graph.h - the graph GauS and its baselines schedule -----*- C++ -*-===//
//
// One representation for the three formulations of seed 000 (GauS):
//   A  resource + communication (GS-Schedule's problem): min peak step
//      weight + alpha * boundary crossings; dependences non-strict.
//   B  memory footprint: min peak live bytes; unit-latency dependences.
//   C  modulo: min peak live bytes folded modulo II, subject to the modulo
//      resource limits and the recurrences at a given II.
// Steps are integers in [0, depth). An edge (u, v, latency l, distance k)
// holds when s_v + k * II >= s_u + l.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_GRAPH_H
#define TILEPIPE_SCHEDULER_GAUS_GRAPH_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilepipe::gaus {

enum class Formulation { A, B, C };

/// `amount` units of resource `resource` held for `duration` steps from
/// `offset` steps after the start (formulation C; as an RRT footprint).
struct Use {
  unsigned resource = 0;
  int64_t offset = 0;
  int64_t duration = 1;
  double amount = 1;
};

struct Node {
  std::string name;
  double weight = 0;     ///< A: the op's weight in its step (GS "parameter").
  double bytes = 1;      ///< B, C: size of the value it produces.
  std::vector<Use> uses; ///< C: its modulo reservation.
};

struct Edge {
  unsigned src = 0, dst = 0;
  int64_t latency = 1;
  unsigned distance = 0; ///< Iterations; > 0 only in formulation C.
  double comm = 0;       ///< A: counted when > 0 (GS-Schedule's m_d).
};

/// One instance: the graph, the formulation and its parameters.
struct Instance {
  std::string name;
  Formulation formulation = Formulation::B;
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  /// Steps available: every start lies in [0, depth).
  int64_t depth = 1;
  /// C: the initiation interval and each resource's capacity per slot.
  unsigned ii = 0;
  std::vector<double> capacity;
  std::vector<std::string> resourceNames;
  /// A: weight of the communication term.
  double alpha = 1;
};

/// A start step per node.
using Steps = std::vector<int64_t>;

/// Per node, the earliest and latest start any legal schedule can give it
/// (longest paths over all edges at the instance's II); nullopt when the
/// edges admit no schedule within the depth (a positive cycle, or a path
/// longer than the depth), with the reason.
struct Frames {
  std::vector<int64_t> asap, alap;
};
std::optional<Frames> computeFrames(const Instance &instance,
                                    std::string &reason);

/// Raises `starts` (one lower bound per node) to the least values at or
/// above them that satisfy every edge at `ii`, ignoring the depth: longest
/// paths from the given bounds. Returns false, with the reason and `starts`
/// left partly raised, when the edges have a positive cycle at `ii`.
bool raiseToFixedPoint(const Instance &instance, unsigned ii,
                       std::vector<int64_t> &starts, std::string &reason);

/// Step probabilities the relaxation keeps for these frames (their total
/// width), and the most a run takes on: each is a few doubles in several
/// arrays, so past the limit a run would need gigabytes (div under
/// formulation A: 57,375 nodes times 4,373 steps is 251 M).
uint64_t frameEntries(const Frames &frames);
constexpr uint64_t kMaxRelaxationEntries = 50'000'000;

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_GRAPH_H
