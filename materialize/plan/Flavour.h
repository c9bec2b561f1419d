//===- Flavour.h - how each end of a pipe signals --------------*- C++ -*-===//
//
// The units at the two ends of a pipe decide its protocol (blackwell-facts
// 2.2 and 7.3): a TMA producer arms the full barrier with the expected bytes
// and the copy engine completes it; a UMMA end signals through
// tcgen05.commit; a SIMT end arrives on the barrier after the fence that
// makes its writes visible to the async proxy or the tensor core.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_FLAVOUR_H
#define TILEPIPE_MATERIALIZE_PLAN_FLAVOUR_H

#include "materialize/plan/BufferPlan.h"

namespace tilepipe::materialize {

struct PipeFlavour {
  /// How the producer marks a slot full: "expect_tx" (TMA), "tcgen05.commit"
  /// (UMMA), "arrive" (SIMT), "cp.async.mbarrier.arrive.noinc" (cp.async).
  std::string commit;
  /// How a consumer marks a slot empty: "tcgen05.commit" (UMMA), "arrive"
  /// (SIMT), "bulk_group.wait" (TMA store: no barrier, the bulk group).
  std::string release;
  /// Fence the producer issues before committing, if any.
  std::string producerFence;
  /// Fence the consumer issues after its wait, if any.
  std::string consumerFence;
  /// Full/empty mbarriers the pipe needs (2 x depth; none on the empty side
  /// of a TMA-store consumer).
  unsigned barriers = 0;
};

/// A UMMA consumer releases with tcgen05.commit even when the slot's next
/// writer is an MMA of the same thread (FA4's S over P): PTX orders an MMA
/// behind an earlier one only when both use the same accumulator.
PipeFlavour pipeFlavour(const PipePlan &pipe);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_FLAVOUR_H
