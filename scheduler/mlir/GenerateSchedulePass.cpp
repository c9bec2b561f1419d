//===- GenerateSchedulePass.cpp - --tileas-generate-schedule --------------===//
//
// Pass 1: schedule every innermost scf.for and publish the result. The IR is
// only annotated (tileas.schedule.* attributes), never rewritten.
//
//===----------------------------------------------------------------------===//

#include "scheduler/mlir/Passes.h"

#include "attrs/ResultAttrs.h"
#include "ir/TileASDialect.h"
#include "report/SVGText.h"
#include "report/ScheduleSVG.h"
#include "scheduler/Driver.h"
#include "scheduler/exact/ExactOracle.h"
#include "scheduler/gaus/Seeding.h"
#include "scheduler/mlir/LoopProblem.h"
#include "scheduler/mlir/WarpGroups.h"

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
    armMask = 0;
    for (const std::string &arm : arms) {
      if (arm == "permute")
        armMask |= sched::ArmPermute;
      else if (arm == "fuse")
        armMask |= sched::ArmFuse;
      else if (arm == "retry")
        armMask |= sched::ArmRetry;
      else if (arm == "cost")
        armMask |= sched::ArmCostBased;
      else
        return emitError(UnknownLoc::get(context))
               << "unknown placement arm '" << arm
               << "' (expected permute, fuse, retry or cost)";
    }
    if (arms.empty())
      armMask = sched::ArmAll;
    return loadTargetOption(context, targetFile, target, ownedTarget);
  }

  void runOnOperation() override;

  /// Schedules one loop; false when it could not be scheduled.
  bool scheduleLoop(scf::ForOp loop, PublishedSchedules &published);
  /// Writes the loop's picture (the `report` option).
  bool writeReport(scf::ForOp loop, const LoopProblem &lp,
                   const sched::ScheduleAnalysis &analysis);
  unsigned numLoops = 0, reportIndex = 0;

  const target::TargetModel *target = nullptr;
  std::shared_ptr<target::TargetModel> ownedTarget;
  unsigned armMask = sched::ArmAll;
};

} // namespace

