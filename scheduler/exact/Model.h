//===- Model.h - what both exact solvers read from a problem ---*- C++ -*-===//
//
// The part of the exact check that no solver does: the cheap verdicts (II 0,
// too many ops, a malformed problem, a self-colliding fold, the counting
// argument, a model too large) and the inputs of the model (the folded
// footprints, the stage horizon, each resource's claims). Z3
// (ExactCheck.cpp) and CaDiCaL (SatCheck.cpp) encode the same model from it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_EXACT_MODEL_H
#define TILEPIPE_SCHEDULER_EXACT_MODEL_H

#include "scheduler/exact/ExactCheck.h"

#include "rrt/Resources.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilepipe::sched::exact {

/// One (op, folded row, weight) entry of a resource's claims.
struct Claim {
  unsigned op;
  unsigned row; ///< Folded row, relative to the op's start row.
  uint64_t amount;
};

struct ModelInput {
  unsigned ii = 0;
  std::vector<rrt::FoldedFootprint> folded; ///< Per op; empty holds nothing.
  /// Stage horizon K (docs/exact-check.md); none when it would pass 2^40.
  std::optional<int64_t> horizon;
  /// Bits first (index b), then binding pools (numBits + p).
  std::vector<std::vector<Claim>> claims;
  unsigned numBits = 0;
  /// Capacity of resource `res` (1 for a bit).
  uint64_t capacity(const rrt::ResourceLayout &layout, unsigned res) const {
    return res < numBits ? 1 : layout.poolCaps[res - numBits];
  }
};

/// The cheap verdicts, or the model's inputs when none applies.
struct Prepared {
  std::optional<ExactResult> verdict;
  ModelInput input;
};
Prepared prepareModel(const Problem &problem, unsigned ii,
                      const ExactOptions &opts);

ExactResult unknownResult(std::string reason);
ExactResult infeasibleResult(std::string reason);

/// floor(a / b) for b > 0.
__int128 floorDiv(__int128 a, __int128 b);

/// Checks a solver's start vector with verify(): Feasible with the witness,
/// or Unknown naming the internal error.
ExactResult acceptWitness(const Problem &problem, Schedule witness);

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_MODEL_H
