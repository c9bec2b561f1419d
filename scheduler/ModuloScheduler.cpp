//===- ModuloScheduler.cpp - the candidate-II search ----------------------===//
//
// For each candidate II: reject the II outright when it is provably
// infeasible (a positive cycle), otherwise run the strategy ladder of
// placement attempts (modulo/Engine.h) until one seats every op. Ties always
// break by program order.
//
// Which IIs are candidates is the search's business (IISearch). Tile loops
// have IIs in the thousands of cycles, so the default (stride) never walks
// the IIs one by one: its number of attempts grows with the logarithm of the
// distance from the lower bound to the II found. docs/generators.md states
// what it guarantees.
//
//===----------------------------------------------------------------------===//

#include "scheduler/ModuloScheduler.h"
#include "support/ThreadCpuClock.h"

#include "scheduler/SerialGenerator.h"
#include "scheduler/modulo/Engine.h"
#include "scheduler/modulo/FailureReport.h"

#include "rrt/RRT.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <climits>

using namespace tilepipe;
using namespace tilepipe::sched;

namespace {

/// The largest II the search considers: II + 1 must not wrap (a wrapped II
/// of 0 would be a modulo by zero), and the RRT holds II rows indexed by
/// unsigned.
constexpr uint64_t kMaxII = UINT_MAX - 1;
/// Loops above this many ops run first-fit rungs only (see the ladder).
constexpr unsigned kLargeLoop = 2000;
/// Loops above this many ops try aligned first fit before the evicting
/// rungs; smaller ones (every tile loop) keep their schedules and try it
/// last.
constexpr unsigned kFirstFitFirst = 500;
/// Tile loops of at least this many ops make their first packing probe at
/// 1.05 x the bound (searchTileLoop).
constexpr unsigned kNearProbeOps = 100;

enum class Outcome { Seated, Failed, Stopped };

/// The strategy ladder, each rung a fresh attempt (intermediate state is
/// cleared between them): height priority with cost-ranked forced seats,
/// height priority with Rau's forced seats, slack priority with each,
/// program order, and last aligned first fit (linear, no evictions).
// One rung per line:
// clang-format off
constexpr modulo::Strategy kFirstFitAligned = {
    modulo::Priority::Height, false, /*firstFitOnly=*/true,
    /*alignPools=*/true};
constexpr modulo::Strategy kFullLadder[] = {
    {modulo::Priority::Height, false},
    {modulo::Priority::Height, true},
    {modulo::Priority::Slack, false},
    {modulo::Priority::Slack, true},
    {modulo::Priority::ProgramOrder, false},
    kFirstFitAligned};
/// Mid-size loops try the cheap rung first: it is what seats them.
constexpr modulo::Strategy kMidLadder[] = {
    kFirstFitAligned,
    {modulo::Priority::Height, false},
    {modulo::Priority::Height, true},
    {modulo::Priority::Slack, false},
    {modulo::Priority::Slack, true},
    {modulo::Priority::ProgramOrder, false}};
/// Past kLargeLoop ops an evicting rung that fails costs tens of seconds
/// (every forced seat scores a window of II seats against thousands of
/// seated ops) and, on the generated loops of bench/large-loops.py, seats
/// nothing at an II where first fit failed; first fit is linear.
constexpr modulo::Strategy kLargeLadder[] = {
    kFirstFitAligned,
    {modulo::Priority::Height, false, /*firstFitOnly=*/true}};
/// Tile loops: first fit on the ring of the binding unit, then first fit
/// flush against the holders of each saturated bit, then aligned and plain
/// first fit. No evictions: each rung is linear in the ops.
constexpr modulo::Strategy kPackLadder[] = {
    {modulo::Priority::Height, false, /*firstFitOnly=*/true,
     /*alignPools=*/false, /*packSaturated=*/true, /*ringPack=*/true},
    {modulo::Priority::Height, false, /*firstFitOnly=*/true,
     /*alignPools=*/false, /*packSaturated=*/true}};
// clang-format on

/// One candidate-II search of one loop: the state its steps share. The
/// steps, in order (run()): reject a loop no II can seat, settle the cap,
/// skip the IIs below the first without a positive cycle, climb to a first
/// success, refine down to the last failure, conclude with the schedule or
/// the report of why there is none.
class CandidateSearch {
public:
  CandidateSearch(const Problem &problem, const rrt::Bounds &bounds,
                  const ModuloOptions &options, DiagnosticList &diags,
                  IISearchStats &stats);

