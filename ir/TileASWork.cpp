//===- TileASWork.cpp - SchedulableOpInterface implementations ------------===//
//
// What each op reports to the scheduler. Copies report the bytes of the tile
// they move, SIMT math the elements it touches, and UMMA its flops plus the
// shared-memory bytes it reads; the target's formulas turn these into cycles.
//
//===----------------------------------------------------------------------===//

#include "ir/TileASDialect.h"

using namespace mlir;
using namespace mlir::tileas;
using tilepipe::target::OpWork;

static OpWork bytesOf(Type tile) {
  OpWork work;
  work.bytes = getTileSizeInBytes(cast<ShapedType>(tile));
  return work;
}

static OpWork elementsOf(Type tile) {
  OpWork work;
  work.elements = cast<ShapedType>(tile).getNumElements();
  return work;
}

// A TMA load also says where its bytes come from (l2_reuse, multicast); the
// target splits its charge between HBM and L2 by them (docs/target.md).
OpWork TmaLoadOp::getWork() {
  OpWork work = bytesOf(getResult().getType());
  if (std::optional<uint64_t> reuse = getL2Reuse())
    work.l2Reuse = int64_t(*reuse);
  if (std::optional<uint64_t> mcast = getMulticast())
    work.multicast = int64_t(*mcast);
  return work;
}
OpWork TmaStoreOp::getWork() { return bytesOf(getBuffer().getType()); }
OpWork CpAsyncOp::getWork() { return bytesOf(getResult().getType()); }
OpWork TmemLoadOp::getWork() { return bytesOf(getSource().getType()); }
OpWork TmemStoreOp::getWork() { return bytesOf(getSource().getType()); }
OpWork SmemLoadOp::getWork() { return bytesOf(getSource().getType()); }
OpWork SmemStoreOp::getWork() { return bytesOf(getSource().getType()); }
OpWork TmemCopyOp::getWork() { return bytesOf(getSource().getType()); }

// The TS variant reads A from tensor memory, which changes both its cost and
// the SMEM bandwidth it consumes, so it is a class of its own. The element
// width picks the rate: FP8/FP6/INT8 (kind::f8f6f4, kind::mxf8f6f4,
// kind::i8) take K=32 per instruction and block-scaled FP4 (kind::mxf4) K=64
// in the cycles of BF16 K=16, so they have classes of their own too (the
// rates are target data). Unscaled FP4 goes through kind::f8f6f4 at K=32.
StringRef UmmaOp::getOpClass() {
  bool ts = isa<TmemType>(getA().getType());
  Type elem = cast<ShapedType>(getA().getType()).getElementType();
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits <= 4 && isa<FloatType>(elem) && getScaleA())
    return ts ? "umma_ts_f4" : "umma_f4";
  if (bits <= 8)
    return ts ? "umma_ts_f8" : "umma_f8";
  return ts ? "umma_ts" : "umma";
}

OpWork UmmaOp::getWork() {
  auto a = cast<ShapedType>(getA().getType());
  SmemType b = getB().getType();
  int64_t m = getMmaM(), k = getMmaK(), n = getMmaN();
  OpWork work;
  // Real FLOPs whatever the element width: the class's rate turns them into
  // cycles. Scale factors are in TMEM and cost no SMEM bandwidth.
  work.flops = 2 * m * n * k;
  // Only shared-memory operands cost SMEM bandwidth; TMEM reads do not.
  work.bytes = b.getSizeInBytes();
  if (auto smemA = dyn_cast<SmemType>(a))
    work.bytes += smemA.getSizeInBytes();
  return work;
}

bool UmmaOp::isAccumulatorOperand(unsigned operandIndex) {
  return operandIndex == getAccMutable().getOperandNumber();
}

OpWork Exp2Op::getWork() { return elementsOf(getInput().getType()); }
OpWork AddOp::getWork() { return elementsOf(getLhs().getType()); }
OpWork SubOp::getWork() { return elementsOf(getLhs().getType()); }
OpWork MulOp::getWork() { return elementsOf(getLhs().getType()); }
OpWork MaxOp::getWork() { return elementsOf(getLhs().getType()); }
OpWork FmaOp::getWork() { return elementsOf(getA().getType()); }
// A broadcast moves nothing of its own: its readers read the vector's
// element where they would read the tile's (the `generic` class's two
// cycles stand for the index arithmetic).
OpWork BroadcastOp::getWork() { return OpWork(); }
// Positions are free ops the materializer recomputes in each agent
// (their instructions are the mask's, counted at the op reading them).
OpWork IotaOp::getWork() { return OpWork(); }
OpWork CvtOp::getWork() { return elementsOf(getInput().getType()); }
OpWork ReduceMaxOp::getWork() { return elementsOf(getInput().getType()); }
OpWork ReduceSumOp::getWork() { return elementsOf(getInput().getType()); }
OpWork ReduceAllOp::getWork() { return elementsOf(getInput().getType()); }
// One combine an element, and log2(lanes) + 1 shuffle steps on each row's
// running total when the row is split.
OpWork ScanOp::getWork() {
  OpWork work = elementsOf(getInput().getType());
  if (std::optional<uint64_t> lanes = getLanes())
    work.elements +=
        int64_t(llvm::Log2_64(*lanes) + 1) * getInput().getType().getShape()[0];
  return work;
}
// log2(lanes) shuffle steps on each element of the vector.
OpWork ReduceLanesOp::getWork() {
  OpWork work = elementsOf(getInput().getType());
  work.elements *= int64_t(llvm::Log2_64(uint64_t(getLanes())));
  return work;
}
