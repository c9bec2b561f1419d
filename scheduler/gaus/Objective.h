//===- Objective.h - the exact objective of an integer schedule -*- C++ -*-===//
//
// What every method (GauS, list, FDS) is judged by: legality and the true
// objective of a schedule, never the relaxation's expectation.
//
//   A  peak over steps of the summed node weights + alpha * sum over edges
//      with comm > 0 of max(0, s_dst - s_src) (the stage boundaries the edge
//      crosses, GS-Schedule's m_d summed over d).
//   B  peak over steps d of the bytes live at d: a node with successors is
//      live on [s_i, max_j s_j - 1]; a node without successors is not
//      counted (its value leaves the graph when it is made).
//   C  as B, with the consumer's start s_j + distance * II, and the live
//      bytes folded modulo II (every iteration in flight counts).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_OBJECTIVE_H
#define TILEPIPE_SCHEDULER_GAUS_OBJECTIVE_H

#include "scheduler/gaus/Graph.h"

namespace tilepipe::gaus {

struct Evaluation {
  bool legal = false;
  /// The first violation found, "" when legal.
  std::string violation;
  double objective = 0;
  double peak = 0; ///< A: peak weight; B, C: peak live bytes.
  double comm = 0; ///< A: boundary crossings.
};

/// Legality: every start in [0, depth), every edge holds, and in C the
/// modulo reservation table fits every capacity.
Evaluation evaluate(const Instance &instance, const Steps &steps);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_OBJECTIVE_H
