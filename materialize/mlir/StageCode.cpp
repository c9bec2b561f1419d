//===- StageCode.cpp - stage code from a plan, step by step ---------------===//
//
// See StageCode.h and docs/materialize.md, "Stage code in three steps". The
// driver: the steps that decide (partition, reads, the code after the loop)
// check that the loop can be split as asked without touching the IR; the
// steps that build (pipes and mutexes, rows, agents) then cannot fail.
// StageCodeEmitter.h says which file holds which step.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/StageCodeEmitter.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::stagecode;

LogicalResult StageCodeEmitter::analyze(std::string &why) {
  if (failed(checkBody(why)))
    return failure();
  partition();
  if (failed(planRegisterPipes(why)) || failed(checkPipeProducers(why)) ||
      failed(collectReads(why)) || failed(planReleases(why)) ||
      failed(assignCarried(why)))
    return failure();
  splitCodeAfterLoop();
  if (failed(findResultPipes(why)))
    return failure();
  if (mode == StageCodeMode::WarpSpecialized)
    return placeCodeAfterLoop(why);
  return success();
}

void StageCodeEmitter::emit() {
  OpBuilder b(loop);
  createPipes(b);
  createMutexes(b);
  createResultPipes(b);
  createTransportPipes(b);
  if (mode == StageCodeMode::Unspecialized) {
    SmallVector<Value> finals;
    runAgent(b, 0, finals);
    resultsInBody(b, finals);
    eraseLoop();
    return;
  }
  emitAgents(b);
  // Or the function body reads the results, after every agent.
  if (hostIsMain)
    resultsInBody(b, {});
  for (Operation *op : llvm::reverse(epilogue))
    op->erase();
  eraseLoop();
}

std::string StageCodeEmitter::typeName(Type t) const {
  std::string type;
  llvm::raw_string_ostream os(type);
  os << t;
  return type;
}

std::string StageCodeEmitter::agentName(unsigned a) const {
  std::string role = roleOf(a).str();
  if (rowOf(a).perWarpGroup && grouped())
    return role + " agent (warp group " + std::to_string(agents[a].key.group) +
           ")";
  return role + " agent";
}

StringRef StageCodeEmitter::roleOf(unsigned a) const {
  StringRef role = materialize::stringifyRole(agents[a].key.role);
  if (rowOf(a).perWarpGroup && grouped())
    role = tileas::stringifyAgentRole(tileas::AgentRole::Softmax);
  if (auto named =
          ops[agents[a].ops.front()]->getAttrOfType<StringAttr>("tileas.role"))
    role = named.getValue();
  return role;
}

LogicalResult tilepipe::emitStageCode(LoopPlan &plan, StageCodeMode mode,
                                      std::string &why) {
  StageCodeEmitter emitter(plan, mode);
  if (failed(emitter.analyze(why)))
    return failure();
  emitter.emit();
  return success();
}

void tilepipe::printAgents(llvm::raw_ostream &os, const LoopPlan &plan) {
  os << "// agents of loop at " << plan.loop.loop->getLoc() << "\n";
  materialize::PartitionInput input{plan.input.units, plan.warpGroups,
                                    findFreeOps(plan.loop), /*peeled=*/false,
                                    plan.minWarps};
  materialize::printAgentPartition(
      os, materialize::partitionAgents(input, plan.schedule), plan.schedule,
      [&](OpId id) { return plan.loop.problem.getOp(id).name; });
}
