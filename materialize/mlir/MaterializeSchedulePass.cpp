//===- MaterializeSchedulePass.cpp - --tileas-materialize-schedule --------===//
//
// Pass 2: plans the pipes and mutexes of every scheduled loop from the
// published schedule alone. Loops without a valid schedule stay as they are
// and a remark says why.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/Passes.h"

#include "materialize/mlir/LoopPlan.h"

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
    if (targetFile.empty()) {
      target = &target::TargetModel::sm100a();
      return success();
    }
    llvm::Expected<target::TargetModel> loaded =
        target::TargetModel::fromFile(targetFile);
    if (!loaded) {
      std::string msg = llvm::toString(loaded.takeError());
      return emitError(UnknownLoc::get(context))
             << "failed to load target description: " << msg;
    }
    owned = std::make_shared<target::TargetModel>(std::move(*loaded));
    target = owned.get();
    return success();
  }

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      bool innermost = true;
      loop.getBody()->walk([&](scf::ForOp) { innermost = false; });
      if (innermost)
        loops.push_back(loop);
    });
    std::optional<std::reference_wrapper<PublishedSchedules>> cached =
        getCachedAnalysis<PublishedSchedules>();
    const PublishedSchedules *published =
        cached ? &cached->get() : nullptr;
    bool ok = true;
    for (scf::ForOp loop : loops) {
      std::string why;
      FailureOr<LoopPlan> plan = buildLoopPlan(loop, published, *target, why);
      if (failed(plan)) {
        if (why.empty()) {
          ok = false; // Reported as an error already.
          continue;
        }
        emitRemark(loop.getLoc())
            << "loop left unchanged: " << why;
        continue;
      }
      if (printPlan) {
        llvm::outs() << "// materialization plan of loop at " << loop.getLoc()
                     << "\n";
        printLoopPlan(llvm::outs(), *plan);
        llvm::outs() << "\n";
        llvm::outs().flush();
      }
    }
    markAllAnalysesPreserved();
    if (!ok)
      signalPassFailure();
  }

  const target::TargetModel *target = nullptr;
  std::shared_ptr<target::TargetModel> owned;
};

} // namespace
