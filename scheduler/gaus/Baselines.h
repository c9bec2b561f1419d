//===- Baselines.h - list and force-directed scheduling --------*- C++ -*-===//
//
// The methods GauS is measured against, on the same instances and by the
// same exact objective (Objective.h).
//
//   list  a step-by-step list scheduler. Ops become ready when their
//         predecessors allow; an op whose latest start (ALAP) is this step
//         must go; the others go when they do not raise the formulation's
//         running peak (A: step weight, B/C: live bytes), by priority of
//         least slack. C: modulo list scheduling (the legaliser seeded
//         with the ASAP starts).
//   fds   force-directed scheduling (Paulin and Knight, 1989): uniform
//         probabilities over each op's time frame, a distribution graph of
//         the formulation's usage, and each op fixed in turn at the step of
//         least force (self force plus the forces on the predecessors'
//         and successors' frames), the frames updated after each fix.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_BASELINES_H
#define TILEPIPE_SCHEDULER_GAUS_BASELINES_H

#include "scheduler/gaus/Graph.h"

#include <chrono>

namespace tilepipe::gaus {

std::optional<Steps> listSchedule(const Instance &instance,
                                  const Frames &frames);

/// Stops fixing ops by force when `deadline` passes and finishes the rest
/// by the list scheduler's rule; `exhausted` says so.
std::optional<Steps>
forceDirectedSchedule(const Instance &instance, const Frames &frames,
                      std::chrono::steady_clock::time_point deadline,
                      bool &exhausted);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_BASELINES_H
