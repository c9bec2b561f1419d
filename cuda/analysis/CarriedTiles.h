//===- CarriedTiles.h - fewer register tiles across loop back edges -*- C++ -*-===//
//
// The software pipeline splits a chain of SIMT ops over stages, and a value
// made in one stage and read in the next crosses the loop's back edge in
// registers: attention's S and P, FA4's O in the correction warp group. A
// 128-column f32 tile is 128 registers per thread, so two of them spill in
// any agent. Before the kernel is laid out, the translation rewrites each
// loop so that less crosses (docs/cuda.md, "Register tiles in pieces"):
//
//  - TMEM slots instead of tiles loaded from them. A tile loaded from a slot
//    the agent keeps past its release (TileHomes.h: FA4's O, rescaled in
//    place) is carried as the slot, and loaded again where it is read.
//  - The recurrence combined where its operand is made. A carried tile e
//    read only by a = U(a, e), a also carried, becomes w = U(a, e) carried
//    alone: w' = U(w, e') right after e' is made (arith-softmax's running
//    maximum of exp2(S), which the pipeline delayed by a stage).
//  - Narrower forms. A carried tile read only by conversions and row
//    reductions is carried as their results, computed where it is made
//    (attention's P: bf16 P and its row sum, 65 registers instead of 128).
//  - Loads of the next iteration's tile after the reads of this one's. A
//    tile loaded from an SMEM slot only to be carried, while the body still
//    reads the copy carried in, is loaded at the yield (elementwise-math's
//    x: one copy live instead of two).
//
// Each rewrite computes the same values (pure ops on the same operands), so
// numbers do not change. It runs on a copy of the function.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_CARRIEDTILES_H
#define TILEPIPE_CUDA_ANALYSIS_CARRIEDTILES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tilepipe::cuda {

/// Applies the rewrites above to every scf.for of `func` until none
/// applies.
void shrinkCarriedTiles(mlir::func::FuncOp func);

/// Only the first rewrite: every loop of `func` carries a value once where
/// two of its iter_args have the same initial and yielded values. Hopper's
/// accumulators need it before anything else sees them (a second carried
/// copy would be a second fragment of registers; WgmmaAccumulators.h).
void mergeDuplicateIterArgs(mlir::func::FuncOp func);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_CARRIEDTILES_H
