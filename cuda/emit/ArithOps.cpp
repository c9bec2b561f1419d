//===- ArithOps.cpp - arith and math as C++ and runtime calls -------------===//
//
// Float arithmetic other dialects schedule (ir/ExternalModels.cpp): on
// register tiles the runtime's elementwise ops (analysis/ElementwiseOps.h,
// one table for whole tiles and streamed pieces), on scalars C++. Integer
// arithmetic on scalars: C++ where its operator means the same, else the
// integer runtime (docs/cuda.md, "Integer arithmetic"). math ops have no
// emitter of their own: the elementwise table names their runtime call.
//
//===----------------------------------------------------------------------===//

#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/emit/KernelEmitter.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

/// The C++ name of a scalar type, as EmitC prints it (template arguments of
/// the integer runtime's calls).
static std::string scalarName(Type t) {
  if (t.isIndex())
    return "int64_t";
  if (t.isInteger(1))
    return "bool";
  if (auto i = dyn_cast<IntegerType>(t))
    return "int" + std::to_string(i.getWidth()) + "_t";
  return cudaElementName(t);
}

/// Scalar constants: integers and booleans as literals, f32 by its bits. A
/// dense constant is made at each use (lookup).
LogicalResult KernelEmitter::emit(arith::ConstantOp cst) {
  Location loc = cst.getLoc();
  if (isa<DenseElementsAttr>(cst.getValue()))
    return success();
  if (auto i = dyn_cast<IntegerAttr>(cst.getValue())) {
    if (cst.getType().isInteger(1))
      map[cst] = boolLit(i.getValue().getBoolValue());
    else
      map[cst] = literal(*convert(loc, cst.getType()),
                         Twine(i.getValue().getSExtValue()));
    return success();
  }
  if (auto f = dyn_cast<FloatAttr>(cst.getValue());
      f && cst.getType().isF32()) {
    map[cst] = call(
        b.getF32Type(), "tp::bits_f32",
        {literal(u32(),
                 llvm::formatv("0x{0:x-}u",
                               f.getValue().bitcastToAPInt().getZExtValue())
                     .str())});
    return success();
  }
  return emitError(loc, "constant not translated to CUDA");
}

/// Every other arith or math op with one result: on register tiles the
/// elementwise table's call, on scalars C++ or the integer runtime.
LogicalResult KernelEmitter::emitArithmetic(Operation *op) {
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(lookup(loc, v));
  if (broken)
    return failure();
  if (op->getNumResults() != 1)
    return emitError(op->getLoc(), "not translated to CUDA");
  FailureOr<Type> type = convert(loc, op->getResult(0));
  if (failed(type))
    return failure();
  std::optional<ElementwiseCall> tile = elementwiseCall(op);
  // A select of scalars is the integer path's C++ conditional.
  if (tile && !isa<RankedTensorType>(op->getResult(0).getType()) &&
      isa<arith::SelectOp>(op))
    tile.reset();
  if (tile) {
    if (auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType())) {
      pinWide(op, operands);
      map[op->getResult(0)] = call(
          *type, tile->callee, operands,
          tile->templateArgs(registerElementName(tensor.getElementType())));
      return success();
    }
    Value r = emitScalarFloat(op, operands, *type);
    if (!r)
      return emitError(op->getLoc())
             << "'" << op->getName()
             << "' on scalars is not translated to CUDA (only on register "
                "tiles, or on f32)";
    map[op->getResult(0)] = r;
    return success();
  }
  // Integer math on a tile without an elementwise call (divsi, shli, ...)
  // has no runtime function: refused here, not written as C++ operators on
  // fragments that nvcc would reject.
  if (isa<RankedTensorType>(op->getResult(0).getType()))
    return emitError(loc)
           << "'" << op->getName()
           << "' on a tile is not translated to CUDA (tiles of "
              "positions take addi, subi, muli, andi, ori, "
              "xori, maxsi, minsi, divsi, remsi, floordivsi, ceildivsi, shli, "
              "shrsi, cmpi and sitofp)";
  Value r = emitIntArith(op, operands, *type);
  if (!r)
    return notTranslated(op);
  map[op->getResult(0)] = r;
  return success();
}

