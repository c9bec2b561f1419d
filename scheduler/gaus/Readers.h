//===- Readers.h - GauS instances from files and from Problems -*- C++ -*-===//
//
// The files in ../shared/data and the formats `tilepipe schedule` reads:
//   .dag      EPFL AIG scheduling DAGs ("n N M L", "id kind is_po",
//             "src dst"); unit weights, bytes and communication.
//   .txt      GS-Schedule random workloads ("n N M", "id w", "src dst w").
//   .gml      the same workloads in GML (node and edge "parameter").
//   .json, .graphml  tilepipe problems, through sched::Problem.
// Formulation defaults (docs/gaus.md): A and B take the depth of the
// longest path in nodes; A's dependences are non-strict (latency 0), B's
// have latency 1. C on a DAG adds recurrences by a fixed seed and one
// resource with a capacity that puts ResMII near a target.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_READERS_H
#define TILEPIPE_SCHEDULER_GAUS_READERS_H

#include "scheduler/Problem.h"
#include "scheduler/gaus/Graph.h"

namespace tilepipe::gaus {

struct ReadOptions {
  Formulation formulation = Formulation::B;
  /// Depth override (0: the formulation's default).
  int64_t depth = 0;
  /// C: the II (0: the smallest the recurrences and resources allow).
  unsigned ii = 0;
  /// C on a DAG: back edges added per 100 nodes, their seed, and the
  /// ResMII the capacity aims at.
  double recurrencesPer100 = 1;
  uint64_t augmentSeed = 1;
  unsigned targetResMII = 64;
  /// A: weight of the communication term.
  double alpha = 1;
  /// .graphml: the HatScheT resource model.
  std::string resources;
};

/// Reads `path`; on failure returns nullopt with "path:line: message".
std::optional<Instance> readInstance(const std::string &path,
                                     const ReadOptions &options,
                                     std::string &error);

/// Formulation C of a modulo scheduling problem at `ii`: one node per op
/// (unit bytes), the RRT footprint as uses (slots capacity 1, pools their
/// capacity), the dependences as edges; depth: the longest path at `ii`
/// plus `slackStages` * ii.
Instance fromProblem(const sched::Problem &problem, unsigned ii,
                     unsigned slackStages = 1);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_READERS_H
