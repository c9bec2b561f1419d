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
// pairing is greedy, in order; every op of the first loop must pair. Two
// loops written one after the other, the second starting at the first's
// bound (Triton's two-stage causal attention: the blocks below the
// diagonal, then the diagonal one), are made one the same way.
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

#include <optional>

using namespace mlir;

namespace tilepipe::cutile {
namespace {

/// Whether `a` and `b` are ops of one kind: name, attributes, operand
/// count and result types, neither with regions.
bool sameKind(Operation *a, Operation *b) {
  return a->getName() == b->getName() &&
         a->getAttrDictionary() == b->getAttrDictionary() &&
         a->getNumOperands() == b->getNumOperands() &&
         a->getResultTypes() == b->getResultTypes() &&
         a->getNumRegions() == 0 && b->getNumRegions() == 0;
}

/// Whether `a` and `b` are one value: the same, constants of one value, or
/// the results of pure ops of one kind on such operands (a splat of the
/// scale that one loop made inside and the other before it), `depth` ops
/// deep.
bool same(Value a, Value b, int depth = 3) {
  if (a == b)
    return true;
  if (!a || !b || a.getType() != b.getType())
    return false;
  auto ca = a.getDefiningOp<arith::ConstantOp>();
  auto cb = b.getDefiningOp<arith::ConstantOp>();
  if (ca && cb)
    return ca.getValue() == cb.getValue();
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  if (depth == 0 || !da || !db || !sameKind(da, db) ||
      da->getNumResults() != 1 || !isPure(da) || !isPure(db))
    return false;
  for (auto [x, y] : llvm::zip(da->getOperands(), db->getOperands()))
    if (!same(x, y, depth - 1))
      return false;
  return true;
}

bool isOne(Value v) {
  APInt one;
  return matchPattern(v, m_ConstantInt(&one)) && one.isOne();
}

/// Where two loops in a row meet: the second's iterations are those of the
/// one loop at or past `split`.
struct Seam {
  Value split;
  /// The second starts at the first's bound, [a, b) then [b, c): the one
  /// loop runs [min(a, b), max(b, c)), which is both in order whatever the
  /// bounds (an empty first, or an empty second, included).
  bool atBound = false;
};

/// The seam when `first` runs [lo, min(hi, s)) and `second` [max(lo, s),
/// hi), as cuTile splits a loop at `if j >= s` (their union, in order, is
/// [lo, hi)), or when `second` starts at `first`'s upper bound; both by
/// steps of 1.
std::optional<Seam> seamOf(scf::ForOp first, scf::ForOp second) {
  if (!isOne(first.getStep()) || !isOne(second.getStep()))
    return std::nullopt;
  if (same(second.getLowerBound(), first.getUpperBound()))
    return Seam{first.getUpperBound(), /*atBound=*/true};
  auto min = first.getUpperBound().getDefiningOp<arith::MinSIOp>();
  auto max = second.getLowerBound().getDefiningOp<arith::MaxSIOp>();
  if (!min || !max)
    return std::nullopt;
  Value lo = first.getLowerBound(), hi = second.getUpperBound();
  for (auto [h, s] : {std::pair(min.getLhs(), min.getRhs()),
                      std::pair(min.getRhs(), min.getLhs())}) {
    if (!same(h, hi))
      continue;
    if ((same(max.getLhs(), lo) && same(max.getRhs(), s)) ||
        (same(max.getRhs(), lo) && same(max.getLhs(), s)))
      return Seam{s};
  }
  return std::nullopt;
}

/// A second loop written from zero whose index only offsets the first's
/// bound (`for jj in range(t): j = bound + jj`, the diagonal blocks after
/// those below it, as Triton's tutorial writes them): rewritten to run
/// [bound, bound + t) with j as its index, so that it starts at the first's
/// bound. Nothing changes when the index has another reader.
void startAtBound(scf::ForOp first, scf::ForOp second) {
  APInt zero;
  if (!isOne(second.getStep()) ||
      !matchPattern(second.getLowerBound(), m_ConstantInt(&zero)) ||
      !zero.isZero())
    return;
  Value iv = second.getInductionVar();
  Value bound = first.getUpperBound();
  SmallVector<arith::AddIOp> offsets;
  for (Operation *user : iv.getUsers()) {
    auto add = dyn_cast<arith::AddIOp>(user);
    if (!add || add->getBlock() != second.getBody())
      return;
    Value other = add.getLhs() == iv ? add.getRhs() : add.getLhs();
    if (other == iv || !same(other, bound))
      return;
    offsets.push_back(add);
  }
  if (offsets.empty())
    return;
  OpBuilder b(second);
  Value upper =
      b.create<arith::AddIOp>(second.getLoc(), bound, second.getUpperBound());
  second.getLowerBoundMutable().assign(bound);
  second.getUpperBoundMutable().assign(upper);
  for (arith::AddIOp add : offsets) {
    add.getResult().replaceAllUsesWith(iv);
    add.erase();
  }
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

class Fusion {
public:
  Fusion(scf::ForOp first, scf::ForOp second, Seam seam)
      : first(first), second(second), seam(seam), b(second) {}

  /// The one loop, or null (and nothing changed) when the bodies do not
  /// pair.
  scf::ForOp run();

private:
  bool fuseBody();
  bool pair(Operation *op1, Operation &op2, SmallVector<Value> &operands);
  void takeFirstsOwn(Block::iterator &it1, Block::iterator upTo);
  Value operand(Value v1, Value v2, bool own);
  bool oneBuffer(Value v1, Value v2);
  Value select(Value v1, Value v2);

  scf::ForOp first, second;
  Seam seam;
  OpBuilder b;
  IRMapping m1, m2;
  llvm::DenseSet<Value> own;       // results of the second loop's own ops
  llvm::DenseSet<Value> ownFirst;  // copies of the first loop's own ops
  SmallVector<Operation *> ownOps; // both kinds' copies in the one loop
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
/// the second loop's own (`own`) or v1 the copy of the first's own.
Value Fusion::operand(Value v1, Value v2, bool isOwn) {
  if (same(v1, v2) || oneBuffer(v1, v2))
    return v2;
  return isOwn || ownFirst.contains(v1) ? select(v1, v2) : Value();
}

/// Whether `op1` and `op2` run as one op, with `operands` (the selects
/// where they differ).
bool Fusion::pair(Operation *op1, Operation &op2,
                  SmallVector<Value> &operands) {
  operands.clear();
  if (!op1 || isa<arith::ConstantOp>(op2) || !sameKind(op1, &op2))
    return false;
  for (unsigned k = 0; k < op2.getNumOperands(); ++k) {
    Value v = operand(m1.lookupOrDefault(op1->getOperand(k)),
                      m2.lookupOrDefault(op2.getOperand(k)),
                      own.contains(op2.getOperand(k)));
    if (!v)
      return false;
    operands.push_back(v);
  }
  return true;
}

/// The first loop's ops from `it1` up to `upTo`, pure ones, as its own: they
/// run in every iteration, and a select takes their results before s (the
/// second computed the same value another way: `x * c + mask` as one fma
/// where the first has `x * c`).
void Fusion::takeFirstsOwn(Block::iterator &it1, Block::iterator upTo) {
  for (; it1 != upTo; ++it1) {
    Operation *c = b.clone(*it1, m1);
    ownOps.push_back(c);
    for (Value r : c->getResults())
      ownFirst.insert(r);
  }
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
                                   fused.getInductionVar(), seam.split);
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
  // The first loop's next pure ops, up to one that pairs with `op2` a few
  // ops on: a first-own stretch the second wrote otherwise.
  auto pairsAhead = [&](Operation &op2) -> std::optional<Block::iterator> {
    constexpr int kWindow = 4;
    auto it = it1;
    for (int n = 0; it != end1 && n <= kWindow; ++it, ++n) {
      if (n && sameKind(&*it, &op2))
        return it;
      if (!isPure(&*it) || it->getNumRegions() || isa<arith::ConstantOp>(*it))
        return std::nullopt;
    }
    return std::nullopt;
  };
  for (Operation &op2 : body2.without_terminator()) {
    skipConstants();
    Operation *op1 = it1 != end1 ? &*it1 : nullptr;
    SmallVector<Value> operands;
    bool paired = pair(op1, op2, operands);
    if (!paired && op1 && !isa<arith::ConstantOp>(op2)) {
      if (std::optional<Block::iterator> at = pairsAhead(op2)) {
        takeFirstsOwn(it1, *at);
        op1 = &*it1;
        paired = pair(op1, op2, operands);
      }
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
  // The first loop's last ops, pure, run as its own (the second had no
  // counterpart); any other op left unpaired leaves the loops apart.
  for (auto it = it1; it != end1; ++it)
    if (!isPure(&*it) || it->getNumRegions())
      return false;
  takeFirstsOwn(it1, end1);
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
  Value lo = first.getLowerBound(), hi = second.getUpperBound();
  SmallVector<Operation *> bounds;
  if (seam.atBound) {
    lo = b.create<arith::MinSIOp>(first.getLoc(), lo, seam.split);
    hi = b.create<arith::MaxSIOp>(first.getLoc(), seam.split, hi);
    bounds = {hi.getDefiningOp(), lo.getDefiningOp()};
  }
  fused = b.create<scf::ForOp>(first.getLoc(), lo, hi, second.getStep(),
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
    for (Operation *op : bounds)
      op->erase();
    return {};
  }
  // What only the two loops read: their bounds, a splat one of them had
  // before it that the other's copy in the body replaced, TMEM the first
  // loop alone used.
  llvm::SetVector<Operation *> feeders;
  for (scf::ForOp loop : {first, second})
    loop->walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp();
            def && def != first && def != second &&
            (def->getBlock() == fused->getBlock() ||
             isa<tileas::AllocTmemOp>(def)))
          feeders.insert(def);
    });
  second.replaceAllUsesWith(fused.getResults());
  second.erase();
  first.erase();
  // Dead now, each after its readers (feeders are in no order).
  SmallVector<Operation *> dead(feeders.begin(), feeders.end());
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : dead)
      if (op && op->use_empty() &&
          (isPure(op) || isa<tileas::AllocTmemOp>(op))) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
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
    if (!continues(first, second))
      continue;
    startAtBound(first, second);
    std::optional<Seam> seam = seamOf(first, second);
    if (!seam)
      continue;
    Location loc = first.getLoc();
    if (!Fusion(first, second, *seam).run())
      continue;
    // Both are erased: a pair either made with them is not tried.
    gone.insert(first);
    gone.insert(second);
    if (seam->atBound)
      emitRemark(loc) << "this loop and the next, which starts at its "
                         "bound, run as one loop, taking the second's values "
                         "from that bound on";
    else
      emitRemark(loc) << "cuTile split this loop at a branch on its index; "
                         "it runs as one loop again, taking the branch's "
                         "values from that index on";
  }
}

} // namespace tilepipe::cutile
