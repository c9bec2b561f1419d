//===- Driver.cpp ---------------------------------------------------------===//

#include "scheduler/Driver.h"
#include "support/ThreadCpuClock.h"

#include "scheduler/SerialGenerator.h"
#include "scheduler/stages/MinBuffer.h"
#include "scheduler/stages/MinCut.h"

#include <chrono>

using namespace tilepipe;
using namespace tilepipe::sched;

/// With StagePolicy::Late, sinks a cost-based schedule's ops to the latest
/// stage their consumers allow. Same II and modulo rows, so the RRT is
/// unchanged; the schedule is kept as it is if the sunk one fails verify().
static void applyStagePolicy(const Problem &problem,
                             const DriverOptions &options,
                             ScheduleAnalysis &analysis) {
  if (options.stages == StagePolicy::Asap ||
      analysis.generator != GeneratorKind::CostBased)
    return;
  std::optional<Schedule> staged;
  switch (options.stages) {
  case StagePolicy::Asap:
    return;
  case StagePolicy::Late:
    staged = sinkStages(problem, analysis.toSchedule());
    break;
  case StagePolicy::MinCut:
    staged = minCutStages(problem, analysis.toSchedule());
    break;
  case StagePolicy::MinBuffer:
    staged = minBufferStages(problem, analysis.toSchedule());
    break;
  }
  DiagnosticList ignored;
  if (!staged || !problem.verify(*staged, ignored))
    return;
  // Only the stages change: the II and rows stay the generator's.
  analysis =
      ScheduleAnalysis::fromSchedule(problem, *staged, analysis.generator);
}

/// Replaces `analysis` with the cost-based schedule `witness` (verified by
/// the caller), its stages set by the policy, with `reason`.
static void adoptSchedule(const Problem &problem, const DriverOptions &options,
                          const rrt::Bounds &bounds, const Schedule &witness,
                          std::string reason, ScheduleAnalysis &analysis) {
  ScheduleAnalysis adopted = ScheduleAnalysis::fromSchedule(
      problem, witness, GeneratorKind::CostBased);
  applyStagePolicy(problem, options, adopted);
  adopted.bounds = bounds;
  adopted.selectionReason = std::move(reason);
  analysis = std::move(adopted);
}

/// The unasked rescue of a result far above the bound: the exact check
/// bisects between the bound and the heuristic's II (at most kRescueChecks
/// IIs, within options.rescueWork of its work), adopting each witness that
/// passes verify() and looking lower; an II it cannot seat (infeasible or
/// undecided) moves the search up. Counted in work, never in time, so the
/// answer is the same on any machine. Tile-loop IIs run to tens of
/// thousands: the upward pass of prove-optimal would spend the budget on
/// the first few IIs above the bound, where the schedules are not.
static void rescueSchedule(const Problem &problem, const DriverOptions &options,
                           const rrt::Bounds &bounds,
                           const GeneratorSelection &selection,
                           DiagnosticList &diags, DriverStats &stats,
                           ScheduleAnalysis &analysis) {
  constexpr unsigned kRescueChecks = 16;
  const auto start = std::chrono::steady_clock::now();
  const uint64_t workStart = options.modulo.oracle->workSpent();
  const unsigned heuristicII = analysis.ii;
  uint64_t lo = bounds.mii, hi = heuristicII; // hi: the best II so far
  std::optional<Schedule> best;
  for (unsigned checks = 0; lo < hi && checks < kRescueChecks; ++checks) {
    if (options.rescueWork &&
        options.modulo.oracle->workSpent() - workStart + checks >= options.rescueWork)
      break;
    // The bound itself first: where the heuristic is far off, it is often
    // the answer (the 43-op tile loop of issue 35).
    uint64_t ii = checks == 0 ? lo : lo + (hi - lo) / 2;
    std::optional<bool> feasible =
        options.modulo.oracle->feasibleAt(problem, unsigned(ii));
    Schedule witness;
    DiagnosticList violations;
    if (feasible && *feasible &&
        options.modulo.oracle->lastWitness(witness) &&
        witness.ii == unsigned(ii) && problem.verify(witness, violations)) {
      best = std::move(witness);
      hi = ii;
    } else {
      lo = ii + 1;
    }
  }
  stats.proveMs = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  if (!best)
    return;
  adoptSchedule(problem, options, bounds, *best,
                selection.reason + "; the exact check's schedule at II " +
                    std::to_string(best->ii) +
                    " replaces the heuristic's at II " +
                    std::to_string(heuristicII),
                analysis);
  stats.heuristicII = heuristicII;
  if (best->ii <= bounds.mii)
    analysis.optimal = true;
  diags.remark("the exact check finds a schedule at II " +
               llvm::Twine(best->ii) + ", below the heuristic's II " +
               llvm::Twine(heuristicII) + ": it is adopted");
}