  std::optional<ScheduleAnalysis> run();

private:
  // The steps of run().
  bool rejectInfeasibleLoop();
  bool settleCap();
  uint64_t skipPositiveCycles();
  void climb(uint64_t start);
  void climbLinear(uint64_t start);
  void climbGallop(uint64_t start);
  void climbStride(uint64_t start);
  void refine();
  std::optional<ScheduleAnalysis> conclude();
  void reportNoSchedule();

  // One candidate II.
  bool probe(uint64_t ii);
  Outcome attempt(uint64_t ii64);
  llvm::ArrayRef<modulo::Strategy> ladder() const;
  Outcome runLadder(unsigned ii, llvm::ArrayRef<modulo::Strategy> rungs,
                    const modulo::PathLengths &paths,
                    const std::vector<int64_t> *preferred);
  Outcome failWithoutAttempt(unsigned ii, const char *reason, bool proven);

  // Queries.
  const std::optional<ScheduleAnalysis> &serialSchedule();
  bool fallbackAt(uint64_t ii);
  bool positiveCycle(uint64_t ii) const;
  bool outOfBudget();
  uint64_t changesAt(const modulo::AttemptFailure &f) const;
  double elapsedMs() const;

  const Problem &problem;
  const rrt::Bounds &bounds;
  const ModuloOptions &options;
  DiagnosticList &diags;
  IISearchStats &stats;
  const ThreadCpuClock::time_point clockStart;
  ModuloOptions engineOptions;
  /// Groups and max_depth need the evicting recoveries, so a loop with
  /// either keeps the full ladder however large.
  bool large = false;

  /// The serial schedule, computed at most once: at its II (the serial
  /// length) it is the fallback of every search.
  std::optional<std::optional<ScheduleAnalysis>> serialCache;
  uint64_t serial = 0;
  uint64_t lo = 0;
  uint64_t cap = 0;
  std::vector<rrt::DepEdge> edges;

  /// The failure reported for the last II that failed (the first rung's,
  /// unless a later rung proved it), for the stride and the diagnostic.
  modulo::AttemptFailure failure;
  /// The seats of the last II seated.
  std::optional<std::vector<int64_t>> bestStarts;
  /// Distinct IIs decided, for the failure note.
  uint64_t tried = 0;
  /// `best` is the smallest II seated so far (or the cap with the serial
  /// fallback), `lastFail` the largest II below it seen to fail (lo - 1
  /// when none).
  std::optional<uint64_t> best;
  bool useSerial = false;
  uint64_t lastFail = 0;
  /// The budget ran out.
  bool stopped = false;
};

} // namespace

CandidateSearch::CandidateSearch(const Problem &problem,
                                 const rrt::Bounds &bounds,
                                 const ModuloOptions &options,
                                 DiagnosticList &diags, IISearchStats &stats)
    : problem(problem), bounds(bounds), options(options), diags(diags),
      stats(stats), clockStart(ThreadCpuClock::now()),
      engineOptions(options) {
  stats = {};
  if (options.timeLimitMs)
    engineOptions.deadline =
        clockStart + std::chrono::milliseconds(options.timeLimitMs);
  bool hasConstraints = !problem.getGroups().empty();
  for (const Operation &op : problem.getOps())
    hasConstraints |= op.constraints.maxDepth.has_value();
  large = problem.getNumOps() > kLargeLoop && !hasConstraints &&
          !options.evictingRungs;
}

std::optional<ScheduleAnalysis> CandidateSearch::run() {
  if (rejectInfeasibleLoop() || !settleCap())
    return std::nullopt;
  edges = problem.getDepEdges();
  uint64_t start = skipPositiveCycles();
  if (!positiveCycle(start)) {
    climb(start);
    refine();
  }
  stats.exhausted = stopped;
  stats.ms = elapsedMs();
  return conclude();
}

/// A loop no II seats (the bounds proved it): an error, no search.
bool CandidateSearch::rejectInfeasibleLoop() {
  if (!bounds.recurrenceInfeasible && !bounds.resourceInfeasible)
    return false;
  diags.error("no II can be scheduled: " +
              llvm::Twine(bounds.recurrenceInfeasible
                              ? "a dependence cycle within one iteration "
                                "has positive latency"
                              : "an op collides with itself at every II"));
  return true;
}

