//===- GenerateSchedulePass.cpp - --tileas-generate-schedule --------------===//
//
// Pass 1: schedule every innermost scf.for and publish the result. The IR is
// only annotated (tileas.schedule.* attributes), never rewritten.
//
//===----------------------------------------------------------------------===//

#include "scheduler/mlir/Passes.h"

#include "attrs/ResultAttrs.h"
#include "ir/TileASDialect.h"
#include "scheduler/Driver.h"
#include "scheduler/exact/ExactOracle.h"
#include "scheduler/gaus/Seeding.h"
#include "scheduler/mlir/LoopProblem.h"
#include "scheduler/mlir/RegisterBudget.h"
#include "scheduler/mlir/RingDepth.h"
#include "scheduler/mlir/ScheduleReport.h"
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
  /// The scheduler driver's options from the pass's; the oracle and the
  /// seeder are the caller's, for the driver to use.
  sched::DriverOptions driverOptions(sched::exact::ExactOracle &oracle,
                                     gaus::GausSeeder &seeder) const;
  sched::exact::ExactOptions exactOptions() const;
  /// The register-order retry (docs/generators.md); returns the note
  /// printed under the schedule, if any.
  std::string tryRegisterOrder(LoopProblem &lp,
                               const sched::DriverOptions &options,
                               std::optional<sched::ScheduleAnalysis> &analysis,
                               sched::DiagnosticList &diags, unsigned inferred);
  /// The register-budget retry (docs/generators.md); returns the note
  /// printed under the schedule, if any.
  std::string
  tryRegisterBudget(scf::ForOp loop, const LoopProblem &lp,
                    sched::DriverOptions options,
                    std::optional<sched::ScheduleAnalysis> &analysis,
                    sched::DiagnosticList &diags);
  /// The ring-depth retry (docs/generators.md); returns the note printed
  /// under the schedule, if any.
  std::string tryRingDepth(const LoopProblem &lp, sched::DriverOptions options,
                           std::optional<sched::ScheduleAnalysis> &analysis,
                           sched::DiagnosticList &diags);
  /// The `prove-optimal` remark.
  void remarkOptimality(scf::ForOp loop,
                        const sched::ScheduleAnalysis &analysis);
  /// The `print-schedule` text of one loop.
  void printLoopSchedule(scf::ForOp loop, const LoopProblem &lp,
                         const sched::ScheduleAnalysis &analysis,
                         llvm::StringRef note);
  /// Hands the loop to the report writer the tool installed (the `report`
  /// option; scheduler/mlir/ScheduleReport.h).
  bool writeReport(scf::ForOp loop, const LoopProblem &lp,
                   const sched::ScheduleAnalysis &analysis);
  unsigned numLoops = 0, reportIndex = 0;

  const target::TargetModel *target = nullptr;
  std::shared_ptr<target::TargetModel> ownedTarget;
  unsigned armMask = sched::ArmAll;
};

} // namespace

sched::exact::ExactOptions GenerateSchedulePass::exactOptions() const {
  sched::exact::ExactOptions exact;
  exact.timeoutMs = exactTimeoutMs;
  exact.work = exactWork;
  exact.solver = exactSolver;
  return exact;
}

sched::DriverOptions
GenerateSchedulePass::driverOptions(sched::exact::ExactOracle &oracle,
                                    gaus::GausSeeder &seeder) const {
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
  options.modulo.oracle = &oracle;
  seeder.budgetMs = seedBudgetMs;
  if (seed == "gaus")
    options.modulo.seeder = &seeder;
  options.proveOptimal = proveOptimal;
  options.stages = stages;
  return options;
}

