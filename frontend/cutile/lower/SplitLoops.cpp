//===- SplitLoops.cpp - cuTile's split loops made one again ---------------===//
//
// cuTile compiles `if j >= s:` in a `for j in range(lo, hi)` body by
// splitting the loop in two: [lo, min(hi, s)) without the branch, then
// [max(lo, s), hi) with it, the second continuing the first's values
// (FlashAttention's causal mask from the diagonal block on). Two loops in a
// row cannot share a consumer's registers when warp-specialized, and
// peeled they hold twice the code. This step makes them one loop again
// over [lo, hi): an op of the second loop that the first has too runs
// once, on the second's operands from iteration s on and the first's
// before (a select on j >= s); the second's own ops, which must be pure,
// run in every iteration. Any pairing of the bodies' ops is exact, so the
// pairing is greedy, in order; every op of the first loop must pair.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tilepipe::cutile {
namespace {

/// Whether `a` and `b` are one value: the same, or constants of one value.
bool same(Value a, Value b) {
  if (a == b)
    return true;
  auto ca = a ? a.getDefiningOp<arith::ConstantOp>() : nullptr;
  auto cb = b ? b.getDefiningOp<arith::ConstantOp>() : nullptr;
  return ca && cb && ca.getValue() == cb.getValue() &&
         a.getType() == b.getType();
}

bool isOne(Value v) {
  APInt one;
  return matchPattern(v, m_ConstantInt(&one)) && one.isOne();
}

/// The split s when `first` runs [lo, min(hi, s)) and `second`
/// [max(lo, s), hi), both by steps of 1 (so their union, in order, is
/// [lo, hi), the second's iterations those at or past s).
Value splitPoint(scf::ForOp first, scf::ForOp second) {
  if (!isOne(first.getStep()) || !isOne(second.getStep()))
    return {};
  auto min = first.getUpperBound().getDefiningOp<arith::MinSIOp>();
  auto max = second.getLowerBound().getDefiningOp<arith::MaxSIOp>();
  if (!min || !max)
    return {};
  Value lo = first.getLowerBound(), hi = second.getUpperBound();
  for (auto [h, s] : {std::pair(min.getLhs(), min.getRhs()),
                      std::pair(min.getRhs(), min.getLhs())}) {
    if (!same(h, hi))
      continue;
    if ((same(max.getLhs(), lo) && same(max.getRhs(), s)) ||
        (same(max.getRhs(), lo) && same(max.getLhs(), s)))
      return s;
  }
  return {};
}

/// Whether `second` takes every value `first` leaves and nothing else
/// reads them, and what lies between them may run after both.
bool continues(scf::ForOp first, scf::ForOp second) {
  if (first.getNumResults() != second.getNumResults() ||
      first.getInductionVar().getType() != second.getInductionVar().getType())
    return false;
  for (auto [r, init] : llvm::zip(first.getResults(), second.getInitArgs()))
    if (r != init || !r.hasOneUse())
      return false;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode())
    if (!isMemoryEffectFree(op))
      return false;
  return true;
}

bool sameShape(Operation *a, Operation *b) {
  return a->getName() == b->getName() &&
         a->getAttrDictionary() == b->getAttrDictionary() &&
         a->getNumOperands() == b->getNumOperands() &&
         a->getResultTypes() == b->getResultTypes() &&
         a->getNumRegions() == 0 && b->getNumRegions() == 0;
}

class Fusion {
public:
  Fusion(scf::ForOp first, scf::ForOp second, Value split)
      : first(first), second(second), split(split), b(second) {}

  /// The one loop, or null (and nothing changed) when the bodies do not
  /// pair.
  scf::ForOp run();

private:
  bool fuseBody();
  Value operand(Value v1, Value v2, bool own);
  bool oneBuffer(Value v1, Value v2);
  Value select(Value v1, Value v2);

  scf::ForOp first, second;
  Value split;
  OpBuilder b;
  IRMapping m1, m2;
  llvm::DenseSet<Value> own;       // results of the second loop's own ops
  SmallVector<Operation *> ownOps; // their copies in the one loop
  llvm::DenseMap<std::pair<Value, Value>, Value> selects;
  Value late; // j >= s
  scf::ForOp fused;
};

/// Whether `v1` and `v2` are TMEM the lowering allocated for the first
/// loop and the second alone: one allocation serves the one loop.
bool Fusion::oneBuffer(Value v1, Value v2) {
  auto a1 = v1.getDefiningOp<tileas::AllocTmemOp>();
  auto a2 = v2.getDefiningOp<tileas::AllocTmemOp>();
  auto inside = [](Value v, scf::ForOp loop) {
    return llvm::all_of(v.getUsers(), [&](Operation *user) {
      return loop->isProperAncestor(user);
    });
  };
  return a1 && a2 && v1.getType() == v2.getType() && inside(v1, first) &&
         inside(v2, second);
}

/// The operand of a paired op: v1 (the first loop's) and v2 (the second's)
/// when they are one value; otherwise the select of the two, where v2 is
/// the second loop's own (`own`).
Value Fusion::operand(Value v1, Value v2, bool isOwn) {
  if (same(v1, v2) || oneBuffer(v1, v2))
    return v2;
  return isOwn ? select(v1, v2) : Value();
}

