//===- Legalize.h - the nearest legal schedule to a rounded one -*- C++ -*-===//
//
// GauS rounds each mean to a step and needs a legal schedule near it (seed
// 000, Appendix A). Acyclic (A, B): one forward pass in topological order
// raises each start to its predecessors' bound; starts are kept inside the
// frames, which makes the pass legal by construction. Modulo (C): the
// fixed-point relaxation over forward and back edges (Bellman-Ford, at most
// |V| passes: no convergence means a positive cycle), then a modulo
// placement in order of start that seats each op at its first step with
// room in the reservation table, repeated while a seat breaks an edge.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_LEGALIZE_H
#define TILEPIPE_SCHEDULER_GAUS_LEGALIZE_H

#include "scheduler/gaus/Graph.h"

namespace tilepipe::gaus {

/// A legal schedule near `wanted` (each entry a preferred start), or nullopt
/// when the legaliser found none.
std::optional<Steps> legalize(const Instance &instance, const Frames &frames,
                              const Steps &wanted);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_LEGALIZE_H
