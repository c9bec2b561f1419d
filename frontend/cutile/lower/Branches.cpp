//===- Branches.cpp - an `if` that only computes, both ways and a select --===//
//
// cuTile keeps a branch on a loop's index that it does not split the loop
// at (`if j == n - 1:`, a mask on the last key block) as an `if` in the
// loop body. tileas has no branches inside a scheduled loop, so an `if`
// whose branches only compute is lowered by if-conversion: both branches
// run, and a select on the condition takes the values of the one the
// condition names. The ops a branch lowers to must be pure (no loads,
// MMAs or loops): computing the branch not taken must change nothing and be
// safe to compute. Its stores (`if bid == 0: ct.store(...)`) are kept from
// writing instead: an element's store or a threads' scatter under the
// condition as its predicate or mask, a TMA store with its box moved out of
// the tensor, where the copy engine writes nothing.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

/// The lowered values a branch yields, the ops lowering it made added to
/// `made`; failure after an error at `op` when the branch does more than
/// compute.
/// A TMA box's first coordinate when its store is not taken: the box lies
/// wholly after the tensor, where the copy engine writes nothing. Not
/// before it: an H200 stops the kernel at any negative store coordinate
/// (docs/cpu-emulation.md, "Stores and mbarrier phases on an H200"), and
/// ran every box wholly below the tensor without a write. 2^30 stays far
/// from the signed 32-bit limit with any box's extent added.
constexpr int64_t kNotStoredCoordinate = int64_t(1) << 30;

/// Keeps the store `op` (a branch's, lowered) from writing unless `taken`
/// holds; false when `op` is no store this can predicate.
static bool predicateStore(OpBuilder &b, Operation *op, Value taken) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  if (auto store = dyn_cast<tileas::GlobalStoreOp>(op)) {
    store.getInsideMutable().assign(
        b.create<arith::AndIOp>(loc, store.getInside(), taken));
    return true;
  }
  if (auto scatter = dyn_cast<tileas::GlobalScatterOp>(op)) {
    auto maskType = RankedTensorType::get(
        scatter.getValue().getType().getShape(), b.getI1Type());
    Value mask = b.create<tensor::SplatOp>(loc, maskType, taken);
    if (Value m = scatter.getMask())
      mask = b.create<arith::AndIOp>(loc, m, mask);
    scatter.getMaskMutable().assign(mask);
    return true;
  }
  if (auto store = dyn_cast<tileas::TmaStoreOp>(op)) {
    if (store.getCoords().empty())
      return false;
    Value first = store.getCoords()[0];
    Value away = b.create<arith::ConstantIndexOp>(loc, kNotStoredCoordinate);
    store.getCoordsMutable()[0].assign(
        b.create<arith::SelectOp>(loc, taken, first, away));
    return true;
  }
  return false;
}

static FailureOr<SmallVector<Value>>
lowerBranch(EntryLowering &l, tileir::IfOp op, Region &region,
            llvm::SmallPtrSetImpl<Operation *> &made, Value taken) {
  SmallVector<Value> yields;
  if (region.empty())
    return yields;
  Block &block = region.front();
  Block *into = l.b.getInsertionBlock();
  // New ops go before `stop` (null: at the block's end), after `before`.
  Block::iterator at = l.b.getInsertionPoint();
  Operation *stop = at == into->end() ? nullptr : &*at;
  Operation *before = at == into->begin() ? nullptr : &*std::prev(at);
  for (Operation &inner : block.without_terminator())
    if (failed(l.lowerOp(&inner)))
      return failure();
  Operation *first = before          ? before->getNextNode()
                     : into->empty() ? nullptr
                                     : &into->front();
  for (Operation *op2 = first; op2 && op2 != stop; op2 = op2->getNextNode()) {
    // A staging store to SMEM changes nothing the kernel reads but its own
    // TMA store's source.
    bool staging = isa<tileas::SmemStoreOp>(op2) &&
                   !cast<tileas::SmemStoreOp>(op2).getDst();
    if (staging || (!op2->getNumRegions() && predicateStore(l.b, op2, taken)))
      continue;
    if (!isPure(op2) || op2->getNumRegions())
      return op.emitError("an `if` is lowered only when its branches just "
                          "compute or store (both run, a select takes one's "
                          "values, and the other's stores write nothing); "
                          "this one does '")
                 << op2->getName() << "': compute the values with ct.where",
             failure();
    made.insert(op2);
  }
  for (Value v : block.getTerminator()->getOperands()) {
    // A token orders the branch's memory operations, which tileas orders
    // by their effects: nothing to select.
    if (isa<tileir::TokenType>(v.getType())) {
      yields.push_back(Value());
      continue;
    }
    FailureOr<Value> r = l.registers(op, v);
    if (failed(r))
      return failure();
    yields.push_back(*r);
  }
  return yields;
}

