//===- IssueTurns.cpp - which agents' warpgroups take wgmma turns ---------===//
//
// See IssueTurns.h. Measured on an H200 (docs/cuda.md, "Issue turns"):
// attention at head dim 128 went from 0.240 ms in step to 0.224 ms with
// the warpgroups releasing alone, and to 0.211 ms taking turns with S and
// P V issued together (bench/gpu/runs/2026-12-04-run3-*).
//
//===----------------------------------------------------------------------===//

#include "cuda/analysis/IssueTurns.h"

#include "attrs/AttrNames.h"
#include "cuda/analysis/WgmmaAccumulators.h"
#include "ir/TileASDialect.h"
#include "ir/WgmmaWarpgroups.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

namespace {
/// Two consumer warpgroups that issue wgmma and read an accumulator's rows
/// in a loop: the code between their MMAs is worth overlapping.
bool readsAccumulatorInLoop(const AgentLayout &a) {
  if (!a.op || a.warps != 8 || a.replicas != 1)
    return false;
  bool twoGroups = false, rowsInLoop = false;
  a.op->walk([&](Operation *op) {
    if (auto mma = dyn_cast<tileas::WgmmaOp>(op))
      twoGroups |= tileas::consumerWarpgroups(mma) == 2;
    auto to = op->getAttrOfType<StringAttr>(kFragmentAttr);
    if (isa<UnrealizedConversionCastOp>(op) && to && to.getValue() == "rows")
      if (auto loop = op->getParentOfType<scf::ForOp>())
        rowsInLoop |= a.op->isProperAncestor(loop);
  });
  return twoGroups && rowsInLoop;
}

/// Whether each pipelined loop of the agent (the kernel of a modulo
/// schedule, not the loop of short trip counts beside it) issues all its
/// wgmmas before its code reads an accumulator one of them wrote in the
/// same iteration: then one turn holds both MMAs and the code after it
/// runs beside the other warpgroup's (materialize/mlir/KernelRotation.h
/// begins attention's iteration so). Otherwise the warpgroup would take a
/// turn per MMA and wait for each inside it.
bool issuesBeforeReads(Operation *agent) {
  bool ok = true;
  agent->walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(attrs::kII))
      return;
    Block *body = loop.getBody();
    Operation *lastIssue = nullptr;
    for (Operation &op : *body)
      if (op.walk([](tileas::WgmmaOp) {
              return WalkResult::interrupt();
            }).wasInterrupted())
        lastIssue = &op;
    if (!lastIssue)
      return;
    body->walk([&](tileas::WgmmaOp mma) {
      for (Operation *user : mma->getUsers()) {
        Operation *at = body->findAncestorOpInBlock(*user);
        if (!isa<tileas::WgmmaOp, scf::YieldOp>(user) && at &&
            !lastIssue->isBeforeInBlock(at))
          ok = false;
      }
    });
  });
  return ok;
}

} // namespace

LogicalResult cuda::planIssueTurns(func::FuncOp func, KernelLayout &layout,
                                   std::set<int> &used) {
  if (func->hasAttr("tileas.persistent"))
    return success();
  std::vector<bool> turns;
  for (const AgentLayout &a : layout.agents)
    turns.push_back(readsAccumulatorInLoop(a) && issuesBeforeReads(a.op));
  if (llvm::none_of(turns, [](bool t) { return t; }))
    return success();
  // The agents that arrive on each empty barrier: all of them count an
  // arrival per warpgroup, or none.
  std::map<std::string, std::set<unsigned>> releasers;
  for (const PipeLayout &p : layout.pipes)
    for (Operation *user : p.op->getUsers())
      if (isa<tileas::PipeConsumerReleaseOp>(user))
        releasers[p.empty].insert(agentOf(layout, user));
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto &[barrier, agents] : releasers) {
      bool any = llvm::any_of(agents, [&](unsigned a) { return turns[a]; });
      bool all = llvm::all_of(agents, [&](unsigned a) { return turns[a]; });
      if (any && !all)
        for (unsigned a : agents)
          if (turns[a]) {
            turns[a] = false;
            changed = true;
          }
    }
  }
  for (PipeLayout &p : layout.pipes) {
    auto it = releasers.find(p.empty);
    if (p.empty == "empty" + std::to_string(p.id) && it != releasers.end() &&
        llvm::all_of(it->second, [&](unsigned a) { return turns[a]; }))
      p.emptyCount *= 2;
  }
  for (auto [a, takes] : llvm::zip(layout.agents, turns)) {
    if (!takes)
      continue;
    // Each pair consecutive: a warpgroup's id is the first plus its index.
    auto pair = [&] {
      int first = 1;
      while (used.count(first) || used.count(first + 1))
        ++first;
      used.insert(first);
      used.insert(first + 1);
      return first;
    };
    a.groupBarrier = pair();
    a.issueTurnBarrier = pair();
  }
  return countNamedBarriers(func, layout, used);
}
