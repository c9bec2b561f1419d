//===- runtime/turns.cuh - ping-pong consumers' turns ------*- CUDA -*-===//
//
// Two copies of a consumer agent (docs/cuda.md, "Ping-pong consumers")
// take turns twice a tile: on the main loop, so that their MMAs and the
// pipes' iterations go in tile order, and on the epilogue, whose staging
// tile they share. A turn ring is two mbarriers of one arrival, one per
// copy: copy c's t-th turn waits for phase t of its barrier, which the
// other copy completes when it passes the turn. Copy 0 waits one phase
// ahead (flip 1), as a producer does on an empty slot, so it goes first.
//
// Between turns the copy that ran a tile leaves, per pipe, the iteration
// the next tile starts at: the next copy reads it after its wait, which
// the arrival's release and the wait's acquire order after the write.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_TURNS_CUH
#define TILEPIPE_RUNTIME_TURNS_CUH

#include "tilepipe/runtime/pipes.cuh"

namespace tp {

/// Waits until copy `copy` holds turn `turn` (its count of turns taken).
TP_DEVICE void turn_wait(uint64_t *ring, int copy, int64_t turn TP_LOC) {
  mbar_wait(ring + copy, 1, turn, copy == 0 ? 1u : 0u TP_LOC_FWD);
}

/// Passes the turn to the other copy (the elected thread, once the copy's
/// threads are done with what the turn guards).
TP_DEVICE void turn_pass(uint64_t *ring, int copy TP_LOC) {
  mbar_arrive(ring + (copy + 1) % 2, 1, 0 TP_LOC_FWD);
}

/// The iteration of `pipe` the copy holding the turn starts its tile at.
TP_DEVICE int64_t turn_base(const uint64_t *bases, int pipe) {
  return static_cast<int64_t>(
      *static_cast<const volatile uint64_t *>(bases + pipe));
}

/// Leaves the iteration of `pipe` the next tile starts at.
TP_DEVICE void turn_leave(uint64_t *bases, int pipe, int64_t next) {
  *static_cast<volatile uint64_t *>(bases + pipe) = static_cast<uint64_t>(next);
}

} // namespace tp

#endif // TILEPIPE_RUNTIME_TURNS_CUH
