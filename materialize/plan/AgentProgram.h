//===- AgentProgram.h - the warp-specialized protocol of a plan -*- C++ -*-===//
//
// Lays a buffer plan out as warp-specialized agents and derives the protocol
// they run: one agent per role (load for TMA and cp.async, mma for UMMA, one
// SIMT agent per warp group), each looping over the iterations on its own
// ops; a producer acquires a slot, writes and commits; each consuming agent
// waits before its first use and releases after its last (one iteration
// back for a loop-carried use); a mutex wraps each group's span on the
// shared unit. The result is checked by materialize/protocol.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_AGENTPROGRAM_H
#define TILEPIPE_MATERIALIZE_PLAN_AGENTPROGRAM_H

#include "materialize/plan/BufferPlan.h"
#include "materialize/plan/MutexPlan.h"
#include "materialize/protocol/Protocol.h"

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

/// The agents of a loop, in (stage, order) of each one's first op, and the
/// agent of every op. The protocol program and the emitted code share it.
struct AgentLayout {
  std::vector<AgentKey> keys;
  std::vector<unsigned> agentOfOp;
};

AgentLayout layoutAgents(const sched::ScheduleAnalysis &schedule,
                         llvm::ArrayRef<Unit> units,
                         llvm::ArrayRef<std::optional<unsigned>> warpGroups);

protocol::Program
buildAgentProgram(const sched::ScheduleAnalysis &schedule,
                  llvm::ArrayRef<Unit> units,
                  llvm::ArrayRef<std::optional<unsigned>> warpGroups,
                  const BufferPlan &buffers, llvm::ArrayRef<MutexPlan> mutexes,
                  llvm::ArrayRef<std::string> opNames);

/// Checks the program for several trip counts (0, 1, S-1, S, 2S+3) and
/// `seeds` interleavings each; returns the first violation.
std::optional<protocol::Violation>
checkAgentProgram(const protocol::Program &program, unsigned numStages,
                  unsigned seeds, std::vector<uint64_t> *tripCounts = nullptr);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_AGENTPROGRAM_H
