//===- MutexPlan.cpp ------------------------------------------------------===//

#include "materialize/plan/MutexPlan.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <set>

using namespace tilepipe;
using namespace tilepipe::materialize;

std::vector<MutexPlan>
materialize::planMutexes(const sched::ScheduleAnalysis &schedule,
                         llvm::ArrayRef<std::optional<unsigned>> groupOf,
                         llvm::ArrayRef<std::vector<unsigned>> singletonSlots,
                         const target::GlobalCaps &caps) {
  // Slot -> the groups that use it, in (stage, order) of first use.
  std::map<unsigned, MutexPlan> bySlot;
  for (sched::OpId op : schedule.orderedOps) {
    if (op >= groupOf.size() || !groupOf[op])
      continue;
    for (unsigned slot : singletonSlots[op]) {
      MutexPlan &m = bySlot[slot];
      m.slot = slot;
      m.ops.push_back(op);
      if (!llvm::is_contained(m.groups, *groupOf[op]))
        m.groups.push_back(*groupOf[op]);
    }
  }
  // A token ring works only if every group takes the same number of turns.
  // A group's agent locks once per row in which it uses the unit: N + span
  // rows over N iterations, span the stages its ops on the unit cover, or N
  // when its agent runs one iteration per row (N below its stage count). So
  // the spans must agree, and unless they are all 0, the agents' stage
  // counts too. Otherwise the groups use the unit untaken (the mutex only
  // keeps the schedule's reservations; correctness never needs it).
  std::map<unsigned, std::pair<unsigned, unsigned>> agentStages;
  for (sched::OpId op = 0; op < groupOf.size(); ++op)
    if (groupOf[op] && op < schedule.slots.size()) {
      unsigned stage = schedule.slots[op].stage;
      auto [it, fresh] =
          agentStages.try_emplace(*groupOf[op], std::make_pair(stage, stage));
      it->second.first = std::min(it->second.first, stage);
      it->second.second = std::max(it->second.second, stage);
    }
  auto turnsAgree = [&](const MutexPlan &m) {
    std::map<unsigned, std::pair<unsigned, unsigned>> span;
    for (sched::OpId op : m.ops) {
      unsigned stage = schedule.slots[op].stage;
      auto [it, fresh] =
          span.try_emplace(*groupOf[op], std::make_pair(stage, stage));
      it->second.first = std::min(it->second.first, stage);
      it->second.second = std::max(it->second.second, stage);
    }
    std::set<unsigned> spans, stageCounts;
    for (auto &[group, range] : span) {
      spans.insert(range.second - range.first);
      stageCounts.insert(agentStages[group].second - agentStages[group].first);
    }
    return spans.size() == 1 &&
           (*spans.begin() == 0 || stageCounts.size() == 1);
  };
  std::vector<MutexPlan> mutexes;
  unsigned nextId = caps.reservedNamedBarriers;
  for (auto &[slot, m] : bySlot) {
    if (m.groups.size() < 2)
      continue; // One group alone needs no turn-taking.
    if (!turnsAgree(m))
      continue;
    // A named-barrier ring takes one id per group, consecutive.
    if (nextId + m.groups.size() <= caps.namedBarriers) {
      m.namedBarrier = nextId;
      nextId += m.groups.size();
    }
    mutexes.push_back(std::move(m));
  }
  return mutexes;
}
