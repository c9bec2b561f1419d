//===- RingDepth.cpp - lifetimes longer than a ring ----------------------===//

#include "scheduler/mlir/RingDepth.h"

#include "ir/Positions.h"
#include "ir/TileASDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <algorithm>

using namespace mlir;
using namespace tilepipe;

/// Ops the stage code recomputes where they are read instead of handing
/// them over (materialize's free ops: scalar arithmetic on the induction
/// variable and invariants, positions, broadcasts of invariants): their
/// lifetimes take no ring.
static std::vector<bool> recomputed(const LoopProblem &lp, scf::ForOp loop) {
  Value iv = loop.getInductionVar();
  std::vector<bool> free(lp.ops.size(), false);
  for (auto [id, op] : llvm::enumerate(lp.ops)) {
    if (op->getNumRegions() || !isMemoryEffectFree(op) ||
        !(llvm::all_of(op->getResultTypes(),
                       [](Type t) { return t.isIntOrIndex(); }) ||
          isPositionOp(op) || isa<tileas::BroadcastOp>(op)))
      continue;
    free[id] = llvm::all_of(op->getOperands(), [&](Value v) {
      Region *r = v.getParentRegion();
      bool inBody =
          r && (r == &loop.getRegion() || loop.getRegion().isAncestor(r));
      if (v == iv || !inBody)
        return true;
      Operation *def = v.getDefiningOp();
      auto it = def ? lp.ids.find(def) : lp.ids.end();
      return it != lp.ids.end() && free[it->second];
    });
  }
  return free;
}

Lifetime tilepipe::longestLifetime(const LoopProblem &lp,
                                   const sched::ScheduleAnalysis &analysis) {
  Lifetime longest;
  const int64_t ii = std::max<int64_t>(1, analysis.ii);
  auto loop = const_cast<scf::ForOp &>(lp.loop);
  Block *body = loop.getBody();
  std::vector<bool> free = recomputed(lp, loop);
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