/// Float math on scalars: C++'s operators, else the f32 function the
/// elementwise table names; null when there is none.
Value KernelEmitter::emitScalarFloat(Operation *op, ArrayRef<Value> operands,
                                     Type type) {
  Location loc = op->getLoc();
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](arith::AddFOp) {
        return b.create<emitc::AddOp>(loc, type, operands[0], operands[1]);
      })
      .Case([&](arith::SubFOp) {
        return b.create<emitc::SubOp>(loc, type, operands[0], operands[1]);
      })
      .Case([&](arith::MulFOp) {
        return b.create<emitc::MulOp>(loc, type, operands[0], operands[1]);
      })
      .Case([&](arith::DivFOp) {
        return b.create<emitc::DivOp>(loc, type, operands[0], operands[1]);
      })
      .Case([&](arith::NegFOp) {
        return b.create<emitc::UnaryMinusOp>(loc, type, operands[0]);
      })
      // A scalar rounded to (or widened from) 16 bits: a row's statistic
      // stored as bf16, the conversion the tiles' tp::cvt makes per element.
      .Case<arith::TruncFOp, arith::ExtFOp>([&](Operation *o) -> Value {
        std::string to = registerElementName(o->getResult(0).getType());
        if (to.empty())
          return {};
        // EmitC has no 16-bit float type: the C++ one, opaque.
        Type result = o->getResult(0).getType().isF32() ? type : opaque(to);
        return call(result, "tp::detail::convert", operands, {to});
      })
      .Default([&](Operation *o) -> Value {
        StringRef fn = scalarFunction(o);
        if (fn.empty() || !op->getResult(0).getType().isF32())
          return {};
        return call(type, fn, operands);
      });
}

/// arith's extended ops: each result is a call of its own (the first is
/// addi's or muli's), so no C++ pair or out-parameter is needed.
LogicalResult KernelEmitter::emitExtendedArith(Operation *op) {
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(lookup(loc, v));
  if (broken)
    return failure();
  SmallVector<Type> types;
  for (Value r : op->getResults()) {
    FailureOr<Type> type = convert(loc, r);
    if (failed(type))
      return failure();
    types.push_back(*type);
  }
  std::string in = scalarName(op->getOperand(0).getType());
  StringRef first = isa<arith::AddUIExtendedOp>(op) ? "tp::addi" : "tp::muli";
  StringRef second =
      llvm::TypeSwitch<Operation *, StringRef>(op)
          .Case([](arith::AddUIExtendedOp) { return "tp::addui_carry"; })
          .Case([](arith::MulSIExtendedOp) { return "tp::mulsi_high"; })
          .Default([](Operation *) { return "tp::mului_high"; });
  map[op->getResult(0)] = call(types[0], first, operands, {in});
  map[op->getResult(1)] = call(types[1], second, operands, {in});
  return success();
}

