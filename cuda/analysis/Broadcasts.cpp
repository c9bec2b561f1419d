//===- Broadcasts.cpp - vectors every thread of an agent holds whole ------===//

#include "cuda/analysis/Broadcasts.h"
#include "cuda/analysis/ElementwiseOps.h"

#include "ir/Positions.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {

bool isVector(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getRank() == 1;
}

/// The values `v` is computed from that must be per-column vectors too, or
/// an error at the op that cannot make one.
LogicalResult sourcesOfColumn(Value v, SmallVectorImpl<Value> &out) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      // Carried across iterations (stage code): its initial and yielded
      // values are the same vector.
      if (OpOperand *init = loop.getTiedLoopInit(arg)) {
        out.push_back(init->get());
        out.push_back(loop.getTiedLoopYieldedValue(arg)->get());
        return success();
      }
    }
    if (isa<func::FuncOp>(owner))
      return success(); // Passed in: every thread reads all of it.
    return emitError(v.getLoc())
           << "a vector broadcast along columns (tileas.broadcast dimensions "
              "= [0]) cannot come from this block argument";
  }
  Operation *def = v.getDefiningOp();
  // Positions along the vector: every thread makes the columns it holds.
  if (isa<tileas::SmemLoadOp, tileas::IotaOp>(def) || isSplatTile(def))
    return success();
  if (auto loop = dyn_cast<scf::ForOp>(def)) {
    unsigned i = cast<OpResult>(v).getResultNumber();
    out.push_back(loop.getInitArgs()[i]);
    out.push_back(loop.getYieldedValues()[i]);
    return success();
  }
  if (elementwiseCall(def)) {
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        out.push_back(operand);
    return success();
  }
  return def->emitError()
         << "makes " << v.getType()
         << ", which a tileas.broadcast spreads along columns (dimensions = "
            "[0]); such a vector is loaded from shared memory "
            "(tileas.smem_load), made by tileas.iota or computed "
            "elementwise from such vectors, not made per row by '"
         << def->getName() << "'";
}

/// Whether `user` reads the per-column vector `v` as one: a column
/// broadcast, math that makes another per-column vector, a loop that
/// carries it, a store of all of it. A rank-2 elementwise op would read it
/// per row.
bool readsAsColumn(Operation *user, Value v,
                   const llvm::DenseSet<Value> &columns) {
  if (auto b = dyn_cast<tileas::BroadcastOp>(user))
    return b.isColumnBroadcast();
  // Carried by a loop; stored to shared memory (every thread writes all of
  // it: a pipe slot that hands it to another agent).
  if (isa<scf::YieldOp, scf::ForOp>(user))
    return true;
  if (auto store = dyn_cast<tileas::SmemStoreOp>(user))
    return store.getSource() == v;
  return user->getNumResults() == 1 && columns.contains(user->getResult(0));
}

} // namespace

FailureOr<llvm::DenseSet<Value>> cuda::collectColumnVectors(func::FuncOp func) {
  llvm::DenseSet<Value> columns;
  SmallVector<Value> work;
  func.walk([&](tileas::BroadcastOp b) {
    if (b.isColumnBroadcast())
      work.push_back(b.getInput());
  });
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!isVector(v) || !columns.insert(v).second)
      continue;
    if (failed(sourcesOfColumn(v, work)))
      return failure();
  }
  for (Value v : columns)
    for (Operation *user : v.getUsers())
      if (!readsAsColumn(user, v, columns))
        return user->emitError()
               << "reads " << v.getType()
               << " as a per-row vector, but a tileas.broadcast spreads it "
                  "along columns (dimensions = [0]); broadcast it along "
                  "columns here too, or use two vectors";
  return columns;
}
