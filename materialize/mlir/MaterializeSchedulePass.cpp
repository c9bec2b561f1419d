//===- MaterializeSchedulePass.cpp - --tileas-materialize-schedule --------===//
//
// Pass 2: plans the pipes and mutexes of every scheduled loop from the
// published schedule alone. Loops without a valid schedule stay as they are
// and a remark says why.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/Passes.h"

#include "materialize/exec/Check.h"
#include "materialize/mlir/ChainedAccumulators.h"
#include "materialize/mlir/ConsumerReplicas.h"
#include "materialize/mlir/JoinPipes.h"
#include "materialize/mlir/LoopPlan.h"
#include "materialize/mlir/PlanReportHook.h"
#include "materialize/mlir/StageCode.h"

#include "mlir/IR/Verifier.h"

#include <chrono>
#include <map>
#include <set>

#include "llvm/ADT/SmallPtrSet.h"

#include "mlir/IR/Diagnostics.h"

namespace tilepipe {
#define GEN_PASS_DEF_TILEASMATERIALIZESCHEDULE
#include "materialize/mlir/Passes.h.inc"
} // namespace tilepipe

using namespace mlir;
using namespace tilepipe;

namespace {

/// A function whose loops get stage code: the trip counts that exercise its
/// plans, the original's executions at each (recorded before anything is
/// rewritten), and the loops that were rewritten.
struct FunctionCheck {
  std::set<uint64_t> tripCounts = {0, 1, 2, 3, 20};
  exec::References refs;
  std::vector<Location> loops;
};

using PlannedLoops = std::vector<std::pair<scf::ForOp, LoopPlan>>;
using FunctionChecks = llvm::MapVector<Operation *, FunctionCheck>;

/// A tile loaded before the loop with no destination slot (attention's Q),
/// or null.
Operation *tileLoadedBefore(scf::ForOp loop) {
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode())
    if (auto load = dyn_cast<tileas::TmaLoadOp>(op); load && !load.getDst())
      return op;
  return nullptr;
}

/// "the loop at line N" (or at its location when it has no line), for
/// diagnostics that name another loop.
std::string describeLoop(scf::ForOp loop) {
  if (auto file = dyn_cast<FileLineColLoc>(loop.getLoc()))
    return ("the loop at line " + Twine(file.getLine())).str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "the loop at " << loop.getLoc();
  return text;
}

