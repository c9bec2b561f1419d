//===- MaterializeSchedulePass.cpp - --tileas-materialize-schedule --------===//
//
// Pass 2: plans the pipes and mutexes of every scheduled loop from the
// published schedule alone. Loops without a valid schedule stay as they are
// and a remark says why.
//
//===----------------------------------------------------------------------===//

#include "materialize/mlir/Passes.h"

#include "materialize/exec/Check.h"
#include "materialize/mlir/JoinPipes.h"
#include "materialize/mlir/LoopPlan.h"
#include "materialize/mlir/PlanReport.h"
#include "materialize/mlir/StageCode.h"
#include "report/SVGText.h"

#include "mlir/IR/Verifier.h"

#include <chrono>
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
    if (protocolSeeds > exec::kMaxSeeds) {
      emitError(getOperation()->getLoc())
          << "protocol-seeds=" << unsigned(protocolSeeds)
          << " is over the limit of " << exec::kMaxSeeds
          << " interleavings per trip count";
      return signalPassFailure();
    }
    SmallVector<scf::ForOp> loops = innermostLoops(getOperation());
    // A loop inside an agent is stage code already (this pass's output read
    // back): it is left as it is.
    llvm::erase_if(loops, [](scf::ForOp loop) {
      if (!loop->getParentOfType<tileas::AgentOp>())
        return false;
      emitRemark(loop.getLoc())
          << "loop left unchanged: it is in a tileas.agent, so it is stage "
             "code already";
      return true;
    });
    std::optional<std::reference_wrapper<PublishedSchedules>> cached =
        getCachedAnalysis<PublishedSchedules>();
    const PublishedSchedules *published = cached ? &cached->get() : nullptr;
    bool ok = true;
    unsigned reportIndex = 0;

    // Plan every loop first: nothing changes until the originals ran.
    std::vector<std::pair<scf::ForOp, LoopPlan>> plans;
    // Functions with a loop that could not be planned persistent (its
    // epilogue's staging does not fit beside the pipes): one tile per CTA.
    llvm::SmallPtrSet<Operation *, 4> notPersistent;
    for (scf::ForOp loop : loops) {
      std::string why;
      FailureOr<LoopPlan> plan = failure();
      // A tile loaded before the loop (attention's Q) belongs to one output
      // tile; a persistent kernel would have to load it again per tile,
      // which the translation does not do.
      Operation *loadedBefore = nullptr;
      if (persistent)
        for (Operation *op = loop->getPrevNode(); op && !loadedBefore;
             op = op->getPrevNode())
          if (auto load = dyn_cast<tileas::TmaLoadOp>(op);
              load && !load.getDst())
            loadedBefore = op;
      if (loadedBefore) {
        std::string at;
        if (auto file = dyn_cast<FileLineColLoc>(loadedBefore->getLoc()))
          at = (" (line " + Twine(file.getLine()) + ")").str();
        emitRemark(loop.getLoc())
            << "loop not made persistent: it reads a tile loaded before it"
            << at
            << ", which each output tile would need loaded again; it is "
               "planned for one tile per CTA";
        if (auto func = loop->getParentOfType<FunctionOpInterface>())
          notPersistent.insert(func.getOperation());
        plan = buildLoopPlan(loop, published, *target, why, false);
      } else if (persistent) {
        // A budget the persistent plan cannot meet is not the loop's
        // failure: the one-tile plan is tried, and a remark says why.
        std::string refused;
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
        if (failed(plan) && why.empty()) {
          emitRemark(loop.getLoc())
              << "loop not made persistent: with the epilogue's staging in "
                 "its own shared memory, "
              << refused << "; it is planned for one tile per CTA";
          if (auto func = loop->getParentOfType<FunctionOpInterface>())
            notPersistent.insert(func.getOperation());
          plan = buildLoopPlan(loop, published, *target, why, false);
        }
      } else {
        plan = buildLoopPlan(loop, published, *target, why, false);
      }
      if (failed(plan)) {
        if (why.empty()) {
          ok = false; // Reported as an error already.
          continue;
        }
        emitRemark(loop.getLoc()) << "loop left unchanged: " << why;
        continue;
      }
      if (!report.empty()) {
        std::string path =
            report::numberedPath(report, reportIndex++, loops.size());
        std::string title;
        llvm::raw_string_ostream name(title);
        name << "plan of loop at " << loop.getLoc();
        if (llvm::Error err = report::writePlanSVGFile(
                path, planPicture(*plan, name.str()))) {
          emitError(loop.getLoc()) << llvm::toString(std::move(err));
          ok = false;
        }
      }
      if (printPlan) {
        llvm::raw_ostream &os = llvm::outs();
        os << "// materialization plan of loop at " << loop.getLoc() << "\n";
        printLoopPlan(os, *plan);
        os << "\n";
        os.flush();
      }
      if (printAgentsOption)
        printAgents(llvm::outs(), *plan);
      if (mode != "plan")
        plans.emplace_back(loop, std::move(*plan));
    }

    // Per function: trip counts that exercise its plans (empty, one, below,
    // at and above the stage count and the deepest pipe) and the original's
    // executions at each, recorded before anything is rewritten.
    struct Rewritten {
      std::set<uint64_t> tripCounts = {0, 1, 2, 3, 20};
      exec::References refs;
      std::vector<Location> loops;
    };
    llvm::MapVector<Operation *, Rewritten> functions;
    for (auto &[loop, plan] : plans) {
      auto func = loop->getParentOfType<FunctionOpInterface>();
      if (!func)
        continue;
      Rewritten &entry = functions[func.getOperation()];
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

    StageCodeMode codeMode = mode == "warp-specialized"
                                 ? StageCodeMode::WarpSpecialized
                                 : StageCodeMode::Unspecialized;
    for (auto &[loop, plan] : plans) {
      Location loc = loop.getLoc();
      auto func = loop->getParentOfType<FunctionOpInterface>();
      applyPlanChoices(plan);
      std::string why;
      if (succeeded(emitStageCode(plan, codeMode, why))) {
        if (func)
          functions[func.getOperation()].loops.push_back(loc);
        continue;
      }
      // A loop that cannot be split into agents still pipelines: it gets
      // peeled stage code, one agent running the same rows.
      std::string whyPeeled;
      if (codeMode == StageCodeMode::WarpSpecialized &&
          succeeded(
              emitStageCode(plan, StageCodeMode::Unspecialized, whyPeeled))) {
        emitRemark(loc) << "loop not warp-specialized: " << why
                        << "; emitted peeled stage code instead";
        if (func)
          functions[func.getOperation()].loops.push_back(loc);
        continue;
      }
      if (codeMode == StageCodeMode::WarpSpecialized && why == whyPeeled)
        emitRemark(loc) << "loop not pipelined: " << why
                        << "; it stays as it is";
      else if (codeMode == StageCodeMode::WarpSpecialized)
        emitRemark(loc) << "loop not pipelined: it cannot be warp-specialized ("
                        << why << ") nor peeled (" << whyPeeled
                        << "); it stays as it is";
      else
        emitRemark(loc) << "loop not peeled: " << why;
    }

    // The emitted code is the artifact: it must verify and, executed under
    // seeded interleavings, keep every pipe and mutex rule and compute what
    // the original loop computes. Otherwise it is never output.
    for (auto &[funcOp, entry] : functions) {
      if (entry.loops.empty())
        continue;
      auto func = cast<FunctionOpInterface>(funcOp);
      if (persistent && !notPersistent.contains(funcOp))
        func->setAttr("tileas.persistent", UnitAttr::get(func->getContext()));
      if (failed(mlir::verify(func))) {
        emitError(entry.loops.front())
            << "materialized stage code fails the IR verifier";
        ok = false;
        continue;
      }
      exec::CheckOptions options;
      options.seeds = protocolSeeds;
      options.timeLimitMs = protocolTimeoutMs;
      exec::CheckProgress progress;
      for (auto &[n, ref] : entry.refs.byTripCount)
        options.tripCounts.push_back(n);
      // Pipes loaded and consumed together become one (JoinPipes.h) when
      // the joined code passes the check; otherwise they stay apart. The
      // join is deterministic, so the function joined after a passing trial
      // is the code that was checked.
      bool checked = false;
      auto start = std::chrono::steady_clock::now();
      if (joinPipesOption) {
        OwningOpRef<Operation *> trial = func->clone();
        auto joined = cast<FunctionOpInterface>(trial.get());
        if (joinPipes(joined) && succeeded(mlir::verify(joined))) {
          if (std::optional<exec::Finding> f = exec::checkFunction(
                  joined, options, &entry.refs, &progress)) {
            emitRemark(entry.loops.front())
                << "pipes not joined: the joined stage code fails the "
                   "protocol check: "
                << f->kind << ": " << f->message;
          } else {
            joinPipes(func);
            checked = true;
          }
        }
      }
      // The trial and the check share the function's budget.
      if (!checked && options.timeLimitMs) {
        uint64_t spent =
            uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count());
        options.timeLimitMs -= std::min(spent, options.timeLimitMs - 1);
      }
      if (std::optional<exec::Finding> f =
              checked ? std::nullopt
                      : exec::checkFunction(func, options, &entry.refs,
                                            &progress)) {
        InFlightDiagnostic d =
            emitError(f->loc)
            << "materialized stage code fails the protocol check: " << f->kind
            << ": " << f->message << " (trip count " << f->tripCount
            << ", seed " << f->seed << ")";
        for (Location l : entry.loops)
          d.attachNote(l) << "in the stage code of this loop";
        ok = false;
      } else if (progress.outOfTime) {
        exec::warnOutOfTime(progress, entry.loops.front(),
                            "protocol-timeout-ms", protocolTimeoutMs);
      }
    }
    // The stage code names the user's lines whatever prints it next, for
    // the translation's diagnostics.
    tileas::stampSourceLocations(getOperation());
    // The loops were rewritten: nothing is preserved.
    if (!ok)
      signalPassFailure();
  }

  const target::TargetModel *target = nullptr;
  std::shared_ptr<target::TargetModel> owned;
};

} // namespace
