//===- WgmmaAccumulators.cpp - Hopper accumulators before the layout ------===//

#include "cuda/analysis/WgmmaAccumulators.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace tilepipe;

namespace {

/// The loop and iter_arg index carrying `acc`, when it is an iter_arg.
std::optional<std::pair<scf::ForOp, unsigned>> carrierOf(Value acc) {
  auto arg = dyn_cast<BlockArgument>(acc);
  if (!arg || arg.getArgNumber() == 0)
    return std::nullopt;
  auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!loop)
    return std::nullopt;
  return std::make_pair(loop, arg.getArgNumber() - 1);
}

bool isZeroSplat(Value v) {
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat())
    return false;
  auto f = dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>());
  return f && f.getValue().isZero();
}

/// `loop` without the iter_args marked in `drop`, whose block arguments and
/// results have no uses left.
scf::ForOp dropIterArgs(IRRewriter &rewriter, scf::ForOp loop,
                        const llvm::BitVector &drop) {
  SmallVector<Value> inits;
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs()))
    if (!drop[i])
      inits.push_back(init);
  rewriter.setInsertionPoint(loop);
  auto fresh = rewriter.create<scf::ForOp>(
      loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), inits);
  fresh->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  if (!fresh.getBody()->empty())
    rewriter.eraseOp(fresh.getBody()->getTerminator());
  SmallVector<Value> args = {fresh.getInductionVar()};
  for (unsigned i = 0, k = 0, e = unsigned(drop.size()); i < e; ++i)
    args.push_back(drop[i] ? fresh.getInductionVar()
                           : fresh.getRegionIterArgs()[k++]);
  Block *old = loop.getBody();
  auto yield = cast<scf::YieldOp>(old->getTerminator());
  yield->eraseOperands(drop);
  rewriter.mergeBlocks(old, fresh.getBody(), args);
  for (unsigned i = 0, k = 0, e = unsigned(drop.size()); i < e; ++i)
    if (!drop[i])
      rewriter.replaceAllUsesWith(loop.getResult(i), fresh.getResult(k++));
  rewriter.eraseOp(loop);
  return fresh;
}

/// Carries each accumulator once: an iter_arg with the same initial and
/// yielded value as an earlier one is that one.
void carryOnce(IRRewriter &rewriter, scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  unsigned n = loop.getNumRegionIterArgs();
  llvm::BitVector drop(n);
  for (unsigned j = 0; j < n; ++j)
    for (unsigned i = 0; i < j && !drop[j]; ++i) {
      if (drop[i] || loop.getInitArgs()[i] != loop.getInitArgs()[j] ||
          yield.getOperand(i) != yield.getOperand(j) ||
          !isa<RankedTensorType>(loop.getInitArgs()[i].getType()))
        continue;
      rewriter.replaceAllUsesWith(loop.getRegionIterArgs()[j],
                                  loop.getRegionIterArgs()[i]);
      rewriter.replaceAllUsesWith(loop.getResult(j), loop.getResult(i));
      drop.set(j);
    }
  if (drop.any())
    dropIterArgs(rewriter, loop, drop);
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

} // namespace

