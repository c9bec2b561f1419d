//===- IssueTurns.cpp - two warpgroups' wgmma issue turns -----------------===//
//
// analysis/IssueTurns.h picks the agents; runtime/issue_turns.cuh has the
// barriers. A warpgroup takes the turn at its first wgmma issue and passes
// it before it first waits for one of the MMAs it issued in that turn (or
// before the agent meets, which the other warpgroup could not reach while
// it waits for the turn). The state is known as the code is emitted;
// branches and loop bodies end in the state they began in.
//
//===----------------------------------------------------------------------===//

#include "cuda/emit/KernelEmitter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

Value KernelEmitter::warpgroupInAgent() {
  return literal(b.getI32Type(), llvm::formatv("((tp_warp - {0}) / 4)",
                                               layout.agents[agent].firstWarp)
                                     .str());
}

void KernelEmitter::openIssueTurns() {
  issueTurn = {};
  if (!issueTurns())
    return;
  const AgentLayout &a = layout.agents[agent];
  groupIndex = warpgroupInAgent();
  groupLeader =
      call(i1(), "tp::elect_leader",
           {literal(i64(), llvm::formatv("({0} + 4 * ((tp_warp - {0}) / 4))",
                                         a.firstWarp)
                               .str())});
  turnCall("tp::issue_turn_open");
}

void KernelEmitter::turnCall(llvm::StringRef callee) {
  callVoid(callee, {groupIndex},
           {std::to_string(layout.agents[agent].issueTurnBarrier)});
}

void KernelEmitter::closeIssueTurns() {
  if (!issueTurns())
    return;
  if (issueTurn.held)
    passIssueTurn();
  turnCall("tp::issue_turn_close");
}

void KernelEmitter::issueInTurn() {
  if (!issueTurns())
    return;
  if (!issueTurn.held) {
    turnCall("tp::issue_turn_take");
    issueTurn = {true, 0};
  }
  ++issueTurn.groups;
}

void KernelEmitter::passIssueTurn() {
  turnCall("tp::issue_turn_pass");
  issueTurn = {};
}

void KernelEmitter::wgmmaWait(int64_t n) {
  if (issueTurns() && issueTurn.held && n < issueTurn.groups)
    passIssueTurn();
  callVoid("tp::wgmma_wait", {}, {std::to_string(n)});
}

void KernelEmitter::releaseSync() {
  if (!issueTurns()) {
    agentSync();
    return;
  }
  callVoid("tp::group_sync", {groupIndex},
           {std::to_string(layout.agents[agent].groupBarrier)});
}

void KernelEmitter::restoreIssueTurn(const IssueTurn &to) {
  if (!issueTurns() || issueTurn.held == to.held)
    return;
  turnCall(issueTurn.held ? "tp::issue_turn_pass" : "tp::issue_turn_take");
  issueTurn = to;
}
