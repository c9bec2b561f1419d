//===- Elementwise.cpp - SIMT math, shapes and scalars --------------------===//
//
// Element-wise float work on tiles becomes arith and math ops on register
// tensors (the translation computes each as docs/cuda.md "Elementwise math"
// says), conversions tileas.cvt. Shapes: a tile's unit dimensions are
// dropped in registers, so cuTile's reshape of a row reduction to 128x1 is
// no op, and its broadcast of that column to 128xN is tileas.broadcast
// along dimension 1 (a 1xN row: along dimension 0; a scalar: tensor.splat).
// Integer work is scalar index arithmetic (tile indices, trip counts) and
// stays in its own type.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"
#include "ir/Positions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

LogicalResult EntryLowering::lowerConstant(tileir::ConstantOp op) {
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return op.emitError("a constant that is not a dense tile is not lowered");
  Type t = registerType(op.getResult().getType());
  TypedAttr value;
  if (auto shaped = dyn_cast<RankedTensorType>(t))
    value = dense.reshape(shaped);
  else
    value = cast<TypedAttr>(dense.getSplatValue<Attribute>());
  map(op.getResult(), b.create<arith::ConstantOp>(loc(op), value));
  return success();
}

/// Rounding modes the lowered ops keep: IEEE round to nearest (the
/// translation's default) and cuTile's approximate and full-precision
/// variants, which the IEEE result satisfies.
static LogicalResult checkRounding(Operation *op) {
  auto mode = op->getAttrOfType<tileir::RoundingModeAttr>("rounding_mode");
  if (!mode)
    return success();
  switch (mode.getValue()) {
  case tileir::RoundingMode::nearest_even:
  case tileir::RoundingMode::approx:
  case tileir::RoundingMode::full:
    return success();
  default:
    return op->emitError("rounding mode ")
           << tileir::stringifyRoundingMode(mode.getValue())
           << " is not lowered: tilepipe's float math rounds to nearest even";
  }
}

/// The arith or math op of the same meaning, on registers.
static Operation *createFloatOp(OpBuilder &b, Operation *op,
                                ValueRange operands) {
  Location l = op->getLoc();
  Value x = operands[0];
  Value y = operands.size() > 1 ? operands[1] : Value();
  bool nan = op->hasAttr("propagate_nan");
  return llvm::TypeSwitch<Operation *, Operation *>(op)
      .Case([&](tileir::AddFOp) { return b.create<arith::AddFOp>(l, x, y); })
      .Case([&](tileir::SubFOp) { return b.create<arith::SubFOp>(l, x, y); })
      .Case([&](tileir::MulFOp) { return b.create<arith::MulFOp>(l, x, y); })
      .Case([&](tileir::DivFOp) { return b.create<arith::DivFOp>(l, x, y); })
      .Case([&](tileir::MaxFOp) -> Operation * {
        if (nan)
          return b.create<arith::MaximumFOp>(l, x, y);
        return b.create<arith::MaxNumFOp>(l, x, y);
      })
      .Case([&](tileir::MinFOp) -> Operation * {
        if (nan)
          return b.create<arith::MinimumFOp>(l, x, y);
        return b.create<arith::MinNumFOp>(l, x, y);
      })
      .Case([&](tileir::FmaOp) {
        return b.create<math::FmaOp>(l, x, y, operands[2]);
      })
      .Case([&](tileir::NegFOp) { return b.create<arith::NegFOp>(l, x); })
      .Case([&](tileir::AbsFOp) { return b.create<math::AbsFOp>(l, x); })
      .Case([&](tileir::ExpOp) { return b.create<math::ExpOp>(l, x); })
      .Case([&](tileir::Exp2Op) { return b.create<math::Exp2Op>(l, x); })
      .Case([&](tileir::LogOp) { return b.create<math::LogOp>(l, x); })
      .Case([&](tileir::Log2Op) { return b.create<math::Log2Op>(l, x); })
      .Case([&](tileir::RsqrtOp) { return b.create<math::RsqrtOp>(l, x); })
      .Case([&](tileir::SqrtOp) { return b.create<math::SqrtOp>(l, x); })
      .Case([&](tileir::TanHOp) { return b.create<math::TanhOp>(l, x); })
      .Case([&](tileir::SinOp) { return b.create<math::SinOp>(l, x); })
      .Case([&](tileir::CosOp) { return b.create<math::CosOp>(l, x); })
      .Case([&](tileir::TanOp) { return b.create<math::TanOp>(l, x); })
      .Case([&](tileir::SinHOp) { return b.create<math::SinhOp>(l, x); })
      .Case([&](tileir::CosHOp) { return b.create<math::CoshOp>(l, x); })
      .Case([&](tileir::CeilOp) { return b.create<math::CeilOp>(l, x); })
      .Case([&](tileir::FloorOp) { return b.create<math::FloorOp>(l, x); })
      .Case([&](tileir::Atan2Op) { return b.create<math::Atan2Op>(l, x, y); })
      .Case([&](tileir::PowFOp) { return b.create<math::PowFOp>(l, x, y); })
      .Case([&](tileir::RemFOp) { return b.create<arith::RemFOp>(l, x, y); })
      .Default([](Operation *) { return nullptr; });
}

