//===- WgmmaWarpgroups.h - who holds a wgmma accumulator --------*- C++ -*-===//
//
// How many consumer warpgroups issue a tileas.wgmma and hold its
// accumulator, which the materializer sizes the agent by and the CUDA
// translation emits (docs/stage-code.md, "Hopper"). The op's own
// getWarpgroups() is the rule of the tile alone; this one also sees the
// loop's other register tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_WGMMAWARPGROUPS_H
#define TILEPIPE_IR_WGMMAWARPGROUPS_H

#include "ir/TileASDialect.h"

#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::tileas {

/// Values ordered by address: the classes' order, which nothing emitted
/// depends on (callers walk in program order).
struct ValueOrder {
  bool operator()(Value a, Value b) const {
    return a.getAsOpaquePointer() < b.getAsOpaquePointer();
  }
};
using AccumulatorClasses = llvm::EquivalenceClasses<Value, ValueOrder>;

/// Joins the values that hold one accumulator as it moves through the code
/// under `root`: a wgmma's accumulator and result, a loop's initial value,
/// iter_arg, yielded value and result, a branch's yielded values and result
/// (register tiles only). One class is one accumulator however many wgmmas
/// (K steps, peeled copies) write it.
void joinCarried(AccumulatorClasses &classes, Operation *root);

/// getWarpgroups(), except that in a function where a wgmma takes A in
/// registers (attention's P V), or where SIMT code reads a wgmma's
/// accumulator inside the loop that issues it (attention's S, DeepGEMM's
/// scaled partial sums), every wgmma gets one warpgroup per 64 rows: the
/// agent holds several register tiles at once, and a 128-row S in one
/// warpgroup would be 128 registers a thread before P and O (FA3's
/// consumers hold 64 rows each). So too where the function's accumulators
/// together would be more than 128 f32 registers a thread of one
/// warpgroup (a SwiGLU GEMM's gate and up products).
int64_t consumerWarpgroups(WgmmaOp mma);

} // namespace mlir::tileas

#endif // TILEPIPE_IR_WGMMAWARPGROUPS_H
