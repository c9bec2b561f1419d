//===- Loop.cpp - the for becomes the loop the scheduler takes ------------===//
//
// cuTile's `for` is a counted loop over i32 with loop-carried tiles; it
// becomes an `scf.for` over the same i32 bounds (the stage code counts its
// rows in index whatever the loop's type). A carried value that an `mmaf`
// makes is an accumulator and stays in tensor memory across iterations;
// the others are carried in registers. A kernel without a loop (one tile
// per CTA: softmax, a norm) runs its body as a loop of one trip, so that the
// scheduler, the materializer and the translation see the form they take.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"

#include "attrs/AttrNames.h"
#include "ir/Positions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

/// Whether a loop carries `v` in the lowered loop: tokens, which order
/// memory operations that tileas orders by their effects, are not carried.
static bool isCarried(Value v) { return !isa<tileir::TokenType>(v.getType()); }

bool EntryLowering::isLoopAccumulator(tileir::ForOp loop, unsigned i) {
  Operation *term = loop.getRegion().front().getTerminator();
  if (i >= term->getNumOperands())
    return false;
  return definingMma(term->getOperand(i)) != nullptr;
}

LogicalResult EntryLowering::lowerFor(tileir::ForOp op) {
  // A loop around the loop the scheduler pipelines: cuTile's persistent
  // tile loop (`for t in range(ct.bid(0), tiles, ct.num_blocks(0))`).
  bool nested = false;
  op.getRegion().walk([&](tileir::ForOp inner) { nested = true; });
  if (nested)
    return lowerTileLoop(op);
  if (op.getUnsignedCmp())
    return op.emitError("a loop that compares its induction variable "
                        "unsigned is not lowered (scf.for compares signed)");
  SmallVector<Value> bounds;
  for (Value v : {op.getLowerBound(), op.getUpperBound(), op.getStep()}) {
    FailureOr<Value> s = lookup(op, v);
    if (failed(s))
      return failure();
    bounds.push_back(*s);
  }
  SmallVector<Value> inits;
  // Accumulators that start from data only MMAs add to: added after the
  // loop (below).
  SmallVector<unsigned> addedAfter;
  for (auto [i, init] : llvm::enumerate(op.getInitValues())) {
    if (!isCarried(init))
      continue;
    // An accumulator that an earlier loop left in tensor memory (a dual
    // GEMM's second product, the masked diagonal block after attention's
    // unmasked ones) goes on in it.
    Value carried = values.lookup(init);
    bool inTmem = carried && isa<tileas::TmemType>(carried.getType());
    bool added = isLoopAccumulator(op, i) && !inTmem && !isZeroTile(init) &&
                 onlyMmasAddTo(op, i);
    if (added)
      addedAfter.push_back(i);
    FailureOr<Value> v = carried;
    if (!isLoopAccumulator(op, i))
      v = registers(op, init);
    else if (!inTmem && (added || isZeroTile(init)))
      v = freshAccumulator(op, cast<tileir::TileType>(init.getType()));
    else if (!inTmem)
      return op.emitError("an MMA accumulator that starts from a tile other "
                          "than zeros is lowered only when nothing but MMAs "
                          "adds to it in the loop (its initial value is then "
                          "added after the loop)");
    if (failed(v))
      return failure();
    inits.push_back(*v);
  }
  auto loop =
      b.create<scf::ForOp>(loc(op), bounds[0], bounds[1], bounds[2], inits);
  map(op.getInductionVar(), loop.getInductionVar());
  for (auto [from, to] :
       llvm::zip(llvm::make_filter_range(op.getRegionIterArgs(), isCarried),
                 loop.getRegionIterArgs()))
    map(from, to);
  {
    OpBuilder::InsertionGuard guard(b);
    // A loop without carried values has its yield already.
    if (inits.empty())
      b.setInsertionPoint(loop.getBody()->getTerminator());
    else
      b.setInsertionPointToEnd(loop.getBody());
    if (failed(lowerOps(op.getRegion().front())))
      return failure();
  }
  for (auto [from, to] :
       llvm::zip(llvm::make_filter_range(op.getResults(), isCarried),
                 loop.getResults()))
    map(from, to);
  for (unsigned i : addedAfter)
    if (failed(addInitAfter(op, i)))
      return failure();
  return success();
}

