//===- ptx/fences.cuh - proxy and mbarrier-init fences ---------*- CUDA -*-===//

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

} // namespace tp::ptx

#endif // TILEPIPE_PTX_FENCES_CUH
