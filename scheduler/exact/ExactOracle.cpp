//===- ExactOracle.cpp ----------------------------------------------------===//

#include "scheduler/exact/ExactOracle.h"

using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

std::optional<bool> ExactOracle::feasibleAt(const Problem &problem,
                                            unsigned ii) {
  ExactResult result = checkII(problem, ii, options);
  witness = std::move(result.witness);
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
