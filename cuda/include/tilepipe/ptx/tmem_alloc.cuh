//===- ptx/tmem_alloc.cuh - tensor memory allocation ------------*- CUDA -*-===//
//
// Issued by one whole warp (.sync.aligned).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_PTX_TMEM_ALLOC_CUH
#define TILEPIPE_PTX_TMEM_ALLOC_CUH

#include "tilepipe/ptx/config.cuh"

namespace tp::ptx {

/// tcgen05.alloc.cta_group::1: `cols` (a power of 2 in [32, 512]) columns;
/// the TMEM address is written to SMEM at `dst`.
TP_DEVICE void tcgen05_alloc(uint32_t dst, uint32_t cols) {
#if defined(TILEPIPE_CPU)
  cpu::tcgen05_alloc(dst, cols);
#elif TP_HAS_TCGEN05
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
          dst),
      "r"(cols)
      : "memory");
#elif TP_TCGEN05_TRAP
  (void)dst, (void)cols;
  __trap();
#else
  (void)dst, (void)cols;
#endif
}

TP_DEVICE void tcgen05_relinquish_alloc_permit() {
#if defined(TILEPIPE_CPU)
  cpu::tcgen05_relinquish_alloc_permit();
#elif TP_HAS_TCGEN05
  asm volatile(
      "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::
          : "memory");
#elif TP_TCGEN05_TRAP
  __trap();
#endif
}

TP_DEVICE void tcgen05_dealloc(uint32_t taddr, uint32_t cols) {
#if defined(TILEPIPE_CPU)
  cpu::tcgen05_dealloc(taddr, cols);
#elif TP_HAS_TCGEN05
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(
                   taddr),
               "r"(cols)
               : "memory");
#elif TP_TCGEN05_TRAP
  (void)taddr, (void)cols;
  __trap();
#else
  (void)taddr, (void)cols;
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_PTX_TMEM_ALLOC_CUH
