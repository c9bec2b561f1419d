//===- ExactOracle.cpp ----------------------------------------------------===//

#include "scheduler/exact/ExactOracle.h"

using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

std::optional<bool> ExactOracle::feasibleAt(const Problem &problem,
                                            unsigned ii) {
  switch (checkII(problem, ii, options).verdict) {
  case Verdict::Feasible:
    return true;
  case Verdict::Infeasible:
    return false;
  case Verdict::Unknown:
    return std::nullopt;
  }
  return std::nullopt;
}