struct MaterializeSchedulePass
    : public tilepipe::impl::TileASMaterializeScheduleBase<
          MaterializeSchedulePass> {
  using TileASMaterializeScheduleBase::TileASMaterializeScheduleBase;

  LogicalResult initialize(MLIRContext *context) override {
    if (mode == "warp-specialized")
      codeMode = StageCodeMode::WarpSpecialized;
    else if (mode == "unspecialized")
      codeMode = StageCodeMode::Unspecialized;
    else if (mode == "plan")
      codeMode = std::nullopt;
    else
      return emitError(UnknownLoc::get(context))
             << "unknown materialization mode '" << mode
             << "' (expected warp-specialized, unspecialized or plan)";
    std::optional<ConsumerForm> form = parseConsumerForm(consumers);
    if (!form)
      return emitError(UnknownLoc::get(context))
             << "unknown consumers '" << consumers
             << "' (expected auto, cooperative or pingpong)";
    consumerForm = *form;
    return loadTargetOption(context, targetFile, target, owned);
  }

  /// Plan every loop, record what the originals compute, emit stage code,
  /// then check the emitted code against the originals. Nothing is
  /// rewritten until every original ran.
  void runOnOperation() override {
    if (failed(checkSeedLimit()))
      return signalPassFailure();
    ok = true;
    notPersistent.clear();
    SmallVector<scf::ForOp> loops = loopsToMaterialize();
    PlannedLoops plans = planLoops(loops);
    FunctionChecks functions = recordOriginals(plans);
    // Before any loop is rewritten: the loops that share an accumulator.
    std::map<Operation *, SharedAccumulator> peers;
    for (auto &[loop, plan] : plans)
      if (std::optional<AccumulatorPeer> peer = accumulatorPeer(loop))
        peers.emplace(loop, SharedAccumulator{describeLoop(peer->loop),
                                              peer->tmem, peer->captured});
    for (auto &[loop, plan] : plans) {
      auto it = peers.find(loop);
      emitLoopStageCode(loop, plan, functions,
                        it == peers.end() ? nullptr : &it->second);
    }
    for (auto &[funcOp, entry] : functions)
      checkStageCode(cast<FunctionOpInterface>(funcOp), entry);
    // The stage code names the user's lines whatever prints it next, for
    // the translation's diagnostics.
    tileas::stampSourceLocations(getOperation());
    // The loops were rewritten: nothing is preserved.
    if (!ok)
      signalPassFailure();
  }

private:
  LogicalResult checkSeedLimit();
  SmallVector<scf::ForOp> loopsToMaterialize();
  PlannedLoops planLoops(ArrayRef<scf::ForOp> loops);
  FailureOr<LoopPlan> planLoop(scf::ForOp loop,
                               const PublishedSchedules *published,
                               std::string &why);
  void markNotPersistent(scf::ForOp loop);
  void reportPlan(scf::ForOp loop, const LoopPlan &plan, unsigned index,
                  unsigned count);
  void writeReport(scf::ForOp loop, const LoopPlan &plan, unsigned index,
                   unsigned count);
  FunctionChecks recordOriginals(const PlannedLoops &plans);
  /// Where the loop whose accumulator a loop's MMAs go on summing into is,
  /// and whether that accumulator is in TMEM.
  struct SharedAccumulator {
    std::string peer; // "the loop at line N"
    bool tmem;
    mlir::Operation *captured; // AccumulatorPeer::captured
  };
  void emitLoopStageCode(scf::ForOp loop, LoopPlan &plan,
                         FunctionChecks &functions,
                         const SharedAccumulator *shared);
  void checkStageCode(FunctionOpInterface func, FunctionCheck &entry);
  bool checkedAfterJoin(FunctionOpInterface func, FunctionCheck &entry,
                        const exec::CheckOptions &options,
                        exec::CheckProgress &progress);

  const target::TargetModel *target = nullptr;
  std::shared_ptr<target::TargetModel> owned;
  /// The stage code `mode` asks for; none in `plan` mode.
  std::optional<StageCodeMode> codeMode;
  ConsumerForm consumerForm = ConsumerForm::Auto;
  /// Of one run: whether every step succeeded (failures are reported where
  /// they happen), and the functions with a loop that could not be planned
  /// persistent (one tile per CTA).
  bool ok = true;
  llvm::SmallPtrSet<Operation *, 4> notPersistent;
};

} // namespace

// More seeds than the checker's limit would run for hours: refused.
LogicalResult MaterializeSchedulePass::checkSeedLimit() {
  if (protocolSeeds <= exec::kMaxSeeds)
    return success();
  emitError(getOperation()->getLoc())
      << "protocol-seeds=" << unsigned(protocolSeeds)
      << " is over the limit of " << exec::kMaxSeeds
      << " interleavings per trip count";
  return failure();
}

// The innermost loops, less those inside an agent: those are stage code
// already (this pass's output read back) and stay as they are.
SmallVector<scf::ForOp> MaterializeSchedulePass::loopsToMaterialize() {
  SmallVector<scf::ForOp> loops = innermostLoops(getOperation());
  llvm::erase_if(loops, [](scf::ForOp loop) {
    if (!loop->getParentOfType<tileas::AgentOp>())
      return false;
    emitRemark(loop.getLoc())
        << "loop left unchanged: it is in a tileas.agent, so it is stage "
           "code already";
    return true;
  });
  return loops;
}

// Plans every loop (and reports and prints each plan) before any is
// rewritten. Loops without a valid schedule stay, with a remark; in `plan`
// mode every loop stays.
PlannedLoops MaterializeSchedulePass::planLoops(ArrayRef<scf::ForOp> loops) {
  std::optional<std::reference_wrapper<PublishedSchedules>> cached =
      getCachedAnalysis<PublishedSchedules>();
  const PublishedSchedules *published = cached ? &cached->get() : nullptr;
  PlannedLoops plans;
  unsigned reportIndex = 0;
  for (scf::ForOp loop : loops) {
    std::string why;
    FailureOr<LoopPlan> plan = planLoop(loop, published, why);
    if (failed(plan)) {
      if (why.empty())
        ok = false; // Reported as an error already.
      else
        emitRemark(loop.getLoc()) << "loop left unchanged: " << why;
      continue;
    }
    reportPlan(loop, *plan, reportIndex++, loops.size());
    if (codeMode)
      plans.emplace_back(loop, std::move(*plan));
  }
  return plans;
}

