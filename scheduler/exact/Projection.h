//===- Projection.h - the exact model over the ops that hold something -*-===//
//
// At a fixed II a dependence is a difference constraint t_dst - t_src >=
// latency - distance * II. An op that claims no refusing resource and has no
// placement constraint appears in no other constraint, so Fourier-Motzkin
// elimination removes it exactly: each path between two kept ops whose inner
// ops are all removed becomes one constraint weighing the path's sum. The
// projected problem (the kept ops and these path constraints) has a schedule
// at II exactly when the original has one, and it is often far smaller: an
// HLS loop of 225 ops keeps its 62 memory and loop-control ops. A schedule of
// the projection extends to the removed ops by longest paths with the kept
// ops' modulo rows fixed (extendWitness). docs/exact-check.md has the proof.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_EXACT_PROJECTION_H
#define TILEPIPE_SCHEDULER_EXACT_PROJECTION_H

#include "scheduler/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilepipe::sched::exact {

/// Ops past which the projection is not computed (it costs a longest path
/// search per kept op).
constexpr unsigned kMaxProjectedOps = 20000;

struct Projection {
  Problem reduced;
  /// reduced op id -> original op id.
  std::vector<OpId> kept;
};

/// The outcome of projecting: the projection, or a proof that II is too
/// small (a recurrence among the removed ops weighs more than zero), or
/// nothing when projecting does not apply (groups, force-serial, max_depth,
/// weights past 2^40). With nothing to remove it is still built: its
/// reduction and twin order are what the solvers gain most from.
struct ProjectionResult {
  std::optional<Projection> projection;
  std::optional<std::string> infeasible;
};

/// `keep[i]` says op i claims a resource that can refuse it at II.
ProjectionResult projectOntoClaims(const Problem &problem, unsigned ii,
                                   const std::vector<bool> &keep);

/// The projection at `ii` onto the ops that claim a resource that can
/// refuse them, with each op's claimed resources (claimedResources()); what
/// checkII() and the generator probe both start from.
struct RefusableProjection {
  std::vector<std::vector<unsigned>> claimed;
  ProjectionResult result;
};

/// nullopt where the projection does not apply: II 0, more than
/// kMaxProjectedOps ops, a malformed problem, placement constraints, an op
/// that folds onto itself, or more than `maxKept` ops kept.
std::optional<RefusableProjection>
projectOntoRefusable(const Problem &problem, unsigned ii,
                     size_t maxKept = SIZE_MAX);

/// A schedule of the whole problem from one of `projection.reduced`: the
/// kept ops keep their modulo rows, every op takes the least start >= 0 those
/// rows and the dependences allow. nullopt when the fixpoint does not settle
/// within its pass budget (the caller reports Unknown).
std::optional<Schedule> extendWitness(const Problem &problem,
                                      const Projection &projection,
                                      const Schedule &reduced);

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_PROJECTION_H
