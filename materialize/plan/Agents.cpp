//===- Agents.cpp ---------------------------------------------------------===//

#include "materialize/plan/Agents.h"

using namespace tilepipe;
using namespace tilepipe::materialize;

AgentKey materialize::agentOf(Unit unit, std::optional<unsigned> warpGroup) {
  switch (unit) {
  case Unit::TMA:
  case Unit::CpAsync:
    return {"load", 0};
  case Unit::UMMA:
    return {"mma", 0};
  case Unit::SIMT:
  case Unit::TMAStore:
    return {"simt", warpGroup.value_or(0)};
  }
  return {"simt", 0};
}
