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

/// Whether nothing in the function around `op` writes `array`: what it
/// holds is then the same wherever it is read.
bool neverWritten(Value array) {
  return llvm::all_of(array.getUsers(), [&](Operation *user) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffectsOnValue(array, list);
    return llvm::none_of(list, [](const MemoryEffects::EffectInstance &e) {
      return isa<MemoryEffects::Write>(e.getEffect());
    });
  });
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
  // An index read from memory at positions (an embedding's ids, MoE's
  // routing), from an array the function never writes: read again where it
  // is read, as positions are made again.
  if (auto gather = dyn_cast<tileas::GlobalGatherOp>(op)) {
    if (!tile.getElementType().isSignlessInteger(32) ||
        !neverWritten(gather.getSrc()))
      return false;
    auto tiles = llvm::to_vector(gather.getIndices());
    if (gather.getMask())
      tiles.push_back(gather.getMask());
    return llvm::all_of(tiles, [](Value v) {
      Operation *def = v.getDefiningOp();
      return computesFromPositions(def) || (def && isSplatTile(def));
    });
  }
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
