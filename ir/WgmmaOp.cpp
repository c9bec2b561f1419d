//===- WgmmaOp.cpp - tileas.wgmma: verifier and scheduler work ------------===//
//
// Hopper's warpgroup MMA. The shape rules come from layout/wgmma_shapes.h,
// which the sm_90a runtime shares, and every message names the rule it
// applies (docs/dialect.md, "Warpgroup MMA").
//
//===----------------------------------------------------------------------===//

#include "ir/TileASDialect.h"
#include "ir/WgmmaStaging.h"
#include "ir/WgmmaWarpgroups.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "tilepipe/layout/wgmma_shapes.h"

using namespace mlir;
using namespace mlir::tileas;
using tilepipe::target::OpWork;
using Family = tp::wgmma_shape::Family;

/// The ISA's operand family of one element type, or none.
static std::optional<Family> familyOf(Type elem) {
  if (elem.isF16())
    return Family::F16;
  if (elem.isBF16())
    return Family::BF16;
  if (elem.isF32())
    return Family::TF32;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(elem))
    return Family::F8;
  if (elem.isInteger(8))
    return Family::Int8;
  return std::nullopt;
}

static StringRef familyName(Family f) {
  switch (f) {
  case Family::F16:
    return "f16";
  case Family::BF16:
    return "bf16";
  case Family::TF32:
    return "tf32";
  case Family::F8:
    return "e4m3/e5m2";
  case Family::Int8:
    return "s8/u8";
  }
  return "?";
}

static int familyBits(Family f) {
  return f == Family::TF32 ? 32 : (f == Family::F8 || f == Family::Int8) ? 8 : 16;
}

/// A and B of one family; f16 and bf16 (and tf32) must match exactly, the
/// 8-bit families may mix e4m3 with e5m2, or s8 with u8.
static LogicalResult verifyTypes(WgmmaOp op, Type a, Type b,
                                 Family &family) {
  std::optional<Family> fa = familyOf(a), fb = familyOf(b);
  bool mixOk = fa && fb && *fa == *fb &&
               (a == b || *fa == Family::F8 || *fa == Family::Int8);
  if (!mixOk)
    return op.emitOpError("expects A and B of one wgmma type family, got ")
           << a << " and " << b << "; rule: " << TP_WGMMA_RULE_TYPES;
  family = *fa;
  return success();
}

LogicalResult WgmmaOp::verify() {
  namespace rule = tp::wgmma_shape;
  auto a = cast<ShapedType>(getA().getType());
  SmemType b = getB().getType();
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (a.getRank() != 2 || b.getRank() != 2)
    return emitOpError("expects rank-2 A (MxK) and B (NxK) tiles");
  bool regA = isa<RankedTensorType>(a);
  if (failed(verifyUnsignedOperands(*this, a.getElementType(),
                                    b.getElementType(), getAUnsigned(),
                                    getBUnsigned())))
    return failure();
  Family family;
  if (failed(verifyTypes(*this, a.getElementType(), b.getElementType(),
                         family)))
    return failure();
  // A tf32 or 8-bit operand given MN-major in SMEM (cuTile's mma
  // takes B as K x N) is the tile op's extension of the ISA rule: the sm_90a
  // translation transposes the slot into a K-major staging tile before the
  // wgmma (WgmmaStaging.h).
  // B is staged whatever A is (FP8 attention's V under a P in registers);
  // an A in registers is never MN-major.
  bool staged =
      stagedWhenMnMajor(b.getElementType()) && (!regA || !getAMnMajor());
  if ((getAMnMajor() || getBMnMajor()) && !staged &&
      (!rule::transpose_ok(family) || (getAMnMajor() && regA)))
    return emitOpError("expects no MN-major ")
           << (getAMnMajor() ? "A" : "B") << " here (" << familyName(family)
           << (regA && getAMnMajor() ? ", A in registers" : "")
           << "); rule: " << TP_WGMMA_RULE_TRANSPOSE;
  int64_t m = getMmaM(), n = getMmaN(), k = getMmaK();
  if (b.getDimSize(getBMnMajor() ? 0 : 1) != k)
    return emitOpError("expects A and B with the same K, got A ")
           << a << " and B " << b;
  auto broken = [&](StringRef what, int64_t got, const char *text) {
    return emitOpError("expects a ")
           << familyName(family) << " wgmma tile of a legal " << what
           << ", got " << what << " = " << got << " (" << m << 'x' << n
           << 'x' << k << " MxNxK); rule: " << text;
  };
  // A tile of 8, 16 or 32 rows (cuTile's f32 matmul sample at 32 x 32 x 32,
  // a decode's grouped query heads) is the tile op's extension: the
  // translation issues the 64-row instruction and keeps the tile's rows
  // (WgmmaStaging.h, isNarrowM).
  if (!rule::m_ok(int(m)) && !isNarrowM(m))
    return broken("M", m, wgmmaMRule().data());
  if (!(family == Family::Int8 ? rule::int8_n_ok(int(n)) : rule::n_ok(int(n))))
    return broken("N", n, TP_WGMMA_RULE_N);
  if (!rule::k_ok(int(k), familyBits(family)))
    return broken("K", k, TP_WGMMA_RULE_K);
  if (acc.getShape() != ArrayRef<int64_t>{m, n})
    return emitOpError("expects the accumulator to be MxN = ")
           << m << 'x' << n << ", got " << acc;
  Type accElem = acc.getElementType();
  bool accOk = family == Family::Int8
                   ? accElem.isInteger(32)
                   : accElem.isF32() ||
                         (accElem.isF16() && rule::f16_acc_ok(family));
  if (!accOk)
    return emitOpError("expects a legal accumulator for ")
           << familyName(family) << " operands, got " << accElem
           << "; rule: " << TP_WGMMA_RULE_ACC;
  if (getResult().getType() != acc)
    return emitOpError("expects the result type to equal the accumulator "
                       "type ")
           << acc << ", got " << getResult().getType();
  return success();
}

