//===- GenerateSchedulePass.cpp - --tileas-generate-schedule --------------===//
//
// Pass 1: schedule every innermost scf.for and publish the result. The IR is
// only annotated (tileas.schedule.* attributes), never rewritten.
//
//===----------------------------------------------------------------------===//

#include "scheduler/mlir/Passes.h"

#include "attrs/ResultAttrs.h"
#include "scheduler/SerialGenerator.h"
#include "scheduler/mlir/LoopProblem.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

namespace tilepipe {
#define GEN_PASS_DEF_TILEASGENERATESCHEDULE
#include "scheduler/mlir/Passes.h.inc"
} // namespace tilepipe

using namespace mlir;
using namespace tilepipe;

namespace {

struct GenerateSchedulePass
    : public tilepipe::impl::TileASGenerateScheduleBase<GenerateSchedulePass> {
  using TileASGenerateScheduleBase::TileASGenerateScheduleBase;

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
    ownedTarget = std::make_shared<target::TargetModel>(std::move(*loaded));
    target = ownedTarget.get();
    return success();
  }

  void runOnOperation() override;

  /// Schedules one loop; false when it could not be scheduled.
  bool scheduleLoop(scf::ForOp loop, PublishedSchedules &published);

  const target::TargetModel *target = nullptr;
  std::shared_ptr<target::TargetModel> ownedTarget;
};

} // namespace

bool GenerateSchedulePass::scheduleLoop(scf::ForOp loop,
                                        PublishedSchedules &published) {
  FailureOr<LoopProblem> built = buildLoopProblem(loop, *target);
  if (failed(built))
    return false;
  LoopProblem &lp = *built;

  sched::DiagnosticList diags;
  if (!lp.problem.check(diags)) {
    emitDiagnostics(lp, diags);
    attrs::clearScheduleAttrs(loop, lp.ops);
    return false;
  }
  rrt::Bounds bounds = lp.problem.computeBounds();

  sched::SelectionOptions options;
  options.request = generator;
  options.serialThreshold = serialThreshold;
  sched::GeneratorSelection selection =
      sched::selectGenerator(lp.problem, options);
  if (selection.kind == sched::GeneratorKind::CostBased) {
    diags.remark("the cost-based generator is not available in this build "
                 "(selected because " +
                 selection.reason +
                 "); scheduling the loop with the serial generator");
    selection = {sched::GeneratorKind::Serial,
                 "cost-based generator not available"};
  }

  std::optional<sched::ScheduleAnalysis> analysis =
      sched::generateSerialSchedule(lp.problem, diags);
  if (!analysis) {
    diags.error("failed to find a schedule");
    emitDiagnostics(lp, diags);
    attrs::clearScheduleAttrs(loop, lp.ops);
    return false;
  }
  analysis->bounds = bounds;
  analysis->selectionReason = selection.reason;

  // Every published schedule is verified; a failure here is a bug in a
  // generator, reported as such rather than published.
  sched::DiagnosticList violations;
  if (!lp.problem.verify(analysis->toSchedule(), violations)) {
    for (sched::Diagnostic &v : violations.all())
      v.message = "internal error: generated schedule fails verification: " +
                  v.message;
    emitDiagnostics(lp, diags);
    emitDiagnostics(lp, violations);
    attrs::clearScheduleAttrs(loop, lp.ops);
    return false;
  }
  emitDiagnostics(lp, diags);

  attrs::writeScheduleAttrs(loop, lp.ops, *analysis);
  if (printSchedule) {
    llvm::raw_ostream &os = llvm::outs();
    os << "// schedule of loop at " << loop.getLoc() << "\n";
    analysis->print(os, lp.problem, target);
    os << "\n";
    os.flush();
  }
  published.loops[loop.getOperation()] = {lp.ops, std::move(*analysis)};
  return true;
}

void GenerateSchedulePass::runOnOperation() {
  // Innermost loops only, in program order.
  SmallVector<scf::ForOp> loops;
  getOperation()->walk([&](scf::ForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](scf::ForOp) { innermost = false; });
    if (innermost)
      loops.push_back(loop);
  });
  PublishedSchedules &published = getAnalysis<PublishedSchedules>();
  bool ok = true;
  for (scf::ForOp loop : loops)
    ok &= scheduleLoop(loop, published);
  markAnalysesPreserved<PublishedSchedules>();
  if (!ok)
    signalPassFailure();
}