// Register order (docs/generators.md): where the schedule loads an agent's
// next register tile before it has stored this iteration's, the loop is
// scheduled again with the edges that order them, and that schedule is kept
// when its II is no larger. A schedule that already keeps the order stays as
// it is.
std::string GenerateSchedulePass::tryRegisterOrder(
    LoopProblem &lp, const sched::DriverOptions &options,
    std::optional<sched::ScheduleAnalysis> &analysis,
    sched::DiagnosticList &diags, unsigned inferred) {
  // Not with warp groups the pass inferred: on FA4-style loops whose
  // groups also rescale their O in place, the ordered schedule's stage code
  // deadlocks at trip counts below the stage count (docs/generators.md,
  // "Warp groups"); without the order they compile without a spill.
  if (inferred)
    return "warp groups: " + std::to_string(inferred) +
           " inferred from independent chains; register order not tried";
  if (!registerOrder || !analysis || lp.registerOrder.empty())
    return "";
  unsigned broken = 0;
  for (auto [store, load] : lp.registerOrder)
    broken += analysis->slots[load].cycle + int64_t(analysis->ii) <
              analysis->slots[store].cycle;
  if (!broken)
    return "";
  sched::Problem ordered = withRegisterOrder(lp);
  sched::DiagnosticList orderedDiags;
  std::optional<sched::ScheduleAnalysis> orderedAnalysis =
      sched::runScheduler(ordered, options, orderedDiags);
  std::string count = std::to_string(lp.registerOrder.size()) + " edge(s), " +
                      std::to_string(broken) + " broken without them";
  if (!orderedAnalysis || orderedAnalysis->ii > analysis->ii)
    return "register order: " + count + ", dropped (II " +
           (orderedAnalysis ? std::to_string(orderedAnalysis->ii)
                            : std::string("none")) +
           " with them, " + std::to_string(analysis->ii) + " without)";
  std::string pairs;
  for (auto [store, load] : lp.registerOrder)
    pairs += (pairs.empty() ? "" : ", ") + ordered.getOp(store).name + " -> " +
             ordered.getOp(load).name;
  std::string note = "register order: " + count + ", kept (II " +
                     std::to_string(orderedAnalysis->ii) + " with them, " +
                     std::to_string(analysis->ii) + " without): " + pairs;
  lp.problem = std::move(ordered);
  analysis = std::move(orderedAnalysis);
  diags = std::move(orderedDiags);
  return note;
}

/// The loop scheduled again from `minII` (the retries'): none when that
/// reaches the serial schedule's length, or no schedule is found.
static std::optional<sched::ScheduleAnalysis>
scheduleFrom(const LoopProblem &lp, sched::DriverOptions &options,
             unsigned minII, sched::DiagnosticList &diags) {
  if (int64_t(minII) >= lp.problem.serialLength())
    return std::nullopt;
  options.minII = minII;
  return sched::runScheduler(lp.problem, options, diags);
}

