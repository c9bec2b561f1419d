//===- Mma.cpp - mmaf and mmai become umma with a TMEM accumulator --------===//
//
// cuTile's `mmaf %a, %b, %acc` is acc + A (MxK) B (KxN); `mmai` the same on
// 8-bit integers into i32 (tcgen05's kind::i8, wgmma's s8). tileas.umma reads
// A and B from SMEM (A may come from TMEM) and accumulates in TMEM. B as a
// load gives it lies N-contiguous, KxN: the tensor core reads it MN-major
// (`b_mn_major`); a B loaded through a transposed view (dim_map [1, 0]:
// attention's K^T) or permuted after its load (`ct.transpose(w)` of an
// nn.Linear weight) lies NxK, K-major. An accumulator that starts from zero
// is a fresh TMEM tile (the first MMA overwrites it); one that is computed
// in registers (attention's rescaled O, a GEMM's C loaded to start D = C +
// A B from) is written to TMEM first; one the loop carries stays in TMEM.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/lower/Lowering.h"
#include "ir/WgmmaStaging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cutile;

bool tilepipe::cutile::isZeroTile(Value v) {
  auto constant = v.getDefiningOp<tileir::ConstantOp>();
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || !dense.isSplat())
    return false;
  Attribute splat = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(splat))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(splat))
    return i.getValue().isZero();
  return false;
}

FailureOr<Value> EntryLowering::freshAccumulator(Operation *user,
                                                 tileir::TileType tile) {
  // A batched MMA of one matrix (cuTile's (1, M, K) x (1, K, N) tiles of
  // 3-D arrays) is the matrix's: unit dimensions are dropped in every form.
  ArrayRef<int64_t> shape = tile.getShape();
  while (shape.size() > 2 && shape.front() == 1)
    shape = shape.drop_front();
  if (shape.size() != 2)
    return user->emitError("an MMA accumulator that is not a 2-D tile (or a "
                           "batch of one) is not lowered"),
           failure();
  // Allocations stand before every loop (they are not schedulable).
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.getBody().front());
  return b
      .create<tileas::AllocTmemOp>(
          user->getLoc(), tileas::TmemType::get(shape, tile.getElementType()))
      .getResult();
}

/// `v` in registers as a matrix (a rank-2 tile); an error naming `what`
/// (the MMA's accumulator or operand) otherwise.
static FailureOr<Value> matrixInRegisters(EntryLowering &l, Operation *user,
                                          Value v, StringRef what) {
  FailureOr<Value> regs = l.registers(user, v);
  if (failed(regs))
    return failure();
  auto t = dyn_cast<RankedTensorType>(regs->getType());
  if (!t || t.getRank() != 2)
    return user->emitError("an MMA ")
               << what << " that is not a 2-D tile is not lowered",
           failure();
  return regs;
}

/// A register matrix written to a TMEM tile of its shape.
static Value toTmem(OpBuilder &b, Location loc, Value regs) {
  auto t = cast<RankedTensorType>(regs.getType());
  return b
      .create<tileas::TmemStoreOp>(
          loc, tileas::TmemType::get(t.getShape(), t.getElementType()), regs,
          Value())
      .getResult();
}

FailureOr<Value> EntryLowering::tmemAccumulator(Operation *user, Value init) {
  if (isZeroTile(init))
    return freshAccumulator(user, cast<tileir::TileType>(init.getType()));
  FailureOr<Value> regs = matrixInRegisters(*this, user, init, "accumulator");
  if (failed(regs))
    return failure();
  return toTmem(b, loc(user), *regs);
}

/// An MMA operand made in registers goes to TMEM (A, the tensor core's TS
/// form: attention's P) or SMEM (B, and an A of 64 rows: TMEM's 64-row
/// tiles are accumulators only, so a 64-row query tile's P is read from
/// SMEM).
static FailureOr<Value> operandFromRegisters(EntryLowering &l, Operation *op,
                                             Value v, bool isA) {
  FailureOr<Value> regs = matrixInRegisters(l, op, v, "operand");
  if (failed(regs))
    return failure();
  auto t = cast<RankedTensorType>(regs->getType());
  if (isA && t.getShape()[0] != 64)
    return toTmem(l.b, op->getLoc(), *regs);
  return l.b
      .create<tileas::SmemStoreOp>(
          op->getLoc(), tileas::SmemType::get(t.getShape(), t.getElementType()),
          *regs, Value())
      .getResult();
}

