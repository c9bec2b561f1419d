//===- MutexPlan.h - mutexes and named-barrier ids -------------*- C++ -*-===//
//
// A mutex guards a unit that is not duplicated per warp group while several
// groups run the same stage code on it (the MUFU between FA4's two softmax
// groups): the groups take turns through a token ring. Mutexes are seeded
// before pipes claim barriers. Each gets a hardware named barrier from the
// free id range (ids below the target's reserved count belong to libraries,
// design.md decision 1), one id per group of its ring, or an mbarrier ring
// in SMEM when ids run out.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_MUTEXPLAN_H
#define TILEPIPE_MATERIALIZE_PLAN_MUTEXPLAN_H

#include "materialize/plan/BufferPlan.h"

namespace tilepipe::materialize {

struct MutexPlan {
  unsigned slot = 0;            ///< Target slot id of the guarded unit.
  std::vector<unsigned> groups; ///< Agent groups in token order.
  std::vector<sched::OpId> ops; ///< The guarded ops, in (stage, order).
  /// First of `groups.size()` consecutive named-barrier ids (one per group
  /// of the ring); none: an mbarrier ring in SMEM.
  std::optional<unsigned> namedBarrier;
};

/// `groupOf[op]`: the agent group running the op (nullopt: no group).
/// `singletonSlots[op]`: the singleton slot ids the op holds.
std::vector<MutexPlan>
planMutexes(const sched::ScheduleAnalysis &schedule,
            llvm::ArrayRef<std::optional<unsigned>> groupOf,
            llvm::ArrayRef<std::vector<unsigned>> singletonSlots,
            const target::GlobalCaps &caps);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_MUTEXPLAN_H