/// `c ? t : e` for a scalar `c`. Where one side masks the other (`t =
/// m ? x : y` and `e` is x or y, as a mask on the last block leaves the
/// scores), the scalar joins the mask instead: one select of the tile, not
/// two, so that the masked and the unmasked tile are never both live (the
/// attention of a masked last block spilled 376 B on sm_90a with two, 0 B
/// with one). The side's own select is left for the caller to drop.
Value cutile::selectOnScalar(OpBuilder &b, Location loc, Value c, Value t,
                             Value e) {
  auto tensor = dyn_cast<RankedTensorType>(t.getType());
  if (!tensor)
    return b.create<arith::SelectOp>(loc, c, t, e);
  auto maskType = RankedTensorType::get(tensor.getShape(), b.getI1Type());
  auto splat = [&](Value scalar) {
    return b.create<tensor::SplatOp>(loc, maskType, scalar).getResult();
  };
  auto notC = [&] {
    Value one = b.create<arith::ConstantIntOp>(loc, 1, 1);
    return b.create<arith::XOrIOp>(loc, c, one).getResult();
  };
  // With `inner` = m ? x : y on one side and x or y on the other:
  // c ? (m ? x : y) : x is (m | !c) ? x : y, and c ? (m ? x : y) : y is
  // (m & c) ? x : y; the same with c negated when the masked side is the
  // one not taken.
  for (bool onTaken : {true, false}) {
    auto inner = (onTaken ? t : e).getDefiningOp<arith::SelectOp>();
    Value other = onTaken ? e : t;
    if (!inner || inner.getCondition().getType() != maskType)
      continue;
    Value mask;
    if (other == inner.getTrueValue())
      mask = b.create<arith::OrIOp>(loc, inner.getCondition(),
                                    splat(onTaken ? notC() : c));
    else if (other == inner.getFalseValue())
      mask = b.create<arith::AndIOp>(loc, inner.getCondition(),
                                     splat(onTaken ? c : notC()));
    if (mask)
      return b.create<arith::SelectOp>(loc, mask, inner.getTrueValue(),
                                       inner.getFalseValue());
  }
  return b.create<arith::SelectOp>(loc, splat(c), t, e);
}

LogicalResult EntryLowering::lowerIf(tileir::IfOp op) {
  FailureOr<Value> cond = registers(op, op.getCondition());
  if (failed(cond))
    return failure();
  if (!cond->getType().isInteger(1))
    return op.emitError("an `if` on a tile of conditions is not lowered"),
           failure();
  llvm::SmallPtrSet<Operation *, 16> made;
  FailureOr<SmallVector<Value>> taken =
      lowerBranch(*this, op, op.getThenRegion(), made, *cond);
  if (failed(taken))
    return failure();
  Value notTaken = b.create<arith::XOrIOp>(
      loc(op), *cond, b.create<arith::ConstantIntOp>(loc(op), 1, 1));
  FailureOr<SmallVector<Value>> other =
      lowerBranch(*this, op, op.getElseRegion(), made, notTaken);
  if (failed(other))
    return failure();
  // Only an else branch that stores reads it.
  if (notTaken.use_empty()) {
    Operation *one = notTaken.getDefiningOp()->getOperand(1).getDefiningOp();
    notTaken.getDefiningOp()->erase();
    one->erase();
  }
  if (taken->size() != op.getNumResults() ||
      other->size() != op.getNumResults())
    return op.emitError("an `if` with results needs both branches"), failure();
  for (auto [r, t, e] : llvm::zip(op.getResults(), *taken, *other)) {
    if (!t || !e)
      continue;
    if (t.getType() != e.getType())
      return op.emitError("the branches of an `if` yield values lowered to "
                          "different types (")
                 << t.getType() << ", " << e.getType() << ")",
             failure();
    map(r, selectOnScalar(b, loc(op), *cond, t, e));
    // A select a branch made that the joined one replaced is read nowhere
    // else (a branch's values are its own): gone, so the schedule does not
    // count it. One from before the `if` stays: later code may read it.
    for (Value side : {t, e})
      if (auto dead = side.getDefiningOp<arith::SelectOp>();
          dead && made.contains(dead) && dead->use_empty()) {
        made.erase(dead);
        dead->erase();
      }
  }
  return success();
}
