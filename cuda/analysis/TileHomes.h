//===- TileHomes.h - where a TMEM or SMEM tile lives, and who changes it -*- C++ -*-===//
//
// A register tile read from TMEM or SMEM need not be held in registers while
// the memory it came from still holds the same values: it can be read again,
// a piece at a time (docs/cuda.md, "Register tiles in pieces"). Whether it
// still does is a question about the ops the reading agent runs after the
// read: a release lets the pipe's producer overwrite the slot, a commit
// hands it on, a store or an MMA writes it. This file answers it from the IR
// alone (no layout), so that the loop rewrites before the layout and the
// emitter agree.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_TILEHOMES_H
#define TILEPIPE_CUDA_ANALYSIS_TILEHOMES_H

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>
#include <utility>

namespace tilepipe::cuda {

/// The buffer a TMEM or SMEM tile value lies in.
struct TileHome {
  /// The storage: a root pipe.create (the end of its aliases/shares chain),
  /// an alloc_tmem/alloc_smem, or the op that made a buffer of its own
  /// (tma_load or tmem_store without `into`). Null: the IR does not say (a
  /// staged epilogue tile overlays pipe slots), so any write may reach it.
  mlir::Operation *root = nullptr;
  /// The pipe whose slot was read, when read through consumer_wait.
  mlir::tileas::PipeCreateOp pipe;
  /// A tile made after the loops (an smem_store or tma_load without
  /// `into`: an epilogue's staging or source tile). Its bytes may overlay
  /// drained pipe slots, but the layout gives each such op bytes of its own,
  /// so two different ones never overlap.
  mlir::Operation *afterLoops = nullptr;
  bool tmem = false;
};

/// Whether `op` makes a tile after the loops (TileHome::afterLoops).
bool makesTileAfterLoops(mlir::Operation *op);

/// Whether `op` is a smem_store of the threads' own (no `into`) that a
/// pipelined loop makes: in a loop, or one of the copies stage code puts
/// in an agent's prologue and drain rows (it keeps its schedule order).
/// Every copy of one scheduled store lies in one buffer (KernelLayout).
bool stagesInLoop(mlir::Operation *op);

/// Whether a wgmma reads the SMEM tile `tile`: directly, or after loops and
/// branches hand it on (a store in one stage whose wgmma is in the next
/// iteration's row).
bool readByWgmma(mlir::Value tile);

/// The tile a TMA loaded after the loops (an epilogue's C) whose bytes the
/// output staging `store` may take, or null: the stored tile has its type
/// and is made from it element by element (elementwise math, broadcasts of
/// other values), and nothing else reads it, so each thread writes only the
/// elements it has already read (C = alpha A B + beta C at 128 x 256 f32).
mlir::Value inPlaceSource(mlir::tileas::SmemStoreOp store);

/// Where `tile` (a !tileas.tmem or !tileas.smem value) lies.
TileHome homeOf(mlir::Value tile);

/// For an scf.for iter_arg or result: its initial and its yielded value.
std::optional<std::pair<mlir::Value, mlir::Value>> carriedEnds(mlir::Value v);

/// Whether iter_arg `i` of `loop` is a TMEM slot that is one address in
/// every iteration: both ends are slots of one pipe of one slot (depth 0 or
/// 1, as the kernel's layout counts it) on a root of one slot. The emitter
/// does not assign such a slot again at the yield (docs/cuda.md, "One-slot
/// addresses not carried").
bool isLoopInvariantSlot(mlir::scf::ForOp loop, unsigned i);

/// Whether `op`, run by the agent `agent` (a tileas.agent, or the function
/// of unspecialized code) after it read a tile at `home`, may change what
/// the tile holds. Ops nested in `op` count. Conservative: an op it cannot
/// judge changes everything.
///
/// A release of the slot read ends it, except where the agent keeps the slot
/// past its own release: a pipe that `aliases` the slot's pipe (a tile
/// stored over it in place, FA4's P over S) or `shares` it (an accumulator
/// rescaled in place, FA4's O), committed by the same agent. Until that
/// commit nothing else writes the slot: an alias's readers release onto the
/// slot's own empty barrier only after they read what the commit hands on,
/// and a shared buffer's next writer is the MMA that accumulates onto what
/// the commit hands on (`sharesWaitsFirst` checks that it waits first).
bool mayChange(mlir::Operation *op, const TileHome &home,
               mlir::Operation *agent);

/// True when every write of a slot of `pipe` is a UMMA accumulating into
/// the acquired slot after waiting on `sharing` earlier in its block, as an
/// accumulator rescaled in place is written: the buffer's next write comes
/// after the rescaled tile was committed.
bool sharesWaitsFirst(mlir::tileas::PipeCreateOp pipe,
                      mlir::tileas::PipeCreateOp sharing);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_TILEHOMES_H