LogicalResult cuda::prepareWgmmaAccumulators(func::FuncOp func) {
  SmallVector<tileas::WgmmaOp> mmas;
  func.walk([&](tileas::WgmmaOp mma) { mmas.push_back(mma); });
  // Every MMA is checked before anything is rewritten. Peeled stage code
  // (mode=unspecialized) hands the accumulator from the loop to the drained
  // stages' MMAs and through branches.
  for (tileas::WgmmaOp mma : mmas) {
    if (!isa<tileas::SmemType>(mma.getA().getType()))
      return mma.emitError("a wgmma with A in registers (P V) is not "
                           "translated to CUDA yet: the sm_90a translation "
                           "takes A and B from shared memory");
    if (mma.getAMnMajor())
      return mma.emitError("a wgmma with an MN-major A is not translated to "
                           "CUDA: the sm_90a atoms read A K-major");
    Type elem = cast<ShapedType>(mma.getA().getType()).getElementType();
    if (!elem.isBF16() && !elem.isF16())
      return mma.emitError("a wgmma on ")
             << elem << " is not translated to CUDA yet (bf16 and f16 are)";
    if (!cast<ShapedType>(mma.getAcc().getType()).getElementType().isF32())
      return mma.emitError("a wgmma with a ")
             << cast<ShapedType>(mma.getAcc().getType()).getElementType()
             << " accumulator is not translated to CUDA yet (f32 is)";
    if (mma.getWarpgroups() > 2)
      return mma.emitError("a ")
             << mma.getMmaM() << "x" << mma.getMmaN()
             << " wgmma accumulator needs " << mma.getWarpgroups()
             << " consumer warpgroups; the sm_90a translation emits one or "
                "two (docs/cuda.md, \"Hopper\")";
    Value acc = mma.getAcc();
    if (acc.getDefiningOp<scf::IfOp>() || acc.getDefiningOp<scf::ForOp>() ||
        acc.getDefiningOp<tileas::WgmmaOp>() ||
        (isa<BlockArgument>(acc) && !carrierOf(acc)))
      return mma.emitError("a wgmma accumulator carried through peeled "
                           "stage code (mode=unspecialized) is not "
                           "translated to CUDA yet; the warp-specialized "
                           "code is");
  }
  IRRewriter rewriter(func.getContext());
  for (tileas::WgmmaOp mma : mmas) {
    Value acc = mma.getAcc();
    if (!acc.hasOneUse())
      return mma.emitError("a wgmma accumulator read by more than its MMA "
                           "is not translated to CUDA");
    std::optional<std::pair<scf::ForOp, unsigned>> carrier = carrierOf(acc);
    if (!carrier) {
      if (!isZeroSplat(acc))
        return mma.emitError("a wgmma accumulator that starts from a tile "
                             "other than zeros is not translated to CUDA");
      relayout(rewriter, mma, mma.getResult());
      continue;
    }
    auto [loop, i] = *carrier;
    carryOnce(rewriter, loop);
    // carryOnce may have made a new loop: find the carrier again.
    std::tie(loop, i) = *carrierOf(mma.getAcc());
    Value init = loop.getInitArgs()[i];
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    if (!isZeroSplat(init) || yield.getOperand(i) != mma.getResult())
      return mma.emitError("a wgmma accumulator is translated when its loop "
                           "starts it at zeros and carries the MMA's result "
                           "(docs/cuda.md, \"Hopper\")");
    if (!mma.getResult().hasOneUse())
      return mma.emitError("a wgmma result read inside its loop by more than "
                           "the next iteration's MMA is not translated to "
                           "CUDA yet");
    // A constant of its own, made where the loop starts, in the fragment's
    // size: another user of the same zeros holds them a row a thread.
    rewriter.setInsertionPoint(loop);
    Operation *zeros = rewriter.clone(*init.getDefiningOp());
    loop.getInitArgsMutable()[i].set(zeros->getResult(0));
    relayout(rewriter, loop, loop.getResult(i));
  }
  return success();
}

llvm::DenseMap<Value, int64_t> cuda::wgmmaFragments(func::FuncOp func) {
  llvm::DenseMap<Value, int64_t> frags;
  func.walk([&](tileas::WgmmaOp mma) {
    int64_t regs =
        mma.getMmaM() * mma.getMmaN() / (128 * mma.getWarpgroups());
    frags[mma.getResult()] = regs;
    frags[mma.getAcc()] = regs;
    if (auto carrier = carrierOf(mma.getAcc())) {
      auto [loop, i] = *carrier;
      frags[loop.getInitArgs()[i]] = regs;
      frags[loop.getResult(i)] = regs;
    }
  });
  return frags;
}