/// Runs the generator `selection` names; an error when it finds nothing.
static std::optional<ScheduleAnalysis>
generate(const Problem &problem, const DriverOptions &options,
         const rrt::Bounds &bounds, const GeneratorSelection &selection,
         DiagnosticList &diags, DriverStats &stats) {
  std::optional<ScheduleAnalysis> analysis;
  if (selection.kind == GeneratorKind::CostBased)
    analysis = generateModuloSchedule(problem, bounds, options.modulo, diags,
                                      &stats.search);
  else
    analysis = generateSerialSchedule(problem, diags);
  if (!analysis)
    diags.error("failed to find a schedule");
  return analysis;
}

/// applyStagePolicy, timed for the caller's report.
static void assignStages(const Problem &problem, const DriverOptions &options,
                         DriverStats &stats, ScheduleAnalysis &analysis) {
  auto stageStart = std::chrono::steady_clock::now();
  applyStagePolicy(problem, options, analysis);
  stats.stageMs = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - stageStart)
                      .count();
}

/// The bounds and the selection's reason on the result, with what the II
/// search's budget did to it: why a serial schedule answers, and a warning
/// when the search ran out.
static void explainResult(const DriverOptions &options,
                          const rrt::Bounds &bounds,
                          const GeneratorSelection &selection,
                          const IISearchStats &search, DiagnosticList &diags,
                          ScheduleAnalysis &analysis) {
  analysis.bounds = bounds;
  analysis.selectionReason = selection.reason;
  if (search.serialFallback)
    analysis.selectionReason +=
        search.exhausted
            ? "; the II search's budget ran out before the cost-based "
              "generator seated any II, so the serial schedule (which always "
              "verifies at the serial length) is the answer"
            : "; the cost-based generator seated no II it tried below the "
              "serial length, so the serial schedule (which always verifies "
              "there) is the answer";
  if (search.exhausted && search.timeLimitHit)
    diags.warning("the time safety net (time-limit-ms=" +
                  llvm::Twine(options.modulo.timeLimitMs) +
                  ", counted in the compiling thread's CPU time) stopped the "
                  "II search: this result depends on the machine's speed");
  if (search.exhausted)
    diags.warning(
        "II search budget exhausted after " + llvm::Twine(search.attempts) +
        " attempts / " + llvm::Twine(int64_t(search.ms)) + " ms; best II " +
        llvm::Twine(analysis.ii) + " (" +
        (search.serialFallback ? "the serial schedule" : "cost-based") +
        "), bound " + llvm::Twine(bounds.mii) +
        (search.lastFailure >= std::max(1u, bounds.mii)
             ? ", largest II seen to fail " + std::to_string(search.lastFailure)
             : std::string(", no II seen to fail")));
}

/// Just below the generator's II, the generator once more on the exact
/// check's projection (FeasibilityOracle::seatCheaply): the ops that can be
/// refused, with no constraint between two recurrences. On the whole loop
/// the forward edges between bodies hold a recurrence back until the rows
/// it needs are taken; on the projection they are gone, and a joined HLS
/// loop whose heuristic II is one or two above a packed resource bound is
/// often seated at the bound in milliseconds (docs/generators.md).
/// Downwards while it seats: one probe when there is nothing to gain. Not
/// under prove-optimal, nor far above the bound: the exact check's upward
/// pass runs the same probe at every II it checks.
static void seatOnProjection(const Problem &problem,
                             const DriverOptions &options,
                             const rrt::Bounds &bounds,
                             const GeneratorSelection &selection,
                             DriverStats &stats, ScheduleAnalysis &analysis) {
  if (options.proveOptimal || selection.kind != GeneratorKind::CostBased ||
      !options.modulo.oracle || analysis.ii <= bounds.mii ||
      stats.search.exhausted ||
      farAboveBound(analysis.ii, bounds.mii, stats.search.serialFallback))
    return;
  // Each probe is bounded by the exact check's work budget, and there are
  // at most a few (the result is within 10% of the bound): no clock.
  const unsigned heuristicII = analysis.ii;
  std::optional<Schedule> best;
  unsigned probes = 0;
  for (unsigned ii = heuristicII - 1; ii >= bounds.mii && probes < 64;
       --ii, ++probes) {
    Schedule seated;
    DiagnosticList violations;
    if (!options.modulo.oracle->seatCheaply(problem, ii, seated) ||
        seated.ii != ii || !problem.verify(seated, violations))
      break;
    best = std::move(seated);
    if (ii == bounds.mii)
      break;
  }
  if (!best)
    return;
  adoptSchedule(problem, options, bounds, *best,
                analysis.selectionReason +
                    "; the generator on the projection onto the ops that "
                    "can be refused seats II " +
                    std::to_string(best->ii) + ", below its II " +
                    std::to_string(heuristicII) + " on the whole loop",
                analysis);
  stats.heuristicII = heuristicII;
}

