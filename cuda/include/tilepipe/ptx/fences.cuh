//===- ptx/fences.cuh - proxy, mbarrier-init and tcgen05 fences -*- CUDA -*-===//

#ifndef TILEPIPE_PTX_FENCES_CUH
#define TILEPIPE_PTX_FENCES_CUH

#include "tilepipe/config.cuh"

namespace tp::ptx {

/// fence.proxy.async.shared::cta: orders this thread's generic SMEM
/// accesses with later async-proxy ones (TMA, UMMA, tcgen05.cp) and back.
TP_DEVICE void fence_proxy_async() {
#if TP_EMULATOR
  cpu::fence_proxy_async();
#else
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

/// fence.mbarrier_init.release.cluster: publishes mbarrier.init.
TP_DEVICE void fence_mbarrier_init() {
#if TP_EMULATOR
  cpu::fence_mbarrier_init();
#else
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

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

#endif // TILEPIPE_PTX_FENCES_CUH
