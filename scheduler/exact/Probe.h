//===- Probe.h - the cost-based generator on the projection ----*- C++ -*-===//
//
// Before a solver sees the projection (Projection.h) at II, the cost-based
// generator tries to seat it there. The projection keeps only the ops that
// can be refused and no constraint between two recurrences, so where the
// generator fails on the whole loop (a recurrence of one body held back by
// the forward edges of another) it often seats the projection in
// milliseconds: a 1,302-op joined loop at its recurrence bound in 4 ms,
// where Z3 needs 2.4 s. A seated projection is a proof of feasibility like
// a solver's witness (extendWitness, then verify()); a failure proves
// nothing and the solvers follow.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_EXACT_PROBE_H
#define TILEPIPE_SCHEDULER_EXACT_PROBE_H

#include "scheduler/Problem.h"

#include <optional>

namespace tilepipe::sched::exact {

/// The share of the exact check's per-II limit the probe gets: the
/// generator seats or gives up within a few ms on the HLS loops, so this
/// only caps a pathological one.
constexpr unsigned kProbeShare = 10;

/// Placement work (ModuloOptions::workLimit) per unit of the exact check's
/// work: both are about a millisecond's worth on the development machine.
constexpr uint64_t kPlacementWorkPerUnit = 2000;

/// A schedule of `reduced` at exactly `ii` from the cost-based generator,
/// within `work` units of the exact check's budget (0: none; each unit is
/// kPlacementWorkPerUnit units of placement work), or nullopt.
std::optional<Schedule> seatWithGenerator(const Problem &reduced, unsigned ii,
                                          uint64_t work);

/// Kept ops past which seatProjection() gives up before projecting: the
/// projection costs a longest-path search per kept op, and the generated
/// 10,000-op loops of bench/large-loops.py keep 8,000 (0.24 s for one probe
/// that seats nothing). The joined HLS loops keep at most a few hundred.
constexpr size_t kMaxSeatedOps = 2000;

/// The same on the projection of `problem` at `ii` (projectOntoRefusable()),
/// extended back to the whole problem; nullopt where the projection does not
/// apply (placement constraints, more than 20,000 ops, more than
/// kMaxSeatedOps kept) or the generator does not seat it. Not verified here:
/// the caller verify()s it (FeasibilityOracle::seatCheaply's contract).
std::optional<Schedule> seatProjection(const Problem &problem, unsigned ii,
                                       uint64_t work);

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_PROBE_H