/// Far above the bound (the serial fallback, or more than 10% over the
/// MII) the heuristic may have missed a much smaller II that the exact
/// check seats (an HLS loop of 2651 ops: serial II 2854, the check's II
/// 177 = MII). Unasked, a pass of the exact check looks for one within
/// rescueWork. A search stopped by the user's wall-clock safety net gets no
/// more.
static bool wantsRescue(const DriverOptions &options, const rrt::Bounds &bounds,
                        const GeneratorSelection &selection,
                        const DriverStats &stats,
                        const ScheduleAnalysis &analysis) {
  return !options.proveOptimal && selection.kind == GeneratorKind::CostBased &&
         farAboveBound(analysis.ii, bounds.mii, stats.search.serialFallback) &&
         !stats.search.timeLimitHit && options.modulo.oracle &&
         analysis.ii > bounds.mii;
}

namespace {

/// The --prove-optimal pass. Upwards from the bound: the first II the
/// oracle shows feasible is the smallest it can decide, and its witness is
/// adopted when the loop is the cost-based generator's to place (an
/// explicit serial request or force_serial_execution is kept and only
/// reported). The verdict is optimal only when every II below the result
/// was proven infeasible; IIs the budgets or the oracle leave undecided are
/// reported as ranges.
class OptimalityProof {
public:
  OptimalityProof(const Problem &problem, const DriverOptions &options,
                  const rrt::Bounds &bounds,
                  const GeneratorSelection &selection, DiagnosticList &diags,
                  DriverStats &stats, ScheduleAnalysis &analysis)
      : problem(problem), options(options), oracle(*options.modulo.oracle),
        bounds(bounds), selection(selection), diags(diags), stats(stats),
        analysis(analysis), start(ThreadCpuClock::now()),
        workStart(oracle.workSpent()) {}

  void run();

private:
  std::optional<std::string> budgetSpent() const;
  bool decide(unsigned ii);
  void adoptWitness(unsigned ii, const Schedule &witness);
  void undecided(unsigned first, unsigned last, std::string why);
  void warnUndecided();
  double elapsedMs() const {
    return std::chrono::duration<double, std::milli>(
               ThreadCpuClock::now() - start)
        .count();
  }

  const Problem &problem;
  const DriverOptions &options;
  FeasibilityOracle &oracle;
  const rrt::Bounds &bounds;
  const GeneratorSelection &selection;
  DiagnosticList &diags;
  DriverStats &stats;
  ScheduleAnalysis &analysis;
  const ThreadCpuClock::time_point start;
  const uint64_t workStart;
  /// IIs checked: each costs at least one unit of work.
  uint64_t checks = 0;
  std::optional<bool> optimal = true;
};

} // namespace

void OptimalityProof::run() {
  for (unsigned ii = bounds.mii; ii < analysis.ii; ++ii) {
    if (std::optional<std::string> why = budgetSpent()) {
      undecided(ii, analysis.ii - 1, std::move(*why));
      optimal.reset();
      break;
    }
    ++checks;
    if (decide(ii))
      break;
  }
  analysis.optimal = optimal;
  stats.proveMs = elapsedMs();
  warnUndecided();
}

/// Why the pass must stop before the next II, if it must.
std::optional<std::string> OptimalityProof::budgetSpent() const {
  if (options.proveWork &&
      oracle.workSpent() - workStart + checks >= options.proveWork)
    return "the --prove-optimal work budget of " +
           std::to_string(options.proveWork) +
           " units ran out [limit: prove-work]";
  const uint64_t passLimitMs = options.proveTimeLimitMs;
  if (passLimitMs && elapsedMs() >= double(passLimitMs))
    return "the --prove-optimal time limit of " + std::to_string(passLimitMs) +
           " ms ran out [limit: prove-timeout-ms]";
  return std::nullopt;
}

