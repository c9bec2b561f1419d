//===- harness/stand_ins.cuh - the harness's stand-ins ---------*- CUDA -*-===//
//
// Harness mode (-DTILEPIPE_HARNESS, sm_90a), picked by harness.cuh. There is
// no tensor core and no TMEM: every pipe producer writes a 16-byte "stamp"
// {k lo, k hi, pipeId, checksum} into the slot it fills, and every consumer
// checks that the slot holds the stamp of its own (pipeId, k). A wrong slot
// index, a missing wait or a wrong parity thus shows up as an error in
// tp_report instead of as silently wrong numbers, and a protocol deadlock
// shows up as a timeout instead of a hang.
//
// The interface both variants give (harness/no_stand_ins.cuh is the other):
//   harness::kStandIns     true here: the runtime takes the stand-in paths
//   harness::WaitBudget    bounds an mbarrier wait
//   harness::tx_bytes(b)   the bytes a slot's copies complete (one stamp)
//   harness::stamp_copy    the stand-in TMA load of one stamp
//   tp::probe_stamp/check  the probes the emitted kernel calls
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HARNESS_STAND_INS_CUH
#define TILEPIPE_HARNESS_STAND_INS_CUH

#include <cstdint>

#include "tilepipe/config.cuh"
#include "tilepipe/harness/harness_report.cuh"
#include "tilepipe/ptx/sync.cuh"

// Budget of one mbar_wait in harness mode, in SM clocks: about 2 s at 1.7 GHz.
// Longer than any legitimate wait of a test kernel, short enough that a
// deadlocked protocol finishes with a report.
#ifndef TP_HARNESS_WAIT_CYCLES
#define TP_HARNESS_WAIT_CYCLES 3400000000LL
#endif
// Global scratch for the stand-in TMA copies: one ring of stamps per CTA. The
// ring is indexed by (pipeId % 16, k % 16), so an entry is rewritten only after
// the copy that read it has completed, as long as no pipe is deeper than 16.
#ifndef TP_HARNESS_MAX_CTAS
#define TP_HARNESS_MAX_CTAS 1024
#endif

namespace tp {

__device__ HarnessReport tp_report;

namespace detail {

constexpr int kScratchRing = 16;
__device__ uint4 tp_scratch[TP_HARNESS_MAX_CTAS][kScratchRing * kScratchRing];

__device__ __forceinline__ int linear_cta() {
  return static_cast<int>(blockIdx.x +
                          gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
}

// A mix of all three inputs, so that a stamp copied from another pipe, another
// iteration or another CTA's scratch is caught even when k happens to match.
__device__ __forceinline__ uint32_t stamp_checksum(int pipeId, int64_t k,
                                                   int cta) {
  uint32_t h = static_cast<uint32_t>(pipeId) * 0x9E3779B1u;
  h ^= static_cast<uint32_t>(k) * 0x85EBCA77u;
  h ^= static_cast<uint32_t>(static_cast<uint64_t>(k) >> 32) * 0xC2B2AE3Du;
  h ^= static_cast<uint32_t>(cta) * 0x27D4EB2Fu;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h;
}

__device__ __forceinline__ uint4 make_stamp(int pipeId, int64_t k) {
  uint64_t uk = static_cast<uint64_t>(k);
  return make_uint4(static_cast<uint32_t>(uk), static_cast<uint32_t>(uk >> 32),
                    static_cast<uint32_t>(pipeId),
                    stamp_checksum(pipeId, k, linear_cta()));
}

// Stand-in for TMEM: one stamp per 32-column granule (512 columns). A single
// function owns the __shared__ array so that stamp and check see the same one.
__device__ __forceinline__ uint4 *tmem_stamp_table() {
  __shared__ uint4 table[16];
  return table;
}

__device__ __forceinline__ void st_shared_stamp(uint32_t addr, uint4 s) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(s.x),
               "r"(s.y), "r"(s.z), "r"(s.w)
               : "memory");
}

__device__ __forceinline__ uint4 ld_shared_stamp(uint32_t addr) {
  uint4 s;
  asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
               : "=r"(s.x), "=r"(s.y), "=r"(s.z), "=r"(s.w)
               : "r"(addr)
               : "memory");
  return s;
}