// A from registers reads no SMEM and is a class of its own (its cost and the
// SMEM bandwidth it takes differ); tf32 and 8-bit operands run at other
// rates than 16-bit ones, so they are classes of their own too.
StringRef WgmmaOp::getOpClass() {
  bool rs = isa<RankedTensorType>(getA().getType());
  Type elem = cast<ShapedType>(getA().getType()).getElementType();
  if (elem.isF32())
    return rs ? "wgmma_rs_tf32" : "wgmma_tf32";
  if (elem.getIntOrFloatBitWidth() <= 8)
    return rs ? "wgmma_rs_f8" : "wgmma_f8";
  return rs ? "wgmma_rs" : "wgmma";
}

OpWork WgmmaOp::getWork() {
  OpWork work;
  work.flops = 2 * issuedRows(*this) * getMmaN() * getMmaK();
  work.bytes = getB().getType().getSizeInBytes();
  if (auto smemA = dyn_cast<SmemType>(getA().getType()))
    work.bytes += smemA.getSizeInBytes();
  // A staged operand is read and written once more by the consumer's
  // threads, which transpose it before the wgmma reads it.
  work.bytes += 2 * stagedOperandBytes(*this);
  return work;
}

bool WgmmaOp::isAccumulatorOperand(unsigned operandIndex) {
  return operandIndex == getAccMutable().getOperandNumber();
}

/// Whether SIMT code reads `mma`'s accumulator while the loop that issues
/// it runs (attention's softmax of S, DeepGEMM's scaled partial sums): its
/// result, or the iter_arg it accumulates into, used inside the loop by
/// anything that does not only carry it on. The translation marks the
/// agents that hold their tiles in the fragment's rows by the same rule
/// (readInLoop, cuda/analysis/WgmmaAccumulators.cpp).
static bool readInLoop(WgmmaOp mma) {
  auto loop = mma->getParentOfType<LoopLikeOpInterface>();
  if (!loop)
    return false;
  auto reads = [&](Value v) {
    return llvm::any_of(v.getUses(), [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (auto other = dyn_cast<WgmmaOp>(user);
          other && use.get() == other.getAcc())
        return false;
      return loop->isAncestor(user) &&
             !isa<LoopLikeOpInterface, RegionBranchTerminatorOpInterface>(user);
    });
  };
  Value acc = mma.getAcc();
  bool carried = isa<BlockArgument>(acc) &&
                 acc.getParentRegion()->getParentOp() == loop.getOperation();
  return reads(mma.getResult()) || (carried && reads(acc));
}

