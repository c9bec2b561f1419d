//===- ConsumerReplicas.cpp - ping-pong or cooperative consumers ----------===//

#include "materialize/mlir/ConsumerReplicas.h"

#include "ir/TileASDialect.h"
#include "ir/WgmmaStaging.h"
#include "ir/WgmmaWarpgroups.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace tilepipe {

std::optional<ConsumerForm> parseConsumerForm(llvm::StringRef text) {
  if (text == "auto")
    return ConsumerForm::Auto;
  if (text == "cooperative")
    return ConsumerForm::Cooperative;
  if (text == "pingpong")
    return ConsumerForm::PingPong;
  return std::nullopt;
}

namespace {

/// The agent whose warps issue the function's wgmmas, or null; `agents`:
/// how many agents issue them.
tileas::AgentOp wgmmaAgent(Operation *func, unsigned &agents) {
  llvm::SmallPtrSet<Operation *, 2> issuers;
  tileas::AgentOp found;
  func->walk([&](tileas::WgmmaOp mma) {
    if (auto agent = mma->getParentOfType<tileas::AgentOp>()) {
      found = agent;
      issuers.insert(agent);
    }
  });
  agents = issuers.size();
  return found;
}

/// What one copy's accumulators may take a thread: a 128 x 128 f32 tile.
/// Each copy gets 240 registers beside the producer's 24 (docs/cuda.md,
/// "Registers"), and the rest hold the epilogue's pieces and addresses.
constexpr int64_t kCopyAccumulatorRegisters = 128;

/// The registers a thread of one copy holds its accumulators in: each
/// accumulator once, however many wgmmas (peeled copies, K steps) write it
/// and loops carry it.
int64_t accumulatorRegisters(tileas::AgentOp agent) {
  tileas::AccumulatorClasses same;
  tileas::joinCarried(same, agent);
  llvm::SmallPtrSet<void *, 4> counted;
  int64_t registers = 0;
  agent.walk([&](tileas::WgmmaOp mma) {
    Value leader = same.getLeaderValue(mma.getResult());
    if (counted.insert(leader.getAsOpaquePointer()).second)
      registers += tileas::issuedRows(mma) * mma.getMmaN() / 128;
  });
  return registers;
}

/// Why `agent`'s body cannot be copied: each copy runs it for its own
/// tiles, so what the body shares across tiles besides the pipes (which
/// the translation counts in tile order) must not be there.
std::string whyNotCopied(tileas::AgentOp agent) {
  // The copies take turns on the one op of the body that waits on pipes:
  // the loop, or the branch on the trip count around a peeled loop.
  unsigned waiting = 0;
  for (Operation &op : agent.getBody().front())
    if (op.walk([](tileas::PipeConsumerWaitOp) {
            return WalkResult::interrupt();
          }).wasInterrupted())
      ++waiting;
  if (waiting != 1)
    return "the consumer waits on its pipes in " + std::to_string(waiting) +
           " places a tile; the copies take turns on one";
  std::string why;
  agent.walk([&](Operation *op) {
    if (auto mma = dyn_cast<tileas::WgmmaOp>(op)) {
      if (tileas::consumerWarpgroups(mma) != 1)
        why = "the accumulator takes " +
              std::to_string(tileas::consumerWarpgroups(mma)) +
              " warpgroups (cooperative); a ping-pong copy holds a whole "
              "accumulator in one";
      else if (!isa<tileas::SmemType>(mma.getA().getType()))
        why = "a wgmma takes A in registers";
      else if (tileas::isNarrowTile(mma))
        // Its epilogue runs in one warp of the copy (docs/cuda.md).
        why = "a narrow tile's epilogue is staged through one warp";
      else if (tileas::stagedOperandBytes(mma))
        // Its two staging tiles would be both copies'.
        why = "an operand given MN-major is transposed through one staging "
              "ring";
    } else if (isa<tileas::PipeProducerAcquireOp>(op)) {
      // Another agent would read its slots in tile order, not copy by copy.
      why = "the consumer fills a pipe another agent reads";
    } else if (auto lanes = dyn_cast<tileas::ReduceLanesOp>(op);
               (lanes && lanes.getLanes() > 32) ||
               isa<tileas::ReduceAllOp>(op)) {
      // Its scratch and named barrier would be both copies'.
      why = "the epilogue combines values across warps";
    } else if (isa<tileas::MutexLockOp, tileas::MutexUnlockOp>(op)) {
      why = "the consumer takes a mutex of its own";
    }
    return why.empty() ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (!why.empty())
    return why;
  int64_t registers = accumulatorRegisters(agent);
  if (registers > kCopyAccumulatorRegisters)
    return "the accumulators take " + std::to_string(registers) +
           " registers a thread; a ping-pong copy holds at most " +
           std::to_string(kCopyAccumulatorRegisters);
  return why;
}

} // namespace

/// The consumer agent ping-pong copies would run, or null with `why`.
static tileas::AgentOp copyableAgent(Operation *func, std::string &why) {
  if (!func->hasAttr("tileas.persistent")) {
    why = "the kernel is not persistent (each CTA runs one tile)";
    return {};
  }
  unsigned agents = 0;
  tileas::AgentOp agent = wgmmaAgent(func, agents);
  if (!agent)
    why = func->walk([](tileas::WgmmaOp) {
                return WalkResult::interrupt();
              }).wasInterrupted()
              ? "the stage code is peeled: no consumer agent to copy"
              : "no wgmma consumer";
  else if (agents != 1)
    why = "wgmmas are issued by " + std::to_string(agents) + " agents";
  else if (why = whyNotCopied(agent); why.empty() && agent.getWarps() != 4)
    why = "the consumer has " + std::to_string(agent.getWarps()) +
          " warps, not one warpgroup";
  return why.empty() ? agent : tileas::AgentOp();
}

std::string chooseConsumerReplicas(Operation *func, ConsumerForm form) {
  if (form == ConsumerForm::Cooperative)
    return "";
  std::string why;
  tileas::AgentOp agent = copyableAgent(func, why);
  if (!agent)
    return form == ConsumerForm::PingPong ? why : "";
  // One warpgroup's accumulator is at most 128 registers a thread; two
  // copies beside the producer's warpgroup get 240 each from the pool
  // (docs/cuda.md, "Registers"), which holds it and the epilogue's pieces.
  agent.setReplicasAttr(Builder(func->getContext()).getI32IntegerAttr(2));
  return "";
}

} // namespace tilepipe
