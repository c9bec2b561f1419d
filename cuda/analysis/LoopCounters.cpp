//===- LoopCounters.cpp - the C++ type of a loop's counter ----------------===//
//
// The upper bound is followed back through the ops the materializer and a
// front end write for a trip count: a constant, a value widened from 32 bits
// or fewer (index_cast, extsi; extui from fewer than 32), and maxsi, minsi,
// ceildivsi and divsi by a positive constant of such values, none of which
// leaves the range of its operands. Anything else is taken to need 64 bits.
//
//===----------------------------------------------------------------------===//

#include "cuda/analysis/LoopCounters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <cstdint>
#include <limits>

using namespace mlir;

namespace {

constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();

bool constantIn(Value v, int64_t lo, int64_t hi) {
  APInt c;
  if (!matchPattern(v, m_ConstantInt(&c)) || c.getBitWidth() > 64)
    return false;
  int64_t x = c.getSExtValue();
  return lo <= x && x <= hi;
}

/// True when every value `v` can take fits int32_t. `depth` bounds the walk.
bool fits32(Value v, int depth = 8) {
  if (constantIn(v, kMin32, kMax32))
    return true;
  Operation *op = v.getDefiningOp();
  if (!op || depth == 0)
    return false;
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op)) {
    Type from = op->getOperand(0).getType();
    return from.isIntOrIndex() && !from.isIndex() &&
           from.getIntOrFloatBitWidth() <= 32;
  }
  if (isa<arith::ExtUIOp>(op)) {
    Type from = op->getOperand(0).getType();
    return from.isInteger() && from.getIntOrFloatBitWidth() < 32;
  }
  if (isa<arith::MaxSIOp, arith::MinSIOp>(op))
    return fits32(op->getOperand(0), depth - 1) &&
           fits32(op->getOperand(1), depth - 1);
  // A quotient by a positive divisor lies between 0 and the dividend.
  if (isa<arith::CeilDivSIOp, arith::DivSIOp>(op))
    return constantIn(op->getOperand(1), 1, kMax32) &&
           fits32(op->getOperand(0), depth - 1);
  return false;
}

} // namespace

bool tilepipe::cuda::hasNarrowCounter(scf::ForOp loop) {
  return loop->hasAttr("tileas.schedule.ii") &&
         loop.getInductionVar().getType().isIndex() &&
         constantIn(loop.getLowerBound(), 0, 0) &&
         constantIn(loop.getStep(), 1, 1) && fits32(loop.getUpperBound());
}
