//===- ExactOracle.cpp ----------------------------------------------------===//

#include "scheduler/exact/ExactOracle.h"
#include "scheduler/exact/Probe.h"

using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

std::optional<bool> ExactOracle::feasibleAt(const Problem &problem,
                                            unsigned ii) {
  ExactResult result = checkII(problem, ii, options);
  witness = std::move(result.witness);
  unknownReason.clear();
  if (result.verdict == Verdict::Unknown) {
    // Name the limit as the CLI and the pass spell it.
    unknownReason = result.reason;
    if (result.reason.rfind("timeout", 0) == 0)
      unknownReason += " [limit: exact-timeout-ms]";
    else if (result.reason.rfind("work limit", 0) == 0)
      unknownReason += " [limit: exact-work]";
    else if (result.reason.rfind("too many ops", 0) == 0)
      unknownReason += " [limit: exact-max-ops]";
  }
  switch (result.verdict) {
  case Verdict::Feasible:
    return true;
  case Verdict::Infeasible:
    return false;
  case Verdict::Unknown:
    return std::nullopt;
  }
  return std::nullopt;
}

bool ExactOracle::lastWitness(Schedule &out) const {
  if (!witness)
    return false;
  out = *witness;
  return true;
}

bool ExactOracle::seatCheaply(const Problem &problem, unsigned ii,
                              Schedule &out) {
  std::optional<Schedule> seated = seatProjection(
      problem, ii, options.work ? options.work / kProbeShare : 0);
  if (!seated)
    return false;
  out = std::move(*seated);
  return true;
}
