//===- StageCode.h - pipelined stage code from a plan ----------*- C++ -*-===//
//
// Both code modes share one structure (docs/stage-code.md): an agent runs
// rows; in row r each of its ops of local stage s works on iteration r - s,
// and inside a row the ops run in modulo-cycle order (start mod II, the
// older iteration first at a tie), the order the reservation table assumed.
// An agent spanning S stages runs S-1 prologue rows, a steady-state loop and
// S-1 epilogue rows; when the trip count is below S-1 it runs the same ops
// one iteration at a time instead. Warp-specialized mode emits one
// `tileas.agent` per role; unspecialized mode emits one agent's code in
// place of the loop. Values between units travel through pipe slots in SSA.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_STAGECODE_H
#define TILEPIPE_MATERIALIZE_MLIR_STAGECODE_H

#include "materialize/mlir/LoopPlan.h"

namespace tilepipe {

enum class StageCodeMode { WarpSpecialized, Unspecialized };

/// Replaces the planned loop by stage code. On failure nothing has been
/// changed and `why` says what stands in the way.
mlir::LogicalResult emitStageCode(LoopPlan &plan, StageCodeMode mode,
                                  std::string &why);

/// Prints the warp-specialized agent partition of a planned loop (the
/// pass's `print-agents`): the first step of stage code, before any IR is
/// built (materialize/plan/AgentPartition.h).
void printAgents(llvm::raw_ostream &os, const LoopPlan &plan);

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_STAGECODE_H