// Register budget (docs/generators.md): where the loop's MMA accumulates in
// registers, a schedule whose tiles held across stage boundaries pass the
// consumer threads' budget is searched again from IIs an eighth larger each
// time, up to `register-budget-tries` runs, until they fit; the first that fits
// is kept. The search stops early when kRegisterBudgetStall tries in a row hold
// no fewer words than the best so far (kRegisterBudgetNearStall while the
// best is near the budget): larger IIs no longer shorten what crosses the
// boundaries (FA4's loop carries 386 words from II 6210 to 11189), and each
// try is a whole scheduler run. None fitting: the try holding the fewest
// words is kept where it halves the excess, else the original; the note
// says which and a warning names the loop.
std::string GenerateSchedulePass::tryRegisterBudget(
    scf::ForOp loop, const LoopProblem &lp, sched::DriverOptions options,
    std::optional<sched::ScheduleAnalysis> &analysis,
    sched::DiagnosticList &diags) {
  constexpr unsigned kRegisterBudgetStall = 2;
  // Within a quarter of the budget, the words crossing the boundaries have
  // gone up and down again before they fit (sliding-window attention: 194
  // words at II 1161, 1306 and 1469, 130 at 1858), and spills cost more
  // than a longer II: two more tries.
  constexpr unsigned kRegisterBudgetNearStall = 4;
  int64_t warpgroups = registerMmaWarpgroups(loop);
  if (!registerBudget || !analysis || !warpgroups)
    return "";
  int64_t budget = consumerRegisters(warpgroups) - kStageWorkingSet;
  int64_t held = heldWords(lp.problem, analysis->toSchedule(), warpgroups);
  if (held <= budget)
    return "";
  std::string head =
      "register budget: " + std::to_string(held) +
      " words a thread held across stage boundaries at II " +
      std::to_string(analysis->ii) + ", over " + std::to_string(budget) + " (" +
      std::to_string(consumerRegisters(warpgroups)) + " registers less " +
      std::to_string(kStageWorkingSet) + ")";
  unsigned ii = analysis->ii;
  int64_t best = held;
  std::optional<sched::ScheduleAnalysis> bestRetry;
  sched::DiagnosticList bestDiags;
  // The retries look for a schedule at or above a raised floor, not for the
  // smallest II: without the exact check's seat and rescue passes, which
  // took FA4's loop from 0.37 s to 1.6 s for no schedule that fits. The 66
  // loops of examples/ and test/lit/cuda/Inputs schedule identically.
  options.modulo.oracle = nullptr;
  for (unsigned tries = 0, stalled = 0;
       tries < registerBudgetTries &&
       stalled < (best <= budget + budget / 4 ? kRegisterBudgetNearStall
                                              : kRegisterBudgetStall);
       ++tries) {
    sched::DiagnosticList retryDiags;
    std::optional<sched::ScheduleAnalysis> retry =
        scheduleFrom(lp, options, ii + std::max(1u, ii / 8), retryDiags);
    if (!retry)
      break;
    ii = retry->ii;
    int64_t words = heldWords(lp.problem, retry->toSchedule(), warpgroups);
    if (words <= budget) {
      std::string note = head + "; II " + std::to_string(retry->ii) +
                         " holds " + std::to_string(words);
      analysis = std::move(retry);
      diags = std::move(retryDiags);
      return note;
    }
    stalled = words < best ? 0 : stalled + 1;
    if (words < best) {
      best = words;
      bestRetry = std::move(retry);
      bestDiags = std::move(retryDiags);
    }
  }
  // None fits. A try that at least halves the words over the budget spills
  // far less than the original (the cuTile attention sample at head dim 64
  // within three tries: 483 words at MII, 6.6 KB spilled; 193 at II 1469)
  // and is kept.
  std::string kept;
  if (bestRetry && 2 * (best - budget) <= held - budget) {
    kept = "no II up to " + std::to_string(ii) + " holds " +
           std::to_string(budget) + " or fewer; II " +
           std::to_string(bestRetry->ii) + " holds the fewest, " +
           std::to_string(best) + ", kept";
    analysis = std::move(bestRetry);
    diags = std::move(bestDiags);
  } else {
    kept = "no II up to " + std::to_string(ii) + " holds fewer than " +
           std::to_string(best) + ", kept";
  }
  emitWarning(loop.getLoc())
      << head << "; " << kept
      << ": the consumer warpgroups may spill (docs/generators.md, "
         "\"Register budget\")";
  return head + "; " + kept + " (ptxas may spill)";
}

// Ring depth (docs/generators.md): a value read more than 31 stages after
// it is made needs more slots than a pipe has. The loop is scheduled again
// from the II at which that lifetime's cycles span 31 stages, a few times
// (a new schedule moves the ops), and the first that fits is kept; none
// fitting, the original stays and the plan says why.
std::string GenerateSchedulePass::tryRingDepth(
    const LoopProblem &lp, sched::DriverOptions options,
    std::optional<sched::ScheduleAnalysis> &analysis,
    sched::DiagnosticList &diags) {
  constexpr unsigned kRingDepthTries = 4;
  if (!ringDepth || !analysis)
    return "";
  Lifetime longest = longestLifetime(lp, *analysis);
  if (longest.stages <= kMaxStagesAcross)
    return "";
  std::string head =
      "ring depth: a value read " + std::to_string(longest.stages) +
      " stages after it is made at II " + std::to_string(analysis->ii) +
      ", over " + std::to_string(kMaxStagesAcross);
  // As the register budget's retries: a floor, not the smallest II.
  options.modulo.oracle = nullptr;
  unsigned ii = analysis->ii;
  for (unsigned tries = 0; tries < kRingDepthTries; ++tries) {
    sched::DiagnosticList retryDiags;
    std::optional<sched::ScheduleAnalysis> retry = scheduleFrom(
        lp, options,
        std::max<unsigned>(ii + 1,
                           unsigned(longest.cycles / kMaxStagesAcross + 1)),
        retryDiags);
    if (!retry)
      break;
    ii = retry->ii;
    longest = longestLifetime(lp, *retry);
    if (longest.stages <= kMaxStagesAcross) {
      std::string note = head + "; II " + std::to_string(retry->ii) +
                         " reads it " + std::to_string(longest.stages) +
                         " stages after";
      analysis = std::move(retry);
      diags = std::move(retryDiags);
      return note;
    }
  }
  return head + "; no II up to " + std::to_string(ii) + " fits, kept";
}

