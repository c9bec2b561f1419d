//===- RingDepth.cpp - lifetimes longer than a ring ----------------------===//

#include "scheduler/mlir/RingDepth.h"

#include <algorithm>

using namespace mlir;
using namespace tilepipe;

Lifetime tilepipe::longestLifetime(const LoopProblem &lp,
                                   const sched::ScheduleAnalysis &analysis) {
  Lifetime longest;
  const int64_t ii = std::max<int64_t>(1, analysis.ii);
  scf::ForOp loop = lp.loop;
  Block *body = loop.getBody();
  // What the stage code recomputes where it is read takes no ring.
  std::vector<bool> free = findFreeOps(lp);
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    if (free[id])
      continue;
    int64_t start = analysis.slots[id].cycle;
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        // The reader as the loop body holds it (a region's op: its parent).
        Operation *inLoop = body->findAncestorOpInBlock(*user);
        auto it = inLoop ? lp.ids.find(inLoop) : lp.ids.end();
        if (it == lp.ids.end())
          continue;
        int64_t use = analysis.slots[it->second].cycle;
        int64_t stages = use / ii - start / ii;
        if (stages > longest.stages)
          longest = {stages, use - start};
      }
  }
  return longest;
}
