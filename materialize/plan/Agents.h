//===- Agents.h - the role table: which agent runs an op -------*- C++ -*-===//
//
// Agent roles come from one table keyed by the kind of unit an op runs on
// (docs/materialize.md, "Stage code in three steps"): the copy engines feed
// a one-warp load agent, UMMA a one-warp mma agent that leaves its
// accumulators in TMEM, and SIMT work (with the TMA stores it issues) runs in
// one four-warp agent per warp group, which also runs the code after the
// loop. A new unit kind is a new row; what its agent does beyond running its
// rows lives in a file of its own in materialize/mlir/.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_AGENTS_H
#define TILEPIPE_MATERIALIZE_PLAN_AGENTS_H

#include "materialize/plan/BufferPlan.h"

#include <optional>

namespace tilepipe::materialize {

/// The job of an agent. `All` is the one agent of peeled stage code.
enum class Role : uint8_t { Load, Mma, Simt, All };

/// As the IR's `tileas.agent` and the remarks spell it.
llvm::StringRef stringifyRole(Role role);

/// One row of the role table: the agent that runs a unit kind's ops.
struct UnitRole {
  Unit unit;
  Role role;
  unsigned warps;    ///< Warps the agent runs on.
  bool perWarpGroup; ///< One agent per warp group (and mutexes between them).
  bool runsEpilogue; ///< May run the code after the loop.
  /// The unit's loop-carried TMEM accumulators stay in TMEM when the loop
  /// ends: a one-slot result pipe hands each on (UMMA's D).
  bool resultInTmem;
};

/// The role table's row for `unit`.
const UnitRole &unitRole(Unit unit);

/// The table's first row of `role` (an agent's ops share its role); for
/// `All`, the one agent of peeled code.
const UnitRole &roleRow(Role role);

/// The agent an op runs in: its role and, per warp group, its group.
struct AgentKey {
  Role role = Role::All;
  unsigned group = 0;
  bool operator==(const AgentKey &o) const {
    return role == o.role && group == o.group;
  }
};

AgentKey agentOf(Unit unit, std::optional<unsigned> warpGroup);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_AGENTS_H
