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

/// Which of ct.argmax and ct.argmin a reduce of a value tile and its
/// positions is: cuTile's combiner picks the left pair when its value
/// compares greater (less), or equal with the smaller index, and yields
/// two selects on that choice. Unknown for any other combiner.
static Combiner argCombinerOf(tileir::ReduceOp op) {
  Block &body = op.getBody().front();
  if (op.getOperands().size() != 2 || body.getNumArguments() != 4 ||
      !body.mightHaveTerminator())
    return Combiner::Unknown;
  Operation *term = body.getTerminator();
  auto value = term->getNumOperands() == 2
                   ? term->getOperand(0).getDefiningOp<tileir::SelectOp>()
                   : tileir::SelectOp();
  auto index = term->getNumOperands() == 2
                   ? term->getOperand(1).getDefiningOp<tileir::SelectOp>()
                   : tileir::SelectOp();
  if (!value || !index || value.getCond() != index.getCond() ||
      value.getValIfTrue() != body.getArgument(0) ||
      value.getValIfFalse() != body.getArgument(1) ||
      index.getValIfTrue() != body.getArgument(2) ||
      index.getValIfFalse() != body.getArgument(3))
    return Combiner::Unknown;
  Combiner c = Combiner::Unknown;
  bool tieToSmaller = false;
  for (Operation &inner : body) {
    if (auto cmp = dyn_cast<tileir::CmpFOp>(inner);
        cmp && c == Combiner::Unknown && cmp.getLhs() == body.getArgument(0) &&
        cmp.getRhs() == body.getArgument(1)) {
      auto pred = cmp.getComparisonPredicate();
      if (pred == tileir::ComparisonPredicate::greater_than)
        c = Combiner::Max;
      else if (pred == tileir::ComparisonPredicate::less_than)
        c = Combiner::Min;
    }
    if (auto cmp = dyn_cast<tileir::CmpIOp>(inner))
      tieToSmaller |= cmp.getComparisonPredicate() ==
                          tileir::ComparisonPredicate::less_than &&
                      cmp.getLhs() == body.getArgument(2) &&
                      cmp.getRhs() == body.getArgument(3);
  }
  return tieToSmaller ? c : Combiner::Unknown;
}

/// Whether `v` is the positions along dimension `dim` of its tile: an iota
/// reshaped and broadcast there (cuTile's argmax and argmin index tile).
static bool isPositionsAlong(Value v, int64_t dim) {
  auto broadcast = v.getDefiningOp<tileir::BroadcastOp>();
  auto reshape = broadcast
                     ? broadcast.getSource().getDefiningOp<tileir::ReshapeOp>()
                     : tileir::ReshapeOp();
  auto iota = reshape ? reshape.getSource().getDefiningOp<tileir::IotaOp>()
                      : tileir::IotaOp();
  if (!iota)
    return false;
  auto shape = cast<tileir::TileType>(reshape.getType()).getShape();
  return dim < int64_t(shape.size()) &&
         llvm::count_if(shape, [](int64_t n) { return n != 1; }) == 1 &&
         shape[dim] == cast<tileir::TileType>(v.getType()).getShape()[dim];
}

