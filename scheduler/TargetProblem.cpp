//===- TargetProblem.cpp --------------------------------------------------===//

#include "scheduler/TargetProblem.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::sched;

rrt::ResourceLayout
tilepipe::sched::makeResourceLayout(const target::TargetModel &target) {
  rrt::ResourceLayout layout;
  // Bit = slot id - 1, so every slot id owns its bit even where unused.
  for (unsigned id = 1; id <= target::TargetModel::kNumSlotIds; ++id) {
    const target::SlotInfo *slot = target.getSlot(id);
    layout.addBit(slot ? slot->name : "slot" + std::to_string(id));
  }
  for (const target::PoolInfo &pool : target.getPools())
    layout.addPool(pool.name, pool.capacity, pool.binding);
  return layout;
}

void tilepipe::sched::applyOpClass(const target::TargetModel &target,
                                   const target::OpClassInfo &cls,
                                   const target::OpWork &work, Operation &op) {
  target::ResolvedOp resolved = target.resolve(cls, work);
  op.opClass = cls.name;
  op.latency = resolved.latency;
  op.isAsync = cls.async;
  op.isTMA = cls.tma;
  op.isMMA = cls.mma;
  unsigned longest = 1;
  for (const target::ResolvedTriple &t : resolved.triples) {
    longest = std::max(longest, t.duration);
    op.slotIds.push_back(t.slot);
    const target::SlotInfo *slot = target.getSlot(t.slot);
    if (slot && slot->pool)
      op.uses.push_back(rrt::Use::pool(*slot->pool, t.duration, t.occupancy));
    else
      op.uses.push_back(rrt::Use::bit(t.slot - 1, t.duration));
  }
  for (const target::PoolRequest &req : resolved.pools)
    op.uses.push_back(rrt::Use::pool(req.pool, longest, req.amount));
}
