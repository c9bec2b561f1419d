//===- ptx/mbarrier.cuh - mbarrier atoms (shared::cta) ----------*- CUDA -*-===//
//
// `bar` is the shared-window address of the 8-byte barrier.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_PTX_MBARRIER_CUH
#define TILEPIPE_PTX_MBARRIER_CUH

#include "tilepipe/config.cuh"

namespace tp::ptx {

TP_DEVICE void mbarrier_init(uint32_t bar, uint32_t count) {
#if TP_EMULATOR
  cpu::mbarrier_init(bar, count);
#else
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar),
               "r"(count)
               : "memory");
#endif
}

/// mbarrier.arrive (count 1).
TP_DEVICE void mbarrier_arrive(uint32_t bar) {
#if TP_EMULATOR
  cpu::mbarrier_arrive(bar);
#else
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar)
               : "memory");
#endif
}

/// mbarrier.arrive.expect_tx: tx-count += bytes, then one arrival.
TP_DEVICE void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
#if TP_EMULATOR
  cpu::mbarrier_arrive_expect_tx(bar, bytes);
#else
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   bar),
               "r"(bytes)
               : "memory");
#endif
}

/// mbarrier.expect_tx: tx-count += bytes, no arrival.
TP_DEVICE void mbarrier_expect_tx(uint32_t bar, uint32_t bytes) {
#if TP_EMULATOR
  cpu::mbarrier_expect_tx(bar, bytes);
#else
  asm volatile("mbarrier.expect_tx.shared::cta.b64 [%0], %1;" ::"r"(bar),
               "r"(bytes)
               : "memory");
#endif
}

/// No instruction: tells the emulator which phase the thread's next parity
/// wait on `bar` is for (emulator/atoms.h).
TP_DEVICE void mbarrier_wait_for_phase(uint32_t bar, int64_t phase) {
#if TP_EMULATOR
  cpu::mbarrier_wait_for_phase(bar, phase);
#else
  (void)bar;
  (void)phase;
#endif
}

/// mbarrier.try_wait.parity: true once the phase of that parity completed.
/// May return false early, so callers loop.
TP_DEVICE bool mbarrier_try_wait_parity(uint32_t bar, uint32_t parity) {
#if TP_EMULATOR
  return cpu::mbarrier_try_wait_parity(bar, parity);
#else
  uint32_t done;
  asm volatile("{\n .reg .pred p;\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               " selp.u32 %0, 1, 0, p;\n}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
#endif
}

/// mbarrier.test_wait.parity: the same answer as try_wait.parity, but at
/// once: it never waits, so a false answer means the phase is still open
/// (the fidelity check probes a barrier's phases with it).
TP_DEVICE bool mbarrier_test_wait_parity(uint32_t bar, uint32_t parity) {
#if TP_EMULATOR
  return cpu::mbarrier_test_wait_parity(bar, parity);
#else
  uint32_t done;
  asm volatile("{\n .reg .pred p;\n"
               " mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               " selp.u32 %0, 1, 0, p;\n}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_PTX_MBARRIER_CUH
