//===- ColumnVectors.cpp - column statistics spread along columns -------===//
//
// A register tile holds a row a thread, so a vector spread along columns
// (`m[None, :]`, tileas.broadcast dimensions = [0]) is one every thread
// holds whole: the translation makes it from shared memory or splats
// (cuda/analysis/Broadcasts.cpp). A column statistic is made per row of a
// transposed read (`ct.max(x, axis=0)` reduces the rows of x's transpose),
// each thread its own element, so spreading it over x's columns needs each
// thread to see every other's: the threads write it to shared memory and
// read it back whole (a column softmax). Runs before SplitRows, which gives
// the store its lanes when the transpose's rows are split.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilepipe;

namespace {

/// Whether the vector `v` is made where each thread holds its own row's
/// element: a row reduction, or elementwise math reaching one (a max's
/// negation, a sum's reciprocal).
bool madePerRow(Value v, llvm::DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return false;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<tileas::ReduceSumOp, tileas::ReduceMaxOp>(def))
    return true;
  if (isa<tileas::SmemLoadOp, tensor::SplatOp, scf::ForOp>(def) ||
      matchPattern(v, m_Constant()))
    return false;
  if (def->getNumResults() != 1 || def->getNumRegions())
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isa<RankedTensorType>(operand.getType()) &&
           madePerRow(operand, seen);
  });
}

} // namespace

void tilepipe::cutile::exchangeRowVectors(func::FuncOp func) {
  SmallVector<tileas::BroadcastOp> spreads;
  func.walk([&](tileas::BroadcastOp b) {
    llvm::DenseSet<Value> seen;
    if (b.isColumnBroadcast() && madePerRow(b.getInput(), seen))
      spreads.push_back(b);
  });
  llvm::DenseMap<Value, Value> exchanged;
  for (tileas::BroadcastOp b : spreads) {
    Value v = b.getInput();
    Value &whole = exchanged[v];
    if (!whole) {
      OpBuilder builder(b.getContext());
      builder.setInsertionPointAfterValue(v);
      auto type = cast<RankedTensorType>(v.getType());
      Value staged = builder.create<tileas::SmemStoreOp>(
          v.getLoc(),
          tileas::SmemType::get(type.getShape(), type.getElementType()), v,
          Value());
      whole = builder.create<tileas::SmemLoadOp>(v.getLoc(), type, staged,
                                                 ValueRange(), IntegerAttr(),
                                                 FloatAttr(), UnitAttr());
    }
    b.getInputMutable().assign(whole);
  }
}
