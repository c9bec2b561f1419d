//===- AgentProgram.cpp ---------------------------------------------------===//

#include "materialize/plan/AgentProgram.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>

using namespace tilepipe;
using namespace tilepipe::materialize;
using protocol::Instr;
using protocol::Step;

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

AgentLayout
materialize::layoutAgents(const sched::ScheduleAnalysis &schedule,
                          llvm::ArrayRef<Unit> units,
                          llvm::ArrayRef<std::optional<unsigned>> warpGroups) {
  AgentLayout layout;
  layout.agentOfOp.resize(schedule.slots.size());
  for (sched::OpId op : schedule.orderedOps) {
    AgentKey key = agentOf(units[op], op < warpGroups.size() ? warpGroups[op]
                                                             : std::nullopt);
    auto it = llvm::find(layout.keys, key);
    layout.agentOfOp[op] = unsigned(it - layout.keys.begin());
    if (it == layout.keys.end())
      layout.keys.push_back(key);
  }
  return layout;
}

protocol::Program materialize::buildAgentProgram(
    const sched::ScheduleAnalysis &schedule, llvm::ArrayRef<Unit> units,
    llvm::ArrayRef<std::optional<unsigned>> warpGroups,
    const BufferPlan &buffers, llvm::ArrayRef<MutexPlan> mutexes,
    llvm::ArrayRef<std::string> opNames) {
  protocol::Program program;
  AgentLayout layout = layoutAgents(schedule, units, warpGroups);
  const std::vector<unsigned> &agentOfOp = layout.agentOfOp;
  for (const AgentKey &key : layout.keys) {
    protocol::Agent agent;
    agent.name = key.role + (key.role == "simt" ? std::to_string(key.group)
                                                : std::string());
    agent.groupIndex = key.group;
    program.agents.push_back(std::move(agent));
  }

  // Per pipe: its consuming agents, each one's first and last consumer op
  // and the iteration distance of its uses.
  struct Use {
    unsigned agent;
    sched::OpId first, last;
    int64_t offset;
    unsigned consumerIndex;
  };
  std::vector<std::vector<Use>> uses(buffers.pipes.size());
  for (auto [p, pipe] : llvm::enumerate(buffers.pipes)) {
    protocol::Pipe pp;
    pp.name = "pipe" + std::to_string(p);
    pp.depth = pipe.depth;
    std::vector<unsigned> consumerAgents;
    for (sched::OpId c : pipe.consumers) {
      unsigned a = agentOfOp[c];
      if (a == agentOfOp[pipe.producer])
        continue; // Same agent: an ordinary SSA use, no handshake.
      auto it =
          llvm::find_if(uses[p], [&](const Use &u) { return u.agent == a; });
      if (it == uses[p].end()) {
        uses[p].push_back({a, c, c, 0, unsigned(uses[p].size())});
        it = std::prev(uses[p].end());
      }
      if (schedule.slots[c].order < schedule.slots[it->first].order)
        it->first = c;
      if (schedule.slots[c].order > schedule.slots[it->last].order)
        it->last = c;
    }
    pp.consumers = std::max<unsigned>(1, uses[p].size());
    program.pipes.push_back(pp);
  }
  // A consumer whose op comes before the producer's in the agent loop reads
  // the value of the previous iteration (a loop-carried use).
  for (auto [p, pipe] : llvm::enumerate(buffers.pipes))
    for (Use &u : uses[p])
      if (llvm::any_of(schedule.edges, [&](const sched::Dependence &d) {
            return d.src == pipe.producer && d.dst == u.first && d.distance > 0;
          }))
        u.offset = -1;

  for (const MutexPlan &m : mutexes) {
    protocol::Mutex pm;
    pm.name = "mutex_slot" + std::to_string(m.slot);
    pm.groups = m.groups.size();
    program.mutexes.push_back(pm);
  }

  // Each agent's body: its ops in (stage, order), wrapped in handshakes.
  for (sched::OpId op : schedule.orderedOps) {
    protocol::Agent &agent = program.agents[agentOfOp[op]];
    const std::string &name = op < opNames.size() ? opNames[op] : "op";
    // Mutex lock before the agent's first guarded op.
    for (auto [mi, m] : llvm::enumerate(mutexes)) {
      auto mine = llvm::make_filter_range(
          m.ops, [&](sched::OpId o) { return agentOfOp[o] == agentOfOp[op]; });
      if (!mine.empty() && *mine.begin() == op)
        agent.body.push_back({Step::Lock, unsigned(mi), 0, "lock " + name, 0});
    }
    for (auto [p, pipe] : llvm::enumerate(buffers.pipes))
      for (const Use &u : uses[p])
        if (u.agent == agentOfOp[op] && u.first == op) {
          agent.body.push_back(
              {Step::Wait, unsigned(p), 0, "wait " + name, u.offset});
          agent.body.push_back({Step::Read, unsigned(p), 0, name, u.offset});
        }
    for (auto [p, pipe] : llvm::enumerate(buffers.pipes))
      if (pipe.producer == op && !uses[p].empty()) {
        agent.body.push_back(
            {Step::Acquire, unsigned(p), 0, "acquire " + name, 0});
        agent.body.push_back({Step::Write, unsigned(p), 0, name, 0});
        agent.body.push_back(
            {Step::Commit, unsigned(p), 0, "commit " + name, 0});
      }
    for (auto [p, pipe] : llvm::enumerate(buffers.pipes))
      for (const Use &u : uses[p])
        if (u.agent == agentOfOp[op] && u.last == op)
          agent.body.push_back({Step::Release, unsigned(p), u.consumerIndex,
                                "release " + name, u.offset});
    for (auto [mi, m] : llvm::enumerate(mutexes)) {
      sched::OpId lastMine = op;
      bool found = false;
      for (sched::OpId o : m.ops)
        if (agentOfOp[o] == agentOfOp[op]) {
          lastMine = o;
          found = true;
        }
      if (found && lastMine == op)
        agent.body.push_back(
            {Step::Unlock, unsigned(mi), 0, "unlock " + name, 0});
    }
  }
  return program;
}

std::optional<protocol::Violation>
materialize::checkAgentProgram(const protocol::Program &program,
                               unsigned numStages, unsigned seeds,
                               std::vector<uint64_t> *tripCounts) {
  std::set<uint64_t> counts = {0, 1, std::max(1u, numStages) - 1,
                               std::max(1u, numStages),
                               2 * uint64_t(numStages) + 3};
  if (tripCounts)
    tripCounts->assign(counts.begin(), counts.end());
  for (uint64_t n : counts) {
    protocol::CheckOptions options;
    options.tripCount = n;
    options.seed = 1;
    if (std::optional<protocol::Violation> v =
            protocol::checkMany(program, options, seeds))
      return v;
  }
  return std::nullopt;
}
