//===- MaterializeSchedulePass.cpp - --tileas-materialize-schedule --------===//
//
// Pass 2: plans the pipes and mutexes of every scheduled loop from the
// published schedule alone. Loops without a valid schedule stay as they are
// and a remark says why.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/Passes.h"

#include "materialize/mlir/LoopPlan.h"
#include "materialize/mlir/StageCode.h"

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
      if (printPlan) {
        llvm::raw_ostream &os = llvm::outs();
        os << "// materialization plan of loop at " << loop.getLoc() << "\n";
        printLoopPlan(os, *plan);
        os << "\n";
        os.flush();
      }
      if (mode == "plan")
        continue;
      StageCodeMode codeMode = mode == "warp-specialized"
                                   ? StageCodeMode::WarpSpecialized
                                   : StageCodeMode::Unspecialized;
      why.clear();
      if (failed(emitStageCode(*plan, codeMode, why)))
        emitRemark(loop.getLoc())
            << (codeMode == StageCodeMode::WarpSpecialized
                    ? "loop not warp-specialized: "
                    : "loop not peeled: ")
            << why;
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
