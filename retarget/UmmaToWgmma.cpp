//===- UmmaToWgmma.cpp - Blackwell MMAs as Hopper wgmma --------------------===//
//
// Hopper has no tensor memory: its MMA accumulates in registers. tileas
// keeps TMEM tiles as SSA values (an MMA returns its accumulator), so the
// rewrite is a type conversion, TMEM tile to register tile, with the ops
// that only moved tiles between the two disappearing (docs/retarget.md).
//
//===----------------------------------------------------------------------===//

#include "retarget/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace tilepipe::retarget {
#define GEN_PASS_DEF_TILEASUMMATOWGMMA
#include "retarget/Passes.h.inc"
} // namespace tilepipe::retarget

namespace {

/// TMEM tiles become register tiles of the same shape and element type.
struct TmemToRegisters : TypeConverter {
  TmemToRegisters() {
    addConversion([](Type type) { return type; });
    addConversion([](tileas::TmemType type) -> Type {
      return RankedTensorType::get(type.getShape(), type.getElementType());
    });
  }
};

/// Whether `user` is the last reader of `value` (every other user in its
/// block, before it): then writing over the value's columns, as FA4 writes
/// P over S, is only a TMEM economy, and the register form drops it.
bool lastUse(Operation *user, Value value) {
  return llvm::all_of(value.getUsers(), [&](Operation *other) {
    return other == user || (other->getBlock() == user->getBlock() &&
                             other->isBeforeInBlock(user));
  });
}

/// What has no Hopper form, said at the op before anything changes.
LogicalResult refuseBlackwellOnly(Operation *root) {
  WalkResult walk = root->walk([](Operation *op) -> WalkResult {
    if (isa<tileas::TmemCopyOp>(op))
      return op->emitError("tileas.tmem_copy has no sm_90a form: Hopper has "
                           "no tensor memory, and block scales are applied "
                           "by wgmma's callers, not by the MMA");
    if (auto mma = dyn_cast<tileas::UmmaOp>(op); mma && mma.getScaleA())
      return op->emitError("a block-scaled tileas.umma has no sm_90a form: "
                           "wgmma.mma_async takes no scale factors");
    if (auto store = dyn_cast<tileas::TmemStoreOp>(op);
        store && store.getDst() && !lastUse(store, store.getDst()))
      return op->emitError("a tileas.tmem_store `into` a tile that is read "
                           "after it has no sm_90a form: register tiles do "
                           "not alias, so the later read would see the old "
                           "value, not the one stored over it");
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

struct AllocTmemToZeros : OpConversionPattern<tileas::AllocTmemOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tileas::AllocTmemOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(
        getTypeConverter()->convertType(op.getResult().getType()));
    Type elem = type.getElementType();
    TypedAttr zero = isa<FloatType>(elem)
                         ? TypedAttr(rewriter.getFloatAttr(elem, 0.0))
                         : TypedAttr(rewriter.getIntegerAttr(elem, 0));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(type, zero));
    return success();
  }
};

/// tmem_load and tmem_store (without `into`) only moved a tile between
/// registers and TMEM: their value passes through.
template <typename MoveOp>
struct PassThrough : OpConversionPattern<MoveOp> {
  using OpConversionPattern<MoveOp>::OpConversionPattern;
  using Adaptor = typename OpConversionPattern<MoveOp>::OpAdaptor;
  LogicalResult
  matchAndRewrite(MoveOp op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type want = this->getTypeConverter()->convertType(op.getResult().getType());
    if (adaptor.getSource().getType() != want)
      return rewriter.notifyMatchFailure(op, "the move changes the tile type");
    rewriter.replaceOp(op, adaptor.getSource());
    return success();
  }
};

struct UmmaToWgmmaPattern : OpConversionPattern<tileas::UmmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tileas::UmmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type result = getTypeConverter()->convertType(op.getResult().getType());
    auto wgmma = rewriter.create<tileas::WgmmaOp>(
        op.getLoc(), result, adaptor.getA(), adaptor.getB(), adaptor.getAcc(),
        op.getAccumulate(), op.getAMnMajor(), op.getBMnMajor(),
        op.getAUnsigned(), op.getBUnsigned());
    // Names and schedule constraints the user gave the MMA stay with it.
    wgmma->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOp(op, wgmma.getResult());
    return success();
  }
};

/// A tile the threads store to SMEM only to be a wgmma's A (attention's P
/// for P V, written as on Blackwell where an M = 64 MMA reads A from SMEM)
/// is handed to the wgmma in registers instead: the m64k16 A fragment is
/// the accumulator's own layout, so nothing moves, and the SMEM tile, the
/// wait for the wgmma still reading the last one and the proxy fence all
/// disappear (FA3's choice). Kept in SMEM: a store into a tile (`into`),
/// rows split over lanes, an MN-major A, a non-16-bit A, and a tile read
/// by anything but a wgmma's A.
void registerOperandA(Operation *root) {
  SmallVector<tileas::SmemStoreOp> stores;
  root->walk([&](tileas::SmemStoreOp store) {
    Type elem = store.getSource().getType().getElementType();
    if (store.getDst() || store.getLanes() || !(elem.isBF16() || elem.isF16()))
      return;
    bool onlyA = !store->use_empty() &&
                 llvm::all_of(store->getUses(), [](OpOperand &use) {
                   auto mma = dyn_cast<tileas::WgmmaOp>(use.getOwner());
                   return mma && !mma.getAMnMajor() &&
                          use.getOperandNumber() ==
                              mma.getAMutable().getOperandNumber();
                 });
    if (onlyA)
      stores.push_back(store);
  });
  for (tileas::SmemStoreOp store : stores) {
    store->getResult(0).replaceAllUsesWith(store.getSource());
    store.erase();
  }
}

struct UmmaToWgmmaPass
    : tilepipe::retarget::impl::TileASUmmaToWgmmaBase<UmmaToWgmmaPass> {
  void runOnOperation() override {
    if (failed(tilepipe::retarget::rewriteUmmaToWgmma(getOperation())))
      return signalPassFailure();
  }
};

} // namespace

LogicalResult tilepipe::retarget::rewriteUmmaToWgmma(Operation *root) {
  if (failed(refuseBlackwellOnly(root)))
    return failure();
  MLIRContext *ctx = root->getContext();
  TmemToRegisters types;
  RewritePatternSet patterns(ctx);
  patterns.add<AllocTmemToZeros, PassThrough<tileas::TmemLoadOp>,
               PassThrough<tileas::TmemStoreOp>, UmmaToWgmmaPattern>(types,
                                                                     ctx);
  ConversionTarget target(*ctx);
  target.addIllegalOp<tileas::UmmaOp, tileas::AllocTmemOp, tileas::TmemLoadOp,
                      tileas::TmemStoreOp>();
  // Whatever else is left holding a TMEM tile would be a tile Hopper
  // cannot place.
  target.markUnknownOpDynamicallyLegal(
      [&](Operation *op) { return types.isLegal(op); });
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 types);
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp fn) {
    return types.isSignatureLegal(fn.getFunctionType());
  });
  target.addLegalOp<ModuleOp>();
  scf::populateSCFStructuralTypeConversionsAndLegality(types, patterns, target);
  populateReturnOpTypeConversionPattern(patterns, types);
  if (failed(applyFullConversion(root, target, std::move(patterns))))
    return failure();
  registerOperandA(root);
  promoteF16Accumulators(root);
  return success();
}