/// Whether `op` adds its product to another MMA's of the same loop
/// iteration (not a loop-carried accumulator) and the threads read the
/// sum, not a further MMA.
static bool chainsInIteration(Operation *op) {
  Operation *prev = definingMma(mmaAcc(op));
  if (!prev || prev->getBlock() != op->getBlock() ||
      !isa<tileir::ForOp>(op->getParentOp()) || !prev->hasOneUse())
    return false;
  return llvm::none_of(op->getUsers(), [&](Operation *user) {
    return (isMma(user) && mmaAcc(user) == op->getResult(0)) ||
           isa<tileir::ContinueOp>(user);
  });
}

/// An integer MMA the tensor cores take: s8 or u8 operands, in any mix,
/// into s32 (cuTile's ct.mma of int8 and uint8 tiles; tcgen05's kind::i8,
/// wgmma's .s8/.u8). The IR's i8 is signless: each operand's signedness
/// goes on the MMA (`a_unsigned` / `b_unsigned`).
static LogicalResult checkIntegerMma(tileir::MmaIOp op) {
  for (Value v : {op.getLhs(), op.getRhs()}) {
    Type elem = cast<tileir::TileType>(v.getType()).getElementType();
    if (!elem.isInteger(8))
      return op->emitError("an integer MMA on ")
             << elem
             << " is not lowered: the tensor cores multiply 8-bit integers";
  }
  return success();
}

/// Whether operand `i` (0: A, 1: B) of `op` is an unsigned integer.
static bool unsignedOperand(Operation *op, unsigned i) {
  auto mmai = dyn_cast<tileir::MmaIOp>(op);
  return mmai && (i == 0 ? mmai.getSignednessLhs() : mmai.getSignednessRhs()) ==
                     tileir::Signedness::Unsigned;
}

