//===- WgmmaAccumulators.cpp - Hopper accumulators before the layout ------===//

#include "cuda/analysis/WgmmaAccumulators.h"
#include "cuda/analysis/CarriedTiles.h"
#include "ir/WgmmaStaging.h"
#include "ir/WgmmaWarpgroups.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tilepipe;

namespace {

/// A splat of zeros, f32 (either sign) or i32 (an integer MMA's).
bool isZeroSplat(Value v) {
  return isa<ShapedType>(v.getType()) &&
         (matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero()));
}

/// The accumulator leaves through SMEM: `value`'s uses after `after` read
/// the row-major f32 tile it is stored to.
void relayout(IRRewriter &rewriter, Operation *after, Value value) {
  if (value.use_empty())
    return;
  auto type = cast<RankedTensorType>(value.getType());
  rewriter.setInsertionPointAfter(after);
  Location loc = after->getLoc();
  auto smem = tileas::SmemType::get(type.getShape(), type.getElementType());
  auto store =
      rewriter.create<tileas::SmemStoreOp>(loc, smem, value, Value());
  auto load = rewriter.create<tileas::SmemLoadOp>(loc, type, store.getResult());
  rewriter.replaceAllUsesExcept(value, load.getResult(), store);
}

using Classes = tileas::AccumulatorClasses;
using tileas::joinCarried;

/// The class of every wgmma's accumulator; members used by the stage code
/// only as the accumulator moves (the positions joinCarried joins).
/// In the order the function defines them (block arguments, then op
/// results, as a walk meets them): what is rewritten, and so the kernel's
/// text, must not depend on where values lie in memory.
llvm::SetVector<Value> accumulatorValues(func::FuncOp func) {
  Classes classes;
  joinCarried(classes, func);
  llvm::DenseSet<Value> members;
  func.walk([&](tileas::WgmmaOp mma) {
    for (auto it = classes.findLeader(mma.getResult()); it != classes.member_end();
         ++it)
      members.insert(*it);
  });
  llvm::SetVector<Value> values;
  auto add = [&](Value v) {
    if (members.contains(v))
      values.insert(v);
  };
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          add(arg);
    for (Value result : op->getResults())
      add(result);
  });
  return values;
}

/// Whether `use` moves the accumulator on (into an MMA as its accumulator,
/// into a loop or out of a branch or loop body) rather than reading it.
bool movesOn(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto mma = dyn_cast<tileas::WgmmaOp>(user))
    return use.get() == mma.getAcc();
  return isa<scf::ForOp, scf::YieldOp>(user);
}

/// Each zero tile an accumulator starts from a constant of its own, made
/// where it is used: in the fragment's size, and never shared with a tile
/// held a row a thread.
void ownZeros(IRRewriter &rewriter, func::FuncOp func) {
  SmallVector<OpOperand *> uses;
  func.walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands())
      if (isZeroSplat(use.get()) && isa<RankedTensorType>(use.get().getType()) &&
          movesOn(use))
        uses.push_back(&use);
  });
  for (OpOperand *use : uses) {
    rewriter.setInsertionPoint(use->getOwner());
    use->set(rewriter.clone(*use->get().getDefiningOp())->getResult(0));
  }
}

/// The threads that hold a wgmma's accumulator: its agent's, else the
/// function's.
Operation *holderOf(Operation *op) {
  if (auto agent = op->getParentOfType<tileas::AgentOp>())
    return agent;
  return op->getParentOfType<func::FuncOp>();
}

bool isFragmentCast(Operation *op) {
  return isa_and_nonnull<UnrealizedConversionCastOp>(op) &&
         op->hasAttr(cuda::kFragmentAttr);
}

/// Whether `use` of the accumulator value `v` reads it while the loop that
/// accumulates it still runs (attention's S, read by the softmax).
bool readInLoop(Value v, OpOperand &use) {
  bool carried = isa<BlockArgument>(v) &&
                 isa<scf::ForOp>(v.getParentRegion()->getParentOp());
  auto mma = v.getDefiningOp<tileas::WgmmaOp>();
  auto loop = mma ? mma->getParentOfType<scf::ForOp>() : scf::ForOp();
  return carried || (loop && loop->isAncestor(use.getOwner()));
}

Value fragmentCast(IRRewriter &rewriter, Location loc, Value v, StringRef to) {
  auto cast = rewriter.create<UnrealizedConversionCastOp>(loc, v.getType(), v);
  cast->setAttr(cuda::kFragmentAttr, rewriter.getStringAttr(to));
  return cast.getResult(0);
}

