//===- Positions.cpp - tiles computed from element positions alone --------===//

#include "ir/Positions.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilepipe;

namespace {

bool isIntegerTile(RankedTensorType t) {
  return t.getElementType().isSignlessInteger(32) ||
         t.getElementType().isInteger(1);
}

} // namespace

bool tilepipe::isSplatTile(Operation *op) {
  if (isa_and_nonnull<tensor::SplatOp>(op))
    return true;
  auto cst = dyn_cast_or_null<arith::ConstantOp>(op);
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  return dense && dense.isSplat();
}

/// Positions and math on them, with splats of any type as operands that
/// are neither (they do not make a tile position-dependent).
static bool computesFromPositions(Operation *op) {
  if (!op || op->getNumResults() != 1 || op->getNumRegions())
    return false;
  auto tile = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!tile)
    return false;
  if (isa<tileas::IotaOp>(op))
    return true;
  if (isSplatTile(op) || isa<arith::ConstantOp>(op))
    return isIntegerTile(tile);
  if (!isa_and_present<arith::ArithDialect, math::MathDialect>(
          op->getDialect()) ||
      !isPure(op))
    return false;
  bool fromPositions = false;
  for (Value v : op->getOperands()) {
    if (!isa<RankedTensorType>(v.getType()))
      continue;
    Operation *def = v.getDefiningOp();
    if (computesFromPositions(def))
      fromPositions = true;
    else if (!def || !isSplatTile(def))
      return false;
  }
  return fromPositions;
}

bool tilepipe::isPositionOp(Operation *op) {
  if (computesFromPositions(op))
    return true;
  // A float splat that only math on positions reads (ALiBi's slope): made
  // with it, where it is read.
  return op && isSplatTile(op) && !op->getResult(0).use_empty() &&
         llvm::all_of(op->getResult(0).getUsers(), computesFromPositions);
}