LogicalResult EntryLowering::lowerMma(Operation *op) {
  auto mmaf = dyn_cast<tileir::MmaFOp>(op);
  if (mmaf && mmaf.getFastAcc())
    op->emitRemark("fast_acc ignored: the tensor core accumulates in f32");
  if (auto mmai = dyn_cast<tileir::MmaIOp>(op))
    if (failed(checkIntegerMma(mmai)))
      return failure();
  SmallVector<Value> ab;
  SmallVector<bool> mnMajor;
  for (auto [i, v] : llvm::enumerate(ValueRange{mmaLhs(op), mmaRhs(op)})) {
    FailureOr<Value> lowered = lookup(op, v);
    if (failed(lowered))
      return failure();
    bool isA = i == 0;
    if (isa<tileas::SmemType>(lowered->getType())) {
      if (paddedSmem.count(*lowered))
        return op->emitError("an MMA operand loaded with a padding other than "
                             "zero is not lowered: the tensor core reads "
                             "the tile as TMA filled it, with zeros");
      bool transposed = readsTransposed(v, *lowered);
      // A is K-major as loaded, MN-major transposed; B the other way round.
      mnMajor.push_back(isA ? transposed : !transposed);
      ab.push_back(*lowered);
      continue;
    }
    FailureOr<Value> staged = operandFromRegisters(*this, op, v, isA);
    if (failed(staged))
      return failure();
    mnMajor.push_back(!isA);
    ab.push_back(*staged);
  }
  FailureOr<Value> acc = lookup(op, mmaAcc(op));
  if (failed(acc))
    return failure();
  // Two products summed in one iteration (MLA's scores, q_nope k_nope^T +
  // q_pe k_pe^T) and read by the threads: tcgen05 would add the second
  // into the first's TMEM slot, which the loop's pipes hand to the threads
  // as one value, so the second is made fresh and the threads add them.
  // So is an MMA after a loop that sums into the loop's TMEM accumulator
  // (LoRA's (X A^T) B^T added to X W^T): the stage code hands a TMEM
  // accumulator from one loop's MMAs to no other's (docs/materialize.md,
  // "Accumulators two loops share").
  auto loopResult = acc->getDefiningOp<scf::ForOp>();
  bool afterItsLoop = loopResult && isa<tileas::TmemType>(acc->getType());
  Value chainedTo;
  if (!registerMma && (chainsInIteration(op) || afterItsLoop)) {
    chainedTo = *acc;
    acc = freshAccumulator(op, cast<tileir::TileType>(mmaAcc(op).getType()));
    if (failed(acc))
      return failure();
  }
  bool accumulate = !chainedTo;
  if (!isa<tileas::TmemType>(acc->getType())) {
    accumulate = !isZeroTile(mmaAcc(op));
    acc = tmemAccumulator(op, mmaAcc(op));
    if (failed(acc))
      return failure();
  }
  // What tcgen05 has no form for (sm_100a) the sm_90a lowering may take.
  constexpr llvm::StringLiteral kForSm90a =
      "lower with --tileir-to-tileas=wgmma (tilepipe compile --target sm_90a "
      "does)";
  // tcgen05 takes 64 or 128 rows a CTA (256 across a CTA pair, which
  // tilepipe does not plan); Hopper's two consumer warpgroups take 256, and
  // the sm_90a translation issues 8, 16 and 32 as 64.
  int64_t rows = cast<ShapedType>(acc->getType()).getDimSize(0);
  if ((rows < 64 || rows > 128) && !registerMma) {
    auto diag = op->emitError(rows == 8 ? "an " : "a ")
                << rows
                << "-row MMA tile has no sm_100a form: tcgen05.mma takes 64 "
                   "or 128 rows a CTA";
    if (rows < 64 && !tileas::isNarrowM(rows))
      return diag << "; " << tileas::wgmmaMRule();
    return diag << (rows < 64 ? "; for sm_90a, which issues it as 64 rows "
                                "and keeps its own, "
                              : " (256 only across a CTA pair, which "
                                "tilepipe does not plan); for sm_90a, whose "
                                "two consumer warpgroups take 256 rows, ")
                << kForSm90a;
  }
  // tcgen05 reads an MN-major tf32 operand only in the 128B swizzle with
  // 32-byte atoms (PTX ISA, tcgen05 matrix descriptors), which neither the
  // TMA boxes nor the descriptors here use; the sm_90a consumers transpose
  // such an operand through SMEM.
  for (unsigned i : {0u, 1u})
    if (mnMajor[i] && !registerMma &&
        cast<ShapedType>(ab[i].getType()).getElementType().isF32())
      return op->emitError("a tf32 ")
             << (i ? "B given K x N" : "A given K x M")
             << " has no sm_100a form here: tcgen05.mma reads an MN-major "
                "32-bit operand only in the 128B swizzle with 32-byte atoms, "
                "which tilepipe does not lay out; for sm_90a, whose "
                "consumers transpose it through SMEM, "
             << kForSm90a;
  auto umma = b.create<tileas::UmmaOp>(
      loc(op), acc->getType(), ab[0], ab[1], *acc, Value(), Value(),
      accumulate ? b.getUnitAttr() : UnitAttr(),
      mnMajor[0] ? b.getUnitAttr() : UnitAttr(),
      mnMajor[1] ? b.getUnitAttr() : UnitAttr(),
      unsignedOperand(op, 0) ? b.getUnitAttr() : UnitAttr(),
      unsignedOperand(op, 1) ? b.getUnitAttr() : UnitAttr());
  if (!chainedTo) {
    map(op->getResult(0), umma.getResult());
    return success();
  }
  FailureOr<Value> first = registers(op, mmaAcc(op));
  map(op->getResult(0), umma.getResult());
  FailureOr<Value> second = registers(op, op->getResult(0));
  if (failed(first) || failed(second))
    return failure();
  Value sum =
      isa<FloatType>(getElementTypeOrSelf(first->getType()))
          ? b.create<arith::AddFOp>(loc(op), *first, *second).getResult()
          : b.create<arith::AddIOp>(loc(op), *first, *second).getResult();
  map(op->getResult(0), sum);
  return success();
}