/// The range [lo, cap] of candidate IIs; false (with an error) when empty.
bool CandidateSearch::settleCap() {
  serial = uint64_t(std::max<int64_t>(problem.serialLength(), 1));
  lo = std::max(1u, bounds.mii);
  lastFail = lo - 1;
  cap = options.iiCap ? options.iiCap : serial;
  // Past the serial length no II can beat the serial schedule, which holds
  // there whenever it verifies; a cap beyond it (even UINT_MAX) is lowered.
  if (cap > serial && serialSchedule())
    cap = serial;
  cap = std::min(cap, kMaxII);
  if (cap >= lo)
    return true;
  diags
      .error("the II cap " + llvm::Twine(cap) + " is below the lower bound " +
             llvm::Twine(lo) +
             ": no schedule exists at any II allowed "
             "(proven)")
      .attachNote("MII " + llvm::Twine(bounds.mii) + " = max(resource " +
                  llvm::Twine(bounds.resMII) + ", fine-density " +
                  llvm::Twine(bounds.fineMII) + ", recurrence " +
                  llvm::Twine(bounds.recMII) + ", dependency " +
                  llvm::Twine(bounds.depMII) + ")");
  return false;
}

/// A positive cycle is monotone in II (every edge weight latency - II *
/// distance falls as II grows), so the first II without one is found by
/// bisection and nothing below it is attempted. MII includes the recurrence
/// bound, so this rarely moves; it is cheap insurance. Returns the first II
/// to attempt (one with a positive cycle when every II up to the cap has
/// one).
uint64_t CandidateSearch::skipPositiveCycles() {
  uint64_t start = lo;
  if (!positiveCycle(start))
    return start;
  if (positiveCycle(cap)) {
    attempt(cap); // Fills `failure` with the proven reason.
    return start;
  }
  uint64_t bad = start, good = cap;
  while (good - bad > 1) {
    uint64_t mid = bad + (good - bad) / 2;
    (positiveCycle(mid) ? bad : good) = mid;
  }
  lastFail = bad;
  return good;
}

/// From `start` up to a first success (or the cap, or the budget's end).
void CandidateSearch::climb(uint64_t start) {
  switch (options.search) {
  case IISearch::Linear:
    return climbLinear(start);
  case IISearch::Gallop:
    return climbGallop(start);
  case IISearch::Stride:
    return climbStride(start);
  }
}

void CandidateSearch::climbLinear(uint64_t start) {
  for (uint64_t ii = start; ii <= cap && !best; ++ii)
    if (!probe(ii))
      break;
}

/// Doubling the II itself: log2(II) probes whatever the distance to the
/// bound, so it is kept only for comparison.
void CandidateSearch::climbGallop(uint64_t start) {
  uint64_t hi = start;
  while (probe(hi) && !best && hi < cap)
    hi = std::min(hi * 2, cap);
}

/// Offsets 1, 2, 4, ... past the last failure: the probes reach an II L
/// after at most log2(L - lo) + 2 of them.
/// A failure whose closed window cannot open before some larger II (with
/// the predecessors seated as this attempt seated them) sends the next
/// probe there directly. Other placements may open it earlier, so the
/// refinement still bisects down to the last II seen to fail: the jump
/// saves probes, it never skips an II the search would have found.
void CandidateSearch::climbStride(uint64_t start) {
  uint64_t step = 1, ii = start;
  while (probe(ii) && !best && ii < cap) {
    // `failure` is the one reported for `ii` (the first rung's, as in the
    // diagnostic) when `ii` failed.
    uint64_t strided = lastFail + step, nextChange = changesAt(failure);
    if (lastFail == ii && nextChange > strided) {
      strided = nextChange;
      ++stats.jumps;
    }
    ii = std::min(cap, strided);
    step = std::min(step * 2, kMaxII);
  }
}

/// Bisects between the last failure and the best success, keeping the
/// smallest success. Every II tried below `best` and seen to fail moves
/// `lastFail` up, so it ends with best == lastFail + 1 unless the budget
/// stops it. The packing rungs stop within 0.5% of the II: at tile-loop IIs
/// of tens of thousands the last halvings cost as much as the whole climb
/// and gain a few cycles.
void CandidateSearch::refine() {
  if (options.search == IISearch::Linear)
    return;
  uint64_t close = 1;
  if (options.ladder == ModuloOptions::LadderKind::Packing && best)
    close = std::max<uint64_t>(1, *best / 200);
  while (best && !stopped && *best - lastFail > close)
    if (!probe(lastFail + (*best - lastFail) / 2))
      break;
}

/// The smallest II seated, else the serial fallback, else the report.
std::optional<ScheduleAnalysis> CandidateSearch::conclude() {
  // Out of budget before any schedule: the serial one is the answer when
  // the cap allows it.
  if (!best && stopped && fallbackAt(cap)) {
    best = cap;
    useSerial = true;
  }
  if (!best) {
    reportNoSchedule();
    return std::nullopt;
  }
  stats.lastFailure = unsigned(std::min<uint64_t>(lastFail, *best - 1));
  if (useSerial) {
    stats.serialFallback = true;
    return serialSchedule();
  }
  Schedule s;
  s.ii = unsigned(*best);
  s.start = std::move(*bestStarts);
  return ScheduleAnalysis::fromSchedule(problem, s, GeneratorKind::CostBased);
}

