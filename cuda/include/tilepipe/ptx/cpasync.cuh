//===- ptx/cpasync.cuh - 16-byte cp.async and its mbarrier arrive -*- CUDA -*-===//

#ifndef TILEPIPE_PTX_CPASYNC_CUH
#define TILEPIPE_PTX_CPASYNC_CUH

#include "tilepipe/config.cuh"

namespace tp::ptx {

/// cp.async.cg.shared.global [dst], [src], 16.
TP_DEVICE void cp_async_16(uint32_t dst, const void *src) {
#if TP_EMULATOR
  cpu::cp_async_16(dst, src);
#else
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
               "l"(src)
               : "memory");
#endif
}

/// cp.async.mbarrier.arrive (no .noinc): one pending arrival added now,
/// removed when this thread's earlier cp.async copies have landed.
TP_DEVICE void cp_async_mbarrier_arrive(uint32_t bar) {
#if TP_EMULATOR
  cpu::cp_async_mbarrier_arrive(bar);
#else
  asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" ::"r"(bar)
               : "memory");
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_PTX_CPASYNC_CUH