void GenerateSchedulePass::remarkOptimality(
    scf::ForOp loop, const sched::ScheduleAnalysis &analysis) {
  InFlightDiagnostic remark = emitRemark(loop.getLoc());
  if (analysis.optimal && *analysis.optimal)
    remark << "II " << analysis.ii << " is optimal: "
           << (analysis.ii == analysis.bounds.mii
                   ? "it equals the lower bound"
                   : "the exact check proves every smaller II infeasible");
  else if (analysis.optimal)
    remark << "II " << analysis.ii << " is not optimal: a schedule exists "
           << "at II " << *analysis.smallerFeasibleII;
  else
    remark << "II " << analysis.ii << " may not be optimal: the exact "
           << "check could not decide every II in [" << analysis.bounds.mii
           << ", " << analysis.ii << ")";
}

void GenerateSchedulePass::printLoopSchedule(
    scf::ForOp loop, const LoopProblem &lp,
    const sched::ScheduleAnalysis &analysis, llvm::StringRef note) {
  llvm::raw_ostream &os = llvm::outs();
  // FLOP per iteration: what the ops of one iteration compute (MMA flops
  // as the ops report them), for the throughput line.
  int64_t flops = 0;
  for (mlir::Operation *op : lp.ops)
    if (auto schedulable = dyn_cast<tileas::SchedulableOpInterface>(op))
      flops += schedulable.getWork().flops;
  os << "// schedule of loop at " << loop.getLoc() << "\n";
  analysis.print(os, lp.problem, target, flops);
  if (!note.empty())
    os << note << "\n";
  os << "\n";
  os.flush();
}

bool GenerateSchedulePass::scheduleLoop(scf::ForOp loop,
                                        PublishedSchedules &published) {
  unsigned inferred = inferWarpGroups ? tilepipe::inferWarpGroups(loop) : 0;
  FailureOr<LoopProblem> built = buildLoopProblem(loop, *target);
  if (failed(built))
    return false;
  LoopProblem &lp = *built;

  sched::exact::ExactOracle oracle(exactOptions());
  gaus::GausSeeder seeder;
  sched::DriverOptions options = driverOptions(oracle, seeder);
  sched::DiagnosticList diags;
  std::optional<sched::ScheduleAnalysis> analysis =
      sched::runScheduler(lp.problem, options, diags);
  std::string note =
      tryRegisterOrder(lp, options, analysis, diags, inferred);
  std::string budgetNote =
      tryRegisterBudget(loop, lp, options, analysis, diags);
  if (!budgetNote.empty())
    note += (note.empty() ? "" : "\n") + budgetNote;
  std::string ringNote = tryRingDepth(lp, options, analysis, diags);
  if (!ringNote.empty())
    note += (note.empty() ? "" : "\n") + ringNote;
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

  if (proveOptimal)
    remarkOptimality(loop, *analysis);
  attrs::writeScheduleAttrs(loop, lp.ops, *analysis);
  if (printSchedule)
    printLoopSchedule(loop, lp, *analysis, note);
  if (!report.empty() && !writeReport(loop, lp, *analysis))
    return false;
  published.loops[loop.getOperation()] = {lp.ops, std::move(*analysis)};
  return true;
}

bool GenerateSchedulePass::writeReport(
    scf::ForOp loop, const LoopProblem &lp,
    const sched::ScheduleAnalysis &analysis) {
  const ScheduleReportWriter &writer = getScheduleReportWriter();
  if (!writer) {
    emitError(loop.getLoc())
        << "report=" << report
        << ": this tool installs no report writer (tilepipe-opt does)";
    return false;
  }
  if (llvm::Error err = writer(report, ScheduledLoop{loop, lp.problem, analysis,
                                                     reportIndex++, numLoops})) {
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