void CandidateSearch::reportNoSchedule() {
  if (stopped) {
    diags.error(
        "II search budget exhausted after " + llvm::Twine(stats.attempts) +
        " attempts / " + llvm::Twine(int64_t(stats.ms)) +
        " ms before any schedule was found; no fallback, the serial "
        "length " +
        llvm::Twine(serial) + " is above the II cap " + llvm::Twine(cap));
    return;
  }
  modulo::reportFailure(problem, bounds, unsigned(cap), failure, options.oracle,
                        diags);
  // The report names the whole range; say when the search skipped some of
  // it, so "heuristic" is read with that in mind.
  if (tried < cap - lo + 1 && !diags.all().empty())
    diags.all().back().attachNote("the search tried " + llvm::Twine(tried) +
                                  " of the " + llvm::Twine(cap - lo + 1) +
                                  " IIs in that range (search=linear " +
                                  "tries every one)");
}

/// Decides one candidate and folds the outcome into the search state; false
/// when the search must stop (budget).
bool CandidateSearch::probe(uint64_t ii) {
  std::optional<std::vector<int64_t>> keep = std::move(bestStarts);
  switch (attempt(ii)) {
  case Outcome::Seated:
    best = ii;
    useSerial = false;
    return true;
  case Outcome::Failed:
    bestStarts = std::move(keep);
    if (fallbackAt(ii)) {
      // The serial schedule verifies at the cap: a success there, and the
      // refinement still looks below it.
      best = ii;
      useSerial = true;
      return true;
    }
    lastFail = std::max(lastFail, ii);
    return true;
  case Outcome::Stopped:
    bestStarts = std::move(keep);
    stopped = true;
    return false;
  }
  return false;
}

/// One candidate II: Seated fills `bestStarts`, Failed fills `failure`,
/// Stopped means the budget ran out before the II was decided.
Outcome CandidateSearch::attempt(uint64_t ii64) {
  const unsigned ii = unsigned(ii64);
  if (positiveCycle(ii))
    return failWithoutAttempt(
        ii, "a dependence cycle is longer than II times its distance",
        /*proven=*/true);
  llvm::ArrayRef<modulo::Strategy> rungs = ladder();
  modulo::PathLengths paths = modulo::PathLengths::compute(problem, ii);
  // A seeded search runs after the unseeded one has tried the ladder
  // (generateModuloSchedule): only the seeded rung is new.
  const modulo::Strategy seededRung = {modulo::Priority::Seeded, false,
                                       /*firstFitOnly=*/large};
  std::optional<std::vector<int64_t>> preferred;
  if (options.seeder) {
    preferred = options.seeder->seed(problem, ii);
    if (!preferred || preferred->size() != problem.getNumOps())
      return failWithoutAttempt(
          ii, "the seeder gave no start cycles at this II", /*proven=*/false);
    rungs = llvm::ArrayRef(seededRung);
  }
  return runLadder(ii, rungs, paths, preferred ? &*preferred : nullptr);
}

/// The rungs every II of this search gets (without a seeder).
llvm::ArrayRef<modulo::Strategy> CandidateSearch::ladder() const {
  llvm::ArrayRef<modulo::Strategy> rungs =
      large ? llvm::ArrayRef(kLargeLadder) : llvm::ArrayRef(kFullLadder);
  if (!large && problem.getNumOps() > kFirstFitFirst)
    rungs = llvm::ArrayRef(kMidLadder);
  if (options.ladder == ModuloOptions::LadderKind::Packing)
    rungs = llvm::ArrayRef(kPackLadder);
  else if (options.ladder == ModuloOptions::LadderKind::FirstRung)
    rungs = rungs.take_front(1);
  return rungs;
}

/// The rungs in order until one seats every op, one proves the II
/// infeasible, or the budget runs out.
Outcome CandidateSearch::runLadder(unsigned ii,
                                   llvm::ArrayRef<modulo::Strategy> rungs,
                                   const modulo::PathLengths &paths,
                                   const std::vector<int64_t> *preferred) {
  for (const modulo::Strategy &strategy : rungs) {
    if (outOfBudget())
      return Outcome::Stopped;
    ++stats.attempts;
    if (options.workLimit)
      engineOptions.workLeft = options.workLimit - stats.work;
    modulo::Engine engine(problem, ii, engineOptions, strategy, paths,
                          preferred);
    modulo::AttemptFailure f;
    std::optional<std::vector<int64_t>> starts = engine.run(f);
    stats.work += engine.getWork();
    if (starts) {
      bestStarts = std::move(starts);
      ++tried;
      return Outcome::Seated;
    }
    // A budget that ran out inside the attempt leaves the II undecided.
    if (f.outOfWork)
      return Outcome::Stopped;
    if (&strategy == &rungs.front() || f.proven)
      failure = f;
    if (f.proven)
      break;
  }
  ++tried;
  return Outcome::Failed;
}

