//===- ExactOracle.h - the exact check as a FeasibilityOracle --*- C++ -*-===//

#ifndef TILEPIPE_SCHEDULER_EXACT_EXACTORACLE_H
#define TILEPIPE_SCHEDULER_EXACT_EXACTORACLE_H

#include "scheduler/FeasibilityOracle.h"
#include "scheduler/exact/ExactCheck.h"

namespace tilepipe::sched::exact {

/// Answers with checkII(); Unknown (too many ops, out of time) is nullopt.
class ExactOracle : public FeasibilityOracle {
public:
  explicit ExactOracle(ExactOptions options = {}) : options(options) {}
  std::optional<bool> feasibleAt(const Problem &problem, unsigned ii) override;
  bool lastWitness(Schedule &out) const override;
  std::string lastUnknownReason() const override { return unknownReason; }
  uint64_t workSpent() const override { return exactWorkSpent(); }
  /// The cost-based generator on the projection (Probe.h), within a tenth
  /// of the per-II limit.
  bool seatCheaply(const Problem &problem, unsigned ii, Schedule &out) override;

private:
  ExactOptions options;
  std::optional<Schedule> witness; ///< Of the last Feasible verdict.
  std::string unknownReason;       ///< Of the last Unknown verdict.
};

} // namespace tilepipe::sched::exact

#endif // TILEPIPE_SCHEDULER_EXACT_EXACTORACLE_H
