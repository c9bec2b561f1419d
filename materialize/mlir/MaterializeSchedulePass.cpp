//===- MaterializeSchedulePass.cpp - --tileas-materialize-schedule --------===//
//
// Pass 2: plans the pipes and mutexes of every scheduled loop from the
// published schedule alone. Loops without a valid schedule stay as they are
// and a remark says why.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/Passes.h"

#include "materialize/mlir/LoopPlan.h"
#include "materialize/mlir/Unspecialize.h"
#include "materialize/mlir/WarpSpecialize.h"
#include "materialize/plan/AgentProgram.h"

#include "mlir/IR/Diagnostics.h"

namespace tilepipe {
#define GEN_PASS_DEF_TILEASMATERIALIZESCHEDULE
#include "materialize/mlir/Passes.h.inc"
} // namespace tilepipe

using namespace mlir;
using namespace tilepipe;

namespace {

struct MaterializeSchedulePass
    : public tilepipe::impl::TileASMaterializeScheduleBase<
          MaterializeSchedulePass> {
  using TileASMaterializeScheduleBase::TileASMaterializeScheduleBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (mode != "warp-specialized" && mode != "unspecialized" && mode != "plan")
      return emitError(UnknownLoc::get(context))
             << "unknown materialization mode '" << mode
             << "' (expected warp-specialized, unspecialized or plan)";
    return loadTargetOption(context, targetFile, target, owned);
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops = innermostLoops(getOperation());
    std::optional<std::reference_wrapper<PublishedSchedules>> cached =
        getCachedAnalysis<PublishedSchedules>();
    const PublishedSchedules *published = cached ? &cached->get() : nullptr;
    bool ok = true;
    for (scf::ForOp loop : loops) {
      std::string why;
      FailureOr<LoopPlan> plan = buildLoopPlan(loop, published, *target, why);
      if (failed(plan)) {
        if (why.empty()) {
          ok = false; // Reported as an error already.
          continue;
        }
        emitRemark(loop.getLoc()) << "loop left unchanged: " << why;
        continue;
      }
      // The protocol the plan implies, warp-specialized, is executed
      // abstractly before anything is emitted.
      std::vector<std::string> names;
      for (const sched::Operation &op : plan->loop.problem.getOps())
        names.push_back(op.name);
      protocol::Program program = materialize::buildAgentProgram(
          plan->schedule, plan->input.units, plan->warpGroups, plan->buffers,
          plan->mutexes, names);
      std::vector<uint64_t> tripCounts;
      std::optional<protocol::Violation> violation =
          materialize::checkAgentProgram(program, plan->schedule.numStages,
                                         protocolSeeds, &tripCounts);
      if (violation) {
        emitError(loop.getLoc())
            << "protocol check failed: " << protocol::kindName(violation->kind)
            << ": " << violation->message << " (seed " << violation->seed
            << ")";
        ok = false;
        continue;
      }
      if (printPlan) {
        llvm::raw_ostream &os = llvm::outs();
        os << "// materialization plan of loop at " << loop.getLoc() << "\n";
        printLoopPlan(os, *plan);
        os << "agents:";
        for (const protocol::Agent &agent : program.agents) {
          os << " " << agent.name << " (" << agent.body.size() << " steps)";
        }
        os << "\nprotocol check: ok (trip counts";
        for (uint64_t n : tripCounts)
          os << " " << n;
        os << "; " << protocolSeeds << " interleavings each)\n\n";
        os.flush();
      }
      if (mode == "warp-specialized") {
        std::string why;
        if (failed(emitWarpSpecialized(*plan, why)))
          emitRemark(loop.getLoc()) << "loop not warp-specialized: " << why;
      } else if (mode == "unspecialized") {
        std::string why;
        if (failed(emitUnspecialized(*plan, why)))
          emitRemark(loop.getLoc()) << "loop not peeled: " << why;
      }
    }
    // The loops were rewritten: nothing is preserved, and the pass manager
    // verifies the new IR.
    if (!ok)
      signalPassFailure();
  }

  const target::TargetModel *target = nullptr;
  std::shared_ptr<target::TargetModel> owned;
};

} // namespace
