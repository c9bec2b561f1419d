//===- Check.h - executing protocol and data check --------------*- C++ -*-===//
//
// Executes emitted stage code (docs/stage-code.md) on symbolic tiles:
// every tileas.agent is a thread, pipes are real mbarrier state machines
// with slot buffers, the async units (TMA, tensor core, cp.async, TMA
// store) complete after random delays, and a seeded scheduler interleaves
// the threads. It reports the first broken rule (docs/protocol-check.md),
// and, given references recorded on the original loop, any tile the
// emitted code computes that the sequential loop does not.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_EXEC_CHECK_H
#define TILEPIPE_MATERIALIZE_EXEC_CHECK_H

#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilepipe::exec {

/// The first rule an execution broke.
struct Finding {
  mlir::Location loc;
  /// One of: read-before-commit, stale-read, overwrite-before-release,
  /// release-before-read, double-wait, missing-fence, mutual-exclusion,
  /// deadlock, unbalanced, wrong-value, missing-instance, poison-read,
  /// malformed, unsupported, step-budget, reference-failed.
  std::string kind;
  /// One line: the thread, the op, the pipe/slot/iteration involved.
  std::string message;
  /// The thread (agent role and number, or "main") that broke the rule.
  std::string thread;
  uint64_t tripCount = 0;
  uint64_t seed = 0;
};

/// "<kind>: <message> (trip count N, seed S)".
std::string explain(const Finding &finding);
/// The error "protocol check failed: <explain>" at the op that broke the
/// rule, with a note at `func` naming the thread, trip count and seed: the
/// words of --tileas-check-protocol and of the translation's own check.
void emitFinding(const Finding &finding, mlir::FunctionOpInterface func);
void explain(const Finding &finding, llvm::raw_ostream &os);

/// The most interleavings per trip count an option may ask for: each is a
/// full emulated run, so a larger count is a hang, not more assurance.
constexpr unsigned kMaxSeeds = 10000;

struct CheckOptions {
  /// Trip counts to run; empty: the references' trip counts if given, else
  /// defaultTripCounts(func).
  std::vector<uint64_t> tripCounts;
  /// Interleavings per trip count: seeds firstSeed .. firstSeed+seeds-1.
  unsigned seeds = 20;
  uint64_t firstSeed = 1;
  /// Async completions and arrivals become visible 0..maxLatency steps
  /// after they are due.
  unsigned maxLatency = 8;
  /// Steps per run before "step-budget".
  uint64_t maxSteps = 10'000'000;
  /// Wall-clock budget of the whole check in milliseconds (0: none). When
  /// it runs out the check stops between runs, clean so far, and says so
  /// through CheckProgress.
  uint64_t timeLimitMs = 0;
};

/// How much of the asked-for check ran.
struct CheckProgress {
  uint64_t runs = 0, planned = 0;
  /// The time limit stopped the check before `planned` runs.
  bool outOfTime = false;
};

/// What the original (sequential) loop computes for one trip count.
struct Reference {
  /// Values bound to the function's index arguments (by argument number;
  /// other arguments hold 0); the checked code runs with the same ones.
  std::vector<int64_t> indexArgs;
  /// (op name, result term) of every executed schedulable op, counted.
  std::map<std::pair<std::string, uint64_t>, unsigned> instances;
  /// Set when the original itself could not be executed.
  std::optional<Finding> failure;
};

struct References {
  std::map<uint64_t, Reference> byTripCount;
};

/// Runs the original function sequentially (one thread, async units
/// complete at issue) once per trip count.
References recordReferences(mlir::FunctionOpInterface func,
                            llvm::ArrayRef<uint64_t> tripCounts);

/// Executes `func` for every trip count and seed and returns the first
/// finding; with `refs`, compares the computed tiles to the reference of
/// each trip count the references hold.
std::optional<Finding> checkFunction(mlir::FunctionOpInterface func,
                                     const CheckOptions &options,
                                     const References *refs = nullptr,
                                     CheckProgress *progress = nullptr);

/// The warning a pass gives when the check's time limit (`option`, of
/// `limitMs`) stopped it: the runs made of those asked for, all clean.
void warnOutOfTime(const CheckProgress &progress, mlir::Location loc,
                   llvm::StringRef option, uint64_t limitMs);

/// 0, 1, 2, S-1, S, S+1, 2*maxDepth+3 and (with `withLongRun`) 20,
/// deduplicated and sorted; S is the largest `tileas.schedule.stages` of a
/// loop (else maxDepth), maxDepth the deepest pipe (else 1). Every ring
/// wraps at least twice by 2*maxDepth+3; 20 is a longer run for the passes.
std::vector<uint64_t> defaultTripCounts(mlir::FunctionOpInterface func,
                                        bool withLongRun = true);

/// What a function holds, for the pass's summary line.
struct Census {
  unsigned agents = 0, pipes = 0, mutexes = 0;
};
Census census(mlir::FunctionOpInterface func);

} // namespace tilepipe::exec

#endif // TILEPIPE_MATERIALIZE_EXEC_CHECK_H