/// The holders whose SIMT code works on the accumulators in their loops (or
/// hands a wgmma A in registers), and with `epilogueInRows` every holder
/// that reads one: there every register tile lies in the fragment's rows.
llvm::SetVector<Operation *>
fragmentHolders(ArrayRef<tileas::WgmmaOp> mmas,
                const llvm::SetVector<Value> &values, bool epilogueInRows) {
  llvm::SetVector<Operation *> holders;
  for (tileas::WgmmaOp mma : mmas)
    if (isa<RankedTensorType>(mma.getA().getType()))
      holders.insert(holderOf(mma));
  for (Value v : values)
    for (OpOperand &use : v.getUses())
      if (!movesOn(use) && (epilogueInRows || readInLoop(v, use)))
        holders.insert(holderOf(use.getOwner()));
  return holders;
}

/// In a holder that keeps its tiles in the fragment's rows, the accumulator
/// changes order at its ends instead of leaving through SMEM: a tile made
/// by the SIMT code (attention's rescaled O) becomes an accumulator through
/// a cast to the ISA's registers, and each read of an accumulator goes
/// through a cast to the rows (WgmmaAccumulators.h).
void castAtEnds(IRRewriter &rewriter, func::FuncOp func,
                const llvm::SetVector<Operation *> &holders) {
  auto inHolder = [&](Value v) {
    Operation *at = v.getDefiningOp() ? v.getDefiningOp()
                                      : v.getParentRegion()->getParentOp();
    return holders.contains(holderOf(at)) || holders.contains(at);
  };
  for (Value v : accumulatorValues(func)) {
    Operation *def = v.getDefiningOp();
    if (!def || !inHolder(v) || isZeroSplat(v) || isFragmentCast(def) ||
        isa<tileas::WgmmaOp, scf::ForOp, scf::IfOp>(def))
      continue;
    rewriter.setInsertionPointAfter(def);
    Value regs = fragmentCast(rewriter, def->getLoc(), v, "regs");
    rewriter.replaceUsesWithIf(v, regs, [&](OpOperand &use) {
      return use.getOwner() != regs.getDefiningOp() && movesOn(use);
    });
  }
  for (Value v : accumulatorValues(func)) {
    if (!inHolder(v))
      continue;
    SmallVector<OpOperand *> reads;
    for (OpOperand &use : v.getUses())
      if (!movesOn(use) && !isFragmentCast(use.getOwner()))
        reads.push_back(&use);
    for (OpOperand *use : reads) {
      rewriter.setInsertionPoint(use->getOwner());
      use->set(fragmentCast(rewriter, use->getOwner()->getLoc(), v, "rows"));
    }
  }
}

/// Every wgmma of a fragment holder has one shape of rows: the same M over
/// the same warpgroups. Marks the holder with its bands a warpgroup.
LogicalResult markHolders(ArrayRef<tileas::WgmmaOp> mmas,
                          const llvm::SetVector<Operation *> &holders) {
  llvm::DenseMap<Operation *, tileas::WgmmaOp> first;
  for (tileas::WgmmaOp mma : mmas) {
    Operation *holder = holderOf(mma);
    if (!holders.contains(holder))
      continue;
    // A narrow tile's fragment holds 64 rows, the tile's first: its SIMT
    // code runs on all 64 (rows are independent) and its loads and stores
    // keep to the tile's (kFragmentRowsAttr).
    int64_t groups = tileas::consumerWarpgroups(mma);
    auto [it, fresh] = first.try_emplace(holder, mma);
    if (fresh) {
      auto i64 = IntegerType::get(mma.getContext(), 64);
      holder->setAttr(
          cuda::kFragmentBandsAttr,
          IntegerAttr::get(i64, tileas::issuedRows(mma) / 64 / groups));
      if (tileas::isNarrowTile(mma))
        holder->setAttr(cuda::kFragmentRowsAttr,
                        IntegerAttr::get(i64, mma.getMmaM()));
      continue;
    }
    tileas::WgmmaOp f = it->second;
    int64_t firstGroups = tileas::consumerWarpgroups(f);
    if (f.getMmaM() != mma.getMmaM() || firstGroups != groups)
      return mma.emitError("wgmmas whose accumulators the same SIMT code "
                           "reads have one M over the same warpgroups here "
                           "(")
             << f.getMmaM() << " rows over " << firstGroups
             << " warpgroup(s) at the first, " << mma.getMmaM() << " over "
             << groups << " at this one)";
  }
  return success();
}

} // namespace

