//===- GuardedLoops.cpp - a loop under an `if` runs no trips instead ------===//
//
// Split-KV decoding guards its loop over the split's key blocks with the
// split's extent (`if end > start: for ...`), so that a split past the
// sequence's end runs nothing. tileas pipelines loops of the kernel's body,
// not loops inside branches, and its branches only compute. Before
// lowering, such a loop leaves its `if`: the ops before it in the branch,
// which must have no effects, are computed unconditionally, and the loop's
// upper bound becomes `cond ? ub : lb`, so it runs no trips when the branch
// is not taken and hands back its initial values. What the branch did after
// the loop stays in the `if` (lowered by if-conversion, Branches.cpp); a
// result that is the loop's where taken and its initial value where not is
// the loop's result outright.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilepipe;

namespace {

/// The one loop directly in `op`'s then branch when everything before it
/// there is free of effects and the else branch holds no loop; null
/// otherwise.
tileir::ForOp guardedLoop(tileir::IfOp op) {
  Block &then = op.getThenRegion().front();
  tileir::ForOp loop;
  for (Operation &inner : then.without_terminator()) {
    if (auto f = dyn_cast<tileir::ForOp>(inner)) {
      if (loop)
        return {};
      loop = f;
      continue;
    }
    if (!loop && !isMemoryEffectFree(&inner))
      return {};
  }
  if (!loop || loop.getUnsignedCmp())
    return {};
  bool elseLoops = false;
  op.getElseRegion().walk([&](tileir::ForOp) { elseLoops = true; });
  return elseLoops ? tileir::ForOp() : loop;
}

void hoist(tileir::IfOp op, tileir::ForOp loop) {
  Block &then = op.getThenRegion().front();
  // The branch's ops before the loop, then the loop, run before the `if`.
  while (&then.front() != loop.getOperation())
    then.front().moveBefore(op);
  OpBuilder b(op);
  Value bound =
      b.create<tileir::SelectOp>(loop.getLoc(), op.getCondition(),
                                 loop.getUpperBound(), loop.getLowerBound());
  loop->moveBefore(op);
  loop.getUpperBoundMutable().assign(bound);
  // A result that is the loop's when taken and its initial value when not.
  Operation *thenYield = then.getTerminator();
  Operation *elseYield = op.getElseRegion().empty()
                             ? nullptr
                             : op.getElseRegion().front().getTerminator();
  if (!elseYield)
    return;
  for (auto [i, r] : llvm::enumerate(op.getResults())) {
    auto res = dyn_cast<OpResult>(thenYield->getOperand(i));
    if (!res || res.getOwner() != loop.getOperation())
      continue;
    if (elseYield->getOperand(i) == loop.getInitValues()[res.getResultNumber()])
      r.replaceAllUsesWith(res);
  }
  // Nothing left to choose: the `if` goes.
  if (op->use_empty() && then.getOperations().size() == 1 &&
      op.getElseRegion().front().getOperations().size() == 1)
    op->erase();
}

} // namespace

void tilepipe::cutile::hoistGuardedLoops(tileir::EntryOp entry) {
  SmallVector<tileir::IfOp> ifs;
  for (Operation &op : entry.getBody().front())
    if (auto branch = dyn_cast<tileir::IfOp>(op))
      ifs.push_back(branch);
  for (tileir::IfOp op : ifs)
    if (tileir::ForOp loop = guardedLoop(op))
      hoist(op, loop);
}
