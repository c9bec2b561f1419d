//===- JoinPipes.cpp - one pipe for tiles loaded and consumed together ----===//
//
// Two pipes can share their barriers when nothing could tell them apart:
// the same producer (a copy engine, whose commit can add bytes without
// arriving), the same depth and consumers, and slot ops that come in pairs,
// one of each pipe in the same block at the same iteration value. Then the
// first pipe's barriers guard both slots, provided its acquire and wait
// come first and its commit and release last in each pair; moving them so
// keeps SSA (the iteration value and the pipe dominate both ops of a pair,
// and a commit or release has no results).
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/JoinPipes.h"

#include "ir/TileASDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <tuple>

using namespace mlir;

namespace {

/// The slot ops of one pipe, keyed by (op kind, block, iteration value).
using SlotKey = std::tuple<unsigned, Block *, Value>;
using SlotOps = llvm::DenseMap<SlotKey, Operation *>;

unsigned kindOf(Operation *op) {
  if (isa<tileas::PipeProducerAcquireOp>(op))
    return 0;
  if (isa<tileas::PipeProducerCommitOp>(op))
    return 1;
  if (isa<tileas::PipeConsumerWaitOp>(op))
    return 2;
  if (isa<tileas::PipeConsumerReleaseOp>(op))
    return 3;
  return 4;
}

/// The pipe's slot ops, or nothing when it cannot take part: another pipe
/// shares, aliases or joins it, a release arrives for a ring's difference,
/// or two of its ops of one kind meet at one iteration value in one block.
std::optional<SlotOps> slotOps(tileas::PipeCreateOp pipe) {
  SlotOps ops;
  for (Operation *user : pipe->getUsers()) {
    unsigned kind = kindOf(user);
    if (kind == 4 || user->getOperand(0) != pipe.getResult())
      return std::nullopt;
    if (auto release = dyn_cast<tileas::PipeConsumerReleaseOp>(user);
        release && release.getArrivals())
      return std::nullopt;
    if (!ops.try_emplace({kind, user->getBlock(), user->getOperand(1)}, user)
             .second)
      return std::nullopt;
  }
  return ops;
}

bool joinable(tileas::PipeCreateOp pipe) {
  return pipe.getProducer() == "tma" && !pipe.getShares() &&
         !pipe.getAliases() && !pipe.getJoins() &&
         isa<tileas::SmemType>(pipe.getType().getPayload());
}

bool sameKeys(const SlotOps &a, const SlotOps &b) {
  if (a.size() != b.size())
    return false;
  for (const auto &entry : a)
    if (!b.count(entry.first))
      return false;
  return true;
}

/// A fence right after one of the same kind orders nothing more.
void dropRepeatedFences(Block *block) {
  tileas::FenceOp last;
  for (Operation &op : llvm::make_early_inc_range(*block)) {
    auto fence = dyn_cast<tileas::FenceOp>(&op);
    if (fence && last && fence.getKind() == last.getKind()) {
      fence->erase();
      continue;
    }
    last = fence;
  }
}

} // namespace

unsigned tilepipe::joinPipes(Operation *root) {
  SmallVector<tileas::PipeCreateOp> pipes;
  root->walk([&](tileas::PipeCreateOp pipe) {
    if (joinable(pipe))
      pipes.push_back(pipe);
  });
  SmallVector<std::optional<SlotOps>> ops;
  for (tileas::PipeCreateOp pipe : pipes)
    ops.push_back(slotOps(pipe));
  unsigned joined = 0;
  SmallVector<bool> taken(pipes.size(), false);
  for (size_t i = 0; i < pipes.size(); ++i) {
    if (taken[i] || !ops[i] || ops[i]->empty())
      continue;
    tileas::PipeCreateOp first = pipes[i];
    for (size_t j = i + 1; j < pipes.size(); ++j) {
      tileas::PipeCreateOp other = pipes[j];
      if (taken[j] || !ops[j] || other->getBlock() != first->getBlock() ||
          !first->isBeforeInBlock(other) ||
          other.getDepth() != first.getDepth() ||
          other.getConsumers() != first.getConsumers() ||
          !sameKeys(*ops[i], *ops[j]))
        continue;
      // The first pipe's acquire and wait lead each pair; its commit and
      // release close it.
      for (auto &[key, op] : *ops[i]) {
        Operation *mate = ops[j]->lookup(key);
        bool leads = std::get<0>(key) == 0 || std::get<0>(key) == 2;
        if (leads && mate->isBeforeInBlock(op))
          op->moveBefore(mate);
        else if (!leads && op->isBeforeInBlock(mate))
          op->moveAfter(mate);
      }
      // Each wait was followed by its fence; the pair now waits once, so
      // one fence of each kind after the two waits does.
      for (auto &[key, op] : *ops[j])
        if (std::get<0>(key) == 2)
          dropRepeatedFences(op->getBlock());
      other.getJoinsMutable().assign(first.getResult());
      other->setAttr(other.getOperandSegmentSizesAttrName(),
                     DenseI32ArrayAttr::get(other.getContext(), {0, 0, 1}));
      taken[j] = true;
      ++joined;
    }
  }
  return joined;
}
