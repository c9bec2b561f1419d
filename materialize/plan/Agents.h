//===- Agents.h - which warp-specialized agent runs an op -------*- C++ -*-===//
//
// One agent per role: load for TMA and cp.async, mma for UMMA and
// tcgen05.cp, and one SIMT agent per warp group.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_AGENTS_H
#define TILEPIPE_MATERIALIZE_PLAN_AGENTS_H

#include "materialize/plan/BufferPlan.h"

#include <optional>
#include <string>

namespace tilepipe::materialize {

/// The agent an op runs in: its role and, for SIMT ops, its warp group.
struct AgentKey {
  std::string role;
  unsigned group = 0;
  bool operator==(const AgentKey &o) const {
    return role == o.role && group == o.group;
  }
};

AgentKey agentOf(Unit unit, std::optional<unsigned> warpGroup);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_AGENTS_H