/// Whether `v` is result `i` of a tileir op of type Op.
template <typename Op> static bool isResult(Value v, unsigned i) {
  auto r = dyn_cast<OpResult>(v);
  return r && isa<Op>(r.getOwner()) && r.getResultNumber() == i;
}

LogicalResult EntryLowering::lowerTileLoop(tileir::ForOp op) {
  auto refuse = [&](const Twine &why) {
    return op.emitError("a loop around another loop is lowered only as a "
                        "persistent loop over output tiles, `for t in "
                        "range(ct.bid(0), tiles, ct.num_blocks(0))` at the "
                        "kernel's top level: ")
           << why;
  };
  if (op->getParentOp() != entry.getOperation())
    return refuse("this one is inside another op");
  if (!isResult<tileir::GetTileBlockIdOp>(op.getLowerBound(), 0) ||
      !isResult<tileir::GetNumTileBlocksOp>(op.getStep(), 0))
    return refuse("this one does not start at the block index and step by "
                  "the grid (x)");
  if (llvm::any_of(op.getInitValues(), isCarried))
    return refuse("this one carries values from tile to tile");
  unsigned inner = 0;
  op.getRegion().walk([&](tileir::ForOp) { ++inner; });
  if (inner > 1)
    return refuse("this one holds " + Twine(inner) +
                  " loops, and a kernel that walks its own tiles runs one "
                  "pipelined loop a tile (write it for one tile per block)");
  // Inside, the block index and the grid are the tile's and the tiles':
  // the kernel may read the physical ones nowhere else.
  Operation *elsewhere = nullptr;
  entry.walk([&](Operation *o) {
    if (!isa<tileir::GetTileBlockIdOp, tileir::GetNumTileBlocksOp>(o))
      return;
    for (OpOperand &use : o->getUses())
      if (&use != &op.getLowerBoundMutable() && &use != &op.getStepMutable())
        elsewhere = use.getOwner();
  });
  if (elsewhere)
    return refuse("the kernel reads the block index or the grid elsewhere "
                  "too (a '")
           << elsewhere->getName() << "')";
  FailureOr<Value> tiles = lookup(op, op.getUpperBound());
  if (failed(tiles))
    return failure();
  b.create<tileas::TileCountOp>(
      loc(op), b.create<arith::IndexCastOp>(loc(op), b.getIndexType(), *tiles));
  Value tile = b.create<arith::IndexCastOp>(
      loc(op), b.getI32Type(),
      b.create<gpu::BlockIdOp>(loc(op), gpu::Dimension::x));
  map(op.getInductionVar(), tile);
  for (Operation &o : op.getRegion().front().without_terminator())
    if (failed(lowerOp(&o)))
      return failure();
  // The loop's start and step, lowered before it, are read by nothing now.
  for (Value v : {op.getLowerBound(), op.getStep()})
    if (Value lowered = values.lookup(v)) {
      Operation *cast = lowered.getDefiningOp();
      if (cast && cast->use_empty()) {
        Operation *grid = cast->getOperand(0).getDefiningOp();
        cast->erase();
        if (grid && grid->use_empty())
          grid->erase();
      }
    }
  return success();
}

bool EntryLowering::onlyMmasAddTo(tileir::ForOp loop, unsigned i) {
  Value v = loop.getRegionIterArgs()[i];
  Operation *term = loop.getRegion().front().getTerminator();
  while (v.hasOneUse()) {
    OpOperand &use = *v.getUses().begin();
    if (use.getOwner() == term)
      return use.getOperandNumber() == i;
    Operation *mma = use.getOwner();
    if (!isMma(mma) || use.get() != mmaAcc(mma) || mmaLhs(mma) == v ||
        mmaRhs(mma) == v)
      return false;
    v = mma->getResult(0);
  }
  return false;
}

LogicalResult EntryLowering::addInitAfter(tileir::ForOp op, unsigned i) {
  FailureOr<Value> init = registers(op, op.getInitValues()[i]);
  if (failed(init))
    return failure();
  Value sum = values.lookup(op.getResult(i));
  auto type = cast<RankedTensorType>(init->getType());
  Value products = b.create<tileas::TmemLoadOp>(loc(op), type, sum);
  map(op.getResult(i), b.create<arith::AddFOp>(loc(op), products, *init));
  return success();
}

