//===- F16Accumulators.cpp - f16 accumulators of wgmma in f32
//--------------===//
//
// A Blackwell MMA accumulates in f16 when its accumulator is f16, and
// tcgen05 keeps the f16 tile in TMEM. wgmma has an f16 form too, but its
// fragment packs two elements a register, a second layout for every
// epilogue step of the register translation. On sm_90a the accumulator is
// held in f32 instead, the same instruction as an f32 GEMM at the same
// rate (Hopper's dense f16 rate does not depend on the accumulator's type),
// and rounded to f16 where anything but the next MMA reads it: as accurate
// as f16 accumulation or more (docs/retarget.md, "f16 accumulators").
//
//===----------------------------------------------------------------------===//

#include "retarget/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

bool isF16Tile(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isF16();
}

RankedTensorType asF32(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  return RankedTensorType::get(t.getShape(), Float32Type::get(v.getContext()));
}

/// The values an f16 accumulator takes on, from each MMA that writes one:
/// the MMA's accumulator and result, and through a loop its initial value,
/// iteration argument, yielded value and result.
llvm::SetVector<Value> accumulatorValues(Operation *root) {
  llvm::SetVector<Value> seen;
  SmallVector<Value> work;
  auto add = [&](Value v) {
    if (isF16Tile(v) && seen.insert(v))
      work.push_back(v);
  };
  root->walk([&](tileas::WgmmaOp mma) {
    if (isF16Tile(mma.getResult()))
      add(mma.getResult());
  });
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto mma = v.getDefiningOp<tileas::WgmmaOp>())
      add(mma.getAcc());
    if (auto arg = dyn_cast<BlockArgument>(v))
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
          loop && arg.getArgNumber() > 0) {
        unsigned i = arg.getArgNumber() - 1;
        add(loop.getInitArgs()[i]);
        add(loop.getYieldedValues()[i]);
        add(loop.getResult(i));
      }
    if (auto result = dyn_cast<OpResult>(v))
      if (auto loop = dyn_cast<scf::ForOp>(result.getOwner())) {
        unsigned i = result.getResultNumber();
        add(loop.getRegionIterArgs()[i]);
      }
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto mma = dyn_cast<tileas::WgmmaOp>(user);
          mma && use.get() == mma.getAcc())
        add(mma.getResult());
      if (auto loop = dyn_cast<scf::ForOp>(user);
          loop && use.getOperandNumber() >= loop.getNumControlOperands())
        add(loop.getRegionIterArgs()[use.getOperandNumber() -
                                     loop.getNumControlOperands()]);
      if (isa<scf::YieldOp>(user))
        if (auto loop = dyn_cast<scf::ForOp>(user->getParentOp()))
          add(loop.getRegionIterArgs()[use.getOperandNumber()]);
    }
  }
  return seen;
}

/// Whether `use` passes the accumulator on as an accumulator: into an MMA,
/// or into a loop's iteration argument.
bool carriesAccumulator(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto mma = dyn_cast<tileas::WgmmaOp>(user))
    return use.get() == mma.getAcc();
  if (auto loop = dyn_cast<scf::ForOp>(user))
    return use.getOperandNumber() >= loop.getNumControlOperands();
  return isa<scf::YieldOp>(user) && isa<scf::ForOp>(user->getParentOp());
}

/// Whether `v` is one the promotion retypes (the MMA's result, a loop's
/// iteration argument or result), not a value made elsewhere that it
/// starts from (a function's argument among them: its type is the
/// signature's).
bool retyped(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return isa<scf::ForOp>(arg.getOwner()->getParentOp()) &&
           arg.getArgNumber() > 0;
  return isa<tileas::WgmmaOp, scf::ForOp>(v.getDefiningOp());
}

} // namespace

void tilepipe::retarget::promoteF16Accumulators(Operation *root) {
  llvm::SetVector<Value> values = accumulatorValues(root);
  if (values.empty())
    return;
  OpBuilder b(root->getContext());
  // Where the accumulator starts (zeros, a tile loaded as C): in f32 from
  // there, and in f16 for anything else that reads the start.
  for (Value v : values) {
    if (retyped(v))
      continue;
    b.setInsertionPointAfterValue(v);
    // Zeros (an accumulator that starts empty) are zeros in f32 too.
    DenseElementsAttr splat;
    Value wide;
    if (matchPattern(v, m_Constant(&splat)) && splat.isSplat() &&
        splat.getSplatValue<APFloat>().isZero())
      wide = b.create<arith::ConstantOp>(
          v.getLoc(), DenseElementsAttr::get(asF32(v), b.getF32FloatAttr(0)));
    else
      wide = b.create<tileas::CvtOp>(v.getLoc(), asF32(v), v);
    v.replaceUsesWithIf(wide, [&](OpOperand &use) {
      return use.getOwner() != wide.getDefiningOp() && carriesAccumulator(use);
    });
  }
  // What reads the accumulator other than the next MMA reads it in f16.
  SmallVector<std::pair<OpOperand *, Value>> narrowed;
  for (Value v : values)
    if (retyped(v))
      for (OpOperand &use : v.getUses())
        if (!carriesAccumulator(use))
          narrowed.push_back({&use, v});
  for (Value v : values)
    if (retyped(v))
      v.setType(asF32(v));
  for (auto [use, v] : narrowed) {
    b.setInsertionPoint(use->getOwner());
    auto f16 =
        RankedTensorType::get(cast<RankedTensorType>(v.getType()).getShape(),
                              Float16Type::get(root->getContext()));
    use->set(b.create<tileas::CvtOp>(v.getLoc(), f16, v));
  }
}