/// Called on every failed try_wait of mbar_wait: true when the wait should
/// give up. Once any wait timed out the protocol is broken, so later waits
/// give up at once instead of each burning its own budget.
__device__ __forceinline__ bool wait_expired(long long start) {
  if (*static_cast<volatile unsigned *>(&tp_report.timeouts) != 0)
    return true;
  if (clock64() - start <= TP_HARNESS_WAIT_CYCLES)
    return false;
  atomicAdd(&tp_report.timeouts, 1u);
  return true;
}

/// Stand-in TMA load: the stamp goes through global memory and a real bulk
/// copy, so the expect-tx byte count (16) and the async completion on the
/// mbarrier are exercised exactly as with a tensor copy.
__device__ __forceinline__ void stamp_copy(uint32_t dst, uint32_t bar,
                                           int pipeId, int64_t k) {
  int cta = linear_cta() % TP_HARNESS_MAX_CTAS;
  int idx = (pipeId & (kScratchRing - 1)) * kScratchRing +
            static_cast<int>(k & (kScratchRing - 1));
  uint4 *src = &tp_scratch[cta][idx];
  *src = make_stamp(pipeId, k);
  // The bulk copy reads through the async proxy; order the generic store first.
  asm volatile("fence.proxy.async.global;" ::: "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1], 16, [%2];" ::"r"(dst),
      "l"(__cvta_generic_to_global(src)), "r"(bar)
      : "memory");
}

} // namespace detail

namespace harness {

constexpr bool kStandIns = true;

/// Bounds one mbarrier wait by TP_HARNESS_WAIT_CYCLES from its first failed
/// try_wait: a deadlocked protocol then ends with a timeout in the report.
class WaitBudget {
public:
  TP_DEVICE WaitBudget() : start(ptx::clock64()) {}
  TP_DEVICE bool expired() const { return detail::wait_expired(start); }

private:
  long long start;
};

/// The stand-in copy moves one 16-byte stamp, whatever the tile's bytes.
TP_DEVICE uint32_t tx_bytes(uint32_t) { return 16; }

/// Stand-in TMA load of iteration k's stamp into `dst`, completing on `bar`.
TP_DEVICE void stamp_copy(uint32_t dst, uint32_t bar, int pipeId, int64_t k) {
  detail::stamp_copy(dst, bar, pipeId, k);
}

} // namespace harness

/// Producer side of a harness probe: the calling (leader) thread writes the
/// stamp of (pipeId, k) into the slot.
TP_DEVICE void probe_stamp(uint32_t slot, bool tmem, int pipeId, int64_t k) {
  uint4 s = detail::make_stamp(pipeId, k);
  uint32_t addr = slot;
  if (tmem)
    addr = static_cast<uint32_t>(__cvta_generic_to_shared(
        &detail::tmem_stamp_table()[(slot & 0xFFFFu) / 32 % 16]));
  detail::st_shared_stamp(addr, s);
}

/// Consumer side: the calling (leader) thread checks that the slot holds the
/// stamp of (pipeId, k) and records the first mismatch.
TP_DEVICE void probe_check(uint32_t slot, bool tmem, int pipeId, int64_t k) {
  uint32_t addr = slot;
  if (tmem)
    addr = static_cast<uint32_t>(__cvta_generic_to_shared(
        &detail::tmem_stamp_table()[(slot & 0xFFFFu) / 32 % 16]));
  uint4 got = detail::ld_shared_stamp(addr);
  uint4 want = detail::make_stamp(pipeId, k);
  atomicAdd(&tp_report.iterations, 1ull);
  if (got.x == want.x && got.y == want.y && got.z == want.z && got.w == want.w)
    return;
  // Only the thread that takes the count from 0 writes the details, so they
  // describe one consistent (first) error.
  if (atomicAdd(&tp_report.errors, 1u) == 0) {
    tp_report.firstCta = detail::linear_cta();
    tp_report.firstPipe = pipeId;
    tp_report.firstWant = k;
    tp_report.firstGot =
        static_cast<long long>((static_cast<uint64_t>(got.y) << 32) | got.x);
  }
}

} // namespace tp

#endif // TILEPIPE_HARNESS_STAND_INS_CUH
