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
//  - Unless the agent's SIMT code reads an accumulator inside the loop that
//    accumulates it (attention's S, and its O rescaled in place), or hands
//    a wgmma its A in registers (P). Then the agent holds every register
//    tile in the fragment's rows (runtime/wgmma.cuh; docs/cuda.md, "The
//    fragment's rows") and the accumulator changes order at its ends, in
//    registers: each read goes through an unrealized_conversion_cast marked
//    `tileas.fragment = "rows"`, and a tile the SIMT code made becomes an
//    accumulator through one marked "regs". The agent (or the function)
//    is marked `tileas.fragment_bands`, the 64-row bands a warpgroup holds.
//
// What is refused, at the MMA: an accumulator that starts from anything but
// zeros outside such an agent, f32 or 8-bit operands, the wgmmas of one
// such agent with different rows, and a tile that needs more than two
// consumer warpgroups.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_WGMMAACCUMULATORS_H
#define TILEPIPE_CUDA_ANALYSIS_WGMMAACCUMULATORS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

namespace tilepipe::cuda {

/// The attribute of the casts between the ISA's fragment and its rows.
inline constexpr llvm::StringLiteral kFragmentAttr = "tileas.fragment";
/// The attribute of an agent whose register tiles lie in the rows.
inline constexpr llvm::StringLiteral kFragmentBandsAttr =
    "tileas.fragment_bands";
/// Of such an agent whose wgmmas are narrow tiles (8, 16 or 32 rows issued
/// as 64, ir/WgmmaStaging.h): the tile's rows. Its register tiles have that
/// many rows and are held as the 64 the fragment has; the rows past them
/// are computed but never loaded or stored.
inline constexpr llvm::StringLiteral kFragmentRowsAttr = "tileas.fragment_rows";
/// Of a function whose epilogue was put in the rows (the translation's first
/// attempt): its agents keep no row-a-thread islands (findThreadRowsIsland),
/// which the staged attempt takes only where the rows are the loop's own
/// (attention's softmax), not an epilogue's that staging would avoid.
inline constexpr llvm::StringLiteral kEpilogueInRowsAttr =
    "tileas.epilogue_in_rows";

/// Rewrites `func` (a copy the translation owns) as above; an error at the
/// first accumulator it cannot take. `epilogueInRows`: every agent that
/// reads an accumulator holds its tiles in the fragment's rows, the
/// epilogue after the loop included (the translation's first attempt; the
/// epilogue staged through SMEM is its fallback; docs/cuda.md).
mlir::LogicalResult prepareWgmmaAccumulators(mlir::func::FuncOp func,
                                             bool epilogueInRows = false);

/// The register tiles of `func` that are wgmma accumulator fragments (the
/// MMAs' results and accumulators, the constants, iter_args and loop
/// results carrying them), each with the f32 registers a thread holds:
/// M N / 128 with one consumer warpgroup, N / 2 with one per 64 rows.
llvm::DenseMap<mlir::Value, int64_t> wgmmaFragments(mlir::func::FuncOp func);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_WGMMAACCUMULATORS_H
