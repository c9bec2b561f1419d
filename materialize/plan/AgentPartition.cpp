//===- AgentPartition.cpp - a loop's ops split into agents ----------------===//

#include "materialize/plan/AgentPartition.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <tuple>

using namespace tilepipe;
using namespace tilepipe::materialize;
using sched::OpId;

/// Sorts an agent's ops into the order a row runs them: by modulo cycle,
/// the older iteration (higher stage) first at a tie, then by order: the
/// order the reservation table assumed.
static void sortRow(AgentPart &agent, const sched::ScheduleAnalysis &s) {
  const int64_t ii = std::max(1u, s.ii);
  agent.rowOrder = agent.ops;
  auto key = [&](OpId id) {
    int64_t cycle = s.slots[id].cycle;
    return std::make_tuple(((cycle % ii) + ii) % ii,
                           -int64_t(s.slots[id].stage), s.slots[id].order);
  };
  llvm::stable_sort(agent.rowOrder,
                    [&](OpId x, OpId y) { return key(x) < key(y); });
}

AgentPartition
materialize::partitionAgents(const PartitionInput &input,
                             const sched::ScheduleAnalysis &schedule) {
  AgentPartition out;
  out.agentOf.assign(input.units.size(), -1);
  // Agents in (stage, order) of each one's first op.
  for (OpId id : schedule.orderedOps) {
    if (input.isFree[id])
      continue;
    AgentKey key = input.peeled
                       ? AgentKey{Role::All, 0}
                       : agentOf(input.units[id], input.warpGroups[id]);
    auto it = llvm::find_if(out.agents,
                            [&](const AgentPart &a) { return a.key == key; });
    if (it == out.agents.end()) {
      AgentPart part;
      part.key = key;
      out.agents.push_back(std::move(part));
      it = std::prev(out.agents.end());
    }
    if (!input.minWarps.empty())
      it->minWarps = std::max(it->minWarps, input.minWarps[id]);
    unsigned stage = schedule.slots[id].stage;
    out.agentOf[id] = int(it - out.agents.begin());
    it->ops.push_back(id);
    it->minStage = std::min(it->minStage, stage);
    it->maxStage = std::max(it->maxStage, stage);
  }
  for (AgentPart &agent : out.agents)
    sortRow(agent, schedule);
  return out;
}

int32_t materialize::agentWarps(const AgentPart &agent) {
  return std::max<int32_t>(roleRow(agent.key.role).warps, agent.minWarps);
}

void materialize::printAgentPartition(
    llvm::raw_ostream &os, const AgentPartition &partition,
    const sched::ScheduleAnalysis &schedule,
    llvm::function_ref<std::string(OpId)> opName) {
  for (auto [a, agent] : llvm::enumerate(partition.agents)) {
    const UnitRole &row = roleRow(agent.key.role);
    os << "agent " << a << ": " << stringifyRole(agent.key.role);
    if (row.perWarpGroup)
      os << " (warp group " << agent.key.group << ")";
    int32_t warps = agentWarps(agent);
    os << ", " << warps << (warps == 1 ? " warp" : " warps")
       << ", stages " << agent.minStage << ".." << agent.maxStage << "\n";
    for (OpId id : agent.rowOrder)
      os << "  stage " << schedule.slots[id].stage << ": " << opName(id)
         << "\n";
  }
  std::vector<std::string> free;
  for (auto [id, agent] : llvm::enumerate(partition.agentOf))
    if (agent < 0)
      free.push_back(opName(OpId(id)));
  if (!free.empty())
    os << "recomputed by each agent: " << llvm::join(free, ", ") << "\n";
}