LogicalResult EntryLowering::lowerElementwise(Operation *op) {
  if (failed(checkRounding(op)))
    return failure();
  SmallVector<Value> operands;
  for (Value v : op->getOperands()) {
    FailureOr<Value> r = registers(op, v);
    if (failed(r))
      return failure();
    operands.push_back(*r);
  }
  Operation *lowered = createFloatOp(b, op, operands);
  if (!lowered)
    return op->emitError("'") << op->getName() << "' is not lowered to tileas";
  map(op->getResult(0), lowered->getResult(0));
  return success();
}

/// The largest |n| of `x ** n` lowered: the product is formed by repeated
/// squaring, and its error grows with n (about (|n| - 1) / 2 ulp for a
/// positive n), which a kernel's square, cube or fourth power keeps small.
static constexpr int64_t kMaxPowIExponent = 16;

/// `x` raised to the constant `n` by squaring: the multiplies of n's binary
/// digits, then 1 / x^|n| for a negative n. x ** 0 is 1 for every x, NaN
/// included, as C's pown says.
static Value powByMultiplies(OpBuilder &b, Location l, Value x, int64_t n) {
  Type t = x.getType();
  auto one = [&] {
    auto f = FloatAttr::get(getElementTypeOrSelf(t), 1.0);
    if (auto shaped = dyn_cast<ShapedType>(t))
      return b.create<arith::ConstantOp>(l, DenseElementsAttr::get(shaped, f))
          .getResult();
    return b.create<arith::ConstantOp>(l, f).getResult();
  };
  uint64_t m = n < 0 ? uint64_t(-n) : uint64_t(n);
  Value result, square = x;
  for (; m; m >>= 1) {
    if (m & 1)
      result = result ? b.create<arith::MulFOp>(l, result, square).getResult()
                      : square;
    if (m > 1)
      square = b.create<arith::MulFOp>(l, square, square);
  }
  if (!result)
    return one();
  return n < 0 ? b.create<arith::DivFOp>(l, one(), result).getResult() : result;
}

LogicalResult EntryLowering::lowerFPowI(tileir::FPowIOp op) {
  FailureOr<Value> x = registers(op, op.getSource());
  FailureOr<Value> n = lookup(op, op.getExponent());
  if (failed(x) || failed(n))
    return failure();
  APInt exponent;
  if (!matchPattern(*n, m_ConstantInt(&exponent)) ||
      exponent.getSignificantBits() > 64 ||
      std::abs(exponent.getSExtValue()) > kMaxPowIExponent)
    return op.emitError("`x ** n` with an integer n (fpowi) is lowered only "
                        "for a constant n of magnitude at most ")
           << kMaxPowIExponent
           << ", as multiplies; write a larger or varying power as "
              "exp2(n * log2(x))";
  map(op.getResult(), powByMultiplies(b, loc(op), *x, exponent.getSExtValue()));
  return success();
}

LogicalResult EntryLowering::lowerReshape(tileir::ReshapeOp op) {
  FailureOr<Value> v = lookup(op, op.getSource());
  if (failed(v))
    return failure();
  // Unit dimensions are dropped in every form (registers, and the SMEM tile
  // of a box with a batch dimension of one): such a reshape is no op.
  if (registerType(op.getSource().getType()) !=
      registerType(op.getResult().getType()))
    return op.emitError("a reshape that moves elements (not only unit "
                        "dimensions) is not lowered");
  mapSameTile(op.getSource(), op.getResult(), *v);
  return success();
}

