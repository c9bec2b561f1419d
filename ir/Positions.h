//===- Positions.h - tiles computed from element positions alone -*- C++
//-*-===//
//
// A causal mask, keys past the end, ALiBi's slope times a distance: tiles
// computed from tileas.iota and scalars only (docs/dialect.md,
// "Positions"). Nothing of them needs to be held or handed over: each
// thread computes its elements from its place in the register layout where
// they are read. Three passes treat them alike from this one test: the
// scheduler counts no bytes for them across stages, the materializer
// recomputes them in every agent (free ops), and the translation makes them
// at each read.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_POSITIONS_H
#define TILEPIPE_IR_POSITIONS_H

#include "mlir/IR/Operation.h"

namespace tilepipe {

/// Whether `op` makes a tile of one value: a tensor.splat, a splat constant.
bool isSplatTile(mlir::Operation *op);

/// Whether `op` makes a tile of positions or of what is computed from them:
/// tileas.iota; an i32 or i1 splat or splat constant (an offset, a mask's
/// constant); an i32 tileas.global_gather at positions from an array the
/// function never writes (an index read from memory: each read a load);
/// pure elementwise arith or math on a tile whose tile operands
/// are all such tiles or splats, at least one of them not a float splat; a
/// float splat that only such math reads. An arith.cmpf of data is not
/// one, though its result is i1.
bool isPositionOp(mlir::Operation *op);

} // namespace tilepipe

#endif // TILEPIPE_IR_POSITIONS_H
