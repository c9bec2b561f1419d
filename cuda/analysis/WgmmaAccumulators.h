//===- WgmmaAccumulators.h - Hopper accumulators before the layout -*- C++ -*-===//
//
// A tileas.wgmma accumulates in registers, in the ISA's m64nN fragment
// (layout/wgmma_layout.cuh), not a row a thread as the translation's other
// register tiles lie. Before the kernel is laid out, the translation makes
// each accumulator's life one it can emit (docs/cuda.md, "Hopper"):
//
//  - A loop that carries the accumulator twice (the stage code's latest
//    value and the loop's result, the same SSA value yielded twice) carries
//    it once: every carried copy is a fragment of registers.
//  - Where the accumulator leaves its loop (or its MMA, outside a loop), it
//    goes through shared memory: `smem_store` of the fragment into a
//    row-major f32 tile, then `smem_load` of that tile, which the epilogue
//    reads a row a thread like any other. The tile is made after the loops,
//    so the layout may place it over drained pipe slots.
//
// What is refused, at the MMA: an accumulator that starts from anything but
// zeros, one read by anything but its MMA inside the loop, A in registers,
// and a tile that needs more than two consumer warpgroups.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_WGMMAACCUMULATORS_H
#define TILEPIPE_CUDA_ANALYSIS_WGMMAACCUMULATORS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"

namespace tilepipe::cuda {

/// Rewrites `func` (a copy the translation owns) as above; an error at the
/// first accumulator it cannot take.
mlir::LogicalResult prepareWgmmaAccumulators(mlir::func::FuncOp func);

/// The register tiles of `func` that are wgmma accumulator fragments (the
/// MMAs' results and accumulators, the constants, iter_args and loop
/// results carrying them), each with the f32 registers a thread holds:
/// M N / 128 with one consumer warpgroup, N / 2 with one per 64 rows.
llvm::DenseMap<mlir::Value, int64_t> wgmmaFragments(mlir::func::FuncOp func);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_WGMMAACCUMULATORS_H