/// An II decided before any placement attempt.
Outcome CandidateSearch::failWithoutAttempt(unsigned ii, const char *reason,
                                            bool proven) {
  failure = {};
  failure.ii = ii;
  failure.reason = reason;
  failure.proven = proven;
  ++tried;
  return Outcome::Failed;
}

const std::optional<ScheduleAnalysis> &CandidateSearch::serialSchedule() {
  if (!serialCache) {
    DiagnosticList ignored;
    std::optional<ScheduleAnalysis> s =
        generateSerialSchedule(problem, ignored);
    DiagnosticList violations;
    if (s && !problem.verify(s->toSchedule(), violations))
      s.reset();
    serialCache = std::move(s);
  }
  return *serialCache;
}

/// The fallback only when it respects the cap.
bool CandidateSearch::fallbackAt(uint64_t ii) {
  return ii == cap && cap == serial && serialSchedule().has_value();
}

bool CandidateSearch::positiveCycle(uint64_t ii) const {
  return rrt::hasPositiveCycle(problem.getNumOps(), edges, int64_t(ii));
}

bool CandidateSearch::outOfBudget() {
  if (options.timeLimitMs && elapsedMs() >= double(options.timeLimitMs)) {
    stats.timeLimitHit = true;
    return true;
  }
  return (options.maxAttempts && stats.attempts >= options.maxAttempts) ||
         (options.workLimit && stats.work >= options.workLimit);
}

/// The smallest II at which a reported failure can change: a window that
/// max_depth closed opens only once (depth + 1) * II reaches the op's
/// earliest start; any other refusal can change at II + 1.
uint64_t CandidateSearch::changesAt(const modulo::AttemptFailure &f) const {
  uint64_t next = uint64_t(f.ii) + 1;
  if (!f.op || f.windowLo <= f.windowHi || f.windowLo < 0)
    return next;
  std::optional<unsigned> d = problem.getOp(*f.op).constraints.maxDepth;
  if (!d || f.windowHi != modulo::depthCapEnd(*d, f.ii))
    return next;
  uint64_t stages = uint64_t(*d) + 1;
  return std::max(next, (uint64_t(f.windowLo) + stages) / stages);
}

double CandidateSearch::elapsedMs() const {
  return std::chrono::duration<double, std::milli>(
             ThreadCpuClock::now() - clockStart)
      .count();
}

/// The candidate-II search; with options.seeder set, every II's ladder is
/// the seeded rung alone.
static std::optional<ScheduleAnalysis> searchII(const Problem &problem,
                                                const rrt::Bounds &bounds,
                                                const ModuloOptions &options,
                                                DiagnosticList &diags,
                                                IISearchStats *statsOut) {
  IISearchStats localStats;
  return CandidateSearch(problem, bounds, options, diags,
                         statsOut ? *statsOut : localStats)
      .run();
}

static std::vector<int64_t> startsOf(const ScheduleAnalysis &analysis) {
  std::vector<int64_t> starts;
  for (const ScheduleSlot &slot : analysis.slots)
    starts.push_back(slot.cycle);
  return starts;
}

static bool hasLongFootprints(const Problem &problem) {
  for (const rrt::Footprint &fp : problem.getFootprints())
    if (fp.length() > kLongFootprint)
      return true;
  return false;
}

/// What is left of `options`' budgets after `spent`: the same options with
/// the attempt and work limits reduced; nullopt when one is spent.
static std::optional<ModuloOptions> remainder(const ModuloOptions &options,
                                              const IISearchStats &spent) {
  ModuloOptions left = options;
  if (options.maxAttempts) {
    if (spent.attempts >= options.maxAttempts)
      return std::nullopt;
    left.maxAttempts = options.maxAttempts - spent.attempts;
  }
  if (options.workLimit) {
    if (spent.work >= options.workLimit)
      return std::nullopt;
    left.workLimit = options.workLimit - spent.work;
  }
  if (options.timeLimitMs) {
    if (spent.ms >= double(options.timeLimitMs))
      return std::nullopt;
    left.timeLimitMs = options.timeLimitMs - uint64_t(spent.ms);
  }
  return left;
}