/// The f32 words a thread of one warpgroup would hold for every wgmma
/// accumulator of `func` at once (M N / 128 each, one per accumulator
/// however many wgmmas write it): a SwiGLU GEMM's gate and up products are
/// two 128 x 128 accumulators, 256 words, which spilled in one warpgroup.
static int64_t heldWords(FunctionOpInterface func) {
  AccumulatorClasses classes;
  joinCarried(classes, func);
  llvm::SmallPtrSet<Value, 4> leaders;
  int64_t words = 0;
  func->walk([&](WgmmaOp mma) {
    Value leader = classes.getOrInsertLeaderValue(mma.getResult());
    if (leaders.insert(leader).second)
      words += mma.getMmaM() * mma.getMmaN() / 128;
  });
  return words;
}

int64_t mlir::tileas::consumerWarpgroups(WgmmaOp mma) {
  int64_t own = mma.getWarpgroups();
  auto func = mma->getParentOfType<FunctionOpInterface>();
  if (!func)
    return own;
  bool registerTiles =
      func->walk([&](WgmmaOp other) {
            return isa<RankedTensorType>(other.getA().getType()) ||
                           readInLoop(other)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted();
  int64_t bands = (mma.getMmaM() + 63) / 64;
  if (registerTiles)
    return std::max(own, bands);
  // getWarpgroups' rule over every accumulator at once: the fewest that
  // split the bands evenly with at most 128 words a thread (never fewer
  // than the tile's own, whose words are among them).
  int64_t words = heldWords(func);
  for (int64_t groups = 1; groups < bands; ++groups)
    if (bands % groups == 0 && words <= 128 * groups)
      return groups;
  return bands;
}

bool mlir::tileas::stagedWhenMnMajor(Type elem) {
  return elem.isF32() || isa<Float8E4M3FNType, Float8E5M2Type>(elem) ||
         elem.isInteger(8);
}

bool mlir::tileas::isStagedOperand(WgmmaOp mma, unsigned index) {
  bool mnMajor = index == 0 ? mma.getAMnMajor() : mma.getBMnMajor();
  auto smem = dyn_cast<SmemType>(mma->getOperand(index).getType());
  return mnMajor && smem && stagedWhenMnMajor(smem.getElementType());
}

int64_t mlir::tileas::issuedRows(WgmmaOp mma) {
  return std::max<int64_t>(mma.getMmaM(), 64);
}

StringRef mlir::tileas::wgmmaMRule() {
  return TP_WGMMA_RULE_M "; " TP_WGMMA_RULE_NARROW_M;
}

bool mlir::tileas::isNarrowM(int64_t m) {
  return tp::wgmma_shape::narrow_m_ok(int(m));
}

bool mlir::tileas::isNarrowTile(WgmmaOp mma) {
  return issuedRows(mma) != mma.getMmaM();
}

int64_t mlir::tileas::stagedOperandBytes(WgmmaOp mma) {
  int64_t bytes = 0;
  for (unsigned index : {0u, 1u})
    if (isStagedOperand(mma, index))
      bytes +=
          cast<SmemType>(mma->getOperand(index).getType()).getSizeInBytes();
  return bytes;
}

void mlir::tileas::joinCarried(AccumulatorClasses &classes, Operation *root) {
  root->walk([&](Operation *op) {
    if (auto mma = dyn_cast<WgmmaOp>(op)) {
      classes.unionSets(mma.getAcc(), mma.getResult());
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (unsigned i = 0, e = loop.getNumRegionIterArgs(); i < e; ++i) {
        if (!isa<RankedTensorType>(loop.getInitArgs()[i].getType()))
          continue;
        classes.unionSets(loop.getInitArgs()[i], loop.getRegionIterArgs()[i]);
        classes.unionSets(loop.getInitArgs()[i], yield.getOperand(i));
        classes.unionSets(loop.getInitArgs()[i], loop.getResult(i));
      }
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (auto [i, result] : llvm::enumerate(branch.getResults())) {
        if (!isa<RankedTensorType>(result.getType()))
          continue;
        classes.unionSets(result, branch.thenYield().getOperand(i));
        if (!branch.getElseRegion().empty())
          classes.unionSets(result, branch.elseYield().getOperand(i));
      }
    }
  });
}
