//===- ptx/fences.cuh - proxy, mbarrier-init and tcgen05 fences -*- CUDA -*-===//

#ifndef TILEPIPE_PTX_FENCES_CUH
#define TILEPIPE_PTX_FENCES_CUH

#include "tilepipe/ptx/config.cuh"

namespace tp::ptx {

/// fence.proxy.async.shared::cta: orders this thread's generic SMEM
/// accesses with later async-proxy ones (TMA, UMMA, tcgen05.cp) and back.
TP_DEVICE void fence_proxy_async() {
#if defined(TILEPIPE_CPU)
  cpu::fence_proxy_async();
#else
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

/// fence.mbarrier_init.release.cluster: publishes mbarrier.init.
TP_DEVICE void fence_mbarrier_init() {
#if defined(TILEPIPE_CPU)
  cpu::fence_mbarrier_init();
#else
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

// The tcgen05 ordering atoms. Harness mode has no tcgen05 traffic to order:
// a compiler barrier keeps the emitted order of the SMEM accesses around.
#if defined(TILEPIPE_CPU)
#define TP_TCGEN05_ORDER(ptx, cpuCall) cpuCall
#elif TP_HAS_TCGEN05
#define TP_TCGEN05_ORDER(ptx, cpuCall) asm volatile(ptx ::: "memory")
#elif TP_TCGEN05_TRAP
#define TP_TCGEN05_ORDER(ptx, cpuCall) __trap()
#else
#define TP_TCGEN05_ORDER(ptx, cpuCall) asm volatile("" ::: "memory")
#endif

TP_DEVICE void tcgen05_fence_before_thread_sync() {
  TP_TCGEN05_ORDER("tcgen05.fence::before_thread_sync;",
                   cpu::tcgen05_fence_before_thread_sync());
}
TP_DEVICE void tcgen05_fence_after_thread_sync() {
  TP_TCGEN05_ORDER("tcgen05.fence::after_thread_sync;",
                   cpu::tcgen05_fence_after_thread_sync());
}
TP_DEVICE void tcgen05_wait_ld() {
  TP_TCGEN05_ORDER("tcgen05.wait::ld.sync.aligned;", cpu::tcgen05_wait_ld());
}
TP_DEVICE void tcgen05_wait_st() {
  TP_TCGEN05_ORDER("tcgen05.wait::st.sync.aligned;", cpu::tcgen05_wait_st());
}
#undef TP_TCGEN05_ORDER

} // namespace tp::ptx

#endif // TILEPIPE_PTX_FENCES_CUH