/// Adds `more` (a later search of the same loop) to `total`.
static void accumulate(IISearchStats &total, const IISearchStats &more) {
  total.attempts += more.attempts;
  total.work += more.work;
  total.ms += more.ms;
  total.jumps += more.jumps;
  total.exhausted |= more.exhausted;
  total.timeLimitHit |= more.timeLimitHit;
}

/// The first rung alone at the bound, on a share of the work budget: on a
/// 200-op tile loop one evicting attempt can take all of it and seat
/// nothing. Its failure report is dropped: no exact check to tell proven
/// from not.
static std::optional<ScheduleAnalysis>
firstRungAtBound(const Problem &problem, const rrt::Bounds &bounds,
                 const ModuloOptions &options, IISearchStats &stats) {
  ModuloOptions first = options;
  first.ladder = ModuloOptions::LadderKind::FirstRung;
  first.iiCap = std::max(1u, bounds.mii);
  first.oracle = nullptr;
  if (options.workLimit)
    first.workLimit = std::max<uint64_t>(1, options.workLimit / 8);
  DiagnosticList ignored;
  return searchII(problem, bounds, first, ignored, &stats);
}

/// The packing rungs on what is left of `options`' budgets after `spent`.
static std::optional<ModuloOptions> packingOptions(const ModuloOptions &options,
                                                   const IISearchStats &spent) {
  std::optional<ModuloOptions> packing = remainder(options, spent);
  if (packing)
    packing->ladder = ModuloOptions::LadderKind::Packing;
  return packing;
}

/// A schedule early: one packing attempt at 1.05 x the bound, so a loop
/// whose attempts are costly (a 1,000-op tile loop: 0.1-0.3 s each) holds a
/// schedule near the bound before the search below it runs, never the
/// serial one at 7x. Then 1.25 x, 1.5 x and 2 x when it does not seat; each
/// probe gets a third of the budget. With the ring's reservations
/// (Engine::ringSkip) the generated loops of bench/tile-loops.py seat at
/// the first probe; it took 1.25 x before them. Loops of fewer ops afford
/// the search from 1.25 x down (and keep the schedules they had). Adds
/// what the probes spent to `spent`.
static std::optional<ScheduleAnalysis> packEarly(const Problem &problem,
                                                 const rrt::Bounds &bounds,
                                                 const ModuloOptions &options,
                                                 const ModuloOptions &packing,
                                                 IISearchStats &spent) {
  const bool nearProbe = problem.getNumOps() >= kNearProbeOps;
  DiagnosticList ignored;
  IISearchStats earlyStats;
  for (uint64_t permille : {1050, 1250, 1500, 2000}) {
    if (permille == 1050 && !nearProbe)
      continue;
    uint64_t early = uint64_t(bounds.mii) * permille / 1000;
    if (early <= bounds.mii || int64_t(early) >= problem.serialLength())
      break;
    ModuloOptions once = packing;
    once.iiCap = unsigned(early);
    once.oracle = nullptr;
    if (once.workLimit)
      once.workLimit = std::max<uint64_t>(1, options.workLimit / 3);
    rrt::Bounds atEarly = bounds;
    atEarly.mii = unsigned(early);
    std::optional<ScheduleAnalysis> seated =
        searchII(problem, atEarly, once, ignored, &earlyStats);
    accumulate(spent, earlyStats);
    spent.exhausted = false;
    if (seated && !earlyStats.serialFallback)
      return seated;
  }
  return std::nullopt;
}