/// Whether `func` is a kernel that walks its own tiles (tileas.tile_count):
/// only a persistent plan keeps its meaning.
static bool walksOwnTiles(Operation *func) {
  return bool(tileas::TileCountOp::of(func));
}

// The persistent plan when asked for and possible, else the one-tile plan.
// A kernel that walks its own tiles has no one-tile plan: an error.
FailureOr<LoopPlan> MaterializeSchedulePass::planLoop(
    scf::ForOp loop, const PublishedSchedules *published, std::string &why) {
  auto func = loop->getParentOfType<FunctionOpInterface>();
  bool ownTiles = walksOwnTiles(func);
  if (!persistent && !ownTiles)
    return buildLoopPlan(loop, published, *target, why, false);
  unsigned loops = 0;
  func->walk([&](scf::ForOp) { ++loops; });
  if (ownTiles && loops > 1) {
    emitError(loop.getLoc())
        << "a kernel that walks its own tiles (tileas.tile_count) is "
           "materialized with one loop a tile; this function has "
        << loops;
    return failure();
  }
  auto onePerCta = [&](const Twine &reason) -> FailureOr<LoopPlan> {
    if (ownTiles) {
      emitError(loop.getLoc())
          << "a kernel that walks its own tiles (tileas.tile_count) needs a "
             "persistent plan, and this loop has none: "
          << reason;
      return failure();
    }
    emitRemark(loop.getLoc()) << "loop not made persistent: " << reason
                              << "; it is planned for one tile per CTA";
    markNotPersistent(loop);
    return buildLoopPlan(loop, published, *target, why, false);
  };
  // A tile loaded before the loop (attention's Q) belongs to one output
  // tile; a persistent kernel would have to load it again per tile, which
  // the translation does not do.
  if (Operation *loadedBefore = tileLoadedBefore(loop)) {
    std::string at;
    if (auto file = dyn_cast<FileLineColLoc>(loadedBefore->getLoc()))
      at = (" (line " + Twine(file.getLine()) + ")").str();
    return onePerCta("it reads a tile loaded before it" + at +
                     ", which each output tile would need loaded again");
  }
  // A budget the persistent plan cannot meet is not the loop's failure: the
  // one-tile plan is tried, and a remark says why.
  std::string refused;
  FailureOr<LoopPlan> plan = failure();
  {
    ScopedDiagnosticHandler quiet(loop->getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() != DiagnosticSeverity::Error)
        return failure();
      if (refused.empty())
        refused = d.str();
      return success();
    });
    plan = buildLoopPlan(loop, published, *target, why, true);
  }
  if (succeeded(plan) || !why.empty())
    return plan;
  return onePerCta("with the epilogue's staging in its own shared memory, " +
                   refused);
}

void MaterializeSchedulePass::markNotPersistent(scf::ForOp loop) {
  if (auto func = loop->getParentOfType<FunctionOpInterface>())
    notPersistent.insert(func.getOperation());
}

// The picture is drawn by the writer the tool installed
// (PlanReportHook.h): drawing is not the materializer's concern.
void MaterializeSchedulePass::writeReport(scf::ForOp loop, const LoopPlan &plan,
                                          unsigned index, unsigned count) {
  const PlanReportWriter &writer = getPlanReportWriter();
  if (!writer) {
    emitError(loop.getLoc())
        << "report=" << report
        << ": this tool installs no report writer (tilepipe-opt does)";
    ok = false;
    return;
  }
  if (llvm::Error err = writer(report, PlannedLoop{loop, plan, index, count})) {
    emitError(loop.getLoc()) << llvm::toString(std::move(err));
    ok = false;
  }
}

