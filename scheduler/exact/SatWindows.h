//===- SatWindows.h - the exact model over absolute start windows -*- C++
//-*-===//
//
// A second SAT encoding for problems whose ops all share recurrences with
// one op whose start may be fixed: each start in a finite window, order
// encoded (SatWindows.cpp has the model).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_EXACT_SATWINDOWS_H
#define TILEPIPE_SCHEDULER_EXACT_SATWINDOWS_H

#include "scheduler/exact/Model.h"

#include <optional>

namespace tilepipe::sched::exact {

/// The verdict, or nullopt when the encoding does not apply (no pinned op,
/// an op without a finite window, a model too large).
std::optional<ExactResult> solveSatWindows(const Problem &problem,
                                           const ModelInput &in,
                                           const ExactOptions &opts);

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_SATWINDOWS_H
