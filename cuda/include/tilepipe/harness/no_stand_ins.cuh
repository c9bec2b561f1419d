//===- harness/no_stand_ins.cuh - no stand-ins -----------------*- CUDA -*-===//
//
// Device and emulator mode, picked by harness.cuh: the runtime moves real
// data, so the harness interface (harness/stand_ins.cuh) is empty here and
// compiles away: kStandIns is false, a wait is unbounded, a slot completes
// the bytes of its tile, and the probes do nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HARNESS_NO_STAND_INS_CUH
#define TILEPIPE_HARNESS_NO_STAND_INS_CUH

#include <cstdint>

#include "tilepipe/config.cuh"

namespace tp {
namespace harness {

constexpr bool kStandIns = false;

/// A wait without a budget: it waits as long as the protocol needs.
class WaitBudget {
public:
  TP_DEVICE bool expired() const { return false; }
};

TP_DEVICE uint32_t tx_bytes(uint32_t bytes) { return bytes; }

/// Not called (kStandIns is false); declared so that the runtime's
/// stand-in branches name the same function in every mode.
TP_DEVICE void stamp_copy(uint32_t, uint32_t, int, int64_t) {}

} // namespace harness

TP_DEVICE void probe_stamp(uint32_t, bool, int, int64_t) {}
TP_DEVICE void probe_check(uint32_t, bool, int, int64_t) {}

} // namespace tp

#endif // TILEPIPE_HARNESS_NO_STAND_INS_CUH