/// ct.argmax (argmin) over the rows of a 2-D tile: the row's maximum m (the
/// minimum as -max(-x)), then the least column holding it, as the minimum
/// of the positions where x == m, C elsewhere; in f32, exact for positions
/// below 2^24. fmaxf leaves NaN out as cuTile's combiner does (a NaN loses
/// to any number); a row of NaN alone gives 0, its first index.
LogicalResult EntryLowering::lowerArgReduce(tileir::ReduceOp op, int combiner) {
  auto c = Combiner(combiner);
  auto src = cast<tileir::TileType>(op.getOperands()[0].getType());
  if (src.getRank() != 2 || op.getDim() != 1 || src.getShape()[0] == 1 ||
      !isPositionsAlong(op.getOperands()[1], 1))
    return op.emitError("ct.argmax and ct.argmin are lowered over the rows "
                        "of a 2-D tile (axis = 1)");
  if (!isIdentity(op.getIdentities()[0], c))
    return op.emitError("an argmax or argmin whose identity is not its "
                        "combiner's (-inf for max, +inf for min) is not "
                        "lowered");
  FailureOr<Value> x = registers(op, op.getOperands()[0]);
  if (failed(x))
    return failure();
  auto tile = dyn_cast<RankedTensorType>(x->getType());
  Type given = tile ? tile.getElementType() : Type();
  if (!given || !(given.isF32() || given.isBF16() || given.isF16()))
    return op.emitError("ct.argmax and ct.argmin are lowered on f32, bf16 "
                        "and f16 tiles");
  Location l = loc(op);
  Type f32 = b.getF32Type();
  // 16-bit values (bf16 logits) compared as f32, which holds them exactly.
  if (!given.isF32()) {
    tile = tile.clone(f32);
    x = b.create<tileas::CvtOp>(l, tile, *x).getResult();
  }
  int64_t rows = tile.getShape()[0], cols = tile.getShape()[1];
  auto vector = RankedTensorType::get({rows}, f32);
  auto rowMax = [&](Value v) -> Value {
    return b.create<tileas::ReduceMaxOp>(l, vector, v);
  };
  Value y =
      c == Combiner::Min ? b.create<arith::NegFOp>(l, *x).getResult() : *x;
  Value m = rowMax(y);
  Value spread =
      b.create<tileas::BroadcastOp>(l, tile, m, b.getDenseI64ArrayAttr({1}));
  Value at = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, y, spread);
  Value positions = b.create<arith::SIToFPOp>(
      l, tile,
      b.create<tileas::IotaOp>(l, tile.clone(b.getI32Type()), 1).getResult());
  auto splat = [&](Type type, double v) -> Value {
    return b.create<arith::ConstantOp>(
        l,
        DenseElementsAttr::get(cast<ShapedType>(type), b.getFloatAttr(f32, v)));
  };
  Value key =
      b.create<arith::SelectOp>(l, at, positions, splat(tile, double(cols)));
  Value first =
      b.create<arith::NegFOp>(l, rowMax(b.create<arith::NegFOp>(l, key)));
  Value none = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGE, first,
                                       splat(vector, double(cols)));
  first = b.create<arith::SelectOp>(l, none, splat(vector, 0.0), first);
  Value best =
      c == Combiner::Min ? b.create<arith::NegFOp>(l, m).getResult() : m;
  if (!given.isF32())
    best = b.create<tileas::CvtOp>(l, vector.clone(given), best);
  map(op.getResult(0), best);
  map(op.getResult(1),
      b.create<arith::FPToSIOp>(l, vector.clone(b.getI32Type()), first)
          .getResult());
  return success();
}

LogicalResult EntryLowering::lowerReduce(tileir::ReduceOp op) {
  if (Combiner arg = argCombinerOf(op); arg != Combiner::Unknown)
    return lowerArgReduce(op, int(arg));
  if (op.getOperands().size() != 1 || op.getIdentities().size() != 1)
    return op.emitError("a reduction of several tiles at once other than "
                        "ct.argmax and ct.argmin is not lowered");
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
  SmallVector<int64_t> shape(src.getShape());
  int64_t dim = op.getDim();
  // Over a unit dimension (`ct.sum(t)` of a 1 x C tile reduces dim 0
  // first): each result element is its one operand element, and unit
  // dimensions are dropped in every form, so it is the tile as it is.
  if (dim >= 0 && dim < src.getRank() && shape[dim] == 1) {
    FailureOr<Value> v = lookup(op, op.getOperands()[0]);
    if (failed(v))
      return failure();
    mapSameTile(op.getOperands()[0], op.getResult(0), *v);
    return success();
  }
  if (dim >= 0 && dim < src.getRank() && shape[dim] > 1 &&
      llvm::count_if(shape, [](int64_t n) { return n > 1; }) == 1)
    return lowerRowReduce(op, int(c));
  // A tile of more dimensions whose others are units (a (1, S, D) block of
  // a batched array): registers drop the unit dimensions, so it reduces as
  // the 2-D tile of its two others.
  SmallVector<int64_t> kept;
  for (auto [d, n] : llvm::enumerate(shape))
    if (n > 1)
      kept.push_back(int64_t(d));
  int64_t rank = src.getRank();
  if (rank > 2 && kept.size() == 2 && llvm::is_contained(kept, dim)) {
    dim = dim == kept[0] ? 0 : 1;
    rank = 2;
    shape = {shape[kept[0]], shape[kept[1]]};
  }
  // Down the columns of a tile loaded from memory: along the rows of its
  // transpose, which the threads read from the SMEM tile the other way.
  bool columns = rank == 2 && dim == 0 && shape[0] > 1 && shape[1] > 1;
  if (!columns && (rank != 2 || dim != 1 || shape[0] == 1))
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
  // counts each once), or, shorter, each value by 128 / C threads (SplitRows
  // makes it a per-row vector and counts each once).
  int64_t n = type.getShape()[0];
  if (n % 128 && 128 % n)
    return op.emitError("a reduction of a row of ")
           << n
           << " columns is not lowered: a one-row tile is spread over a SIMT "
              "agent's 128 threads, so its width must divide 128 or be a "
              "multiple of it";
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
                               IntegerAttr(), op.getReverse()));
  return success();
}