bool GenerateSchedulePass::scheduleLoop(scf::ForOp loop,
                                        PublishedSchedules &published) {
  unsigned inferred = inferWarpGroups ? tilepipe::inferWarpGroups(loop) : 0;
  FailureOr<LoopProblem> built = buildLoopProblem(loop, *target);
  if (failed(built))
    return false;

  sched::DriverOptions options;
  options.selection.request = generator;
  options.selection.rule = selection;
  options.selection.serialThreshold = serialThreshold;
  options.modulo.search = search;
  options.modulo.iiCap = iiCap;
  options.modulo.maxAttempts = maxAttempts;
  options.modulo.timeLimitMs = timeLimitMs;
  options.modulo.workLimit = workLimit;
  options.proveTimeLimitMs = proveTimeoutMs;
  options.proveWork = proveWork;
  options.modulo.arms = armMask;
  sched::exact::ExactOptions exactOptions;
  exactOptions.timeoutMs = exactTimeoutMs;
  exactOptions.work = exactWork;
  exactOptions.solver = exactSolver;
  sched::exact::ExactOracle oracle(exactOptions);
  options.modulo.oracle = &oracle;
  gaus::GausSeeder seeder;
  seeder.budgetMs = seedBudgetMs;
  if (seed == "gaus")
    options.modulo.seeder = &seeder;
  options.proveOptimal = proveOptimal;
  options.stages = stages;
  sched::DiagnosticList diags;
  std::optional<sched::ScheduleAnalysis> analysis =
      sched::runScheduler(built->problem, options, diags);
  // Register order (docs/generators.md): where the schedule loads an
  // agent's next register tile before it has stored this iteration's, the
  // loop is scheduled again with the edges that order them, and that
  // schedule is kept when its II is no larger. A schedule that already
  // keeps the order stays as it is.
  std::string scheduleNote;
  auto violated = [&](const sched::ScheduleAnalysis &a) {
    unsigned n = 0;
    for (auto [store, load] : built->registerOrder)
      n += a.slots[load].cycle + int64_t(a.ii) < a.slots[store].cycle;
    return n;
  };
  // Not with warp groups the pass inferred: on FA4-style loops whose
  // groups also rescale their O in place, the ordered schedule's stage code
  // deadlocks at trip counts below the stage count (docs/generators.md,
  // "Warp groups"); without the order they compile without a spill.
  unsigned broken = 0;
  if (inferred)
    scheduleNote = "warp groups: " + std::to_string(inferred) +
                        " inferred from independent chains; register order "
                        "not tried";
  else if (registerOrder && analysis && !built->registerOrder.empty() &&
      (broken = violated(*analysis))) {
    sched::Problem ordered = withRegisterOrder(*built);
    sched::DiagnosticList orderedDiags;
    std::optional<sched::ScheduleAnalysis> orderedAnalysis =
        sched::runScheduler(ordered, options, orderedDiags);
    std::string count = std::to_string(built->registerOrder.size()) +
                        " edge(s), " + std::to_string(broken) +
                        " broken without them";
    if (orderedAnalysis && orderedAnalysis->ii <= analysis->ii) {
      std::string pairs;
      for (auto [store, load] : built->registerOrder)
        pairs += (pairs.empty() ? "" : ", ") + ordered.getOp(store).name +
                 " -> " + ordered.getOp(load).name;
      scheduleNote = "register order: " + count + ", kept (II " +
                          std::to_string(orderedAnalysis->ii) +
                          " with them, " + std::to_string(analysis->ii) +
                          " without): " + pairs;
      built->problem = std::move(ordered);
      analysis = std::move(orderedAnalysis);
      diags = std::move(orderedDiags);
    } else {
      scheduleNote =
          "register order: " + count + ", dropped (II " +
          (orderedAnalysis ? std::to_string(orderedAnalysis->ii)
                           : std::string("none")) +
          " with them, " + std::to_string(analysis->ii) + " without)";
    }
  }
  LoopProblem &lp = *built;
  emitDiagnostics(lp, diags);
  if (seeder.exhausted)
    emitWarning(loop.getLoc())
        << "seed=gaus: the seeding budget of " << uint64_t(seedBudgetMs)
        << " ms ran out after " << seeder.asked
        << " candidate IIs; the rest were searched unseeded";
  if (!analysis) {
    attrs::clearScheduleAttrs(loop, lp.ops);
    return false;
  }

  if (proveOptimal) {
    InFlightDiagnostic remark = emitRemark(loop.getLoc());
    if (analysis->optimal && *analysis->optimal)
      remark << "II " << analysis->ii << " is optimal: "
             << (analysis->ii == analysis->bounds.mii
                     ? "it equals the lower bound"
                     : "the exact check proves every smaller II infeasible");
    else if (analysis->optimal)
      remark << "II " << analysis->ii << " is not optimal: a schedule exists "
             << "at II " << *analysis->smallerFeasibleII;
    else
      remark << "II " << analysis->ii << " may not be optimal: the exact "
             << "check could not decide every II in [" << analysis->bounds.mii
             << ", " << analysis->ii << ")";
  }
  attrs::writeScheduleAttrs(loop, lp.ops, *analysis);
  if (printSchedule) {
    llvm::raw_ostream &os = llvm::outs();
    // FLOP per iteration: what the ops of one iteration compute (MMA flops
    // as the ops report them), for the throughput line.
    int64_t flops = 0;
    for (mlir::Operation *op : lp.ops)
      if (auto schedulable = dyn_cast<tileas::SchedulableOpInterface>(op))
        flops += schedulable.getWork().flops;
    os << "// schedule of loop at " << loop.getLoc() << "\n";
    analysis->print(os, lp.problem, target, flops);
    if (!scheduleNote.empty())
      os << scheduleNote << "\n";
    os << "\n";
    os.flush();
  }
  if (!report.empty() && !writeReport(loop, lp, *analysis))
    return false;
  published.loops[loop.getOperation()] = {lp.ops, std::move(*analysis)};
  return true;
}

bool GenerateSchedulePass::writeReport(
    scf::ForOp loop, const LoopProblem &lp,
    const sched::ScheduleAnalysis &analysis) {
  std::string path = report::numberedPath(report, reportIndex++, numLoops);
  std::string title;
  llvm::raw_string_ostream name(title);
  name << "loop at " << loop.getLoc();
  if (llvm::Error err = report::writeScheduleSVGFile(path, lp.problem, analysis,
                                                     name.str())) {
    emitError(loop.getLoc()) << llvm::toString(std::move(err));
    return false;
  }
  return true;
}

void GenerateSchedulePass::runOnOperation() {
  if (seed != "none" && seed != "gaus") {
    getOperation()->emitError() << "tileas-generate-schedule: unknown seed '"
                                << seed << "' (expected none or gaus)";
    return signalPassFailure();
  }
  // Innermost loops only, in program order.
  SmallVector<scf::ForOp> loops = innermostLoops(getOperation());
  numLoops = loops.size();
  reportIndex = 0;
  PublishedSchedules &published = getAnalysis<PublishedSchedules>();
  bool ok = true;
  for (scf::ForOp loop : loops)
    ok &= scheduleLoop(loop, published);
  markAnalysesPreserved<PublishedSchedules>();
  if (!ok)
    signalPassFailure();
}