// The plan as a picture (report=) and as text (print-plan).
void MaterializeSchedulePass::reportPlan(scf::ForOp loop, const LoopPlan &plan,
                                         unsigned index, unsigned count) {
  if (!report.empty())
    writeReport(loop, plan, index, count);
  if (printPlan) {
    llvm::raw_ostream &os = llvm::outs();
    os << "// materialization plan of loop at " << loop.getLoc() << "\n";
    printLoopPlan(os, plan);
    os << "\n";
    os.flush();
  }
  if (printAgentsOption)
    printAgents(llvm::outs(), plan);
}

// Per function: trip counts that exercise its plans (empty, one, below, at
// and above the stage count and the deepest pipe) and the original's
// executions at each, recorded before anything is rewritten.
FunctionChecks
MaterializeSchedulePass::recordOriginals(const PlannedLoops &plans) {
  FunctionChecks functions;
  for (auto &[loop, plan] : plans) {
    auto func = loop->getParentOfType<FunctionOpInterface>();
    if (!func)
      continue;
    FunctionCheck &entry = functions[func.getOperation()];
    uint64_t s = std::max(1u, plan.schedule.numStages);
    uint64_t depth = 1;
    for (const materialize::PipePlan &p : plan.buffers.pipes)
      depth = std::max<uint64_t>(depth, p.depth);
    for (uint64_t n : {s - 1, s, s + 1, depth, depth + 1, 2 * depth + 3})
      entry.tripCounts.insert(n);
  }
  for (auto &[funcOp, entry] : functions)
    entry.refs =
        exec::recordReferences(cast<FunctionOpInterface>(funcOp),
                               std::vector<uint64_t>(entry.tripCounts.begin(),
                                                     entry.tripCounts.end()));
  return functions;
}

// Rewrites one loop into stage code of the pass's mode. A loop that cannot
// be split into agents still pipelines: it gets peeled stage code, one
// agent running the same rows. One that cannot be either stays, with a
// remark that says why. A loop whose MMAs sum into an accumulator another
// loop (`peer`) sums into too is peeled: only in program order on the same
// threads does the accumulator pass from one loop to the next and the
// second loop's rings lie over the first's (`shared`).
void MaterializeSchedulePass::emitLoopStageCode(
    scf::ForOp loop, LoopPlan &plan, FunctionChecks &functions,
    const SharedAccumulator *shared) {
  Location loc = loop.getLoc();
  auto func = loop->getParentOfType<FunctionOpInterface>();
  if (shared && shared->captured) {
    // One error, at the MMA, from the loop that holds it.
    if (loop->isProperAncestor(shared->captured))
      shared->captured->emitError("this MMA sums into the TMEM accumulator of ")
          << shared->peer
          << " after that loop (as LoRA's low-rank product is summed into a "
             "K loop's result); stage code does not hand a TMEM accumulator "
             "from a loop's MMAs to later ones yet: sum this product into a "
             "new accumulator and add the two, or target sm_90a "
             "(docs/materialize.md, \"Accumulators two loops share\")";
    ok = false;
    return;
  }
  if (shared && shared->tmem) {
    emitError(loc) << "this loop's MMAs sum into a TMEM accumulator that "
                   << shared->peer
                   << " sums into too; stage code does not hand a TMEM "
                      "accumulator from one loop's MMAs to another's yet: sum "
                      "both products in one loop, or target sm_90a "
                      "(docs/materialize.md, \"Accumulators two loops share\")";
    ok = false;
    return;
  }
  applyPlanChoices(plan);
  std::string why;
  if (shared && codeMode == StageCodeMode::WarpSpecialized &&
      succeeded(emitStageCode(plan, StageCodeMode::Unspecialized, why))) {
    emitRemark(loc) << "loop not warp-specialized: its MMAs sum into the "
                       "accumulator of "
                    << shared->peer
                    << ", which passes between the loops only in program "
                       "order; emitted peeled stage code instead";
    if (func)
      functions[func.getOperation()].loops.push_back(loc);
    return;
  }
  if (succeeded(emitStageCode(plan, *codeMode, why))) {
    if (func)
      functions[func.getOperation()].loops.push_back(loc);
    return;
  }
  std::string whyPeeled;
  if (codeMode == StageCodeMode::WarpSpecialized &&
      succeeded(emitStageCode(plan, StageCodeMode::Unspecialized, whyPeeled))) {
    emitRemark(loc) << "loop not warp-specialized: " << why
                    << "; emitted peeled stage code instead";
    if (func)
      functions[func.getOperation()].loops.push_back(loc);
    return;
  }
  if (codeMode == StageCodeMode::WarpSpecialized && why == whyPeeled)
    emitRemark(loc) << "loop not pipelined: " << why << "; it stays as it is";
  else if (codeMode == StageCodeMode::WarpSpecialized)
    emitRemark(loc) << "loop not pipelined: it cannot be warp-specialized ("
                    << why << ") nor peeled (" << whyPeeled
                    << "); it stays as it is";
  else
    emitRemark(loc) << "loop not peeled: " << why;
}

