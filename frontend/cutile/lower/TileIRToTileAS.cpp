//===- TileIRToTileAS.cpp - --tileir-to-tileas ----------------------------===//
//
// The pass, the dispatch of each tileir op to its concern, and the value
// forms every concern shares: a tile lives in registers (a tensor with its
// unit dimensions dropped, or a scalar), in SMEM (a TMA load) or in TMEM
// (an MMA result), and is moved to registers once, where it is made, when
// SIMT work reads it.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"
#include "frontend/cutile/lower/Passes.h"
#include "retarget/Passes.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tilepipe::cutile {
#define GEN_PASS_DEF_TILEIRTOTILEAS
#include "frontend/cutile/lower/Passes.h.inc"
} // namespace tilepipe::cutile

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

Type EntryLowering::registerType(tileir::TileType tile) {
  SmallVector<int64_t> shape;
  for (int64_t n : tile.getShape())
    if (n != 1)
      shape.push_back(n);
  if (shape.empty())
    return tile.getElementType();
  return RankedTensorType::get(shape, tile.getElementType());
}

Value EntryLowering::indexConstant(int64_t v) {
  return b.create<arith::ConstantIndexOp>(entry.getLoc(), v);
}

FailureOr<Value> EntryLowering::lookup(Operation *user, Value v) {
  auto it = values.find(v);
  if (it != values.end())
    return it->second;
  return user->emitError("reads a value the lowering has no tileas form for ")
             << "(a " << v.getType() << ")",
         failure();
}

FailureOr<Value> EntryLowering::registers(Operation *user, Value v,
                                          bool transpose) {
  FailureOr<Value> lowered = lookup(user, v);
  if (failed(lowered))
    return failure();
  auto shaped = dyn_cast<ShapedType>(lowered->getType());
  if (!isa<tileas::SmemType, tileas::TmemType>(lowered->getType())) {
    if (transpose)
      return transposeThroughSmem(user, *lowered);
    return lowered;
  }
  // An accumulator in TMEM read down its columns (the column sums of a
  // GEMM's output, a bias gradient): read into registers, then transposed
  // through SMEM as a register tile is.
  if (transpose && isa<tileas::TmemType>(lowered->getType())) {
    FailureOr<Value> regs = registers(user, v);
    if (failed(regs))
      return failure();
    return transposeThroughSmem(user, *regs);
  }
  // A tile read the other way than its SMEM holds it (cuTile's transpose
  // of a loaded tile, a transposed view) is its own register tile.
  bool transposed = readsTransposed(v, *lowered) != transpose;
  auto &cache = transposed ? inRegistersTransposed : inRegisters;
  if (Value cached = cache.lookup(*lowered))
    return cached;
  auto tile = cast<tileir::TileType>(v.getType());
  auto type = dyn_cast<RankedTensorType>(registerType(tile));
  SmallVector<int64_t> smemShape(shaped.getShape());
  if ((transpose || transposed) &&
      (!type || type.getRank() != 2 || smemShape.size() != 2 ||
       !isa<tileas::SmemType>(shaped)))
    return user->emitError("a tile loaded transposed is read by SIMT work "
                           "only as a 2-D tile"),
           failure();
  if (transpose)
    type = type.clone({type.getShape()[1], type.getShape()[0]});
  if (transposed)
    std::swap(smemShape[0], smemShape[1]);
  if (!type || type.getShape() != ArrayRef<int64_t>(smemShape))
    return user->emitError("a tile with unit dimensions loaded from memory is "
                           "read as registers, which is not lowered"),
           failure();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(*lowered);
  Value r;
  if (auto pad = paddedSmem.find(*lowered); pad != paddedSmem.end())
    r = b.create<tileas::SmemLoadOp>(
        lowered->getLoc(), type, *lowered, pad->second.valid, IntegerAttr(),
        pad->second.value, transposed ? b.getUnitAttr() : UnitAttr());
  else if (isa<tileas::SmemType>(shaped))
    r = b.create<tileas::SmemLoadOp>(lowered->getLoc(), type, *lowered,
                                     ValueRange(), IntegerAttr(), FloatAttr(),
                                     transposed ? b.getUnitAttr() : UnitAttr());
  else
    r = b.create<tileas::TmemLoadOp>(lowered->getLoc(), type, *lowered);
  cache[*lowered] = r;
  return r;
}

/// A register tile's transpose: the threads write it to SMEM as it is and
/// read it back the other way (smem_load transposed), as they read a loaded
/// tile's transpose.
FailureOr<Value> EntryLowering::transposeThroughSmem(Operation *user,
                                                     Value regs) {
  auto type = dyn_cast<RankedTensorType>(regs.getType());
  if (!type || type.getRank() != 2)
    return user->emitError("the transpose of a tile in registers is lowered "
                           "only for a 2-D tile"),
           failure();
  if (Value cached = inRegistersTransposed.lookup(regs))
    return cached;
  Location l = user->getLoc();
  Value staged = b.create<tileas::SmemStoreOp>(
      l, tileas::SmemType::get(type.getShape(), type.getElementType()), regs,
      Value());
  Value r = b.create<tileas::SmemLoadOp>(
      l, type.clone({type.getShape()[1], type.getShape()[0]}), staged,
      ValueRange(), IntegerAttr(), FloatAttr(), b.getUnitAttr());
  inRegistersTransposed[regs] = r;
  return r;
}