SmallVector<int64_t> tilepipe::cutile::addedDimensions(tileir::TileType from,
                                                       tileir::TileType to) {
  SmallVector<int64_t> added;
  int64_t kept = 0;
  for (auto [n, m] : llvm::zip(from.getShape(), to.getShape())) {
    if (m == 1)
      continue;
    if (n == 1)
      added.push_back(kept);
    ++kept;
  }
  return added;
}

/// Pure elementwise math with one result (arith, math, a conversion): what
/// spreadPositions makes again at another shape from its spread operands.
static bool isSpreadableMath(Operation *def) {
  return def && def->getNumResults() == 1 && isPure(def) &&
         !def->getNumRegions() &&
         (isa<tileas::CvtOp>(def) ||
          isa<arith::ArithDialect, math::MathDialect>(def->getDialect()));
}

/// Whether `v` is a threads' gather, or elementwise math on such gathers,
/// positions and splats.
static bool computesFromGathers(Value v) {
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<tileas::GlobalGatherOp>(def))
    return true;
  if (!isSpreadableMath(def))
    return false;
  bool gathered = false;
  for (Value o : def->getOperands()) {
    Operation *od = o.getDefiningOp();
    if (computesFromGathers(o))
      gathered = true;
    else if (!isPositionOp(od) && !isSplatTile(od))
      return false;
  }
  return gathered;
}

LogicalResult EntryLowering::lowerBroadcast(tileir::BroadcastOp op) {
  auto from = op.getSource().getType(), to = op.getResult().getType();
  if (from.getRank() != to.getRank())
    return op.emitError("a broadcast that changes the rank is not lowered");
  FailureOr<Value> v = registers(op, op.getSource());
  if (failed(v))
    return failure();
  Type result = registerType(to);
  if (v->getType() == result) {
    map(op.getResult(), *v);
    return success();
  }
  if (v->getType().isIntOrFloat()) {
    // A constant scalar becomes a constant tile; another a splat.
    if (auto c = v->getDefiningOp<arith::ConstantOp>()) {
      auto attr =
          DenseElementsAttr::get(cast<ShapedType>(result), c.getValue());
      map(op.getResult(), b.create<arith::ConstantOp>(loc(op), attr));
    } else {
      map(op.getResult(), b.create<tensor::SplatOp>(loc(op), *v, result));
    }
    return success();
  }
  SmallVector<int64_t> dims = addedDimensions(from, to);
  // A vector the threads gathered (MoE's routing weight of each row), and
  // elementwise math on it, is gathered again at the broadcast's shape:
  // each thread reads the elements it holds there, where no layout holds
  // the vector.
  if (auto tile = cast<RankedTensorType>(v->getType());
      isPositionTile(tile) || computesFromGathers(*v)) {
    FailureOr<Value> spread =
        spreadPositions(op, *v, cast<RankedTensorType>(result), dims);
    if (failed(spread))
      return failure();
    map(op.getResult(), *spread);
    return success();
  }
  map(op.getResult(), b.create<tileas::BroadcastOp>(
                          loc(op), result, *v, b.getDenseI64ArrayAttr(dims)));
  return success();
}

LogicalResult EntryLowering::lowerIota(tileir::IotaOp op) {
  auto type = dyn_cast<RankedTensorType>(
      registerType(cast<tileir::TileType>(op.getResult().getType())));
  if (!type || type.getRank() != 1 ||
      !type.getElementType().isSignlessInteger(32))
    return op.emitError("an iota other than a vector of i32 is not lowered");
  map(op.getResult(), b.create<tileas::IotaOp>(loc(op), type, 0));
  return success();
}

