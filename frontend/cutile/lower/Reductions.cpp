//===- Reductions.cpp - row reductions ------------------------------------===//
//
// cuTile's `reduce` carries its combiner as a region. A max or a sum over
// the last dimension of a 2-D tile (softmax's row max and row sum, a norm's
// sum of squares) is tileas.reduce_max / reduce_sum, which the translation
// computes per row in the thread that holds the row. The identity only
// matters for an empty row, which a tile never has; it is checked to be the
// combiner's own (-inf for max, +inf for min, 0 for a sum) so that a different
// meaning is refused rather than changed. A reduction down the columns of a
// tile loaded from memory reduces the rows of its transpose (smem_load
// transposed). A `scan` along the rows (ct.cumsum) is tileas.scan, the same
// combiners and identities checked.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

namespace {
enum class Combiner { Unknown, Max, Min, Sum, Prod };
} // namespace

/// The combiner of a reduce or scan body that applies one maxf, minf, addf
/// or mulf to its two arguments and yields the result.
static Combiner combinerOf(Region &region) {
  Block &body = region.front();
  if (body.getNumArguments() != 2 || body.getOperations().size() != 2 ||
      !body.mightHaveTerminator() ||
      body.getTerminator()->getNumOperands() != 1)
    return Combiner::Unknown;
  Operation &combine = body.front();
  if (combine.getNumOperands() != 2 ||
      combine.getOperand(0) != body.getArgument(0) ||
      combine.getOperand(1) != body.getArgument(1) ||
      body.getTerminator()->getOperand(0) != combine.getResult(0))
    return Combiner::Unknown;
  if (isa<tileir::MaxFOp>(combine))
    return Combiner::Max;
  if (isa<tileir::MinFOp>(combine))
    return Combiner::Min;
  if (isa<tileir::AddFOp>(combine))
    return Combiner::Sum;
  if (isa<tileir::MulFOp>(combine))
    return Combiner::Prod;
  return Combiner::Unknown;
}

static bool isIdentity(Attribute identity, Combiner c) {
  auto f = dyn_cast<FloatAttr>(identity);
  if (!f)
    return false;
  const APFloat &v = f.getValue();
  if (c == Combiner::Sum)
    return v.isZero();
  if (c == Combiner::Prod)
    return v.isExactlyValue(1.0);
  return v.isInfinity() && v.isNegative() == (c == Combiner::Max);
}

LogicalResult EntryLowering::lowerReduce(tileir::ReduceOp op) {
  if (op.getOperands().size() != 1 || op.getIdentities().size() != 1)
    return op.emitError("a reduction of several tiles at once (ct.argmax, "
                        "ct.argmin: a value and its index) is not lowered");
  Combiner c = combinerOf(op.getBody());
  if (c == Combiner::Unknown || c == Combiner::Prod)
    return op.emitError("a reduction whose combiner is not one maxf, minf or "
                        "addf of its arguments is not lowered (tileas reduces "
                        "rows by max or sum)");
  if (!isIdentity(op.getIdentities()[0], c))
    return op.emitError("a reduction whose identity is not its combiner's "
                        "(-inf for max, +inf for min, 0 for a sum) is not "
                        "lowered");
  auto src = cast<tileir::TileType>(op.getOperands()[0].getType());
  // One row (a 1 x C tile or a vector of C, unit dimensions dropped in
  // registers: C values spread over the agent's threads) reduced whole.
  ArrayRef<int64_t> shape = src.getShape();
  int64_t dim = op.getDim();
  if (dim >= 0 && dim < src.getRank() && shape[dim] > 1 &&
      llvm::count_if(shape, [](int64_t n) { return n > 1; }) == 1)
    return lowerRowReduce(op, int(c));
  // Down the columns of a tile loaded from memory: along the rows of its
  // transpose, which the threads read from the SMEM tile the other way.
  bool columns = src.getRank() == 2 && op.getDim() == 0 &&
                 src.getShape()[0] > 1 && src.getShape()[1] > 1;
  if (!columns &&
      (src.getRank() != 2 || op.getDim() != 1 || src.getShape()[0] == 1))
    return op.emitError("only a reduction over the rows of a 2-D tile (dim = "
                        "1), or down the columns of one loaded from memory, "
                        "is lowered: tileas reduces the last dimension, one "
                        "row per thread");
  FailureOr<Value> x = registers(op, op.getOperands()[0], columns);
  if (failed(x))
    return failure();
  Type to = registerType(cast<tileir::TileType>(op.getResult(0).getType()));
  Value r;
  if (c == Combiner::Sum) {
    r = b.create<tileas::ReduceSumOp>(loc(op), to, *x);
  } else if (c == Combiner::Max) {
    r = b.create<tileas::ReduceMaxOp>(loc(op), to, *x);
  } else {
    // min(x) = -max(-x): negation is exact, so the result is the minimum.
    Value neg = b.create<arith::NegFOp>(loc(op), *x);
    r = b.create<arith::NegFOp>(
        loc(op), b.create<tileas::ReduceMaxOp>(loc(op), to, neg));
  }
  map(op.getResult(0), r);
  return success();
}

