//===- TmemAliases.h - TMEM tiles that may take another's columns -*- C++ -*-===//
//
// A TMEM tile stored with no `into` (P) may be written over the columns of
// a TMEM tile (S) when only the storing warp group reads S and every one of
// those reads feeds the stored data: the reads have completed, their
// results in registers, before the store, in the thread holding S's slot.
// The scheduler orders the hand-over when the loop's TMEM tiles would not
// fit side by side (LoopProblem.cpp); the materializer then takes the
// alias from the schedule (materialize/mlir/LoopPlan.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MLIR_TMEMALIASES_H
#define TILEPIPE_SCHEDULER_MLIR_TMEMALIASES_H

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <vector>

namespace tilepipe {

struct TmemAliasCandidate {
  mlir::Operation *store; ///< A tileas.tmem_store without `into`.
  mlir::Value base;       ///< The TMEM tile whose columns it may take.
};

/// The candidates of `loop`, in program order, each base at most once.
std::vector<TmemAliasCandidate> findTmemAliases(mlir::scf::ForOp loop);

/// TMEM columns the loop holds with every tile in a slot of its own at depth
/// one: accumulators carried across it, and each TMEM tile made in it that
/// is neither stored `into` another nor an accumulator updated in place.
int64_t tmemColumnsSideBySide(mlir::scf::ForOp loop);

} // namespace tilepipe

#endif // TILEPIPE_SCHEDULER_MLIR_TMEMALIASES_H