/// Positions (and masks) are made again at the broadcast's shape, not
/// broadcast: a tile of positions is computed per element from the register
/// layout (tileas.iota), so spreading a vector of them would hold values
/// each thread computes in a couple of instructions. The iota becomes the
/// result's iota along the dimension the vector runs along, a splat a
/// splat, and integer math the same math on the spread operands.
FailureOr<Value> EntryLowering::spreadPositions(Operation *user, Value v,
                                                RankedTensorType to,
                                                ArrayRef<int64_t> added) {
  Operation *def = v.getDefiningOp();
  auto shaped = [&](Type elem) { return to.clone(elem); };
  if (auto iota = dyn_cast_or_null<tileas::IotaOp>(def)) {
    // The result dimensions not added are the vector's, in order.
    int64_t kept = 0, along = -1;
    for (int64_t d = 0; d < to.getRank(); ++d) {
      if (llvm::is_contained(added, d))
        continue;
      if (kept++ == int64_t(iota.getDimension()))
        along = d;
    }
    return b.create<tileas::IotaOp>(loc(user), to, along).getResult();
  }
  if (auto splat = dyn_cast_or_null<tensor::SplatOp>(def))
    return b.create<tensor::SplatOp>(loc(user), splat.getInput(), to)
        .getResult();
  // An index read from memory at positions: read at the spread ones.
  if (auto gather = dyn_cast_or_null<tileas::GlobalGatherOp>(def)) {
    SmallVector<Value> indices;
    for (Value i : gather.getIndices()) {
      FailureOr<Value> spread =
          spreadPositions(user, i, shaped(b.getI32Type()), added);
      if (failed(spread))
        return failure();
      indices.push_back(*spread);
    }
    Value mask;
    if (gather.getMask()) {
      FailureOr<Value> spread =
          spreadPositions(user, gather.getMask(), shaped(b.getI1Type()), added);
      if (failed(spread))
        return failure();
      mask = *spread;
    }
    return b
        .create<tileas::GlobalGatherOp>(
            loc(user), shaped(gather.getType().getElementType()),
            gather.getSrc(), indices, gather.getStrides(), gather.getBounds(),
            mask, gather.getPadding())
        .getResult();
  }
  if (auto cst = dyn_cast_or_null<arith::ConstantOp>(def))
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
        dense && dense.isSplat())
      return b
          .create<arith::ConstantOp>(
              loc(user),
              DenseElementsAttr::get(shaped(dense.getElementType()),
                                     dense.getSplatValue<Attribute>()))
          .getResult();
  // Math on them (a gathered weight converted: MoE's bf16 routing weight).
  if (isSpreadableMath(def)) {
    SmallVector<Value> operands;
    for (Value o : def->getOperands()) {
      Type elem = cast<ShapedType>(o.getType()).getElementType();
      FailureOr<Value> spread = spreadPositions(user, o, shaped(elem), added);
      if (failed(spread))
        return failure();
      operands.push_back(*spread);
    }
    auto elem = cast<ShapedType>(def->getResult(0).getType()).getElementType();
    OperationState state(loc(user), def->getName(), operands, {shaped(elem)},
                         def->getAttrs());
    return b.create(state)->getResult(0);
  }
  // A float operand of that math (a key mask loaded as floats and compared,
  // `keep[None, :] > 0.5`): broadcast as float tiles are.
  if (auto t = dyn_cast<RankedTensorType>(v.getType());
      t && isa<FloatType>(t.getElementType()))
    return b
        .create<tileas::BroadcastOp>(loc(user), shaped(t.getElementType()), v,
                                     b.getDenseI64ArrayAttr(added))
        .getResult();
  return user->emitError("an integer tile broadcast is lowered only when it "
                         "is made of positions: iota, splats and integer "
                         "math on them"),
         failure();
}

/// Whether every reader of `v` is an MMA operand (A or B).
static bool onlyMmaOperand(Value v) {
  return llvm::all_of(v.getUses(), [](OpOperand &use) {
    return isMma(use.getOwner()) && use.get() != mmaAcc(use.getOwner());
  });
}

LogicalResult EntryLowering::lowerFToF(tileir::FToFOp op) {
  if (failed(checkRounding(op)))
    return failure();
  // f32 to tf32 of a loaded tile that only MMAs read (cuTile's
  // `astype(ct.tfloat32)` before `ct.mma`): an MMA on an f32 SMEM tile is
  // the tf32 MMA, which reads each element's tf32 part.
  auto from = cast<tileir::TileType>(op.getSource().getType());
  auto to = cast<tileir::TileType>(op.getResult().getType());
  if (from.getElementType().isF32() && to.getElementType().isTF32() &&
      onlyMmaOperand(op.getResult())) {
    FailureOr<Value> smem = lookup(op, op.getSource());
    if (failed(smem))
      return failure();
    if (isa<tileas::SmemType>(smem->getType())) {
      mapSameTile(op.getSource(), op.getResult(), *smem);
      return success();
    }
  }
  FailureOr<Value> v = registers(op, op.getSource());
  if (failed(v))
    return failure();
  Type type = registerType(to);
  Value r;
  if (isa<RankedTensorType>(type))
    r = b.create<tileas::CvtOp>(loc(op), type, *v);
  else if (type.getIntOrFloatBitWidth() > v->getType().getIntOrFloatBitWidth())
    r = b.create<arith::ExtFOp>(loc(op), type, *v);
  else
    r = b.create<arith::TruncFOp>(loc(op), type, *v);
  map(op.getResult(), r);
  return success();
}

