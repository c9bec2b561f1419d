//===- ModuloScheduler.h - the cost-based modulo generator -----*- C++ -*-===//
//
// Seeds 001/002's cost-based generator: a candidate-II search from the lower
// bound upward, and per candidate a placement of every op into the RRT.
// The search's cost grows with the distance from the lower bound to the II
// found, not with the II's magnitude (docs/generators.md, "Candidate-II
// search"); a per-loop budget bounds it, and the serial schedule answers at
// the cap.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MODULOSCHEDULER_H
#define TILEPIPE_SCHEDULER_MODULOSCHEDULER_H

#include "scheduler/FeasibilityOracle.h"
#include "support/ThreadCpuClock.h"
#include "scheduler/ScheduleAnalysis.h"
#include "scheduler/StartSeeder.h"

#include <chrono>
#include <cstdint>
#include <optional>

namespace tilepipe::sched {

/// Linear: every II from the bound upward (the first the heuristic seats).
/// Stride: offsets 1, 2, 4, ... past the last failing II, then bisection
/// between the last failure and the first success. Gallop: doubling the II
/// itself, then bisection (kept for comparison).
enum class IISearch { Linear, Gallop, Stride };

/// The placement arms; each can be switched off to measure its share.
enum ArmMask : unsigned {
  ArmPermute = 1u << 0,
  ArmFuse = 1u << 1,
  ArmRetry = 1u << 2,
  ArmCostBased = 1u << 3,
  ArmAll = ArmPermute | ArmFuse | ArmRetry | ArmCostBased,
};

/// The default of ModuloOptions::workLimit.
constexpr uint64_t kDefaultPlacementWork = 2000000;

/// The work of one placement step seating an op whose folded footprint has
/// `rows` rows.
inline uint64_t placementWork(unsigned rows) { return 1 + rows / 64; }

struct ModuloOptions {
  IISearch search = IISearch::Stride;
  /// Largest II tried; 0 means the serial length (design.md decision 3). A
  /// cap past the serial length is lowered to it when the serial schedule
  /// verifies: no larger II can do better.
  unsigned iiCap = 0;
  unsigned arms = ArmAll;
  /// Permutations the permute arm tries per ready set before sampling.
  unsigned permuteBudget = 24;
  /// Placement steps per candidate II before it is given up (0: automatic).
  uint64_t budget = 0;
  /// Per-loop search budget: placement attempts (one strategy-ladder rung at
  /// one II each) and wall-clock milliseconds; 0 is unlimited. When one runs
  /// out the best schedule found so far is returned (the serial schedule
  /// when none was) and IISearchStats::exhausted says so. The time limit
  /// makes the result depend on the machine's speed; tests use attempts.
  /// The default time limit, 10 s, only binds on loops no compiler should
  /// wait for (a 2-op loop of 2^20-cycle pool footprints ran past a minute);
  /// every loop in the tests and benchmarks finishes far below it.
  uint64_t maxAttempts = 0;
  uint64_t timeLimitMs = 10000;
  /// Set by the search from timeLimitMs: a placement attempt that is still
  /// running when it passes stops (one attempt on a 10k-op loop can take a
  /// minute, far past the user's limit). Unset: no deadline.
  std::optional<ThreadCpuClock::time_point> deadline;
  /// Per-loop budget of placement work (0: none), deterministic: one unit
  /// per placement step plus one per 64 rows of the footprint it seats
  /// (placementWork()). It decides when the search stops, so the result is
  /// the same on any machine under any load; the time limit above is only
  /// the user's safety net. The default ends every generated tile loop of
  /// up to 1,000 ops (bench/tile-loops.py) in about a second or less on the
  /// 2-core development machine (docs/performance.md).
  uint64_t workLimit = kDefaultPlacementWork;
  /// Set by the search per attempt: what is left of workLimit.
  std::optional<uint64_t> workLeft;
  uint64_t seed = 0x5eed;
  /// Decides an II exactly where it can: used to mark a failure proven or
  /// heuristic, and by the driver's prove-optimal. Not owned; may be null.
  FeasibilityOracle *oracle = nullptr;
  /// Preferred starts per II (StartSeeder.h); not owned; may be null.
  StartSeeder *seeder = nullptr;
  /// Run the evicting rungs on loops of any size (large loops start with
  /// first fit alone; generateModuloSchedule sets this for its second
  /// search when that result is far above the bound).
  bool evictingRungs = false;
  /// Which rungs each candidate II gets (set by generateModuloSchedule for
  /// tile loops, see LadderKind).
  enum class LadderKind { Full, FirstRung, Packing };
  LadderKind ladder = LadderKind::Full;
};

/// What the candidate-II search did, for the caller's verdict.
struct IISearchStats {
  uint64_t attempts = 0; ///< Placement attempts run (ladder rungs).
  uint64_t work = 0;     ///< Placement work done (ModuloOptions::workLimit).
  /// Which budget stopped the search when `exhausted`: the work budget
  /// (deterministic) or the wall-clock safety net (machine-dependent).
  bool timeLimitHit = false;
  double ms = 0;         ///< Wall-clock time of the search.
  /// The attempt or time budget ran out before the search finished: the
  /// returned schedule is the best found so far.
  bool exhausted = false;
  /// No cost-based placement was found at any II tried up to the cap, and
  /// the serial schedule (whose II is the serial length, the default cap)
  /// was returned in its place.
  bool serialFallback = false;
  /// The largest II below the returned one that the search tried and saw
  /// fail (the lower bound minus one when none was).
  unsigned lastFailure = 0;
  /// Probes sent past the stride's next II because the failure named a
  /// window that max_depth keeps closed below it.
  uint64_t jumps = 0;
  /// With a seeder: the II the unseeded search found, and whether the
  /// seeded search below it found a smaller one.
  std::optional<unsigned> unseededII;
  bool seedLowered = false;
  /// The seeded schedule at the unseeded II replaced the unseeded one
  /// because the seeder's cost() rated it lower.
  bool seedPreferred = false;
  /// A large loop's first-fit result was far above the bound, and the
  /// search ran again with the evicting rungs below it; the II that first
  /// search found.
  std::optional<unsigned> firstFitII;
  /// A tile loop (footprints longer than kLongFootprint rows) was searched
  /// with the packing rungs first (docs/generators.md, "Tile loops"): the
  /// II they found, and whether the evicting rungs then found a smaller
  /// one.
  std::optional<unsigned> packedII;
};

/// Footprints longer than this many cycles make a loop a tile loop: its
/// ops hold units for hundreds or thousands of cycles (a TMA load on the
/// TMA unit), unlike the few-cycle ops of an HLS loop.
constexpr unsigned kLongFootprint = 64;

/// Whether a search result is far enough above the bound to spend the rest
/// of the budget on a better one (the large-loop second search here, the
/// exact check in the driver): the serial fallback, or an II more than 10%
/// over MII.
inline bool farAboveBound(unsigned ii, unsigned mii, bool serialFallback) {
  return ii > mii &&
         (serialFallback || uint64_t(ii) * 10 > uint64_t(mii) * 11);
}

/// Returns the schedule at the smallest II the search finds (see IISearch),
/// or nullopt with a diagnostic explaining the failure. At the cap, when the
/// cap is the serial length, the serial schedule is the fallback.
std::optional<ScheduleAnalysis>
generateModuloSchedule(const Problem &problem, const rrt::Bounds &bounds,
                       const ModuloOptions &options, DiagnosticList &diags,
                       IISearchStats *stats = nullptr);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_MODULOSCHEDULER_H
