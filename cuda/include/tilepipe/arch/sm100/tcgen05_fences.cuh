//===- arch/sm100/tcgen05_fences.cuh - tcgen05 ordering --------*- CUDA -*-===//
//
// tcgen05.fence::before/after_thread_sync order tcgen05 operations around a
// thread synchronization; tcgen05.wait::ld/st wait for this thread's
// tcgen05.ld/st.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_ARCH_SM100_TCGEN05_FENCES_CUH
#define TILEPIPE_ARCH_SM100_TCGEN05_FENCES_CUH

#include "tilepipe/config.cuh"

namespace tp::ptx {

// The tcgen05 ordering atoms. The harness has no tcgen05 traffic to order:
// TP_TCGEN05_FENCE keeps a compiler barrier there instead (config.cuh).
TP_DEVICE void tcgen05_fence_before_thread_sync() {
#if TP_EMULATOR
  cpu::tcgen05_fence_before_thread_sync();
#else
  TP_TCGEN05_FENCE("tcgen05.fence::before_thread_sync;");
#endif
}

TP_DEVICE void tcgen05_fence_after_thread_sync() {
#if TP_EMULATOR
  cpu::tcgen05_fence_after_thread_sync();
#else
  TP_TCGEN05_FENCE("tcgen05.fence::after_thread_sync;");
#endif
}

TP_DEVICE void tcgen05_wait_ld() {
#if TP_EMULATOR
  cpu::tcgen05_wait_ld();
#else
  TP_TCGEN05_FENCE("tcgen05.wait::ld.sync.aligned;");
#endif
}

TP_DEVICE void tcgen05_wait_st() {
#if TP_EMULATOR
  cpu::tcgen05_wait_st();
#else
  TP_TCGEN05_FENCE("tcgen05.wait::st.sync.aligned;");
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_ARCH_SM100_TCGEN05_FENCES_CUH
