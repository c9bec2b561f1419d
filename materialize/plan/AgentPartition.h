//===- AgentPartition.h - a loop's ops split into agents -------*- C++ -*-===//
//
// The first of the three steps of stage code (docs/materialize.md, "Stage
// code in three steps"): which agent runs each scheduled op, and in what
// order an agent's row runs its ops. It reads the schedule and the units and
// touches no IR; pipe and mutex creation and row expansion build on it.
//
// Warp-specialized, the agents are those of the role table (AgentRoles.h),
// in (stage, order) of each one's first op. Peeled, one agent runs all.
// Free ops (scalar arithmetic on the induction variable and invariants)
// belong to no agent: every agent needing one recomputes it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_AGENTPARTITION_H
#define TILEPIPE_MATERIALIZE_PLAN_AGENTPARTITION_H

#include "materialize/plan/Agents.h"
#include "scheduler/ScheduleAnalysis.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace tilepipe::materialize {

/// What the partition reads, per op of the loop (indexed by OpId).
struct PartitionInput {
  std::vector<Unit> units;
  std::vector<std::optional<unsigned>> warpGroups;
  std::vector<bool> isFree;
  /// One agent for all (peeled stage code) instead of one per role.
  bool peeled = false;
  /// Per op, the warps its agent needs at least (empty: none needs more
  /// than its role's row): a Hopper wgmma of M rows, M / 64 warpgroups.
  std::vector<int32_t> minWarps = {};
};

/// One agent: the ops it runs and the stages they span.
struct AgentPart {
  AgentKey key;
  std::vector<sched::OpId> ops; ///< In (stage, order).
  std::vector<sched::OpId>
      rowOrder; ///< By modulo cycle, older iteration first.
  unsigned minStage = ~0u, maxStage = 0;
  int32_t minWarps = 0; ///< The most its ops need (PartitionInput).
};

/// The warps an agent runs on: its role's, or more where its ops need them.
int32_t agentWarps(const AgentPart &agent);

struct AgentPartition {
  std::vector<AgentPart> agents;
  std::vector<int> agentOf; ///< Per op: its agent, -1 for free ops.
};

/// Splits the scheduled ops of a loop into agents.
AgentPartition partitionAgents(const PartitionInput &input,
                               const sched::ScheduleAnalysis &schedule);

/// Per agent a line with its role (and warp group), its warps and its
/// stages, then a line per op in row order with its stage, named by
/// `opName`; last the free ops.
void printAgentPartition(llvm::raw_ostream &os, const AgentPartition &partition,
                         const sched::ScheduleAnalysis &schedule,
                         llvm::function_ref<std::string(sched::OpId)> opName);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_AGENTPARTITION_H