// The emitted code is the artifact: it must verify and, executed under
// seeded interleavings, keep every pipe and mutex rule and compute what the
// original loop computes. Otherwise it is never output.
void MaterializeSchedulePass::checkStageCode(FunctionOpInterface func,
                                             FunctionCheck &entry) {
  if (entry.loops.empty())
    return;
  if ((persistent || walksOwnTiles(func)) &&
      !notPersistent.contains(func.getOperation()))
    func->setAttr("tileas.persistent", UnitAttr::get(func->getContext()));
  // The protocol check runs one copy of a ping-pong consumer: the copies'
  // turns are the translation's (docs/cuda.md, "Ping-pong consumers").
  if (std::string why = chooseConsumerReplicas(func, consumerForm);
      !why.empty())
    emitRemark(entry.loops.front()) << "consumers not ping-pong: " << why;
  if (failed(mlir::verify(func))) {
    emitError(entry.loops.front())
        << "materialized stage code fails the IR verifier";
    ok = false;
    return;
  }
  exec::CheckOptions options;
  options.seeds = protocolSeeds;
  options.timeLimitMs = protocolTimeoutMs;
  exec::CheckProgress progress;
  for (auto &[n, ref] : entry.refs.byTripCount)
    options.tripCounts.push_back(n);
  auto start = std::chrono::steady_clock::now();
  if (joinPipesOption && checkedAfterJoin(func, entry, options, progress)) {
    if (progress.outOfTime)
      exec::warnOutOfTime(progress, entry.loops.front(), "protocol-timeout-ms",
                          protocolTimeoutMs);
    return;
  }
  // The trial and the check share the function's budget.
  if (options.timeLimitMs) {
    uint64_t spent =
        uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count());
    options.timeLimitMs -= std::min(spent, options.timeLimitMs - 1);
  }
  if (std::optional<exec::Finding> f =
          exec::checkFunction(func, options, &entry.refs, &progress)) {
    InFlightDiagnostic d = emitError(f->loc)
                           << "materialized stage code fails the protocol "
                              "check: "
                           << f->kind << ": " << f->message << " (trip count "
                           << f->tripCount << ", seed " << f->seed << ")";
    for (Location l : entry.loops)
      d.attachNote(l) << "in the stage code of this loop";
    ok = false;
  } else if (progress.outOfTime) {
    exec::warnOutOfTime(progress, entry.loops.front(), "protocol-timeout-ms",
                        protocolTimeoutMs);
  }
}

// Pipes loaded and consumed together become one (JoinPipes.h) when the
// joined code passes the check; otherwise they stay apart. The join is
// deterministic, so the function joined after a passing trial is the code
// that was checked. Returns whether `func` was joined (and so checked).
bool MaterializeSchedulePass::checkedAfterJoin(
    FunctionOpInterface func, FunctionCheck &entry,
    const exec::CheckOptions &options, exec::CheckProgress &progress) {
  OwningOpRef<Operation *> trial = func->clone();
  auto joined = cast<FunctionOpInterface>(trial.get());
  if (!joinPipes(joined) || failed(mlir::verify(joined)))
    return false;
  if (std::optional<exec::Finding> f =
          exec::checkFunction(joined, options, &entry.refs, &progress)) {
    emitRemark(entry.loops.front())
        << "pipes not joined: the joined stage code fails the protocol check: "
        << f->kind << ": " << f->message;
    return false;
  }
  joinPipes(func);
  return true;
}