/// One trip has no next iteration to overlap with: the loop is scheduled
/// serially (force_serial_execution), which is optimal for it, keeps every
/// ring one slot deep, and keeps the stage count of tiny tiles (a 1 x 64
/// row: a TMA latency over an II of a few cycles) within a pipe's depth.
LogicalResult EntryLowering::lowerInOneTripLoop(Block &body) {
  Location l = entry.getLoc();
  Value zero = indexConstant(0), one = indexConstant(1);
  auto loop = b.create<scf::ForOp>(l, zero, one, one);
  loop->setAttr(attrs::kForceSerial, b.getUnitAttr());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  return lowerOps(body);
}

/// The next iteration's values: an accumulator as the MMA left it in
/// tensor memory, the others in registers.
static LogicalResult lowerContinue(EntryLowering &l, tileir::ContinueOp op) {
  auto loop = dyn_cast<tileir::ForOp>(op->getParentOp());
  if (!loop)
    return op.emitError("a continue outside a for loop is not lowered");
  if (llvm::none_of(loop.getInitValues(), isCarried))
    return success();
  SmallVector<Value> next;
  for (auto [i, v] : llvm::enumerate(op.getOperands())) {
    if (!isCarried(v))
      continue;
    FailureOr<Value> lowered = EntryLowering::isLoopAccumulator(loop, i)
                                   ? l.lookup(op, v)
                                   : l.registers(op, v);
    if (failed(lowered))
      return failure();
    next.push_back(*lowered);
  }
  l.b.create<scf::YieldOp>(op.getLoc(), next);
  return success();
}

/// An MMA after the kernel's last loop: its accumulator is in tensor memory
/// on a target whose tensor core keeps it there, and only a pipe hands an
/// asynchronous MMA's result on (its commit, its reader's wait); the stage
/// code makes pipes for loops alone. So that code runs as a loop of one trip
/// too, after the loops (a back-to-back GEMM's second product). A register
/// MMA (wgmma) completes where it is issued and needs none of this.
LogicalResult EntryLowering::lowerAroundLoops(Block &body) {
  Operation *lastLoop = nullptr;
  for (Operation &op : body)
    if (isa<tileir::ForOp>(op))
      lastLoop = &op;
  bool mmaAfter = false;
  if (lastLoop && !registerMma)
    for (Operation *op = lastLoop->getNextNode(); op; op = op->getNextNode())
      op->walk([&](Operation *inner) { mmaAfter |= isMma(inner); });
  if (!mmaAfter)
    return lowerOps(body);
  auto after = std::next(lastLoop->getIterator());
  if (failed(lowerOps(llvm::make_range(body.begin(), after))))
    return failure();
  Location l = lastLoop->getLoc();
  Value zero = indexConstant(0), one = indexConstant(1);
  auto loop = b.create<scf::ForOp>(l, zero, one, one);
  loop->setAttr(attrs::kForceSerial, b.getUnitAttr());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  return lowerOps(llvm::make_range(after, body.end()));
}

LogicalResult EntryLowering::lowerOps(Block &block) {
  return lowerOps(llvm::make_range(block.begin(), block.end()));
}

LogicalResult
EntryLowering::lowerOps(llvm::iterator_range<Block::iterator> ops) {
  for (Operation &op : ops) {
    if (auto cont = dyn_cast<tileir::ContinueOp>(op)) {
      if (failed(lowerContinue(*this, cont)))
        return failure();
      continue;
    }
    if (failed(lowerOp(&op)))
      return failure();
  }
  return success();
}

/// Scalar float math (attention's scale times log2 e) and the splat of its
/// result: pure, cheap, and not among what the translation runs before the
/// roles split (constants, scalar broadcasts of arguments, index
/// arithmetic, whole-tile TMA loads).
static bool isScalarFloatMath(Operation *op) {
  if (!isPure(op) || op->getNumResults() != 1 || op->getNumRegions() ||
      isa<arith::ConstantOp>(op))
    return false;
  if (isa<tensor::SplatOp>(op))
    return true;
  return isa<FloatType>(op->getResult(0).getType()) &&
         isa<arith::ArithDialect, math::MathDialect>(op->getDialect());
}

