//===- IssueTurns.h - which agents' warpgroups take turns -------*- C++ -*-===//
//
// An agent of two consumer warpgroups, each holding the 64 rows of a wgmma
// accumulator that its loop's own code reads between MMAs (attention's
// softmax on S), lets the two issue in turns (docs/cuda.md, "Issue turns"):
// one computes while the other's MMAs run. Its warpgroups then release
// pipe slots on their own, each after its own wgmma.wait_group, so that
// neither waits for the other's softmax: the empty barriers of the pipes it
// releases count an arrival per warpgroup.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_ISSUETURNS_H
#define TILEPIPE_CUDA_ANALYSIS_ISSUETURNS_H

#include "cuda/analysis/KernelLayout.h"

#include <set>

namespace tilepipe::cuda {

/// Marks the agents of `layout` that take issue turns, gives each the four
/// named barrier ids it needs from those not in `used` (which it adds to),
/// and doubles the empty-barrier counts of the pipes they release. An agent
/// whose releases share a barrier with another agent's keeps its
/// warpgroups in step instead.
mlir::LogicalResult planIssueTurns(mlir::func::FuncOp func,
                                   KernelLayout &layout, std::set<int> &used);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_ISSUETURNS_H