/// A 1 x C tile's reduction over its row: tileas.reduce_all to one value
/// that every thread holds (a 1 x 1 tile is a scalar in registers).
LogicalResult EntryLowering::lowerRowReduce(tileir::ReduceOp op,
                                            int combiner) {
  auto c = Combiner(combiner);
  FailureOr<Value> x = registers(op, op.getOperands()[0]);
  if (failed(x))
    return failure();
  auto type = dyn_cast<RankedTensorType>(x->getType());
  Type to = registerType(cast<tileir::TileType>(op.getResult(0).getType()));
  if (!type || type.getRank() != 1 || to != type.getElementType())
    return op.emitError("a reduction of one row is lowered when the row is "
                        "held as a vector of floats and the result is one "
                        "value");
  // The row is spread over a SIMT agent's 128 threads, a whole number of
  // values each, or held twice as a 64-row tile's rows are (the translation
  // counts each once).
  if (type.getShape()[0] % 128 && type.getShape()[0] != 64)
    return op.emitError("a reduction of a row of ")
           << type.getShape()[0]
           << " columns is not lowered: a one-row tile is spread over a SIMT "
              "agent's 128 threads, so its width must be 64 or a multiple of "
              "128";
  Value r;
  if (c == Combiner::Min) {
    // min(x) = -max(-x): negation is exact, so the result is the minimum.
    Value neg = b.create<arith::NegFOp>(loc(op), *x);
    r = b.create<arith::NegFOp>(
        loc(op), b.create<tileas::ReduceAllOp>(loc(op), to, neg,
                                               b.getStringAttr("max")));
  } else {
    r = b.create<tileas::ReduceAllOp>(
        loc(op), to, *x, b.getStringAttr(c == Combiner::Sum ? "sum" : "max"));
  }
  map(op.getResult(0), r);
  return success();
}

/// `ct.cumsum(x, axis=1)` (and a running maximum): tileas.scan along the
/// rows of a 2-D tile, each thread scanning the row it holds.
LogicalResult EntryLowering::lowerScan(tileir::ScanOp op) {
  if (op.getOperands().size() != 1 || op.getIdentities().size() != 1)
    return op.emitError("a scan of several tiles at once is not lowered");
  Combiner c = combinerOf(op.getBody());
  if (c != Combiner::Sum && c != Combiner::Max && c != Combiner::Prod)
    return op.emitError("a scan whose combiner is not one addf, mulf or maxf "
                        "of its arguments is not lowered (ct.cumsum and "
                        "ct.cumprod are)");
  if (!isIdentity(op.getIdentities()[0], c))
    return op.emitError("a scan whose identity is not its combiner's (0 for "
                        "a sum, 1 for a product, -inf for max) is not "
                        "lowered");
  if (op.getReverse())
    return op.emitError("a reverse scan is not lowered");
  auto src = cast<tileir::TileType>(op.getOperands()[0].getType());
  if (src.getRank() != 2 || op.getDim() != 1 || src.getShape()[0] == 1 ||
      !src.getElementType().isF32())
    return op.emitError("only a scan of f32 along the rows of a 2-D tile "
                        "(dim = 1) is lowered: tileas scans the row each "
                        "thread holds");
  FailureOr<Value> x = registers(op, op.getOperands()[0]);
  if (failed(x))
    return failure();
  map(op.getResult(0),
      b.create<tileas::ScanOp>(loc(op), x->getType(), *x,
                               b.getStringAttr(c == Combiner::Sum    ? "sum"
                                               : c == Combiner::Prod ? "prod"
                                                                     : "max"),
                               IntegerAttr()));
  return success();
}
