//===- WarpGroups.h - warp groups from independent chains ---*- C++ -*-===//
//
// A loop written plainly names no warp groups: every SIMT op would run in
// one agent of four warps. When its SIMT tile ops fall into independent
// chains (FA4's two Q tiles: each tile's softmax and the rescale of its O
// read nothing the other makes, only K and V through the tensor core), one
// warpgroup holding both carries both tiles' rows, twice the registers a
// thread has. Each chain becomes a warp group of its own instead, as FA4
// assigns them by hand (docs/generators.md, "Warp groups").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MLIR_WARPGROUPS_H
#define TILEPIPE_SCHEDULER_MLIR_WARPGROUPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilepipe {

/// The most warp groups inferred: with the load and MMA warps' warpgroup,
/// four warpgroups fill the register file at 128 registers a thread.
constexpr unsigned kMostInferredWarpGroups = 3;

/// Marks each SIMT tile op of `loop` with `tileas.warp_group` = its chain's
/// index (chains in the order of their first op) when no op of the loop
/// names a warp group, the chains number 2 to kMostInferredWarpGroups, and
/// each holds a rank-2 tile. Returns the number of groups marked (0: the
/// loop is left as it was).
unsigned inferWarpGroups(mlir::scf::ForOp loop);

} // namespace tilepipe

#endif // TILEPIPE_SCHEDULER_MLIR_WARPGROUPS_H
