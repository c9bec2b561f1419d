//===- Unspecialize.h - peeled stage code ----------------------*- C++ -*-===//
//
// docs/tileiras-facts.md 11.3, unspecialized mode: one agent runs a prologue
// of S-1 rows, a steady state of N-(S-1) iterations and an epilogue of S-1
// rows, every stage guarded, so trip counts below S and dynamic ones are
// right.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_UNSPECIALIZE_H
#define TILEPIPE_MATERIALIZE_MLIR_UNSPECIALIZE_H

#include "materialize/mlir/LoopPlan.h"

namespace tilepipe {

/// Replaces the planned loop by its peeled form. On failure nothing has been
/// changed and `why` says what stands in the way.
mlir::LogicalResult emitUnspecialized(LoopPlan &plan, std::string &why);

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_UNSPECIALIZE_H
