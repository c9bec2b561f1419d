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

/// Whether, with these starts, the kernel's iteration issues every wgmma
/// before its code reads an accumulator that one of them wrote in the same
/// iteration (same stage): the shape in which the warpgroups can take
/// their turns with both MMAs in one (FlashAttention-3's).
bool issuesBeforeReads(const LoopProblem &lp, const std::vector<int64_t> &start,
                       int64_t ii) {
  int64_t lastIssue = -1;
  for (auto [id, op] : llvm::enumerate(lp.ops))
    if (isa<tileas::WgmmaOp>(op))
      lastIssue = std::max(lastIssue, start[id] % ii);
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    if (!isa<tileas::WgmmaOp>(op))
      continue;
    for (Operation *user : op->getUsers()) {
      auto it = lp.ids.find(user);
      if (it == lp.ids.end() || isa<tileas::WgmmaOp>(user))
        continue;
      int64_t at = start[it->second];
      if (at / ii == start[id] / ii && at % ii <= lastIssue)
        return false;
    }
  }
  return true;
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
    std::vector<int64_t> rotated = schedule.start;
    for (int64_t &start : rotated)
      start += shift;
    // A schedule that splits the code between the MMAs differently (the
    // softmax's exponentials a stage after its maximum) keeps its
    // iteration: begun at S it would wait for S before P V is issued.
    if (issuesBeforeReads(lp, rotated, ii))
      schedule.start = std::move(rotated);
    return;
  }
}
