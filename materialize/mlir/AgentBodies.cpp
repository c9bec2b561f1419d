//===- AgentBodies.cpp - the agents around their rows ---------------------===//
//
// Warp-specialized, one `tileas.agent` per agent of the partition, with the
// warps its row of the role table gives; an epilogue agent where parts of
// the code after the loop have no agent of their own. Around its rows an
// agent publishes the initial buffers of the pipes it carries through,
// hands its results on, and drains what nobody reads.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCodeEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::stagecode;

void StageCodeEmitter::emitAgents(OpBuilder &b) {
  Location loc = loop.getLoc();
  for (auto [a, agent] : llvm::enumerate(agents)) {
    OpBuilder ab = makeAgent(b, roleOf(unsigned(a)),
                             materialize::agentWarps(agent), agent.ops.front());
    SmallVector<Value> finals;
    runAgent(ab, unsigned(a), finals);
    for (const Part &part : parts)
      if (part.host && *part.host == a)
        epilogueIn(ab, part, finals);
    ab.create<tileas::AgentYieldOp>(loc, /*stage=*/IntegerAttr(),
                                    /*order=*/IntegerAttr());
  }
  // Accumulators read after the loop: an epilogue agent (CUTLASS's
  // epilogue warps) waits for them, runs that code and releases them.
  if (llvm::any_of(parts, [](const Part &part) { return !part.host; })) {
    OpBuilder eb =
        makeAgent(b, tileas::stringifyAgentRole(tileas::AgentRole::Epilogue), 4,
                  std::nullopt);
    for (const Part &part : parts)
      if (!part.host)
        epilogueIn(eb, part, {});
    eb.create<tileas::AgentYieldOp>(loc, /*stage=*/IntegerAttr(),
                                    /*order=*/IntegerAttr());
  }
}

OpBuilder StageCodeEmitter::makeAgent(OpBuilder &b, StringRef role,
                                      int32_t warps,
                                      std::optional<OpId> first) {
  ScheduleTag tag = first ? tagOf(b, *first) : ScheduleTag();
  auto agent = b.create<tileas::AgentOp>(loop.getLoc(), role, warps,
                                         /*regs=*/IntegerAttr(),
                                         /*replicas=*/IntegerAttr(), tag.stage,
                                         tag.order);
  return OpBuilder::atBlockEnd(&agent.getBody().emplaceBlock());
}

void StageCodeEmitter::runAgent(OpBuilder &b, unsigned a,
                                SmallVectorImpl<Value> &finals) {
  publishInitialSlots(b, a);
  acquireResultSlots(b, a);
  emitAgent(b, a, finals);
  commitResults(b, a, finals);
  for (auto [pos, k] : llvm::enumerate(agents[a].carried))
    if (transports.count(k) && makerOf(k) == a)
      sendResult(b, k, finals[pos]);
  drainLastIteration(b, a);
}

/// A carried accumulator's pipe iteration 0 is the loop's initial buffer:
/// its producer publishes it before the first iteration. So is a register
/// tile's carried to another agent: pipe iteration 0 is the loop's initial
/// value.
void StageCodeEmitter::publishInitialSlots(OpBuilder &b, unsigned a) {
  const auto &plans = plan.buffers.pipes;
  PipeOps hs = handshakes(b);
  for (auto [k, p] : carriedPipe) {
    if (agentOf[plans[p].producer] != int(a))
      continue;
    Value slot =
        hs.acquire(pipes[p], cst(b, 0), loop.getInitArgs()[k].getType());
    hs.commit(pipes[p], cst(b, 0), slot, commitVia(plans[p].producerUnit));
  }
  for (auto [p, k] : regCarriedArg) {
    if (agentOf[plans[p].producer] != int(a))
      continue;
    Value slot = hs.acquire(pipes[p], cst(b, 0), slotType(p));
    Value stored = storeToSlot(b, initOf(k), slot);
    hs.commit(pipes[p], cst(b, 0), stored, tileas::SignalKind::Arrive);
  }
}

/// After the last iteration, pipe iteration N of a carried pipe holds the
/// loop's result. Nobody reading a carried accumulator after the loop, its
/// reader drains it, so no MMA is in flight when the kernel ends. The last
/// iteration's register tile carried to another agent is read by no
/// iteration: each of its readers drains it, unless it is handed on.
void StageCodeEmitter::drainLastIteration(OpBuilder &b, unsigned a) {
  for (auto [k, p] : carriedPipe)
    if (carriedReader(p) == a && loop->getResult(k).use_empty()) {
      waitCarried(b, k);
      releaseCarried(b, k);
    }
  for (auto [p, k] : regCarriedArg) {
    bool handedOn = llvm::any_of(transports, [&, p = p](auto &t) {
      return t.second.kind == Transport::Tail && t.second.pipe == p;
    });
    for (const ConsumerGroup &g : groups)
      if (g.pipe == p && g.agent == a && !handedOn) {
        Value n = tripCount(b);
        PipeOps hs = handshakes(b);
        hs.wait(pipes[p], n, slotType(p));
        hs.release(pipes[p], n, tileas::SignalKind::Arrive);
      }
  }
}
