//===- KernelRotation.cpp - where each kernel iteration begins ------------===//
//
// See KernelRotation.h. Measured on an H200 with hand-edited stage code of
// attn-scale-hd128 (bench/gpu/runs/2026-12-04-run3-*): the iteration begun
// at the softmax, warpgroups taking issue turns, 0.2405 ms; begun at S,
// 0.2113 ms.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/KernelRotation.h"

#include "ir/TileASDialect.h"
#include "ir/WgmmaWarpgroups.h"

using namespace mlir;
using namespace tilepipe;

namespace {
/// Whether code other than an MMA reads `mma`'s accumulator in the loop.
bool accumulatorReadInLoop(tileas::WgmmaOp mma) {
  return llvm::any_of(mma->getUsers(), [](Operation *user) {
    return !isa<tileas::WgmmaOp, scf::YieldOp>(user);
  });
}
} // namespace

void materialize::beginKernelAtAccumulatorRead(const LoopProblem &lp,
                                               sched::Schedule &schedule) {
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    // Two consumer warpgroups, which take issue turns (cuda/analysis/
    // IssueTurns.h); one warpgroup's loop keeps its iteration where the
    // schedule begins it.
    auto mma = dyn_cast<tileas::WgmmaOp>(op);
    if (!mma || !accumulatorReadInLoop(mma) ||
        tileas::consumerWarpgroups(mma) != 2)
      continue;
    int64_t ii = schedule.ii;
    int64_t shift = (ii - schedule.start[id] % ii) % ii;
    for (int64_t &start : schedule.start)
      start += shift;
    return;
  }
}
