//===- ptx/smem.cuh - the shared window: addresses, ld/st -------*- CUDA -*-===//
//
// SMEM operands of the async instructions are 32-bit shared-window
// addresses; these atoms convert to and from generic pointers and move
// 1 to 16 bytes through the window (ld/st.shared).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_PTX_SMEM_CUH
#define TILEPIPE_PTX_SMEM_CUH

#include "tilepipe/config.cuh"

#if TP_EMULATOR
#include <cstring>
#endif

namespace tp::ptx {

/// cvta.to.shared: the shared-window address of a generic SMEM pointer.
TP_DEVICE uint32_t generic_to_shared(const void *p) {
#if TP_EMULATOR
  return cpu::generic_to_shared(p);
#else
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
#endif
}

/// cvta.shared: the generic pointer of a shared-window address.
TP_DEVICE void *shared_to_generic(uint32_t a) {
#if TP_EMULATOR
  return cpu::shared_to_generic(a);
#else
  return __cvta_shared_to_generic(a);
#endif
}

/// st.shared of V bytes (1, 2, 4, 8 or 16) from `p`; `a` is V-aligned.
template <int V> TP_DEVICE void st_shared(uint32_t a, const unsigned char *p) {
  static_assert(V == 1 || V == 2 || V == 4 || V == 8 || V == 16, "access");
#if TP_EMULATOR
  std::memcpy(cpu::shared_to_generic(a), p, V);
#else
  uint32_t w[4] = {};
  __builtin_memcpy(w, p, V);
  if constexpr (V == 16)
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(w[0]),
                 "r"(w[1]), "r"(w[2]), "r"(w[3])
                 : "memory");
  else if constexpr (V == 8)
    asm volatile("st.shared.v2.b32 [%0], {%1, %2};" ::"r"(a), "r"(w[0]),
                 "r"(w[1])
                 : "memory");
  else if constexpr (V == 4)
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(w[0]) : "memory");
  else if constexpr (V == 2)
    asm volatile("st.shared.b16 [%0], %1;" ::"r"(a),
                 "h"(static_cast<uint16_t>(w[0]))
                 : "memory");
  else
    asm volatile("st.shared.b8 [%0], %1;" ::"r"(a), "r"(w[0]) : "memory");
#endif
}

/// ld.shared of V bytes into `p`.
template <int V> TP_DEVICE void ld_shared(uint32_t a, unsigned char *p) {
  static_assert(V == 1 || V == 2 || V == 4 || V == 8 || V == 16, "access");
#if TP_EMULATOR
  std::memcpy(p, cpu::shared_to_generic(a), V);
#else
  uint32_t w[4] = {};
  if constexpr (V == 16)
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                 : "r"(a)
                 : "memory");
  else if constexpr (V == 8)
    asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];"
                 : "=r"(w[0]), "=r"(w[1])
                 : "r"(a)
                 : "memory");
  else if constexpr (V == 4)
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
  else if constexpr (V == 2) {
    uint16_t h;
    asm volatile("ld.shared.b16 %0, [%1];" : "=h"(h) : "r"(a) : "memory");
    w[0] = h;
  } else
    asm volatile("ld.shared.u8 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
  __builtin_memcpy(p, w, V);
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_PTX_SMEM_CUH
