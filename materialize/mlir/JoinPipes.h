//===- JoinPipes.h - one pipe for tiles loaded and consumed together -*- C++ -*-===//
//
// CUTLASS loads a GEMM's A and B tiles through one pipeline: one full and
// one empty barrier per stage guard both buffers, so the load warp waits,
// and the MMA warp waits and commits, once per k-step instead of once per
// operand. Stage code made from the schedule has one pipe per value; this
// step joins TMA pipes whose slot ops all come in the same threads at the
// same pipe iterations (docs/materialize.md, "Joined pipes").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_JOINPIPES_H
#define TILEPIPE_MATERIALIZE_MLIR_JOINPIPES_H

namespace mlir {
class Operation;
} // namespace mlir

namespace tilepipe {

/// Joins, under `root`, every TMA pipe whose acquires, commits, waits and
/// releases pair one to one with those of an earlier created TMA pipe of
/// the same depth and consumers (same block, same iteration value), and
/// orders each pair the way `joins` requires: the first pipe's acquire and
/// wait before the joined one's, its commit and release after. Returns how
/// many pipes were joined.
unsigned joinPipes(mlir::Operation *root);

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_JOINPIPES_H