/// Below the packed II `best`, the evicting rungs within what is left of
/// the budget; the smaller of the two schedules, with the stats of both.
static std::optional<ScheduleAnalysis>
evictBelowPacked(const Problem &problem, const rrt::Bounds &bounds,
                 const ModuloOptions &options,
                 std::optional<ScheduleAnalysis> best, IISearchStats &stats) {
  std::optional<ModuloOptions> evicting = remainder(options, stats);
  if (!evicting)
    return best;
  // Near the bound (within 10%) the evicting rungs get a tenth of the
  // budget: on the generated loops of bench/tile-loops.py they never found
  // a smaller II there and took three quarters of the CPU time, while a
  // small loop's few evicting attempts still take it from 797 to 768
  // (exact-adopt.mlir).
  if (evicting->workLimit &&
      !farAboveBound(best->ii, bounds.mii, stats.serialFallback))
    evicting->workLimit = std::min(
        evicting->workLimit, std::max<uint64_t>(1, options.workLimit / 10));
  evicting->iiCap = best->ii - 1;
  evicting->evictingRungs = true;
  evicting->oracle = nullptr;
  DiagnosticList ignored;
  IISearchStats second;
  std::optional<ScheduleAnalysis> lower =
      searchII(problem, bounds, *evicting, ignored, &second);
  const bool serialFallback = stats.serialFallback;
  const unsigned lastFailure = stats.lastFailure;
  const std::optional<unsigned> packedII = stats.packedII;
  if (lower && lower->ii < best->ii && !second.serialFallback) {
    IISearchStats total = second;
    accumulate(total, stats);
    total.exhausted = second.exhausted;
    total.serialFallback = false;
    total.lastFailure = second.lastFailure;
    total.packedII = packedII;
    stats = total;
    return lower;
  }
  accumulate(stats, second);
  // The evicting search running out below the packed II leaves that II the
  // answer, found within the budget.
  stats.exhausted = false;
  stats.serialFallback = serialFallback;
  stats.lastFailure = lastFailure;
  return best;
}

/// The candidate-II search of a tile loop (docs/generators.md, "Tile
/// loops"). Its ops hold units for hundreds to thousands of cycles, so an
/// evicting rung that fails moves thousands of rows per step, and near the
/// bound every one fails: the whole ladder at each II spent ten seconds and
/// seated nothing on a 43-op loop. The first rung at the bound keeps every
/// loop it seats there as it was; then the packing rungs (first fit, no
/// evictions) search the IIs, from an early schedule above the bound
/// downwards; then, within what is left of the work budget, the whole
/// ladder searches below their II.
static std::optional<ScheduleAnalysis>
searchTileLoop(const Problem &problem, const rrt::Bounds &bounds,
               const ModuloOptions &options, DiagnosticList &diags,
               IISearchStats &stats) {
  std::optional<ScheduleAnalysis> atBound =
      firstRungAtBound(problem, bounds, options, stats);
  if (atBound && !stats.serialFallback && atBound->ii <= bounds.mii)
    return atBound;
  IISearchStats spent = stats;
  spent.exhausted = false;
  std::optional<ModuloOptions> packing = packingOptions(options, spent);
  if (!packing)
    return searchII(problem, bounds, options, diags, &stats);
  std::optional<ScheduleAnalysis> seatedEarly =
      packEarly(problem, bounds, options, *packing, spent);
  if (seatedEarly) {
    packing = packingOptions(options, spent);
    if (!packing) {
      stats = spent;
      stats.lastFailure = bounds.mii - 1;
      stats.packedII = seatedEarly->ii;
      return seatedEarly;
    }
    packing->iiCap = seatedEarly->ii - 1;
    packing->oracle = nullptr;
  }
  DiagnosticList ignored;
  std::optional<ScheduleAnalysis> best = searchII(
      problem, bounds, *packing, seatedEarly ? ignored : diags, &stats);
  accumulate(stats, spent);
  if (seatedEarly && (!best || best->ii >= seatedEarly->ii)) {
    // Nothing below the early II within the budget: that schedule.
    best = std::move(seatedEarly);
    stats.exhausted = false;
    stats.serialFallback = false;
    stats.lastFailure = std::max(stats.lastFailure, bounds.mii - 1);
  }
  if (!best || stats.exhausted || best->ii <= bounds.mii)
    return best;
  stats.packedII = best->ii;
  return evictBelowPacked(problem, bounds, options, std::move(best), stats);
}

/// A large loop's first-fit search, and when its result is far above the
/// bound (the serial fallback, or more than 10% over MII) a second search
/// with the evicting rungs below it, within what is left of the budget: on
/// a recurrence-bound loop of 2600 ops first fit alone ends 28% above MII
/// where the evicting rungs reach it (docs/generators.md).
static std::optional<ScheduleAnalysis>
searchWithRescue(const Problem &problem, const rrt::Bounds &bounds,
                 const ModuloOptions &options, DiagnosticList &diags,
                 IISearchStats *statsOut) {
  IISearchStats localStats;
  IISearchStats &stats = statsOut ? *statsOut : localStats;
  if (options.search == IISearch::Stride && !options.evictingRungs &&
      options.ladder == ModuloOptions::LadderKind::Full &&
      problem.getNumOps() <= kLargeLoop && hasLongFootprints(problem))
    return searchTileLoop(problem, bounds, options, diags, stats);
  std::optional<ScheduleAnalysis> best =
      searchII(problem, bounds, options, diags, &stats);
  if (!best || stats.exhausted || options.evictingRungs ||
      problem.getNumOps() <= kLargeLoop ||
      !farAboveBound(best->ii, bounds.mii, stats.serialFallback))
    return best;
  ModuloOptions evicting = options;
  evicting.evictingRungs = true;
  evicting.iiCap = best->ii - 1;
  if (options.timeLimitMs) {
    if (stats.ms >= double(options.timeLimitMs))
      return best;
    evicting.timeLimitMs = options.timeLimitMs - uint64_t(stats.ms);
  }
  if (options.maxAttempts) {
    if (stats.attempts >= options.maxAttempts)
      return best;
    evicting.maxAttempts = options.maxAttempts - stats.attempts;
  }
  DiagnosticList ignored;
  IISearchStats second;
  std::optional<ScheduleAnalysis> lower =
      searchII(problem, bounds, evicting, ignored, &second);
  double firstMs = stats.ms;
  uint64_t firstAttempts = stats.attempts;
  if (lower && lower->ii < best->ii && !second.serialFallback) {
    unsigned firstII = best->ii;
    stats = second;
    stats.firstFitII = firstII;
    best = std::move(lower);
  }
  stats.ms = firstMs + second.ms;
  stats.attempts = firstAttempts + second.attempts;
  return best;
}

