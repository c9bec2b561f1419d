//===- Broadcasts.h - vectors every thread holds whole ----------*- C++ -*-===//
//
// A register tile spreads its rows over the agent's threads (thread t holds
// rows t * RPT ..), and so does a rank-1 vector: one value per row. A vector
// that `tileas.broadcast ... dimensions = [0]` spreads along the columns
// (bias[n], a norm's gamma[n]) is the other kind: every row needs all of it,
// so every thread holds it whole (tp::Frag<T, N>, the same in every thread),
// or streams it from shared memory a piece at a time (TileStreams.h). This
// file finds those vectors: the broadcast's input and, backwards through
// elementwise math and loop-carried values, what it is computed from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_BROADCASTS_H
#define TILEPIPE_CUDA_ANALYSIS_BROADCASTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseSet.h"

namespace tilepipe::cuda {

/// The per-column vectors of `func` (see the file comment). Fails, with an
/// error at the op, where such a vector is made by an op that gives a value
/// per row (a row reduction) or is also read as a per-row vector.
mlir::FailureOr<llvm::DenseSet<mlir::Value>>
collectColumnVectors(mlir::func::FuncOp func);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_BROADCASTS_H
