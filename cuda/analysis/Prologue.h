//===- Prologue.h - what runs before a kernel's roles split ----*- C++ -*-===//
//
// A kernel's tile origins and trip counts are index arithmetic on gpu.block_id
// and the sizes passed in, and the tiles its loop reads whole (attention's Q)
// are TMA loads from those origins. Both sit in the function body, outside
// the loop and the agents; the translation runs them once, at kernel scope,
// after the barriers are set up and before the warps take their roles, so
// that every agent reads the same values and the same filled tile
// (docs/cuda.md, "The prologue").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_PROLOGUE_H
#define TILEPIPE_CUDA_ANALYSIS_PROLOGUE_H

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/SetVector.h"

#include <vector>

namespace tilepipe::cuda {

struct KernelPrologue {
  /// The function-level ops the prologue runs, in program order.
  llvm::SetVector<mlir::Operation *> ops;
  /// Its TMA loads, in program order: each fills an SMEM tile of its own.
  std::vector<mlir::tileas::TmaLoadOp> loads;
};

/// An op the prologue may run: integer and index arithmetic, gpu.block_id
/// and gpu.grid_dim.
bool isIndexOp(mlir::Operation *op);

/// Whether `load` loads the epilogue's own tile (a source tile C): it has
/// no `into`, is in no scf.for, and lies in an agent or in the function body
/// after the loop (the body's first op with regions, peeled or in agents).
/// Loaded early, it would hold SMEM the mainloop needs; such a tile lies over
/// the drained slots (KernelLayout.cpp) on a barrier of its own
/// (EmitKernel.cpp). A load without `into` before the loop is the prologue's.
bool loadsAfterLoop(mlir::tileas::TmaLoadOp load);

/// The ops of `func`'s body that run in the prologue: index ops, and TMA
/// loads without a destination before the loop (or the agents), whose
/// operands are the function's arguments or results of other prologue ops.
KernelPrologue collectPrologue(mlir::func::FuncOp func);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_PROLOGUE_H