LogicalResult EntryLowering::lowerIToF(tileir::IToFOp op) {
  FailureOr<Value> v = lookup(op, op.getSource());
  if (failed(v))
    return failure();
  Type to = registerType(op.getResult().getType());
  bool isSigned = op.getSignedness() == tileir::Signedness::Signed;
  if (isa<tileas::TmemType>(v->getType())) {
    // An integer MMA's i32 accumulator, dequantized (W8A8's per-token and
    // per-channel scales): read into registers.
    v = registers(op, op.getSource());
    if (failed(v))
      return failure();
  } else if (isa<tileas::SmemType>(v->getType())) {
    // Integer data loaded from memory (int8 weights dequantized before an
    // MMA): read into registers, converted element by element.
    Type elem = getElementTypeOrSelf(v->getType());
    if (!elem.isInteger(8) && !elem.isInteger(16) && !elem.isInteger(32))
      return op.emitError("an integer tile of ")
             << elem << " converted to float is not lowered";
    if (!isSigned)
      return op.emitError("an unsigned integer tile converted to float is "
                          "not lowered (signed int8, int16 and int32 are)");
    v = registers(op, op.getSource());
    if (failed(v))
      return failure();
  } else if (auto tile = dyn_cast<RankedTensorType>(v->getType())) {
    // A tile of positions converted to float (a position-dependent bias:
    // ALiBi's slope times the distance between key and query), or integer
    // data computed in registers (4-bit weights unpacked by shifts).
    Type elem = tile.getElementType();
    if (elem.isInteger(1) ||
        !(isPositionTile(tile) || elem.isInteger(8) || elem.isInteger(16)))
      return op.emitError("an integer tile converted to float is lowered "
                          "only for i32 positions (iota and the math on it) "
                          "and i8, i16 or i32 data");
    if (!isSigned)
      return op.emitError("integer tiles in registers converted to float are "
                          "lowered signed only");
  }
  Value r = isSigned ? b.create<arith::SIToFPOp>(loc(op), to, *v).getResult()
                     : b.create<arith::UIToFPOp>(loc(op), to, *v).getResult();
  map(op.getResult(), r);
  return success();
}

LogicalResult EntryLowering::lowerIntCast(Operation *op) {
  FailureOr<Value> v = lookup(op, op->getOperand(0));
  if (failed(v))
    return failure();
  if (isa<tileas::SmemType, tileas::TmemType>(v->getType()))
    v = registers(op, op->getOperand(0));
  if (failed(v))
    return failure();
  Type to = registerType(cast<tileir::TileType>(op->getResult(0).getType()));
  if (auto tile = dyn_cast<RankedTensorType>(to);
      tile && tile.getElementTypeBitWidth() > 32)
    return op->emitError("an integer tile widened to ")
           << tile.getElementType()
           << " is not lowered: register tiles hold i32, i16, i8 and i1";
  auto ext = dyn_cast<tileir::ExtIOp>(op);
  if (ext && isa<RankedTensorType>(to) &&
      ext.getSignedness() != tileir::Signedness::Signed)
    return op->emitError("an integer tile widened unsigned is not lowered "
                         "(signed widening and narrowing are)");
  Value r;
  if (ext)
    r = ext.getSignedness() == tileir::Signedness::Signed
            ? b.create<arith::ExtSIOp>(loc(op), to, *v).getResult()
            : b.create<arith::ExtUIOp>(loc(op), to, *v).getResult();
  else
    r = b.create<arith::TruncIOp>(loc(op), to, *v);
  map(op->getResult(0), r);
  return success();
}

