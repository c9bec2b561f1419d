//===- CarriedTiles.cpp - fewer register tiles across loop back edges -----===//

#include "cuda/analysis/CarriedTiles.h"
#include "cuda/analysis/ElementwiseOps.h"
#include "cuda/analysis/TileHomes.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {

bool isTile(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && tensor.getRank() == 2;
}

int64_t tileBytes(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor ? tensor.getNumElements() * tensor.getElementTypeBitWidth() / 8
                : 0;
}

/// Ops whose result is a narrower function of one tile.
bool isNarrowing(Operation *op) {
  return isa<tileas::CvtOp, arith::TruncFOp, tileas::ReduceMaxOp,
             tileas::ReduceSumOp>(op) &&
         op->getNumOperands() == 1 && op->getNumResults() == 1 &&
         tileBytes(op->getResult(0).getType()) <
             tileBytes(op->getOperand(0).getType());
}

bool isBinaryElementwise(Operation *op) {
  return isa<tileas::AddOp, tileas::SubOp, tileas::MulOp, tileas::MaxOp,
             arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::MaximumFOp>(
             op) &&
         op->getNumOperands() == 2 && op->getNumResults() == 1;
}

Operation *agentOf(Operation *op) {
  if (auto agent = op->getParentOfType<tileas::AgentOp>())
    return agent;
  return op->getParentOfType<func::FuncOp>();
}

Operation *yieldOf(scf::ForOp loop) { return loop.getBody()->getTerminator(); }

/// The same computation: op name, result types and inherent attributes
/// (fastmath flags); where the schedule put it does not matter.
bool sameComputation(Operation *a, Operation *b) {
  return a->getName() == b->getName() &&
         a->getResultTypes() == b->getResultTypes() &&
         a->getPropertiesAsAttribute() == b->getPropertiesAsAttribute();
}

/// Replaces `loop` by a loop carrying `inits`. Old iter_arg i becomes new
/// iter_arg keep[i] (-1: dropped; it must be unused, as must its result);
/// the yield keeps the old operands of kept iter_args and yields each new
/// iter_arg itself, for the caller to replace.
scf::ForOp rebuild(scf::ForOp loop, ArrayRef<Value> inits,
                   ArrayRef<int> keep) {
  OpBuilder b(loop);
  auto next = b.create<scf::ForOp>(loop.getLoc(), loop.getLowerBound(),
                                   loop.getUpperBound(), loop.getStep(),
                                   inits);
  next->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *to = next.getBody(), *from = loop.getBody();
  if (!to->empty())
    to->getTerminator()->erase();
  from->getArgument(0).replaceAllUsesWith(to->getArgument(0));
  Operation *oldYield = from->getTerminator();
  SmallVector<Value> yields(to->getArguments().drop_front());
  for (auto [i, k] : llvm::enumerate(keep))
    if (k >= 0) {
      from->getArgument(i + 1).replaceAllUsesWith(to->getArgument(k + 1));
      yields[k] = oldYield->getOperand(i);
      loop.getResult(i).replaceAllUsesWith(next.getResult(k));
    }
  to->getOperations().splice(to->end(), from->getOperations());
  oldYield->setOperands(yields);
  loop.erase();
  return next;
}

/// The inits of `loop` but those of the iter_args `drop` names, and
/// rebuild()'s `keep` map for them.
void dropIterArgs(scf::ForOp loop, function_ref<bool(unsigned)> drop,
                  SmallVectorImpl<Value> &inits, SmallVectorImpl<int> &keep) {
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
    keep.push_back(drop(i) ? -1 : int(inits.size()));
    if (!drop(i))
      inits.push_back(init);
  }
}

/// Clones `op` with operand i replaced by `operands[i]`, right after `after`
/// when it is an op of `block` (before `fallback` otherwise).
Value cloneWith(Operation *op, ValueRange operands, Value after,
                Operation *fallback) {
  OpBuilder b(fallback);
  if (Operation *def = after ? after.getDefiningOp() : nullptr;
      def && def->getBlock() == fallback->getBlock() &&
      def->isBeforeInBlock(fallback))
    b.setInsertionPointAfter(def);
  Operation *copy = b.clone(*op);
  copy->setOperands(operands);
  return copy->getResult(0);
}

//===----------------------------------------------------------------------===//
// One iter_arg per value
//===----------------------------------------------------------------------===//

/// Two iter_args with the same initial and yielded values are one value (the
/// stage code carries a tile once for the loop's result and once for its
/// next iteration). Merged before the others, so that no rewrite pays for a
/// copy that costs nothing.
bool mergeDuplicates(scf::ForOp loop) {
  unsigned n = loop.getInitArgs().size();
  Operation *yield = yieldOf(loop);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = i + 1; j < n; ++j) {
      if (loop.getInitArgs()[i] != loop.getInitArgs()[j] ||
          yield->getOperand(i) != yield->getOperand(j))
        continue;
      loop.getRegionIterArg(j).replaceAllUsesWith(loop.getRegionIterArg(i));
      loop.getResult(j).replaceAllUsesWith(loop.getResult(i));
      SmallVector<Value> inits;
      SmallVector<int> keep;
      dropIterArgs(loop, [&](unsigned k) { return k == j; }, inits, keep);
      rebuild(loop, inits, keep);
      return true;
    }
  return false;
}

//===----------------------------------------------------------------------===//
// TMEM slots instead of tiles loaded from them
//===----------------------------------------------------------------------===//

/// No op after `load` in its block, up to `end` (excluded), may change the
/// slot it read.
bool keptAfter(tileas::TmemLoadOp load, Operation *end) {
  TileHome home = homeOf(load.getSource());
  if (!home.root || !home.pipe)
    return false;
  Operation *agent = agentOf(load);
  for (Operation *op = load->getNextNode(); op && op != end;
       op = op->getNextNode())
    if (mayChange(op, home, agent))
      return false;
  return true;
}

/// Whether a tile carried from `init` (before `loop`) to `next` (yielded by
/// it) can be carried as the TMEM slot both are loaded from: loads of one
/// pipe's slots that the agent keeps until the loop and the yield.
bool carriableAsSlot(scf::ForOp loop, Value init, Value next) {
  auto first = init.getDefiningOp<tileas::TmemLoadOp>();
  auto later = next.getDefiningOp<tileas::TmemLoadOp>();
  if (!isTile(init.getType()) || !first || !later ||
      first->getBlock() != loop->getBlock() ||
      later->getBlock() != loop.getBody())
    return false;
  TileHome from = homeOf(first.getSource()), to = homeOf(later.getSource());
  return from.root && from.root == to.root && from.pipe == to.pipe &&
         keptAfter(first, loop) && keptAfter(later, yieldOf(loop));
}