Value Fusion::select(Value v1, Value v2) {
  auto key = std::make_pair(v1, v2);
  if (Value s = selects.lookup(key))
    return s;
  Type t = v2.getType();
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor && !t.isIntOrIndexOrFloat())
    return {};
  Location loc = fused.getLoc();
  if (!late) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fused.getBody());
    late = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge,
                                   fused.getInductionVar(), split);
  }
  Value s = selectOnScalar(b, loc, late, v2, v1);
  selects[key] = s;
  return s;
}

bool Fusion::fuseBody() {
  Block &body1 = *first.getBody(), &body2 = *second.getBody();
  auto it1 = body1.without_terminator().begin();
  auto end1 = body1.without_terminator().end();
  auto skipConstants = [&] {
    for (; it1 != end1 && isa<arith::ConstantOp>(*it1); ++it1)
      m1.map(it1->getResult(0), b.clone(*it1)->getResult(0));
  };
  for (Operation &op2 : body2.without_terminator()) {
    skipConstants();
    Operation *op1 = it1 != end1 ? &*it1 : nullptr;
    SmallVector<Value> operands;
    bool paired = op1 && !isa<arith::ConstantOp>(op2) && sameShape(op1, &op2);
    for (unsigned k = 0; paired && k < op2.getNumOperands(); ++k) {
      Value v = operand(m1.lookupOrDefault(op1->getOperand(k)),
                        m2.lookupOrDefault(op2.getOperand(k)),
                        own.contains(op2.getOperand(k)));
      paired = bool(v);
      operands.push_back(v);
    }
    if (!paired) {
      // The second loop's own op: it runs in every iteration.
      // Speculatable too: before s it runs where the branch did not.
      if (!isPure(&op2) || op2.getNumRegions())
        return false;
      ownOps.push_back(b.clone(op2, m2));
      for (Value r : op2.getResults())
        own.insert(r);
      continue;
    }
    Operation *c = b.clone(op2, m2);
    c->setOperands(operands);
    for (auto [r1, r2, r] :
         llvm::zip(op1->getResults(), op2.getResults(), c->getResults())) {
      m1.map(r1, r);
      m2.map(r2, r);
    }
    ++it1;
  }
  skipConstants();
  if (it1 != end1)
    return false;
  SmallVector<Value> yields;
  for (auto [y1, y2] : llvm::zip(body1.getTerminator()->getOperands(),
                                 body2.getTerminator()->getOperands())) {
    Value v = operand(m1.lookupOrDefault(y1), m2.lookupOrDefault(y2),
                      own.contains(y2));
    if (!v)
      return false;
    yields.push_back(v);
  }
  b.create<scf::YieldOp>(second.getLoc(), yields);
  // An own op that a select joined into its mask is read no more.
  for (Operation *op : llvm::reverse(ownOps))
    if (op->use_empty())
      op->erase();
  return true;
}

scf::ForOp Fusion::run() {
  fused = b.create<scf::ForOp>(first.getLoc(), first.getLowerBound(),
                               second.getUpperBound(), second.getStep(),
                               first.getInitArgs());
  Block *body = fused.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  m1.map(first.getInductionVar(), fused.getInductionVar());
  m2.map(second.getInductionVar(), fused.getInductionVar());
  for (auto [a1, a2, a] :
       llvm::zip(first.getRegionIterArgs(), second.getRegionIterArgs(),
                 fused.getRegionIterArgs())) {
    m1.map(a1, a);
    m2.map(a2, a);
  }
  b.setInsertionPointToEnd(body);
  if (!fuseBody()) {
    fused.erase();
    return {};
  }
  second.replaceAllUsesWith(fused.getResults());
  second.erase();
  // The first loop's own TMEM allocations are the second's now.
  llvm::SetVector<Operation *> allocs;
  first.walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (auto alloc = v.getDefiningOp<tileas::AllocTmemOp>())
        allocs.insert(alloc);
  });
  first.erase();
  for (Operation *alloc : allocs)
    if (alloc->use_empty())
      alloc->erase();
  return fused;
}

} // namespace

void fuseSplitLoops(func::FuncOp func) {
  SmallVector<std::pair<scf::ForOp, scf::ForOp>> pairs;
  func.walk([&](scf::ForOp first) {
    for (Operation *op = first->getNextNode(); op; op = op->getNextNode())
      if (auto second = dyn_cast<scf::ForOp>(op)) {
        pairs.emplace_back(first, second);
        break;
      }
  });
  llvm::DenseSet<Operation *> gone;
  for (auto [first, second] : pairs) {
    if (gone.contains(first) || gone.contains(second))
      continue;
    Value split = splitPoint(first, second);
    if (!split || !continues(first, second))
      continue;
    Location loc = first.getLoc();
    if (!Fusion(first, second, split).run())
      continue;
    // Both are erased: a pair either made with them is not tried.
    gone.insert(first);
    gone.insert(second);
    emitRemark(loc) << "cuTile split this loop at a branch on its index; "
                       "it runs as one loop again, taking the branch's "
                       "values from that index on";
  }
}

} // namespace tilepipe::cutile
