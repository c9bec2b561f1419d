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

#include "llvm/ADT/bit.h"

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
  /// Per resource: its claims add up to more than its capacity, so some
  /// placement overloads a row (the others need no row constraints).
  std::vector<bool> contended;
  /// An op whose row the model fixes to 0. Shifting every start by one
  /// cycle keeps a schedule valid when no op has a max_depth, a group or
  /// force-serial (rows rotate, the stage horizon holds for any rows), so
  /// one op's row is free to choose: the solver is spared II rotations of
  /// every infeasible assignment.
  std::optional<unsigned> pinned;
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

/// Why the model is undefined for `problem` (a dependence or group naming an
/// op it lacks, inconsistent pool tables), or nullopt.
std::optional<std::string> malformed(const Problem &problem);

/// Calls fn(resource, row, amount) for each claim of `fp` on a resource that
/// can refuse it: a bit b as resource b, a binding pool p as numBits + p
/// (non-binding pools never refuse and are skipped).
template <typename Fn>
void forEachRefusingClaim(const rrt::FoldedFootprint &fp,
                          const rrt::ResourceLayout &layout, Fn fn) {
  const unsigned numBits = layout.numBits();
  for (unsigned c = 0; c < fp.numRows; ++c) {
    const uint64_t *bits = fp.rowBits(c);
    for (unsigned w = 0; w < fp.numWords; ++w)
      for (uint64_t word = bits[w]; word; word &= word - 1) {
        unsigned b = w * 64 + unsigned(llvm::countr_zero(word));
        if (b < numBits)
          fn(b, c, uint64_t(1));
      }
    for (const rrt::PoolClaim &pc : fp.rowClaims(c))
      if (layout.poolBinding[pc.pool])
        fn(numBits + pc.pool, c, uint64_t(pc.amount));
  }
}

/// Whether some op has max_depth or a group, or the loop is force-serial.
/// Without these a schedule shifted by any number of cycles is a schedule,
/// which the row pinning and the projection rely on.
bool hasPlacementConstraints(const Problem &problem);

/// Per op, the resources it claims at II (as in ModelInput::claims,
/// ascending); nullopt when some op folds onto itself (prepareModel's
/// verdict then).
std::optional<std::vector<std::vector<unsigned>>>
claimedResources(const Problem &problem, unsigned ii);

/// The least schedule at `ii` whose ops with row[i] >= 0 start in row
/// row[i] (mod II): every dependence holds and every start is >= 0. It lies
/// below every schedule with these rows, so when one exists the passes
/// settle; nullopt when they do not within their budget (no such schedule,
/// or a start past 2^62).
std::optional<Schedule> settleOnRows(const Problem &problem, unsigned ii,
                                     const std::vector<int64_t> &row);

/// The strongly connected components of `problem`'s dependence graph (its
/// recurrences; an op on no cycle is one alone): a component id per op, and
/// their number.
unsigned recurrences(const Problem &problem, std::vector<unsigned> &comp);

ExactResult unknownResult(std::string reason);
ExactResult infeasibleResult(std::string reason);

/// floor(a / b) for b > 0.
__int128 floorDiv(__int128 a, __int128 b);

/// Checks a solver's start vector with verify(): Feasible with the witness,
/// or Unknown naming the internal error.
ExactResult acceptWitness(const Problem &problem, Schedule witness);

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_MODEL_H