bool carrySlot(scf::ForOp loop) {
  for (unsigned i = 0; i < loop.getInitArgs().size(); ++i) {
    Value init = loop.getInitArgs()[i];
    Value next = yieldOf(loop)->getOperand(i);
    // The loads may have other readers in their own rows (attention's row
    // maximum of S): they keep reading the load; only the carried copy
    // becomes the slot.
    if (!carriableAsSlot(loop, init, next) ||
        llvm::count(loop.getInitArgs(), init) != 1 ||
        llvm::count(yieldOf(loop)->getOperands(), next) != 1)
      continue;
    auto first = init.getDefiningOp<tileas::TmemLoadOp>();
    auto later = next.getDefiningOp<tileas::TmemLoadOp>();
    BlockArgument arg = loop.getRegionIterArg(i);
    Value result = loop.getResult(i);
    SmallVector<OpOperand *> argUses, resultUses;
    for (OpOperand &use : arg.getUses())
      argUses.push_back(&use);
    for (OpOperand &use : result.getUses())
      resultUses.push_back(&use);
    Type slot = first.getSource().getType();
    arg.setType(slot);
    result.setType(slot);
    OpBuilder b(loop.getBody(), loop.getBody()->begin());
    Operation *reload = b.clone(*later);
    reload->setOperand(0, arg);
    for (OpOperand *use : argUses)
      use->set(reload->getResult(0));
    b.setInsertionPointAfter(loop);
    Operation *after = b.clone(*later);
    after->setOperand(0, result);
    for (OpOperand *use : resultUses)
      use->set(after->getResult(0));
    loop.getInitArgsMutable()[i].assign(first.getSource());
    yieldOf(loop)->setOperand(i, later.getSource());
    if (first->use_empty())
      first.erase();
    if (later->use_empty())
      later.erase();
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The recurrence combined where its operand is made
//===----------------------------------------------------------------------===//

bool combineAtProducer(scf::ForOp loop) {
  unsigned n = loop.getInitArgs().size();
  Operation *yield = yieldOf(loop);
  for (unsigned ia = 0; ia < n; ++ia)
    for (unsigned ie = 0; ie < n; ++ie) {
      BlockArgument a = loop.getRegionIterArg(ia),
                    e = loop.getRegionIterArg(ie);
      if (ia == ie || !isTile(a.getType()) || a.getType() != e.getType() ||
          !a.hasOneUse() || !e.hasOneUse())
        continue;
      Operation *combine = *a.getUsers().begin();
      if (combine != *e.getUsers().begin() || !isBinaryElementwise(combine) ||
          yield->getOperand(ia) != combine->getResult(0))
        continue;
      Value eNext = yield->getOperand(ie);
      if (!eNext.getDefiningOp() ||
          eNext.getDefiningOp()->getBlock() != loop.getBody())
        continue;
      // After the loop: nothing, or the same combination of the results.
      Value ra = loop.getResult(ia), re = loop.getResult(ie);
      Operation *after = nullptr;
      if (!ra.use_empty() || !re.use_empty()) {
        if (!ra.hasOneUse() || !re.hasOneUse())
          continue;
        after = *ra.getUsers().begin();
        if (after != *re.getUsers().begin() ||
            !sameComputation(after, combine) ||
            (after->getOperand(0) == ra) != (combine->getOperand(0) == a))
          continue;
      }
      // U's operands in U's order: a's position, then e's.
      unsigned aPos = combine->getOperand(0) == a ? 0 : 1;
      auto operandsFor = [&](Value av, Value ev) {
        return aPos == 0 ? SmallVector<Value>{av, ev}
                         : SmallVector<Value>{ev, av};
      };
      Value wInit =
          cloneWith(combine,
                    operandsFor(loop.getInitArgs()[ia], loop.getInitArgs()[ie]),
                    Value(), loop);
      SmallVector<Value> inits;
      SmallVector<int> keep;
      dropIterArgs(
          loop, [&](unsigned i) { return i == ia || i == ie; }, inits, keep);
      // The dropped iter_args' only reader is `combine`: detach it first.
      Value w0 = combine->getResult(0);
      combine->setOperands(operandsFor(wInit, wInit));
      if (after)
        after->setOperands(operandsFor(wInit, wInit));
      unsigned wIndex = inits.size();
      inits.push_back(wInit);
      scf::ForOp next = rebuild(loop, inits, keep);
      Value w = next.getRegionIterArg(wIndex);
      Operation *newYield = yieldOf(next);
      Value wNext = cloneWith(combine, operandsFor(w, eNext), eNext, newYield);
      w0.replaceAllUsesWith(w);
      combine->erase();
      newYield->setOperand(wIndex, wNext);
      if (after) {
        after->getResult(0).replaceAllUsesWith(next.getResult(wIndex));
        after->erase();
      }
      return true;
    }
  return false;
}

//===----------------------------------------------------------------------===//
// Narrower forms
//===----------------------------------------------------------------------===//

bool carryNarrower(scf::ForOp loop) {
  unsigned n = loop.getInitArgs().size();
  for (unsigned i = 0; i < n; ++i) {
    BlockArgument arg = loop.getRegionIterArg(i);
    Value next = yieldOf(loop)->getOperand(i);
    if (!isTile(arg.getType()) || !next.getDefiningOp() ||
        next.getDefiningOp()->getBlock() != loop.getBody())
      continue;
    // The forms, one per op name and result type, from both readers.
    SmallVector<Operation *> forms;
    auto formOf = [&](Operation *op) -> int {
      for (auto [k, f] : llvm::enumerate(forms))
        if (sameComputation(f, op))
          return int(k);
      return -1;
    };
    bool ok = true;
    for (Value v : {Value(arg), Value(loop.getResult(i))})
      for (Operation *user : v.getUsers()) {
        ok &= isNarrowing(user);
        if (ok && formOf(user) < 0)
          forms.push_back(user);
      }
    int64_t narrow = 0;
    for (Operation *f : forms)
      narrow += tileBytes(f->getResult(0).getType());
    if (!ok || forms.empty() || narrow >= tileBytes(arg.getType()))
      continue;
    SmallVector<Value> inits;
    SmallVector<int> keep;
    dropIterArgs(loop, [&](unsigned j) { return j == i; }, inits, keep);
    unsigned first = inits.size();
    Value init = loop.getInitArgs()[i];
    for (Operation *f : forms)
      inits.push_back(cloneWith(f, init, init, loop));
    // Detach the readers of the dropped iter_arg and its result.
    SmallVector<std::pair<Operation *, int>> body, after;
    for (Operation *user : llvm::to_vector(arg.getUsers()))
      body.push_back({user, formOf(user)});
    for (Operation *user : llvm::to_vector(loop.getResult(i).getUsers()))
      after.push_back({user, formOf(user)});
    for (auto [user, k] : llvm::concat<std::pair<Operation *, int>>(body, after))
      user->setOperand(0, inits[first + k]);
    scf::ForOp nextLoop = rebuild(loop, inits, keep);
    Operation *yield = yieldOf(nextLoop);
    for (auto [k, f] : llvm::enumerate(forms))
      yield->setOperand(first + k, cloneWith(f, next, next, yield));
    for (auto [user, k] : body) {
      user->getResult(0).replaceAllUsesWith(
          nextLoop.getRegionIterArg(first + k));
      user->erase();
    }
    for (auto [user, k] : after) {
      user->getResult(0).replaceAllUsesWith(nextLoop.getResult(first + k));
      user->erase();
    }
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Recomputed from what it is made of
//===----------------------------------------------------------------------===//

/// Elementwise math on tiles (ElementwiseOps.h): pure, one result, cheap
/// enough to compute again in the next iteration. A row broadcast too: a
/// tile of one value per row is carried as that row vector, one word per
/// thread instead of a whole row (the softmax's row sum, spread to divide
/// by it a stage later). Not a column broadcast: every thread holds its
/// vector whole (Broadcasts.h), as many words as the tile's row.
bool isRecomputable(Operation *op) {
  if (auto broadcast = dyn_cast<tileas::BroadcastOp>(op))
    return broadcast.isRowBroadcast();
  return op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         isa<RankedTensorType>(op->getResult(0).getType()) &&
         elementwiseCall(op).has_value();
}

/// A carried value as a function of what the loop body made before it: the
/// recomputable ops it comes from, in the body's order, and its leaves (the
/// values they read that the body made otherwise: loads, iter_args).
struct Cone {
  SmallVector<Operation *> ops;
  SmallVector<Value> leaves;
};

/// The cone of `v` in `loop`'s body; none when it is not made by
/// recomputable ops there, or is too large to be worth tracing.
std::optional<Cone> coneOf(scf::ForOp loop, Value v) {
  constexpr size_t maxOps = 64;
  Cone cone;
  llvm::SmallPtrSet<Operation *, 16> seen;
  SmallVector<Value> work = {v};
  while (!work.empty()) {
    Value w = work.pop_back_val();
    Operation *def = w.getDefiningOp();
    if (!loop.getBody()->getParent()->isAncestor(w.getParentRegion()))
      continue; // Defined before the loop: the same in every iteration.
    if (def && def->getBlock() == loop.getBody() && isRecomputable(def)) {
      if (seen.insert(def).second) {
        cone.ops.push_back(def);
        llvm::append_range(work, def->getOperands());
      }
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(w);
    if (arg && arg.getOwner() == loop.getBody() && arg.getArgNumber() == 0)
      return std::nullopt; // The induction variable.
    if (!llvm::is_contained(cone.leaves, w))
      cone.leaves.push_back(w);
  }
  if (cone.ops.empty() || cone.ops.size() > maxOps)
    return std::nullopt;
  llvm::sort(cone.ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return cone;
}

/// Maps each leaf of the cone of `next` to the value before the loop that
/// plays its part in `init`, the same computation (the stage code's
/// prologue computes the first iterations as the body does). False when
/// `init` is not made the same way.
bool matchInit(scf::ForOp loop, const Cone &cone, Value next, Value init,
               DenseMap<Value, Value> &leafInit) {
  if (llvm::is_contained(cone.leaves, next)) {
    auto [it, inserted] = leafInit.try_emplace(next, init);
    return inserted || it->second == init;
  }
  Operation *body = next.getDefiningOp();
  if (!body || !llvm::is_contained(cone.ops, body))
    return next == init; // Defined before the loop.
  Operation *before = init.getDefiningOp();
  if (!before || before->getBlock() != loop->getBlock() ||
      !sameComputation(body, before) ||
      body->getNumOperands() != before->getNumOperands())
    return false;
  for (auto [b, i] : llvm::zip(body->getOperands(), before->getOperands()))
    if (!matchInit(loop, cone, b, i, leafInit))
      return false;
  return true;
}

/// Clones the cone's ops at `b`'s insertion point, the leaves read as
/// `leafValue` gives them; returns the clone of `v`.
Value cloneCone(OpBuilder &b, const Cone &cone, Value v,
                function_ref<Value(Value)> leafValue) {
  IRMapping map;
  for (Value leaf : cone.leaves)
    map.map(leaf, leafValue(leaf));
  for (Operation *op : cone.ops)
    b.clone(*op, map);
  return map.lookup(v);
}

/// The op of `block` that is or holds `op`.
Operation *ancestorIn(Block *block, Operation *op) {
  while (op && op->getBlock() != block)
    op = op->getParentOp();
  return op;
}

/// Erases the recomputable ops that made `v` and are read no more (the
/// prologue's copy of a tile now carried as its inputs): their operands are
/// pinned where they are computed (tp::pin), so nvcc would not drop them.
void eraseIfDead(Value v) {
  llvm::SetVector<Operation *> work;
  if (Operation *def = v.getDefiningOp())
    work.insert(def);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!op->use_empty() || !isRecomputable(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && def != op)
        work.insert(def);
    op->erase();
  }
}

/// A value standing for `type` until the loop is rebuilt.
Value placeholder(OpBuilder &b, Location loc, Type type) {
  return b.create<UnrealizedConversionCastOp>(loc, type, ValueRange())
      .getResult(0);
}

/// Carries the leaves of `cone` (the cone of iter_arg i's yielded value)
/// instead of iter_arg i: the cone is computed again before the body's
/// first reader of the iter_arg and after the loop.
void rewriteAsInputs(scf::ForOp loop, unsigned i, const Cone &cone,
                     DenseMap<Value, Value> &leafInit,
                     function_ref<int(Value)> carriedAs) {
  Block *body = loop.getBody();
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  SmallVector<int> keep;
  dropIterArgs(loop, [&](unsigned j) { return j == i; }, inits, keep);
  // Each leaf's iter_arg in the new loop (by the leaf's position in
  // cone.leaves): one that carries it already, or one appended, which
  // yields the leaf (an iter_arg leaf: the new loop's copy of it, -1 - k).
  SmallVector<int> leafIndex;
  SmallVector<std::pair<unsigned, int>> appended; // (new index, what it yields)
  for (auto [k, leaf] : llvm::enumerate(cone.leaves)) {
    if (int j = carriedAs(leaf); j >= 0) {
      leafIndex.push_back(keep[j]);
      continue;
    }
    leafIndex.push_back(int(inits.size()));
    auto a = dyn_cast<BlockArgument>(leaf);
    appended.push_back({unsigned(inits.size()),
                        a && a.getOwner() == body
                            ? -1 - keep[a.getArgNumber() - 1]
                            : int(k)});
    inits.push_back(leafInit[leaf]);
  }
  // The dropped iter_arg's readers, in the body and after the loop, read
  // the cone computed again from placeholders of the leaves' iter_args and
  // results, replaced once the new loop exists.
  Value nextValue = yieldOf(loop)->getOperand(i);
  auto recompute = [&](OpBuilder &b) {
    SmallVector<Value> standIns;
    for (Value leaf : cone.leaves)
      standIns.push_back(placeholder(b, loc, leaf.getType()));
    Value v = cloneCone(b, cone, nextValue, [&](Value leaf) {
      return standIns[llvm::find(cone.leaves, leaf) - cone.leaves.begin()];
    });
    return std::make_pair(v, standIns);
  };
  SmallVector<Value> inBody, afterLoop;
  BlockArgument arg = loop.getRegionIterArg(i);
  Operation *first = nullptr;
  for (Operation *user : arg.getUsers()) {
    Operation *at = ancestorIn(body, user);
    if (!first || at->isBeforeInBlock(first))
      first = at;
  }
  if (first) {
    OpBuilder b(first);
    auto [v, standIns] = recompute(b);
    arg.replaceAllUsesWith(v);
    inBody = standIns;
  }
  if (Value result = loop.getResult(i); !result.use_empty()) {
    OpBuilder b(loop->getBlock(), std::next(loop->getIterator()));
    auto [v, standIns] = recompute(b);
    result.replaceAllUsesWith(v);
    afterLoop = standIns;
  }
  Value oldInit = loop.getInitArgs()[i];
  scf::ForOp next = rebuild(loop, inits, keep);
  eraseIfDead(oldInit);
  Operation *yield = yieldOf(next);
  for (auto [index, yields] : appended)
    yield->setOperand(index, yields < 0
                                 ? Value(next.getRegionIterArg(-1 - yields))
                                 : cone.leaves[yields]);
  for (auto [k, standIn] : llvm::enumerate(inBody)) {
    standIn.replaceAllUsesWith(next.getRegionIterArg(leafIndex[k]));
    standIn.getDefiningOp()->erase();
  }
  for (auto [k, standIn] : llvm::enumerate(afterLoop)) {
    standIn.replaceAllUsesWith(next.getResult(leafIndex[k]));
    standIn.getDefiningOp()->erase();
  }
  for (Operation *op : llvm::reverse(cone.ops))
    if (op->use_empty())
      op->erase();
}

/// A carried tile made by elementwise math from fewer bytes than its own is
/// carried as those inputs and computed again where the next iteration
/// reads it: SiLU's f32 x and 1 + e^-x become the bf16 tile loaded, and the
/// scaled scores S x scale become S, which carrySlot then carries as its
/// TMEM slot. The same pure ops on the same values: the numbers do not
/// change; the work moves across the back edge, it is not repeated, where
/// the original has no other reader.
bool carryInputs(scf::ForOp loop) {
  unsigned n = loop.getInitArgs().size();
  Operation *yield = yieldOf(loop);
  for (unsigned i = 0; i < n; ++i) {
    Value init = loop.getInitArgs()[i], next = yield->getOperand(i);
    // A tile whose readers only narrow it (FA4's P: its bf16 form and row
    // sum) is left to carryNarrower when that means re-reading a TMEM slot,
    // and so is the narrower form itself: S read again in FA4's softmax
    // groups costs ptxas spills (docs/cuda.md).
    if (!isTile(next.getType()) ||
        isa_and_nonnull<tileas::CvtOp, arith::TruncFOp>(next.getDefiningOp()))
      continue;
    BlockArgument arg = loop.getRegionIterArg(i);
    bool narrowed = !arg.use_empty() &&
                    llvm::all_of(arg.getUsers(), isNarrowing);
    std::optional<Cone> cone = coneOf(loop, next);
    DenseMap<Value, Value> leafInit;
    // A recurrence (the iter_arg among its own leaves) stays.
    if (!cone || llvm::is_contained(cone->leaves, loop.getRegionIterArg(i)) ||
        !matchInit(loop, *cone, next, init, leafInit))
      continue;
    // What carrying the leaves adds: nothing for a leaf some other iter_arg
    // carries from the same initial value, or one carried as its slot.
    auto carriedAs = [&](Value leaf) -> int {
      for (unsigned j = 0; j < n; ++j)
        if (j != i && yield->getOperand(j) == leaf &&
            loop.getInitArgs()[j] == leafInit[leaf])
          return int(j);
      return -1;
    };
    int64_t added = 0;
    for (Value leaf : cone->leaves)
      if (carriedAs(leaf) < 0 &&
          (narrowed || !carriableAsSlot(loop, leafInit[leaf], leaf)))
        added += tileBytes(leaf.getType()) +
                 (isa<RankedTensorType>(leaf.getType()) ? 0 : 4);
    if (added >= tileBytes(next.getType()))
      continue;
    rewriteAsInputs(loop, i, *cone, leafInit, carriedAs);
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Loads of the next iteration's tile after the reads of this one's
//===----------------------------------------------------------------------===//

/// Whether `op` (and what it holds) may wait on another agent: a pipe or
/// mutex op, but a slot op of a pipe other than `held` whose every op is in
/// `agent` (a TMA store's pipe, or any pipe of peeled code), whose waits
/// the agent's own earlier work completes.
bool waitsOnOthers(Operation *op, Value held, Operation *agent) {
  auto local = [&](Value pipe) {
    return pipe != held && llvm::all_of(pipe.getUsers(), [&](Operation *u) {
             return agentOf(u) == agent;
           });
  };
  WalkResult r = op->walk([&](Operation *inner) {
    Value pipe;
    if (auto w = dyn_cast<tileas::PipeConsumerWaitOp>(inner))
      pipe = w.getPipe();
    else if (auto a = dyn_cast<tileas::PipeProducerAcquireOp>(inner))
      pipe = a.getPipe();
    else if (auto c = dyn_cast<tileas::PipeProducerCommitOp>(inner))
      pipe = c.getPipe();
    else if (auto rel = dyn_cast<tileas::PipeConsumerReleaseOp>(inner))
      pipe = rel.getPipe();
    else if (isa<tileas::MutexLockOp, tileas::MutexUnlockOp>(inner))
      return WalkResult::interrupt();
    else
      return WalkResult::advance();
    return local(pipe) ? WalkResult::advance() : WalkResult::interrupt();
  });
  return r.wasInterrupted();
}

/// A tile loaded from an SMEM slot only to be carried to the next
/// iteration, while the body still reads the copy it carried in (a chain
/// carried as its inputs and computed again, carryInputs): both copies are
/// live through that work (elementwise-math: x of this and of the next
/// iteration, 128 words, beside nine MUFU functions). The wait, the load
/// and the release move down to the yield, past the reads of the old copy,
/// so only one copy is live at a time. Only past ops that wait on nothing
/// of another agent: the slot is released later in the same iteration, and
/// no wait in between can depend on the slot's producer. The same load of
/// the same slot: the numbers do not change.
bool sinkCarriedLoads(scf::ForOp loop) {
  Block *body = loop.getBody();
  Operation *yield = yieldOf(loop);
  for (auto [i, next] : llvm::enumerate(yield->getOperands())) {
    auto load = next.getDefiningOp<tileas::SmemLoadOp>();
    if (!load || load->getBlock() != body || !isTile(next.getType()) ||
        llvm::any_of(next.getUsers(), [&](Operation *u) { return u != yield; }))
      continue;
    auto wait = load.getSource().getDefiningOp<tileas::PipeConsumerWaitOp>();
    auto release =
        dyn_cast_or_null<tileas::PipeConsumerReleaseOp>(load->getNextNode());
    if (!wait || wait->getNextNode() != load || !wait->hasOneUse() ||
        !release || release.getPipe() != wait.getPipe() ||
        release.getIter() != wait.getIter() ||
        tileas::symbolizeSignalKind(release.getVia()) !=
            tileas::SignalKind::Arrive ||
        release.getArrivals())
      continue;
    // Worth it only when the old copy is read after the load and dies in
    // this iteration (SiLU carries x of two iterations: both live anyway).
    BlockArgument arg = loop.getRegionIterArg(i);
    if (llvm::is_contained(arg.getUsers(), yield) ||
        llvm::none_of(arg.getUsers(), [&](Operation *u) {
          return release->isBeforeInBlock(ancestorIn(body, u));
        }))
      continue;
    Operation *agent = agentOf(loop);
    bool blocked = false;
    for (Operation *op = release->getNextNode(); op != yield && !blocked;
         op = op->getNextNode())
      blocked = waitsOnOthers(op, wait.getPipe(), agent);
    if (blocked)
      continue;
    wait->moveBefore(yield);
    load->moveBefore(yield);
    release->moveBefore(yield);
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// SMEM slots kept past the load and read again
//===----------------------------------------------------------------------===//

/// A wait on a slot of an SMEM pipe, the load of its tile and the slot's
/// release by SIMT arrival, next to each other: the slot is read once and
/// handed back at once.
struct SlotRead {
  tileas::PipeConsumerWaitOp wait;
  tileas::SmemLoadOp load;
  tileas::PipeConsumerReleaseOp release;
};

std::optional<SlotRead> slotReadOf(Value tile) {
  auto load = tile.getDefiningOp<tileas::SmemLoadOp>();
  if (!load || !isTile(tile.getType()))
    return std::nullopt;
  auto wait = load.getSource().getDefiningOp<tileas::PipeConsumerWaitOp>();
  auto release =
      dyn_cast_or_null<tileas::PipeConsumerReleaseOp>(load->getNextNode());
  if (!wait || wait->getNextNode() != load || !wait->hasOneUse() || !release ||
      release.getPipe() != wait.getPipe() ||
      release.getIter() != wait.getIter() ||
      tileas::symbolizeSignalKind(release.getVia()) !=
          tileas::SignalKind::Arrive ||
      release.getArrivals() ||
      !isa<tileas::SmemType>(load.getSource().getType()))
    return std::nullopt;
  return SlotRead{wait, load, release};
}

/// The iter_args that carry the tile a slot read of `loop`'s body loads,
/// oldest last: a[0] yields the load, a[k] yields a[k - 1]; a[k] holds the
/// tile of k + 1 iterations ago. Each a[k] starts as the prologue's read of
/// the slot of iteration lb - k - 1, for lb the loop's lower bound.
struct SlotChain {
  SlotRead body;
  SmallVector<unsigned> args;
  SmallVector<SlotRead> inits;
};

std::optional<SlotChain> slotChainOf(scf::ForOp loop, unsigned first) {
  Operation *yield = yieldOf(loop);
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  std::optional<SlotRead> read = slotReadOf(yield->getOperand(first));
  if (!lb || step != 1 || !read || read->load->getBlock() != loop.getBody() ||
      read->wait.getIter() != loop.getInductionVar())
    return std::nullopt;
  SlotChain chain{*read, {}, {}};
  Value carried = read->load.getResult();
  while (true) {
    auto it = llvm::find(yield->getOperands(), carried);
    if (it == yield->getOperands().end())
      break;
    unsigned i = it - yield->getOperands().begin();
    if (llvm::count(yield->getOperands(), carried) != 1)
      return std::nullopt;
    std::optional<SlotRead> init = slotReadOf(loop.getInitArgs()[i]);
    if (!init || init->load->getBlock() != loop->getBlock() ||
        init->wait.getPipe() != read->wait.getPipe() ||
        getConstantIntValue(init->wait.getIter()) !=
            *lb - int64_t(chain.args.size()) - 1)
      return std::nullopt;
    // Read after the loop by ops, not handed on by a terminator (a
    // persistent loop's): the slots are released after those reads.
    if (llvm::any_of(loop.getResult(i).getUsers(), [](Operation *user) {
          return user->hasTrait<OpTrait::IsTerminator>();
        }))
      return std::nullopt;
    chain.args.push_back(i);
    chain.inits.push_back(*init);
    carried = loop.getRegionIterArg(i);
  }
  if (chain.args.empty())
    return std::nullopt;
  return chain;
}

/// Whole tiles the loop carries across its back edge, in bytes.
int64_t carriedTileBytes(scf::ForOp loop) {
  int64_t bytes = 0;
  for (Value arg : loop.getRegionIterArgs())
    if (isTile(arg.getType()))
      bytes += tileBytes(arg.getType());
  return bytes;
}

/// Replaces the readers of `carried` (a slot) by readers of a load of it,
/// made right before the first of them in `block`; returns the load, or
/// null when nothing there reads it.
Operation *reloadBefore(Block *block, Value carried, tileas::SmemLoadOp like) {
  Operation *first = nullptr;
  for (Operation *user : carried.getUsers()) {
    Operation *at = ancestorIn(block, user);
    if (at && (!first || at->isBeforeInBlock(first)))
      first = at;
  }
  if (!first || isa<scf::YieldOp>(first))
    return nullptr;
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : carried.getUses())
    if (!isa<scf::YieldOp>(use.getOwner()) ||
        use.getOwner()->getBlock() != block)
      uses.push_back(&use);
  OpBuilder b(first);
  Operation *reload = b.clone(*like);
  reload->setOperand(0, carried);
  for (OpOperand *use : uses)
    use->set(reload->getResult(0));
  return reload;
}

/// A release of `read`'s pipe for iteration `iter`, at `b`.
void releaseAt(OpBuilder &b, SlotRead read, Value iter) {
  Operation *release = b.clone(*read.release);
  release->setOperand(1, iter);
}

/// Gives each reader of math on the tiles `loads` read (before the loop,
/// from slots the consumer now keeps) its own copy of that math, the loads
/// included: the prologue's stages then read the slot again a piece at a
/// time, as the body's do, instead of holding x / t of one iteration whole
/// while the next is loaded (peeled code, whose TMA issues split the
/// streamed passes). Pure ops on the same bytes: the numbers do not change.
void recomputePerReader(Block *block, ArrayRef<Operation *> loads) {
  llvm::SmallPtrSet<Operation *, 16> fromSlots(loads.begin(), loads.end());
  SmallVector<Operation *> ops;
  for (Operation &op : *block) {
    bool reads = llvm::any_of(op.getOperands(), [&](Value v) {
      return fromSlots.contains(v.getDefiningOp());
    });
    if (fromSlots.contains(&op) || (reads && isRecomputable(&op))) {
      fromSlots.insert(&op);
      ops.push_back(&op);
    }
  }
  for (Operation *op : llvm::reverse(ops)) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getResult(0).getUses())
      uses.push_back(&use);
    llvm::sort(uses, [&](OpOperand *a, OpOperand *b) {
      return ancestorIn(block, a->getOwner())
          ->isBeforeInBlock(ancestorIn(block, b->getOwner()));
    });
    for (OpOperand *use : llvm::drop_begin(uses)) {
      Operation *at = ancestorIn(block, use->getOwner());
      if (!at || isa<scf::ForOp>(at) || at->hasTrait<OpTrait::IsTerminator>())
        continue;
      OpBuilder b(at);
      use->set(b.clone(*op)->getResult(0));
    }
  }
}

/// Carries `chain`'s slots instead of their tiles (carrySmemSlots).
void rewriteAsSlots(scf::ForOp loop, SlotChain chain) {
  Block *body = loop.getBody(), *outer = loop->getBlock();
  SlotRead read = chain.body;
  Location loc = read.release.getLoc();
  Type slot = read.wait.getType();
  int64_t d = chain.args.size();
  for (auto [k, i] : llvm::enumerate(chain.args)) {
    loop.getRegionIterArg(i).setType(slot);
    loop.getResult(i).setType(slot);
    loop.getInitArgsMutable()[i].assign(chain.inits[k].wait.getResult());
  }
  yieldOf(loop)->setOperand(chain.args[0], read.wait.getResult());
  // In the body: each stage reads its tile again; the oldest slot, of
  // iteration i - d, is handed back at the yield, after every read of the
  // body (a release between a read and its readers would make the emitter
  // hold the tile in registers: TileHomes.h).
  for (unsigned i : chain.args)
    reloadBefore(body, loop.getRegionIterArg(i), read.load);
  OpBuilder b(yieldOf(loop));
  Value back = b.create<arith::ConstantIndexOp>(loc, d);
  releaseAt(b, read,
            b.create<arith::SubIOp>(loc, loop.getInductionVar(), back));
  // Before the loop: the slots of the first iterations stay the consumer's.
  SmallVector<Operation *> prologueLoads;
  for (SlotRead init : chain.inits) {
    init.release.erase();
    if (init.load->use_empty())
      init.load.erase();
    else
      prologueLoads.push_back(init.load);
  }
  recomputePerReader(outer, prologueLoads);
  // After it: the slots of the last d iterations, max(ub, lb) - k - 1.
  b.setInsertionPointAfter(loop);
  Value end =
      b.create<arith::MaxSIOp>(loc, loop.getUpperBound(), loop.getLowerBound());
  // Released at the end of the block (the drain of the pipelined path), so
  // that its stages too read them a piece at a time: a release before a
  // stage's reader makes the emitter hold whole tiles for it. No producer
  // waits on them: the last load the loop's slots make room for is that of
  // iteration ub - 1, whose slot the loop released d < depth iterations
  // before.
  SmallVector<Value> iters;
  for (int64_t k = 0; k < d; ++k)
    iters.push_back(b.create<arith::SubIOp>(
        loc, end, b.create<arith::ConstantIndexOp>(loc, k + 1)));
  for (unsigned i : chain.args)
    reloadBefore(outer, loop.getResult(i), read.load);
  b.setInsertionPoint(outer->getTerminator());
  for (Value iter : iters)
    releaseAt(b, read, iter);
  read.release.erase();
  if (read.load->use_empty())
    read.load.erase();
}

/// Tiles loaded from SMEM slots only to be carried, whole, to the stages of
/// the next iterations that read them: the bf16 x of a row softmax whose
/// schedule spreads over several stages and computes x / t again in each
/// (carryInputs), 64 words per iteration in flight. The slot stays the
/// consumer's until its last reader instead, carried as its address, and
/// each stage reads the tile again a piece at a time (TileStreams). The
/// slot of iteration i is released where the stage that reads it last runs,
/// d iterations later (after the loop, for the last d). The pipe must have
/// more than d slots: the producer refills one only after its release.
/// Only where the loop carries at least a whole f32 tile's worth of tiles
/// (128 words per thread; less fits next to the work), so kernels that fit
/// keep their code. At exactly that (the same softmax on 64-column tiles:
/// three bf16 x and y, 32 words each) ptxas spilled 224 to 712 B.
/// The same bytes read from the same slot: the numbers do not change.
bool carrySmemSlots(scf::ForOp loop) {
  constexpr int64_t registerTileBytes = 128 * 128 * 4;
  if (carriedTileBytes(loop) < registerTileBytes)
    return false;
  Operation *yield = yieldOf(loop);
  for (unsigned i = 0; i < yield->getNumOperands(); ++i) {
    std::optional<SlotChain> chain = slotChainOf(loop, i);
    if (!chain)
      continue;
    auto pipe =
        chain->body.wait.getPipe().getDefiningOp<tileas::PipeCreateOp>();
    int64_t d = chain->args.size();
    if (!pipe || pipe.getDepth() <= d)
      continue;
    rewriteAsSlots(loop, *chain);
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// A running tile kept in TMEM (peeled code)
//===----------------------------------------------------------------------===//

/// TMEM columns the kernel's layout reserves (KernelLayout: the slots of
/// TMEM pipes, allocations, and fresh buffers of stores and copies).
int64_t tmemColumnsInUse(func::FuncOp func) {
  int64_t cols = 0;
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<tileas::AllocTmemOp>(op))
      cols += tileas::getTmemColumns(alloc.getResult());
    else if (auto store = dyn_cast<tileas::TmemStoreOp>(op);
             store && !store.getDst())
      cols += std::max<int64_t>(1, tileas::getTmemColumns(store.getResult()));
    else if (auto copy = dyn_cast<tileas::TmemCopyOp>(op);
             copy && !copy.getDst())
      cols += 2 * tileas::getTmemColumns(copy.getResult()); // At most.
    else if (auto create = dyn_cast<tileas::PipeCreateOp>(op)) {
      auto slot = dyn_cast<tileas::TmemType>(
          cast<tileas::PipeType>(create.getType()).getPayload());
      if (slot && !create.getShares() && !create.getAliases())
        cols += std::max<uint32_t>(1, create.getDepth()) *
                std::max<int64_t>(1, tileas::getPipeSlotColumns(create, slot));
    }
  });
  return cols;
}

/// Whether `loop`'s body issues MMAs: in peeled code the agent that runs the
/// SIMT stages issues them too, between its passes.
bool issuesMma(scf::ForOp loop) {
  return loop.getBody()
      ->walk([](tileas::UmmaOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// A tile of one 32-bit float per TMEM lane and column: 128 rows, one per
/// thread of the agent.
bool fitsTmemLanes(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return isTile(t) && tensor.getShape()[0] == 128 &&
         tensor.getElementType().isF32();
}

/// Iter_arg i of `loop` is a running tile: a whole tile that elementwise math
/// combines with what the iteration made (out = max(out, e)). Only
/// elementwise ops of the body read it, the yielded value is made from it by
/// them, and one op reads the loop's result (the drain's next update).
bool isRunningTile(scf::ForOp loop, unsigned i) {
  BlockArgument arg = loop.getRegionIterArg(i);
  if (!fitsTmemLanes(arg.getType()) || arg.use_empty() ||
      !loop.getResult(i).hasOneUse())
    return false;
  for (Operation *user : arg.getUsers())
    if (user->getBlock() != loop.getBody() || !isRecomputable(user))
      return false;
  std::optional<Cone> cone = coneOf(loop, yieldOf(loop)->getOperand(i));
  return cone && llvm::is_contained(cone->leaves, Value(arg));
}

/// Writes `tile` to `home` at `b` and waits for the write, so that this
/// thread's next read of `home` sees it (each thread reads and writes only
/// its own lane).
void storeToHome(OpBuilder &b, Location loc, Value tile, Value home) {
  b.create<tileas::TmemStoreOp>(loc, home.getType(), tile, home);
  b.create<tileas::FenceOp>(
      loc, tileas::stringifyFenceKind(tileas::FenceKind::Tcgen05WaitSt),
      IntegerAttr(), IntegerAttr());
}

/// Moves the elementwise `update` up to just after the last of its operands
/// made in its block, so that the pass that makes them makes it too.
void hoistAfterOperands(Operation *update) {
  Block *block = update->getBlock();
  Operation *last = nullptr;
  for (Value v : update->getOperands())
    if (Operation *def = ancestorIn(block, v.getDefiningOp());
        def && (!last || last->isBeforeInBlock(def)))
      last = def;
  if (last)
    update->moveAfter(last);
  else
    update->moveBefore(&block->front());
}

/// Moves `update` and the elementwise math of its block it is made from up
/// to just after what they read: the pass that reads the loaded tiles then
/// makes the update too, and a store of it right after it streams into
/// that pass, before the slots read are released.
void hoistWithItsMath(Operation *update) {
  Block *block = update->getBlock();
  SetVector<Operation *> math;
  SmallVector<Operation *> work = {update};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (op->getBlock() != block || !isRecomputable(op) || !math.insert(op))
      continue;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        work.push_back(def);
  }
  SmallVector<Operation *> ordered(math.begin(), math.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ordered)
    hoistAfterOperands(op);
}

/// After the loop, the running tile goes on through elementwise updates
/// (the drain's stages). Where one such update's result is read only by the
/// next and an MMA issue lies between the two, the result is written back
/// to `home` and read again right before the next update.
void keepHomeAfterLoop(Value tile, Value home) {
  while (tile.hasOneUse()) {
    Operation *update = *tile.getUsers().begin();
    Value made = update->getResult(0);
    if (update->getBlock() != home.getParentBlock() ||
        !isRecomputable(update) || !made.hasOneUse())
      return;
    Operation *next = *made.getUsers().begin();
    if (next->getBlock() != update->getBlock() || !isRecomputable(next))
      return;
    hoistWithItsMath(update);
    bool issueBetween = false;
    for (Operation *op = update->getNextNode(); op != next;
         op = op->getNextNode())
      issueBetween |= isa<tileas::UmmaOp>(op);
    if (!issueBetween)
      return;
    OpBuilder b(update->getContext());
    b.setInsertionPointAfter(update);
    storeToHome(b, update->getLoc(), made, home);
    b.setInsertionPoint(next);
    Value reread =
        b.create<tileas::TmemLoadOp>(update->getLoc(), made.getType(), home);
    next->replaceUsesOfWith(made, reread);
    tile = reread;
  }
}

/// In peeled code a whole running tile (arith-softmax's elementwise maximum,
/// 128 words per thread) stays live beside the MMA issue and the pass that
/// makes the next one: ptxas spilled it (72 B at 255 registers). Where the
/// loop issues MMAs, carries such a tile of at least a whole f32 tile's
/// bytes, and TMEM has its columns free, the tile lives in TMEM instead: a
/// buffer written with the initial value before the loop, read at the top
/// of the body and written right after the update (both stream a piece at a
/// time, in the pass that makes the update), read after the loop. The same
/// values stored and loaded: the numbers do not change.
bool carryInTmem(scf::ForOp loop) {
  constexpr int64_t registerTileBytes = 128 * 128 * 4;
  constexpr int64_t tmemColumns = 512;
  if (!issuesMma(loop))
    return false;
  auto func = loop->getParentOfType<func::FuncOp>();
  for (unsigned i = 0; i < loop.getInitArgs().size(); ++i) {
    Type type = loop.getInitArgs()[i].getType();
    if (tileBytes(type) < registerTileBytes || !isRunningTile(loop, i))
      continue;
    auto tensor = cast<RankedTensorType>(type);
    auto tmem = tileas::TmemType::get(loop.getContext(), tensor.getShape(),
                                      tensor.getElementType());
    if (tmemColumnsInUse(func) + tileas::getTmemColumns(tmem) > tmemColumns)
      return false;
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    Value home = b.create<tileas::AllocTmemOp>(loc, tmem);
    storeToHome(b, loc, loop.getInitArgs()[i], home);
    BlockArgument arg = loop.getRegionIterArg(i);
    b.setInsertionPointToStart(loop.getBody());
    arg.replaceAllUsesWith(b.create<tileas::TmemLoadOp>(loc, type, home));
    // The update that makes the next tile is written as soon as it is made,
    // in the pass that makes it, not held whole across the MMA issue.
    Value next = yieldOf(loop)->getOperand(i);
    Operation *update = next.getDefiningOp();
    if (update && update->getBlock() == loop.getBody() &&
        isRecomputable(update)) {
      hoistWithItsMath(update);
      b.setInsertionPointAfter(update);
    } else {
      b.setInsertionPoint(yieldOf(loop));
    }
    storeToHome(b, loc, next, home);
    b.setInsertionPointAfter(loop);
    Value after = b.create<tileas::TmemLoadOp>(loc, type, home);
    loop.getResult(i).replaceAllUsesWith(after);
    SmallVector<Value> inits;
    SmallVector<int> keep;
    dropIterArgs(loop, [&](unsigned j) { return j == i; }, inits, keep);
    rebuild(loop, inits, keep);
    keepHomeAfterLoop(after, home);
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Stores of a ready tile before the next tile is made (peeled code)
//===----------------------------------------------------------------------===//

/// A pipe that neither shares nor aliases another's buffers, nor lends its
/// own: its slots are written only through its own acquires.
bool ownsItsBuffers(tileas::PipeProducerAcquireOp acquire) {
  auto pipe = acquire.getPipe().getDefiningOp<tileas::PipeCreateOp>();
  return pipe && !pipe.getShares() && !pipe.getAliases() &&
         llvm::none_of(pipe.getResult().getUsers(), [](Operation *u) {
           return isa<tileas::PipeCreateOp>(u);
         });
}

/// The ops that write register tile `store` writes into an acquired slot,
/// in order: the acquire right before it, the store, its fences, the commit
/// of what it wrote. Empty when the stage code is not in that form.
SmallVector<Operation *> storeGroup(Operation *store) {
  Value dst;
  if (auto tmem = dyn_cast<tileas::TmemStoreOp>(store))
    dst = tmem.getDst();
  else if (auto smem = dyn_cast<tileas::SmemStoreOp>(store))
    dst = smem.getDst();
  auto acquire =
      dst ? dst.getDefiningOp<tileas::PipeProducerAcquireOp>() : nullptr;
  if (!acquire || acquire->getNextNode() != store || !acquire->hasOneUse() ||
      !ownsItsBuffers(acquire))
    return {};
  SmallVector<Operation *> group = {acquire, store};
  Operation *op = store->getNextNode();
  while (op && isa<tileas::FenceOp>(op)) {
    group.push_back(op);
    op = op->getNextNode();
  }
  auto commit = dyn_cast_or_null<tileas::PipeProducerCommitOp>(op);
  if (!commit || commit.getPipe() != acquire.getPipe() ||
      commit.getValue() != store->getResult(0))
    return {};
  group.push_back(commit);
  return group;
}

/// Whether the group of a slot of `pipe` may run before `op`: `op` makes
/// nothing the group reads, touches no slot of `pipe` (a release of it may
/// be what the acquire waits for), takes no mutex, and makes no tile after
/// the loops (those may overlay drained slots).
bool mayPass(Operation *op, ArrayRef<Operation *> group, Value pipe,
             Operation *agent) {
  for (Operation *member : group)
    for (Value v : member->getOperands())
      if (v.getDefiningOp() == op)
        return false;
  if (waitsOnOthers(op, pipe, agent))
    return false;
  WalkResult r = op->walk([](Operation *inner) {
    return makesTileAfterLoops(inner) ? WalkResult::interrupt()
                                      : WalkResult::advance();
  });
  return !r.wasInterrupted();
}

/// Whether `v` is a tile carried by a loop or made from one by elementwise
/// math and conversions. `slot` is set to the TMEM slot it is loaded from
/// when it is made from a slot carried as such (carrySlot: the drain's P of
/// the last S).
bool madeFromCarried(Value v, Value &slot, int depth = 8) {
  if (carriedEnds(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (auto load = dyn_cast_or_null<tileas::TmemLoadOp>(def)) {
    if (!carriedEnds(load.getSource()))
      return false;
    slot = load.getSource();
    return true;
  }
  if (!def || depth == 0 || !(isRecomputable(def) || isNarrowing(def)))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isTile(operand.getType()) &&
           madeFromCarried(operand, slot, depth - 1);
  });
}

/// In peeled code the one agent interleaves the stages of several
/// iterations: attention's P of an earlier iteration is stored to TMEM (for
/// the P V MMA) after the next S was made into its P, so both P live in
/// registers at once (two bf16 tiles beside the softmax pass's pieces:
/// ptxas spills). A store of a tile carried by a loop, or made from one
/// (ready at the top of the body, or soon after the loop in the drain),
/// moves up, with
/// its acquire, fences and commit, to just after what it needs, past the
/// ops that make register tiles: the stored tile is dead before the next
/// is made. Not past ops of its own pipe, so the acquire waits only on
/// releases the agent issued before it, as it did where it was (no
/// deadlock); the same values are stored to the same slot. Warp-specialized
/// agents are left as they are (their stores wait on other agents).
void hoistReadyStores(Block &block) {
  SmallVector<Operation *> stores;
  for (Operation &op : block)
    // TMEM stores only: moving 64-row attention's P stores to SMEM up
    // measured worse (attn-m64 peeled: 0 -> 452 B at hd128).
    if (isa<tileas::TmemStoreOp>(op) && isTile(op.getOperand(0).getType()))
      stores.push_back(&op);
  for (Operation *store : stores) {
    Operation *agent = agentOf(store);
    Value data = store->getOperand(0);
    SmallVector<Operation *> group = storeGroup(store);
    Value slot;
    if (!isa<func::FuncOp>(agent) || group.empty() ||
        !madeFromCarried(data, slot))
      continue;
    TileHome source = slot ? homeOf(slot) : TileHome();
    Value pipe = group.front()->getOperand(0);
    // Up to just before the nearest op that makes a tile (moved further, in
    // FA4, it lengthens other values' lives and ptxas spills more), or, for
    // a tile made from a carried TMEM slot, before the slot's release when
    // it may get there: its math then streams into the store instead of
    // being made whole at the release.
    Operation *to = nullptr, *release = nullptr;
    for (Operation *prev = group.front()->getPrevNode();
         prev && !release && prev != data.getDefiningOp() &&
         mayPass(prev, group, pipe, agent);
         prev = prev->getPrevNode()) {
      if (!to && llvm::any_of(prev->getResultTypes(), isTile))
        to = prev;
      if (slot && source.pipe && isa<tileas::PipeConsumerReleaseOp>(prev) &&
          prev->getOperand(0) == source.pipe.getResult())
        release = prev;
      if (!slot && to)
        break;
    }
    if (release)
      to = release;
    if (!to)
      continue;
    for (Operation *member : group)
      member->moveBefore(to);
  }
}

//===----------------------------------------------------------------------===//
// Narrowing readers next to the tile
//===----------------------------------------------------------------------===//

/// A tile whose every reader is a narrowing op (a conversion or a row
/// reduction) is read right where it is made: its readers move up to just
/// after it, in their order. The schedule may have put the row sum of P a
/// stage row later than P itself (after the next S is loaded), which keeps
/// the f32 P alive next to the new S; moved up, P is dead once its bf16 form
/// and row sum exist. Pure ops on the same operands: no number changes.
bool hoistNarrowingReaders(Block &block) {
  for (Operation &op : block) {
    if (op.getNumResults() != 1 || !isTile(op.getResult(0).getType()))
      continue;
    SmallVector<Operation *> readers;
    for (Operation *user : op.getResult(0).getUsers())
      if (!llvm::is_contained(readers, user))
        readers.push_back(user);
    if (readers.empty() || llvm::any_of(readers, [&](Operation *user) {
          return user->getBlock() != &block || !isNarrowing(user);
        }))
      continue;
    llvm::sort(readers,
               [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    Operation *at = &op;
    bool moved = false;
    for (Operation *reader : readers) {
      if (reader != at->getNextNode()) {
        reader->moveAfter(at);
        moved = true;
      }
      at = reader;
    }
    if (moved)
      return true;
  }
  return false;
}

} // namespace

void cuda::mergeDuplicateIterArgs(func::FuncOp func) {
  for (bool changed = true; changed;) {
    changed = false;
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (mergeDuplicates(loop)) {
        changed = true;
        break; // The loop was replaced: walk again.
      }
  }
}

void cuda::shrinkCarriedTiles(func::FuncOp func) {
  // Before the loop rewrites (they see the tiles' readers together) and
  // after them (carryNarrower computes the narrower forms at the yield).
  auto hoist = [&] {
    SmallVector<Block *> blocks;
    func.walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      while (hoistNarrowingReaders(*block)) {
      }
  };
  hoist();
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (mergeDuplicates(loop) || carrySlot(loop) || combineAtProducer(loop) ||
          carryInputs(loop) || carryNarrower(loop) || sinkCarriedLoads(loop) ||
          carrySmemSlots(loop) || carryInTmem(loop)) {
        changed = true;
        break; // The loop was replaced: walk again.
      }
  }
  hoist();
  SmallVector<Block *> blocks;
  func.walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks)
    hoistReadyStores(*block);
}