/// A float tile converted to integers (`astype(ct.int8)` after rounding:
/// quantization): arith.fptosi, toward zero as cuTile's default rounding.
LogicalResult EntryLowering::lowerFToI(tileir::FToIOp op) {
  if (op.getSignedness() != tileir::Signedness::Signed)
    return op.emitError("a float tile converted to unsigned integers is not "
                        "lowered (to signed ones it is)");
  if (op.getSaturating())
    return op.emitError("a saturating float-to-integer conversion is not "
                        "lowered: clamp the floats first (ct.minimum, "
                        "ct.maximum)");
  if (auto mode = op.getRoundingMode();
      mode && *mode != tileir::RoundingMode::zero)
    return op.emitError("a float-to-integer conversion rounding other than "
                        "toward zero is not lowered: round the floats first "
                        "(ct.floor(x + 0.5))");
  FailureOr<Value> v = registers(op, op.getSource());
  if (failed(v))
    return failure();
  Type to = registerType(op.getResult().getType());
  auto tile = dyn_cast<RankedTensorType>(to);
  if (!tile || !isa<FloatType>(getElementTypeOrSelf(v->getType())))
    return op.emitError("a float-to-integer conversion is lowered on register "
                        "tiles of floats");
  Type elem = tile.getElementType();
  if (!elem.isInteger(8) && !elem.isInteger(16) && !elem.isInteger(32))
    return op.emitError("a float tile converted to ")
           << elem << " is not lowered (to i8, i16 and i32 it is)";
  map(op.getResult(), b.create<arith::FPToSIOp>(loc(op), to, *v).getResult());
  return success();
}

static arith::CmpIPredicate cmpPredicate(tileir::ComparisonPredicate p,
                                         bool isSigned) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case tileir::ComparisonPredicate::equal:
    return P::eq;
  case tileir::ComparisonPredicate::not_equal:
    return P::ne;
  case tileir::ComparisonPredicate::less_than:
    return isSigned ? P::slt : P::ult;
  case tileir::ComparisonPredicate::less_than_or_equal:
    return isSigned ? P::sle : P::ule;
  case tileir::ComparisonPredicate::greater_than:
    return isSigned ? P::sgt : P::ugt;
  case tileir::ComparisonPredicate::greater_than_or_equal:
    return isSigned ? P::sge : P::uge;
  }
  llvm_unreachable("comparison predicate");
}

/// Integer division as cuTile rounds it (toward zero unless the op says
/// toward -inf or +inf).
static Value createDivision(OpBuilder &b, tileir::DivIOp op, Value x, Value y) {
  bool isSigned = op.getSignedness() == tileir::Signedness::Signed;
  auto mode = op.getRoundingMode();
  Location l = op.getLoc();
  if (mode == tileir::RoundingMode::positive_inf)
    return isSigned ? b.create<arith::CeilDivSIOp>(l, x, y).getResult()
                    : b.create<arith::CeilDivUIOp>(l, x, y).getResult();
  if (mode == tileir::RoundingMode::negative_inf && isSigned)
    return b.create<arith::FloorDivSIOp>(l, x, y);
  return isSigned ? b.create<arith::DivSIOp>(l, x, y).getResult()
                  : b.create<arith::DivUIOp>(l, x, y).getResult();
}

static Value createIntegerOp(OpBuilder &b, Operation *op, Value x, Value y) {
  Location l = op->getLoc();
  auto sign = [&](auto o) {
    return o.getSignedness() == tileir::Signedness::Signed;
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](tileir::AddIOp) { return b.create<arith::AddIOp>(l, x, y); })
      .Case([&](tileir::SubIOp) { return b.create<arith::SubIOp>(l, x, y); })
      .Case([&](tileir::MulIOp) { return b.create<arith::MulIOp>(l, x, y); })
      .Case([&](tileir::AndIOp) { return b.create<arith::AndIOp>(l, x, y); })
      .Case([&](tileir::OrIOp) { return b.create<arith::OrIOp>(l, x, y); })
      .Case([&](tileir::XOrIOp) { return b.create<arith::XOrIOp>(l, x, y); })
      .Case([&](tileir::ShLIOp) { return b.create<arith::ShLIOp>(l, x, y); })
      .Case([&](tileir::DivIOp d) { return createDivision(b, d, x, y); })
      .Case([&](tileir::RemIOp o) -> Value {
        if (sign(o))
          return b.create<arith::RemSIOp>(l, x, y);
        return b.create<arith::RemUIOp>(l, x, y);
      })
      .Case([&](tileir::ShRIOp o) -> Value {
        if (sign(o))
          return b.create<arith::ShRSIOp>(l, x, y);
        return b.create<arith::ShRUIOp>(l, x, y);
      })
      .Case([&](tileir::MaxIOp o) -> Value {
        if (sign(o))
          return b.create<arith::MaxSIOp>(l, x, y);
        return b.create<arith::MaxUIOp>(l, x, y);
      })
      .Case([&](tileir::MinIOp o) -> Value {
        if (sign(o))
          return b.create<arith::MinSIOp>(l, x, y);
        return b.create<arith::MinUIOp>(l, x, y);
      })
      .Case([&](tileir::CmpIOp o) {
        return b.create<arith::CmpIOp>(
            l, cmpPredicate(o.getComparisonPredicate(), sign(o)), x, y);
      })
      .Default([](Operation *) { return Value(); });
}