/// Asks the oracle about `ii`; true when it is feasible (the pass ends
/// there).
bool OptimalityProof::decide(unsigned ii) {
  std::optional<bool> feasible = oracle.feasibleAt(problem, ii);
  if (!feasible) {
    std::string why = oracle.lastUnknownReason();
    undecided(ii, ii,
              why.empty() ? "the exact check could not decide"
                          : "the exact check: " + why);
    optimal.reset();
    return false;
  }
  if (!*feasible)
    return false;
  Schedule witness;
  DiagnosticList violations;
  if (selection.kind == GeneratorKind::CostBased &&
      oracle.lastWitness(witness) && witness.ii == ii &&
      problem.verify(witness, violations)) {
    adoptWitness(ii, witness);
  } else {
    optimal = false;
    analysis.smallerFeasibleII = ii;
  }
  return true;
}

/// `optimal` stays true only when every II below `ii` was proven
/// infeasible; an undecided one has reset it already.
void OptimalityProof::adoptWitness(unsigned ii, const Schedule &witness) {
  unsigned heuristicII = analysis.ii;
  adoptSchedule(problem, options, bounds, witness,
                selection.reason + "; the exact check's schedule at II " +
                    std::to_string(ii) + " replaces the heuristic's at II " +
                    std::to_string(heuristicII),
                analysis);
  stats.heuristicII = heuristicII;
  diags.remark("the exact check finds a schedule at II " + llvm::Twine(ii) +
               ", below the heuristic's II " + llvm::Twine(heuristicII) +
               ": it is adopted");
}

/// Records [first, last] as undecided for `why`, merged with the previous
/// range when adjacent.
void OptimalityProof::undecided(unsigned first, unsigned last,
                                std::string why) {
  if (!stats.undecided.empty() && stats.undecided.back().second + 1 == first)
    stats.undecided.back().second = last;
  else
    stats.undecided.push_back({first, last});
  if (!llvm::is_contained(stats.undecidedWhy, why))
    stats.undecidedWhy.push_back(std::move(why));
}

void OptimalityProof::warnUndecided() {
  if (stats.undecided.empty() || optimal.has_value())
    return;
  std::string ranges;
  for (auto [first, last] : stats.undecided)
    ranges +=
        (ranges.empty() ? "" : ", ") +
        (first == last ? std::to_string(first)
                       : std::to_string(first) + "-" + std::to_string(last));
  std::string why;
  for (const std::string &w : stats.undecidedWhy)
    why += (why.empty() ? "" : "; ") + w;
  diags.warning("prove-optimal left II " + llvm::Twine(ranges) +
                " undecided, so II " + llvm::Twine(analysis.ii) +
                " is not proven optimal: " + why);
}

/// A generator bug must never publish an invalid schedule.
static bool verifyResult(const Problem &problem,
                         const ScheduleAnalysis &analysis,
                         DiagnosticList &diags) {
  DiagnosticList violations;
  if (problem.verify(analysis.toSchedule(), violations))
    return true;
  for (const Diagnostic &v : violations.all())
    diags.error("internal error: generated schedule fails verification: " +
                    v.message,
                v.op);
  return false;
}

std::optional<ScheduleAnalysis> tilepipe::sched::runScheduler(
    const Problem &problem, const DriverOptions &options, DiagnosticList &diags,
    std::optional<rrt::Bounds> *boundsOut, DriverStats *statsOut) {
  DriverStats localStats;
  DriverStats &stats = statsOut ? *statsOut : localStats;
  stats = {};
  if (!problem.check(diags))
    return std::nullopt;
  rrt::Bounds bounds = problem.computeBounds();
  if (boundsOut)
    *boundsOut = bounds;
  // A raised floor: every step below searches from it, as if it were the
  // bound, and the analysis reports the true bound after.
  const rrt::Bounds trueBounds = bounds;
  bool raised = options.minII > bounds.mii;
  if (raised)
    bounds.mii = options.minII;
  GeneratorSelection selection =
      selectGenerator(problem, options.selection, &bounds);
  std::optional<ScheduleAnalysis> analysis =
      generate(problem, options, bounds, selection, diags, stats);
  if (!analysis)
    return std::nullopt;
  assignStages(problem, options, stats, *analysis);
  explainResult(options, bounds, selection, stats.search, diags, *analysis);
  seatOnProjection(problem, options, bounds, selection, stats, *analysis);
  if (wantsRescue(options, bounds, selection, stats, *analysis)) {
    stats.rescued = true;
    rescueSchedule(problem, options, bounds, selection, diags, stats,
                   *analysis);
  }
  if (analysis->ii <= bounds.mii)
    analysis->optimal = true;
  else if (options.proveOptimal && options.modulo.oracle)
    OptimalityProof(problem, options, bounds, selection, diags, stats,
                    *analysis)
        .run();
  if (raised) {
    analysis->bounds = trueBounds;
    analysis->optimal.reset();
  }
  if (!verifyResult(problem, *analysis, diags))
    return std::nullopt;
  return analysis;
}
