//===- FeasibilityOracle.h - an exact answer for one II --------*- C++ -*-===//
//
// The cost-based generator is a heuristic; an oracle decides exactly whether
// any schedule exists at one II (scheduler/exact implements it with Z3). The
// driver asks it to certify the II found (prove-optimal) and to tell a
// proven failure from a heuristic one. The core never depends on how.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_FEASIBILITYORACLE_H
#define TILEPIPE_SCHEDULER_FEASIBILITYORACLE_H

#include <cstdint>
#include <optional>
#include <string>

namespace tilepipe::sched {

class Problem;
struct Schedule;

class FeasibilityOracle {
public:
  virtual ~FeasibilityOracle() = default;
  /// true: a schedule exists at `ii`; false: proven that none does;
  /// nullopt: the oracle could not decide (too large, out of time).
  virtual std::optional<bool> feasibleAt(const Problem &problem,
                                         unsigned ii) = 0;
  /// The schedule behind the last `true` answer of feasibleAt(), when the
  /// oracle keeps one (the driver adopts it when it beats the heuristic);
  /// false otherwise. The caller verify()s it before any use.
  virtual bool lastWitness(Schedule &out) const {
    (void)out;
    return false;
  }
  /// Why the last feasibleAt() could not decide (which limit stopped it),
  /// when it did not; empty otherwise.
  virtual std::string lastUnknownReason() const { return ""; }
  /// The work this oracle has spent so far, in its deterministic units
  /// (the exact check's: Z3 resource counts and CaDiCaL polls); the
  /// driver's passes budget it instead of wall-clock time.
  virtual uint64_t workSpent() const { return 0; }
  /// A schedule at `ii` found at a heuristic's cost (milliseconds, no
  /// proof), or false: the driver tries the IIs just below the generator's
  /// with it. The caller verify()s it before any use.
  virtual bool seatCheaply(const Problem &problem, unsigned ii, Schedule &out) {
    (void)problem;
    (void)ii;
    (void)out;
    return false;
  }
};

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_FEASIBILITYORACLE_H
