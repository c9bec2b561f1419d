//===- WarpSpecialize.h - warp-specialized stage code ----------*- C++ -*-===//
//
// docs/tileiras-facts.md 11.3, warp-specialized mode: agent regions (load,
// MMA, SIMT roles) connected only by pipes and mutexes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_WARPSPECIALIZE_H
#define TILEPIPE_MATERIALIZE_MLIR_WARPSPECIALIZE_H

#include "materialize/mlir/LoopPlan.h"

namespace tilepipe {

/// Replaces the planned loop by pipe/mutex creation and one agent per role.
/// On failure nothing has been changed and `why` says what stands in the
/// way.
mlir::LogicalResult emitWarpSpecialized(LoopPlan &plan, std::string &why);

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_WARPSPECIALIZE_H