/// Ops that lower to nothing: tokens order memory operations, which tileas
/// orders by their memory effects; views were planned into arguments.
static bool lowersToNothing(Operation *op) {
  return isa<tileir::MakeTokenOp, tileir::JoinTokensOp,
             tileir::MakeTensorViewOp, tileir::MakePartitionViewOp,
             tileir::ReturnOp>(op);
}

LogicalResult EntryLowering::lowerOp(Operation *op) {
  if (lowersToNothing(op) || addressOps.contains(op))
    return success();
  if (auto assume = dyn_cast<tileir::AssumeOp>(op)) {
    if (Value v = values.lookup(assume.getValue()))
      mapSameTile(assume.getValue(), assume.getResult(), v);
    return success();
  }
  if (isa<tileir::AddFOp, tileir::SubFOp, tileir::MulFOp, tileir::DivFOp,
          tileir::MaxFOp, tileir::MinFOp, tileir::FmaOp, tileir::NegFOp,
          tileir::AbsFOp, tileir::ExpOp, tileir::Exp2Op, tileir::LogOp,
          tileir::Log2Op, tileir::RsqrtOp, tileir::SqrtOp, tileir::TanHOp,
          tileir::SinOp, tileir::CosOp, tileir::TanOp, tileir::SinHOp,
          tileir::CosHOp, tileir::CeilOp, tileir::FloorOp, tileir::Atan2Op,
          tileir::PowFOp, tileir::RemFOp>(op))
    return lowerElementwise(op);
  if (isa<tileir::AddIOp, tileir::SubIOp, tileir::MulIOp, tileir::DivIOp,
          tileir::RemIOp, tileir::AndIOp, tileir::OrIOp, tileir::XOrIOp,
          tileir::ShLIOp, tileir::ShRIOp, tileir::MaxIOp, tileir::MinIOp,
          tileir::CmpIOp>(op))
    return lowerIntegerOp(op);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](tileir::GetTileBlockIdOp o) { return lowerBlockId(o); })
      .Case([&](tileir::GetNumTileBlocksOp o) { return lowerNumBlocks(o); })
      .Case([&](tileir::GetIndexSpaceShapeOp o) {
        return lowerIndexSpaceShape(o);
      })
      .Case([&](tileir::GetTensorShapeOp o) { return lowerTensorShape(o); })
      .Case([&](tileir::LoadViewTkoOp o) { return lowerLoad(o); })
      .Case([&](tileir::StoreViewTkoOp o) { return lowerStore(o); })
      .Case([&](tileir::LoadPtrTkoOp o) { return lowerGather(o); })
      .Case([&](tileir::StorePtrTkoOp o) { return lowerScatter(o); })
      .Case([&](tileir::AtomicRMWTkoOp o) { return lowerAtomic(o); })
      .Case([&](tileir::PermuteOp o) { return lowerPermute(o); })
      .Case([&](tileir::ForOp o) { return lowerFor(o); })
      .Case([&](tileir::MmaFOp o) { return lowerMma(o); })
      .Case([&](tileir::ConstantOp o) { return lowerConstant(o); })
      .Case([&](tileir::FPowIOp o) { return lowerFPowI(o); })
      .Case([&](tileir::ReshapeOp o) { return lowerReshape(o); })
      .Case([&](tileir::BroadcastOp o) { return lowerBroadcast(o); })
      .Case([&](tileir::FToFOp o) { return lowerFToF(o); })
      .Case([&](tileir::IToFOp o) { return lowerIToF(o); })
      .Case([&](tileir::FToIOp o) { return lowerFToI(o); })
      .Case<tileir::ExtIOp, tileir::TruncIOp>(
          [&](Operation *o) { return lowerIntCast(o); })
      .Case([&](tileir::SelectOp o) { return lowerSelect(o); })
      .Case([&](tileir::IfOp o) { return lowerIf(o); })
      .Case([&](tileir::CmpFOp o) { return lowerCmpF(o); })
      .Case([&](tileir::IotaOp o) { return lowerIota(o); })
      .Case([&](tileir::ReduceOp o) { return lowerReduce(o); })
      .Case([&](tileir::ScanOp o) { return lowerScan(o); })
      .Case([&](tileir::MmaIOp o) { return lowerMma(o); })
      .Default([](Operation *o) {
        return o->emitError("'")
               << o->getName() << "' is not lowered to tileas";
      });
}

namespace {
struct TileIRToTileASPass
    : public tilepipe::cutile::impl::TileIRToTileASBase<TileIRToTileASPass> {
  using TileIRToTileASBase::TileIRToTileASBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<tileir::EntryOp> entries;
    module.walk([&](tileir::EntryOp e) { entries.push_back(e); });
    for (tileir::EntryOp e : entries) {
      FailureOr<func::FuncOp> f = EntryLowering(e, wgmma, fuseLoops).run();
      if (succeeded(f))
        exchangeRowVectors(*f);
      if (failed(f) || failed(splitRows(*f)) ||
          (wgmma && failed(retarget::rewriteUmmaToWgmma(*f))) ||
          failed(verify(*f)))
        return signalPassFailure();
    }
    // The entries and the tileir modules that held them are now tileas.
    SmallVector<Operation *> lowered;
    for (Operation &op : module.getBody()->getOperations())
      if (isa<tileir::EntryOp, tileir::BytecodeModuleOp>(op))
        lowered.push_back(&op);
    for (Operation *op : lowered)
      op->erase();
  }
};
} // namespace