/// arith's integer ops on scalars. Those whose C++ operator means the same
/// (divsi, remsi, the bitwise ops, signed compares) are operators; the rest
/// call runtime/int_arith.cuh with the operand type spelled out, since a
/// constant operand prints as a bare literal. addi, subi and muli are calls
/// too: arith wraps around where C++'s signed operators are undefined.
Value KernelEmitter::emitIntArith(Operation *op, ArrayRef<Value> operands,
                                  Type type) {
  Location loc = op->getLoc();
  std::string in = op->getNumOperands()
                       ? scalarName(op->getOperand(0).getType())
                       : std::string();
  std::string out = scalarName(op->getResult(0).getType());
  bool i1 = op->getNumOperands() && op->getOperand(0).getType().isInteger(1);
  auto binary = [&](StringRef fn) { return call(type, fn, operands, {in}); };
  auto cast = [&](StringRef fn) { return call(type, fn, operands, {out, in}); };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](arith::AddIOp) { return binary("tp::addi"); })
      .Case([&](arith::SubIOp) { return binary("tp::subi"); })
      .Case([&](arith::MulIOp) { return binary("tp::muli"); })
      .Case([&](arith::DivSIOp) {
        return b.create<emitc::DivOp>(loc, type, operands[0], operands[1]);
      })
      .Case([&](arith::RemSIOp) {
        return b.create<emitc::RemOp>(loc, type, operands[0], operands[1]);
      })
      .Case([&](arith::CeilDivSIOp) {
        return call(type, "tp::ceildiv", operands);
      })
      // On i1, whose true is -1 signed, the typed form.
      .Case([&](arith::MaxSIOp) {
        return i1 ? binary("tp::maxsi") : call(type, "tp::max_i", operands);
      })
      .Case([&](arith::MinSIOp) {
        return i1 ? binary("tp::minsi") : call(type, "tp::min_i", operands);
      })
      .Case([&](arith::DivUIOp) { return binary("tp::divui"); })
      .Case([&](arith::RemUIOp) { return binary("tp::remui"); })
      .Case([&](arith::CeilDivUIOp) { return binary("tp::ceildivui"); })
      .Case([&](arith::FloorDivSIOp) { return binary("tp::floordivsi"); })
      .Case([&](arith::MinUIOp) { return binary("tp::minui"); })
      .Case([&](arith::MaxUIOp) { return binary("tp::maxui"); })
      .Case([&](arith::ShLIOp) { return binary("tp::shli"); })
      .Case([&](arith::ShRSIOp) { return binary("tp::shrsi"); })
      .Case([&](arith::ShRUIOp) { return binary("tp::shrui"); })
      .Case([&](arith::AndIOp) {
        return b.create<emitc::BitwiseAndOp>(loc, type, operands[0],
                                             operands[1]);
      })
      .Case([&](arith::OrIOp) {
        return b.create<emitc::BitwiseOrOp>(loc, type, operands[0],
                                            operands[1]);
      })
      .Case([&](arith::XOrIOp) {
        return b.create<emitc::BitwiseXorOp>(loc, type, operands[0],
                                             operands[1]);
      })
      .Case([&](arith::IndexCastOp) {
        return b.create<emitc::CastOp>(loc, type, operands[0]);
      })
      .Case<arith::ExtSIOp, arith::TruncIOp>(
          [&](auto) { return cast("tp::casti"); })
      .Case<arith::ExtUIOp, arith::IndexCastUIOp>(
          [&](auto) { return cast("tp::castui"); })
      .Case([&](arith::SIToFPOp) { return cast("tp::sitofp"); })
      .Case([&](arith::UIToFPOp) { return cast("tp::uitofp"); })
      .Case([&](arith::FPToSIOp) { return cast("tp::fptosi"); })
      .Case([&](arith::FPToUIOp) { return cast("tp::fptoui"); })
      .Case([&](arith::SelectOp) {
        return b.create<emitc::ConditionalOp>(loc, type, operands[0],
                                              operands[1], operands[2]);
      })
      .Case([&](arith::CmpIOp cmp) { return emitCmpI(cmp, operands, type); })
      .Default([&](Operation *) { return Value(); });
}

/// arith.cmpi: equality and the signed predicates on integers wider than
/// i1 are C++'s comparisons; the unsigned ones, and signed ones on i1
/// (whose true is -1), runtime calls.
Value KernelEmitter::emitCmpI(arith::CmpIOp cmp, ArrayRef<Value> operands,
                              Type type) {
  using P = arith::CmpIPredicate;
  P p = cmp.getPredicate();
  bool i1 = cmp.getLhs().getType().isInteger(1);
  bool isSigned = p == P::slt || p == P::sle || p == P::sgt || p == P::sge;
  if (p != P::eq && p != P::ne && (!isSigned || i1))
    return call(type, ("tp::cmpi_" + arith::stringifyCmpIPredicate(p)).str(),
                operands, {scalarName(cmp.getLhs().getType())});
  emitc::CmpPredicate pred = emitc::CmpPredicate::eq;
  switch (p) {
  case P::ne:
    pred = emitc::CmpPredicate::ne;
    break;
  case P::slt:
    pred = emitc::CmpPredicate::lt;
    break;
  case P::sle:
    pred = emitc::CmpPredicate::le;
    break;
  case P::sgt:
    pred = emitc::CmpPredicate::gt;
    break;
  case P::sge:
    pred = emitc::CmpPredicate::ge;
    break;
  default:
    break;
  }
  return b.create<emitc::CmpOp>(cmp.getLoc(), type, pred, operands[0],
                                operands[1]);
}
