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
  std::vector<MutexPlan> mutexes;
  unsigned nextId = caps.reservedNamedBarriers;
  for (auto &[slot, m] : bySlot) {
    if (m.groups.size() < 2)
      continue; // One group alone needs no turn-taking.
    // A named-barrier ring takes one id per group, consecutive.
    if (nextId + m.groups.size() <= caps.namedBarriers) {
      m.namedBarrier = nextId;
      nextId += m.groups.size();
    }
    mutexes.push_back(std::move(m));
  }
  return mutexes;
}