LogicalResult EntryLowering::lowerIntegerOp(Operation *op) {
  SmallVector<Value> operands;
  for (Value v : op->getOperands()) {
    FailureOr<Value> r = lookup(op, v);
    if (failed(r))
      return failure();
    // An integer MMA's i32 accumulator (an int8 GEMM's bias added in i32),
    // and integer data TMA loaded (packed 4-bit weights unpacked by
    // shifts), are read into registers, as float math reads float tiles.
    if (isa<tileas::TmemType, tileas::SmemType>(r->getType()))
      r = registers(op, v);
    if (failed(r))
      return failure();
    operands.push_back(*r);
  }
  // Integer tiles are positions (iota and the masks made of them), i32
  // data the threads read, integer MMA results and integer data read into
  // registers above: every operand is in registers by now.
  bool tiles = llvm::any_of(
      operands, [](Value v) { return isa<RankedTensorType>(v.getType()); });
  if (tiles && !llvm::all_of(operands, [](Value v) {
        auto t = dyn_cast<RankedTensorType>(v.getType());
        return t && llvm::is_contained({1u, 8u, 16u, 32u},
                                       t.getElementTypeBitWidth());
      }))
    return op->emitError("integer math on a tile is lowered only on i32, "
                         "i16, i8 and i1 tiles in registers (positions and "
                         "their masks, integer data, integer MMA results)");
  Value r = createIntegerOp(b, op, operands[0], operands[1]);
  if (!r)
    return op->emitError("'") << op->getName() << "' is not lowered to tileas";
  map(op->getResult(0), r);
  return success();
}

static arith::CmpFPredicate cmpfPredicate(tileir::ComparisonPredicate p,
                                          bool ordered) {
  using P = arith::CmpFPredicate;
  switch (p) {
  case tileir::ComparisonPredicate::equal:
    return ordered ? P::OEQ : P::UEQ;
  case tileir::ComparisonPredicate::not_equal:
    return ordered ? P::ONE : P::UNE;
  case tileir::ComparisonPredicate::less_than:
    return ordered ? P::OLT : P::ULT;
  case tileir::ComparisonPredicate::less_than_or_equal:
    return ordered ? P::OLE : P::ULE;
  case tileir::ComparisonPredicate::greater_than:
    return ordered ? P::OGT : P::UGT;
  case tileir::ComparisonPredicate::greater_than_or_equal:
    return ordered ? P::OGE : P::UGE;
  }
  llvm_unreachable("comparison predicate");
}

/// A float comparison on registers (a tile of i1 that a select reads).
LogicalResult EntryLowering::lowerCmpF(tileir::CmpFOp op) {
  FailureOr<Value> x = registers(op, op.getLhs());
  FailureOr<Value> y = registers(op, op.getRhs());
  if (failed(x) || failed(y))
    return failure();
  bool ordered =
      op.getComparisonOrdering() == tileir::ComparisonOrdering::ordered;
  map(op.getResult(),
      b.create<arith::CmpFOp>(
          loc(op), cmpfPredicate(op.getComparisonPredicate(), ordered), *x,
          *y));
  return success();
}

LogicalResult EntryLowering::lowerSelect(tileir::SelectOp op) {
  SmallVector<Value> operands;
  for (Value v : op->getOperands()) {
    FailureOr<Value> r = registers(op, v);
    if (failed(r))
      return failure();
    operands.push_back(*r);
  }
  map(op.getResult(), b.create<arith::SelectOp>(loc(op), operands[0],
                                                operands[1], operands[2]));
  return success();
}
