//===- arch/sm100/tcgen05_mma.cuh - mma, commit ----------------*- CUDA -*-===//
//
// The raw operands: D's TMEM address, A's SMEM descriptor (or TMEM
// address), B's SMEM descriptor, the 32-bit instruction descriptor and
// enable-input-d (false: D = A * B; true: D += A * B). Issued by one
// thread; asynchronous.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_ARCH_SM100_TCGEN05_MMA_CUH
#define TILEPIPE_ARCH_SM100_TCGEN05_MMA_CUH

#include "tilepipe/config.cuh"
#include "tilepipe/isa/tcgen05_kinds.h"

namespace tp::ptx {

#if TP_HAS_TCGEN05
namespace detail {
// The kind is part of the opcode: one spelling per kind and A operand (an
// SMEM descriptor "l", or a TMEM address "r" in brackets). Used only inside
// TP_TCGEN05, i.e. in device passes that have tcgen05.
#define TP_MMA_ASM(kind, aop, acons)                                           \
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n"                   \
               " tcgen05.mma.cta_group::1.kind::" kind " [%0], " aop           \
               ", %2, %3, p;\n}" ::"r"(d),                                     \
               acons(a), "l"(bdesc), "r"(idesc), "r"(uint32_t(enableInputD))   \
               : "memory")

template <MmaKind Kind> struct MmaAsm {
  /// A from SMEM (adesc).
  static TP_DEVICE void ss(uint32_t d, uint64_t a, uint64_t bdesc,
                           uint32_t idesc, bool enableInputD) {
    if constexpr (Kind == MmaKind::F16)
      TP_MMA_ASM("f16", "%1", "l");
    else if constexpr (Kind == MmaKind::TF32)
      TP_MMA_ASM("tf32", "%1", "l");
    else if constexpr (Kind == MmaKind::I8)
      TP_MMA_ASM("i8", "%1", "l");
    else
      TP_MMA_ASM("f8f6f4", "%1", "l");
  }
  /// A from TMEM ([a]).
  static TP_DEVICE void ts(uint32_t d, uint32_t a, uint64_t bdesc,
                           uint32_t idesc, bool enableInputD) {
    if constexpr (Kind == MmaKind::F16)
      TP_MMA_ASM("f16", "[%1]", "r");
    else if constexpr (Kind == MmaKind::TF32)
      TP_MMA_ASM("tf32", "[%1]", "r");
    else if constexpr (Kind == MmaKind::I8)
      TP_MMA_ASM("i8", "[%1]", "r");
    else
      TP_MMA_ASM("f8f6f4", "[%1]", "r");
  }
};
#undef TP_MMA_ASM
} // namespace detail
#endif // TP_HAS_TCGEN05

/// tcgen05.mma.cta_group::1.kind::K [d], adesc, bdesc, idesc, enable_input_d.
template <MmaKind Kind>
TP_DEVICE void tcgen05_mma(uint32_t d, uint64_t a, uint64_t bdesc,
                           uint32_t idesc, bool enableInputD) {
  static_assert(Kind != MmaKind::MXF8F6F4, "use tcgen05_mma_block_scale");
#if TP_EMULATOR
  cpu::tcgen05_mma(Kind, d, a, bdesc, idesc, enableInputD);
#else
  TP_TCGEN05(detail::MmaAsm<Kind>::ss(d, a, bdesc, idesc, enableInputD));
#endif
}

/// The same with A in TMEM: tcgen05.mma... [d], [a], bdesc, idesc, en.
template <MmaKind Kind>
TP_DEVICE void tcgen05_mma_ts(uint32_t d, uint32_t a, uint64_t bdesc,
                              uint32_t idesc, bool enableInputD) {
  static_assert(Kind != MmaKind::MXF8F6F4, "block scaling reads A from SMEM");
#if TP_EMULATOR
  cpu::tcgen05_mma_ts(Kind, d, a, bdesc, idesc, enableInputD);
#else
  TP_TCGEN05(detail::MmaAsm<Kind>::ts(d, a, bdesc, idesc, enableInputD));
#endif
}

/// tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [d], adesc, bdesc,
/// idesc, [sfa], [sfb], enable_input_d: the scale factors' TMEM addresses,
/// with the byte of each 32-bit column chosen by the SF ids of idesc.
TP_DEVICE void tcgen05_mma_block_scale(uint32_t d, uint64_t adesc,
                                       uint64_t bdesc, uint32_t idesc,
                                       uint32_t sfa, uint32_t sfb,
                                       bool enableInputD) {
#if TP_EMULATOR
  cpu::tcgen05_mma_block_scale(MmaKind::MXF8F6F4, d, adesc, bdesc, idesc,
                               sfa, sfb, enableInputD);
#else
  TP_TCGEN05(asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
      " tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%0], "
      "%1, %2, %3, [%4], [%5], p;\n}" ::"r"(d),
      "l"(adesc), "l"(bdesc), "r"(idesc), "r"(sfa), "r"(sfb),
      "r"(uint32_t(enableInputD))
      : "memory"));
#endif
}

/// tcgen05.commit...mbarrier::arrive::one: one arrival on `bar` once every
/// earlier tcgen05.mma and tcgen05.cp of this thread has completed.
TP_DEVICE void tcgen05_commit(uint32_t bar) {
#if TP_EMULATOR
  cpu::tcgen05_commit(bar);
#else
  TP_TCGEN05(asm volatile(
      "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64"
      " [%0];" ::"r"(bar)
      : "memory"));
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_ARCH_SM100_TCGEN05_MMA_CUH
