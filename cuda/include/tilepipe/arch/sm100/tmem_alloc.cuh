//===- arch/sm100/tmem_alloc.cuh - tensor memory allocation ----*- CUDA -*-===//
//
// Issued by one whole warp (.sync.aligned).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_ARCH_SM100_TMEM_ALLOC_CUH
#define TILEPIPE_ARCH_SM100_TMEM_ALLOC_CUH

#include "tilepipe/config.cuh"

namespace tp::ptx {

/// tcgen05.alloc.cta_group::1: `cols` (a power of 2 in [32, 512]) columns;
/// the TMEM address is written to SMEM at `dst`.
TP_DEVICE void tcgen05_alloc(uint32_t dst, uint32_t cols) {
#if TP_EMULATOR
  cpu::tcgen05_alloc(dst, cols);
#else
  TP_TCGEN05(asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
          dst),
      "r"(cols)
      : "memory"));
#endif
}

TP_DEVICE void tcgen05_relinquish_alloc_permit() {
#if TP_EMULATOR
  cpu::tcgen05_relinquish_alloc_permit();
#else
  TP_TCGEN05(asm volatile(
      "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::
          : "memory"));
#endif
}

TP_DEVICE void tcgen05_dealloc(uint32_t taddr, uint32_t cols) {
#if TP_EMULATOR
  cpu::tcgen05_dealloc(taddr, cols);
#else
  TP_TCGEN05(asm volatile(
      "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(taddr),
      "r"(cols)
      : "memory"));
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_ARCH_SM100_TMEM_ALLOC_CUH