std::optional<ScheduleAnalysis> tilepipe::sched::generateModuloSchedule(
    const Problem &problem, const rrt::Bounds &bounds,
    const ModuloOptions &options, DiagnosticList &diags,
    IISearchStats *statsOut) {
  if (!options.seeder)
    return searchWithRescue(problem, bounds, options, diags, statsOut);
  // Seeded: the unseeded search first, then seeded searches below its II
  // and at it (StartSeeder.h). A seeded result is taken only at a smaller
  // II, or at the same II with a lower seeder cost, so a seed never raises
  // the II.
  ModuloOptions plain = options;
  plain.seeder = nullptr;
  IISearchStats localStats;
  IISearchStats &stats = statsOut ? *statsOut : localStats;
  auto start = ThreadCpuClock::now();
  std::optional<ScheduleAnalysis> best =
      searchWithRescue(problem, bounds, plain, diags, &stats);
  if (!best)
    return best;
  stats.unseededII = best->ii;
  auto remainingMs = [&]() -> uint64_t {
    if (!options.timeLimitMs)
      return 0;
    double used = std::chrono::duration<double, std::milli>(
                      ThreadCpuClock::now() - start)
                      .count();
    return std::max<uint64_t>(1, options.timeLimitMs - uint64_t(used));
  };
  auto finish = [&](std::optional<ScheduleAnalysis> result) {
    stats.ms = std::chrono::duration<double, std::milli>(
                   ThreadCpuClock::now() - start)
                   .count();
    return result;
  };
  if (stats.exhausted)
    return best;
  DiagnosticList ignored;
  ModuloOptions seeded = options;
  seeded.timeLimitMs = remainingMs();
  if (options.maxAttempts)
    seeded.maxAttempts = options.maxAttempts > stats.attempts
                             ? options.maxAttempts - stats.attempts
                             : 1;
  // Below the unseeded II: a seeded schedule there wins outright.
  if (best->ii > bounds.mii) {
    seeded.iiCap = best->ii - 1;
    IISearchStats seededStats;
    std::optional<ScheduleAnalysis> lower =
        searchII(problem, bounds, seeded, ignored, &seededStats);
    stats.attempts += seededStats.attempts;
    stats.jumps += seededStats.jumps;
    if (lower && lower->ii < best->ii && !seededStats.serialFallback) {
      stats.seedLowered = true;
      stats.lastFailure = seededStats.lastFailure;
      return finish(std::move(lower));
    }
  }
  // At the unseeded II: the seeded rung's schedule replaces the unseeded
  // one when the seeder rates it lower (GauS: fewer live values).
  std::optional<double> before =
      options.seeder->cost(problem, best->ii, startsOf(*best));
  if (!before)
    return finish(std::move(best));
  rrt::Bounds atII = bounds;
  atII.mii = best->ii;
  seeded.iiCap = best->ii;
  seeded.timeLimitMs = remainingMs();
  IISearchStats sameStats;
  std::optional<ScheduleAnalysis> same =
      searchII(problem, atII, seeded, ignored, &sameStats);
  stats.attempts += sameStats.attempts;
  if (same && same->ii == best->ii && !sameStats.serialFallback) {
    std::optional<double> after =
        options.seeder->cost(problem, same->ii, startsOf(*same));
    if (after && *after < *before) {
      same->bounds = best->bounds;
      stats.seedPreferred = true;
      return finish(std::move(same));
    }
  }
  return finish(std::move(best));
}