/// The loop that holds every user of `op`, and the op of its body before
/// which the first user stands; {} when a user is outside it.
static std::pair<scf::ForOp, Operation *> loopOfUsers(Block &body,
                                                      Operation *op) {
  scf::ForOp loop;
  Operation *first = nullptr;
  for (Operation *user : op->getUsers()) {
    auto outer =
        dyn_cast_or_null<scf::ForOp>(body.findAncestorOpInBlock(*user));
    // A loop's initial value is read before the loop.
    if (!outer || (loop && outer != loop) || outer == user)
      return {};
    loop = outer;
    Operation *at = loop.getBody()->findAncestorOpInBlock(*user);
    if (!first || at->isBeforeInBlock(first))
      first = at;
  }
  return {loop, first};
}

/// Copies `op` into every loop of `body` that reads it, before the first
/// reader there; the readers there read the copy. A loop's initial value
/// (ct.zeros of i32 carried by an argmax over chunks) stays read where it
/// is.
static void copyIntoLoops(Block &body, Operation *op) {
  llvm::MapVector<scf::ForOp, SmallVector<OpOperand *>> readers;
  for (OpOperand &use : op->getUses())
    if (auto loop = dyn_cast_or_null<scf::ForOp>(
            body.findAncestorOpInBlock(*use.getOwner()));
        loop && loop != use.getOwner())
      readers[loop].push_back(&use);
  for (auto &[loop, uses] : readers) {
    Operation *first = nullptr;
    for (OpOperand *use : uses) {
      Operation *at = loop.getBody()->findAncestorOpInBlock(*use->getOwner());
      if (!first || at->isBeforeInBlock(first))
        first = at;
    }
    OpBuilder b(first);
    Operation *copy = b.clone(*op);
    for (OpOperand *use : uses)
      use->set(copy->getResult(0));
  }
}

void EntryLowering::sinkScalarMathIntoLoops() {
  Block &body = func.getBody().front();
  SmallVector<Operation *> candidates;
  for (Operation &op : llvm::reverse(body))
    if (isScalarFloatMath(&op) || isPositionOp(&op))
      candidates.push_back(&op);
  // Users first, so that a chain moves whole. Positions are copied, not
  // moved: the code after the loop may read them too, and the loop's copy
  // is a free op every agent recomputes (docs/cuda-tile-lowering.md).
  for (Operation *op : candidates) {
    if (isPositionOp(op)) {
      copyIntoLoops(body, op);
      if (op->use_empty())
        op->erase();
      continue;
    }
    auto [loop, first] = loopOfUsers(body, op);
    if (loop)
      op->moveBefore(first);
  }
  // A vector of positions that only broadcasts read was made again at the
  // broadcast's shape: it is dead.
  SmallVector<Operation *> positions;
  func.walk([&](Operation *op) {
    if (isPositionOp(op))
      positions.push_back(op);
  });
  for (Operation *op : llvm::reverse(positions))
    if (op->use_empty())
      op->erase();
}

/// Register work outside the loops: an SMEM tile's read and pure math on
/// tensors, constants and positions aside.
static bool isRegisterWork(Operation *op) {
  if (op->getNumResults() == 0 || isPositionOp(op) ||
      matchPattern(op, m_Constant()))
    return false;
  if (!llvm::all_of(op->getResultTypes(),
                    [](Type t) { return isa<RankedTensorType>(t); }))
    return false;
  return isa<tileas::SmemLoadOp>(op) || isMemoryEffectFree(op);
}

void EntryLowering::sinkRegisterWorkPastLoops() {
  Block &body = func.getBody().front();
  // A kernel that walks its own tiles loads each tile's C after its loop
  // (a persistent kernel loads no tile before its agents).
  bool walksTiles = bool(tileas::TileCountOp::of(func));
  SmallVector<Operation *> candidates;
  for (Operation &op : llvm::reverse(body)) {
    auto load = dyn_cast<tileas::TmaLoadOp>(op);
    if (isRegisterWork(&op) || (walksTiles && load && !load.getDst()))
      candidates.push_back(&op);
  }
  // Users first, so that a chain moves whole.
  for (Operation *op : candidates) {
    // Readers inside a loop keep it before that loop.
    Operation *first = nullptr;
    bool outsideLoops = true;
    for (Operation *user : op->getUsers()) {
      outsideLoops &= user->getBlock() == &body;
      if (outsideLoops && (!first || user->isBeforeInBlock(first)))
        first = user;
    }
    if (!first || !outsideLoops)
      continue;
    bool loopBetween = false;
    for (Operation *o = op->getNextNode(); o != first; o = o->getNextNode())
      loopBetween |= isa<scf::ForOp>(o);
    if (loopBetween)
      op->moveBefore(first);
  }
}