LogicalResult cuda::prepareWgmmaAccumulators(func::FuncOp func,
                                             bool epilogueInRows) {
  SmallVector<tileas::WgmmaOp> mmas;
  func.walk([&](tileas::WgmmaOp mma) { mmas.push_back(mma); });
  if (mmas.empty())
    return success();
  // Every MMA is checked before anything is rewritten.
  for (tileas::WgmmaOp mma : mmas) {
    Type elem = cast<ShapedType>(mma.getA().getType()).getElementType();
    bool sixteen = elem.isBF16() || elem.isF16();
    // tf32 (an f32 tile) and the 8-bit types: SMEM operands, K-major (an
    // 8-bit float A may come from registers).
    bool int8 = elem.isInteger(8);
    bool kMajorOnly =
        elem.isF32() || isa<Float8E4M3FNType, Float8E5M2Type>(elem) || int8;
    if (!sixteen && !kMajorOnly)
      return mma.emitError("a wgmma on ")
             << elem
             << " is not translated to CUDA (bf16, f16, f32 as tf32, "
                "f8E4M3FN, f8E5M2 and i8 are)";
    // An 8-bit A in registers (FP8 attention's P) holds its K in another
    // order than the rows (layout::wgmma::key_of_a8): B is staged in that
    // order, which needs B given MN-major (staged K-major anyway).
    bool regA = isa<RankedTensorType>(mma.getA().getType());
    if (regA && int8)
      return mma.emitError("a wgmma with an i8 A in registers is not "
                           "translated to CUDA (an integer A is read from "
                           "SMEM)");
    if (regA && elem.isF32())
      return mma.emitError("a wgmma with a tf32 A in registers is not "
                           "translated to CUDA (register A: bf16, f16, "
                           "f8E4M3FN and f8E5M2)");
    if (regA && !sixteen && !tileas::isStagedOperand(mma, 1))
      return mma.emitError("a wgmma with an ")
             << elem
             << " A in registers and a B given K-major is not translated to "
                "CUDA (the A takes its K in another order than the rows, "
                "which B follows when the consumers stage it from MN-major)";
    Type accElem = cast<ShapedType>(mma.getAcc().getType()).getElementType();
    if (!accElem.isF32() && !(int8 && accElem.isInteger(32)))
      return mma.emitError("a wgmma with a ")
             << accElem
             << " accumulator is not translated to CUDA yet (f32 is, and "
                "i32 under i8 operands; --tileas-umma-to-wgmma holds an f16 "
                "accumulator in f32)";
    // Rows past a narrow tile's are read from the SMEM after it along M,
    // which only K-major 8-row groups lay out one after another.
    if (tileas::isNarrowTile(mma) && mma.getAMnMajor() &&
        !tileas::isStagedOperand(mma, 0))
      return mma.emitError("a ")
             << mma.getMmaM()
             << "-row wgmma tile with A given MN-major is not translated to "
                "CUDA (a narrow tile's A is read K-major as 64 rows)";
    if (tileas::consumerWarpgroups(mma) > 2)
      return mma.emitError("a ")
             << mma.getMmaM() << "x" << mma.getMmaN()
             << " wgmma accumulator needs " << tileas::consumerWarpgroups(mma)
             << " consumer warpgroups; the sm_90a translation emits one or "
                "two (docs/cuda.md, \"Hopper\")";
  }
  IRRewriter rewriter(func.getContext());
  // Loops carry each accumulator once.
  mergeDuplicateIterArgs(func);
  ownZeros(rewriter, func);
  llvm::SetVector<Operation *> holders =
      fragmentHolders(mmas, accumulatorValues(func), epilogueInRows);
  if (failed(markHolders(mmas, holders)))
    return failure();
  castAtEnds(rewriter, func, holders);
  llvm::SetVector<Value> values = accumulatorValues(func);
  // Where the accumulator starts and where it is read.
  SmallVector<Value> leaving;
  for (Value v : values) {
    Operation *def = v.getDefiningOp();
    bool carried = isa<BlockArgument>(v) &&
                   isa<scf::ForOp>(v.getParentRegion()->getParentOp());
    if ((def && !isa<tileas::WgmmaOp, scf::ForOp, scf::IfOp>(def) &&
         !isZeroSplat(v) && !isFragmentCast(def)) ||
        (!def && !carried))
      return (def ? def : func.getOperation())
          ->emitError("a wgmma accumulator that starts from a tile "
                      "other than zeros is not translated to CUDA "
                      "unless the SIMT code of its loop reads it");
    bool read = false;
    for (OpOperand &use : v.getUses()) {
      if (movesOn(use) || isFragmentCast(use.getOwner()))
        continue;
      read = true;
    }
    if (read)
      leaving.push_back(v);
  }
  for (Value v : leaving)
    relayout(rewriter, v.getDefiningOp(), v);
  return success();
}

llvm::DenseMap<Value, int64_t> cuda::wgmmaFragments(func::FuncOp func) {
  Classes classes;
  joinCarried(classes, func);
  llvm::DenseMap<Value, int64_t> frags;
  func.walk([&](tileas::WgmmaOp mma) {
    int64_t regs = tileas::issuedRows(mma) * mma.getMmaN() /
                   (128 * tileas::consumerWarpgroups(mma));
    for (auto it = classes.findLeader(mma.getResult()); it != classes.member_end();
         ++it)
      frags[*it] = regs;
  });
  return frags;
}
