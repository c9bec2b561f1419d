//===- CheckProtocolPass.cpp - --tileas-check-protocol --------------------===//
//
// Reads emitted pipe/mutex code back into the checker's model: one agent per
// tileas.agent, its loop body as the per-iteration program (acquire = the
// slot is taken and written, wait = the slot is waited for and read), the
// handshakes outside its loop as prologue and epilogue.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/Passes.h"

#include "materialize/protocol/Protocol.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <set>

namespace tilepipe {
#define GEN_PASS_DEF_TILEASCHECKPROTOCOL
#include "materialize/mlir/Passes.h.inc"
} // namespace tilepipe

using namespace mlir;
using namespace tilepipe;
using protocol::Step;

namespace {

struct CheckProtocolPass
    : public tilepipe::impl::TileASCheckProtocolBase<CheckProtocolPass> {
  using TileASCheckProtocolBase::TileASCheckProtocolBase;
  void runOnOperation() override;
  /// The function's protocol; nullopt when it has no agents.
  std::optional<protocol::Program> readProgram(FunctionOpInterface func,
                                               unsigned &maxDepth);
};

} // namespace

std::optional<protocol::Program>
CheckProtocolPass::readProgram(FunctionOpInterface func, unsigned &maxDepth) {
  protocol::Program program;
  llvm::DenseMap<Value, unsigned> pipes, mutexes;
  std::vector<Operation *> agents;
  maxDepth = 1;
  func->walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name == "tileas.pipe.create") {
      protocol::Pipe pipe;
      pipe.name = "pipe" + std::to_string(program.pipes.size());
      auto depth = op->getAttrOfType<IntegerAttr>("depth");
      pipe.depth = depth ? unsigned(depth.getInt()) : 1;
      maxDepth = std::max(maxDepth, pipe.depth);
      pipe.consumers = 0;
      pipes[op->getResult(0)] = program.pipes.size();
      program.pipes.push_back(pipe);
    } else if (name == "tileas.mutex.create") {
      protocol::Mutex mutex;
      mutex.name = "mutex" + std::to_string(program.mutexes.size());
      auto groups = op->getAttrOfType<IntegerAttr>("groups");
      mutex.groups = groups ? unsigned(groups.getInt()) : 2;
      mutexes[op->getResult(0)] = program.mutexes.size();
      program.mutexes.push_back(mutex);
    } else if (name == "tileas.agent") {
      agents.push_back(op);
    }
  });
  if (agents.empty())
    return std::nullopt;

  // Consumers per pipe: the agents that wait on it, each with its index.
  std::vector<llvm::DenseMap<Operation *, unsigned>> consumerIndex(
      program.pipes.size());
  for (Operation *agent : agents)
    agent->walk([&](Operation *op) {
      if (op->getName().getStringRef() != "tileas.pipe.consumer_wait")
        return;
      auto it = pipes.find(op->getOperand(0));
      if (it == pipes.end())
        return;
      auto &indices = consumerIndex[it->second];
      indices.try_emplace(agent, indices.size());
    });
  for (auto [p, indices] : llvm::enumerate(consumerIndex))
    program.pipes[p].consumers = std::max<unsigned>(1, indices.size());

  for (auto [a, agentOp] : llvm::enumerate(agents)) {
    protocol::Agent agent;
    auto role = agentOp->getAttrOfType<StringAttr>("role");
    agent.name = (role ? role.getValue().str() : "agent") + std::to_string(a);
    auto translate = [&](Operation *op, std::vector<protocol::Instr> &out) {
      StringRef name = op->getName().getStringRef();
      std::string label = name.str();
      auto pipe = [&]() { return pipes.lookup(op->getOperand(0)); };
      if (name == "tileas.pipe.producer_acquire") {
        out.push_back({Step::Acquire, pipe(), 0, label, 0});
        out.push_back({Step::Write, pipe(), 0, label, 0});
      } else if (name == "tileas.pipe.producer_commit") {
        out.push_back({Step::Commit, pipe(), 0, label, 0});
      } else if (name == "tileas.pipe.consumer_wait") {
        out.push_back({Step::Wait, pipe(), 0, label, 0});
        out.push_back({Step::Read, pipe(), 0, label, 0});
      } else if (name == "tileas.pipe.consumer_release") {
        out.push_back({Step::Release, pipe(),
                       consumerIndex[pipe()].lookup(agentOp), label, 0});
      } else if (name == "tileas.mutex.lock" || name == "tileas.mutex.unlock") {
        unsigned m = mutexes.lookup(op->getOperand(0));
        if (auto c = op->getOperand(1).getDefiningOp<arith::ConstantIndexOp>())
          agent.groupIndex = unsigned(c.value());
        out.push_back({name == "tileas.mutex.lock" ? Step::Lock : Step::Unlock,
                       m, 0, label, 0});
      }
    };
    // Handshakes in the agent's loop run per iteration; those before or
    // after it run once.
    bool seenLoop = false;
    for (Operation &op : agentOp->getRegion(0).front()) {
      if (auto loop = dyn_cast<scf::ForOp>(op); loop && !seenLoop) {
        seenLoop = true;
        loop.getBody()->walk(
            [&](Operation *inner) { translate(inner, agent.body); });
        continue;
      }
      op.walk([&](Operation *inner) {
        translate(inner, seenLoop ? agent.epilogue : agent.prologue);
      });
    }
    program.agents.push_back(std::move(agent));
  }
  return program;
}

void CheckProtocolPass::runOnOperation() {
  getOperation()->walk([&](FunctionOpInterface func) {
    unsigned maxDepth = 1;
    std::optional<protocol::Program> program = readProgram(func, maxDepth);
    if (!program)
      return;
    std::set<uint64_t> counts = {
        0, 1, 2, 3, maxDepth, maxDepth + 1, 2 * uint64_t(maxDepth) + 3, 20};
    if (!tripCounts.empty())
      counts = std::set<uint64_t>(tripCounts.begin(), tripCounts.end());
    for (uint64_t n : counts) {
      protocol::CheckOptions options;
      options.tripCount = n;
      if (std::optional<protocol::Violation> v =
              protocol::checkMany(*program, options, seeds)) {
        func.emitError() << "protocol check failed for trip count " << n << ": "
                         << v->message << " (seed " << v->seed << ")";
        signalPassFailure();
        return;
      }
    }
    if (print) {
      llvm::outs() << "protocol check of @" << func.getName() << ": ok ("
                   << program->agents.size() << " agents, "
                   << program->pipes.size() << " pipes, "
                   << program->mutexes.size() << " mutexes; trip counts";
      for (uint64_t n : counts)
        llvm::outs() << " " << n;
      llvm::outs() << "; " << seeds << " interleavings each)\n";
    }
  });
  markAllAnalysesPreserved();
}
