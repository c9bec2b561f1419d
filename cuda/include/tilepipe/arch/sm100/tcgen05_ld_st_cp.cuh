//===- arch/sm100/tcgen05_ld_st_cp.cuh - TMEM ld, st, cp -------*- CUDA -*-===//
//
// tcgen05.ld/st .32x32b.xN: issued by a whole warp with one TMEM address;
// thread t reaches lane lane(taddr) + t and register j column col(taddr) + j.
// tcgen05.cp: one thread, asynchronous, ordered before the same thread's
// later tcgen05.mma without a wait.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_ARCH_SM100_TCGEN05_LD_ST_CP_CUH
#define TILEPIPE_ARCH_SM100_TCGEN05_LD_ST_CP_CUH

#include "tilepipe/config.cuh"
#include "tilepipe/isa/tcgen05_kinds.h"

namespace tp::ptx {

#if TP_HAS_TCGEN05
// PTX wants the register list spelled out. Operand %0 is the TMEM address
// (an in/out operand for ld, so that both ld and st number the registers from
// %1) and the registers are %1..%n; TP_REGS<n> is the first n of them.
#define TP_REGS1 "%1"
#define TP_REGS2 TP_REGS1 ",%2"
#define TP_REGS4 TP_REGS2 ",%3,%4"
#define TP_REGS8 TP_REGS4 ",%5,%6,%7,%8"
#define TP_REGS16 TP_REGS8 ",%9,%10,%11,%12,%13,%14,%15,%16"
#define TP_REGS32                                                              \
  TP_REGS16 ",%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32"
// Operand lists r[b], r[b+1], ..., by doubling.
#define TP_OPS1(c, b) c(r[b])
#define TP_OPS2(c, b) TP_OPS1(c, b), TP_OPS1(c, b + 1)
#define TP_OPS4(c, b) TP_OPS2(c, b), TP_OPS2(c, b + 2)
#define TP_OPS8(c, b) TP_OPS4(c, b), TP_OPS4(c, b + 4)
#define TP_OPS16(c, b) TP_OPS8(c, b), TP_OPS8(c, b + 8)
#define TP_OPS32(c, b) TP_OPS16(c, b), TP_OPS16(c, b + 16)

template <int N> struct TmemIO;
#define TP_TMEM_IO(n)                                                          \
  template <> struct TmemIO<n> {                                               \
    static __device__ __forceinline__ void ld(uint32_t a, uint32_t *r) {       \
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x" #n ".b32 {" TP_REGS##n   \
                   "}, [%0];"                                                  \
                   : "+r"(a), TP_OPS##n("=r", 0)::"memory");                   \
    }                                                                          \
    static __device__ __forceinline__ void st(uint32_t a, const uint32_t *r) { \
      asm volatile("tcgen05.st.sync.aligned.32x32b.x" #n                       \
                   ".b32 [%0], {" TP_REGS##n "};" ::"r"(a),                    \
                   TP_OPS##n("r", 0)                                           \
                   : "memory");                                                \
    }                                                                          \
    /* Redefines the registers after tcgen05.wait::ld, so that no use of the   \
       loaded values can be scheduled before the wait. */                      \
    static __device__ __forceinline__ void pin(uint32_t *r) {                  \
      asm volatile("" : TP_OPS##n("+r", 0));                                   \
    }                                                                          \
  };
TP_TMEM_IO(1)
TP_TMEM_IO(2)
TP_TMEM_IO(4)
TP_TMEM_IO(8)
TP_TMEM_IO(16)
TP_TMEM_IO(32)
#undef TP_TMEM_IO

// .32x32b.xn.pack::16b / .unpack::16b: n registers over 2n columns (.num
// counts registers; ptxas refuses any other count).
template <int N> struct TmemIO16;
#define TP_TMEM_IO16(n)                                                        \
  template <> struct TmemIO16<n> {                                             \
    static __device__ __forceinline__ void ld(uint32_t a, uint32_t *r) {       \
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x" #n                       \
                   ".pack::16b.b32 {" TP_REGS##n "}, [%0];"                    \
                   : "+r"(a), TP_OPS##n("=r", 0)::"memory");                   \
    }                                                                          \
    static __device__ __forceinline__ void st(uint32_t a, const uint32_t *r) { \
      asm volatile("tcgen05.st.sync.aligned.32x32b.x" #n                       \
                   ".unpack::16b.b32 [%0], {" TP_REGS##n "};" ::"r"(a),        \
                   TP_OPS##n("r", 0)                                           \
                   : "memory");                                                \
    }                                                                          \
  };
TP_TMEM_IO16(1)
TP_TMEM_IO16(2)
TP_TMEM_IO16(4)
TP_TMEM_IO16(8)
TP_TMEM_IO16(16)
TP_TMEM_IO16(32)
#undef TP_TMEM_IO16

// .16x32bx2.x<n> [taddr], immHalfSplitoff (%0 the address, then the
// registers; the offset is an immediate, operand %n+1).
template <int N> struct TmemIO16x2;
#define TP_TMEM_IO16X2(n, imm)                                                 \
  template <> struct TmemIO16x2<n> {                                           \
    template <int Half>                                                        \
    static __device__ __forceinline__ void ld(uint32_t a, uint32_t *r) {       \
      asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x" #n ".b32 {" TP_REGS##n \
                   "}, [%0], %" #imm ";"                                       \
                   : "+r"(a), TP_OPS##n("=r", 0)                               \
                   : "n"(Half)                                                 \
                   : "memory");                                                \
    }                                                                          \
    template <int Half>                                                        \
    static __device__ __forceinline__ void st(uint32_t a, const uint32_t *r) { \
      asm volatile("tcgen05.st.sync.aligned.16x32bx2.x" #n ".b32 [%0], %" #imm \
                   ", {" TP_REGS##n "};" ::"r"(a),                             \
                   TP_OPS##n("r", 0), "n"(Half)                                \
                   : "memory");                                                \
    }                                                                          \
  };
TP_TMEM_IO16X2(1, 2)
TP_TMEM_IO16X2(2, 3)
TP_TMEM_IO16X2(4, 5)
TP_TMEM_IO16X2(8, 9)
TP_TMEM_IO16X2(16, 17)
TP_TMEM_IO16X2(32, 33)
#undef TP_TMEM_IO16X2

// tcgen05.cp.cta_group::1.<shape>: the shape is part of the opcode.
template <CpShape Shape> struct CpAsm {
  static __device__ __forceinline__ void cp(uint32_t taddr, uint64_t sdesc) {
#define TP_CP(shape)                                                           \
  asm volatile("tcgen05.cp.cta_group::1." shape " [%0], %1;" ::"r"(taddr),     \
               "l"(sdesc)                                                      \
               : "memory")
    if constexpr (Shape == CpShape::S128x256b)
      TP_CP("128x256b");
    else if constexpr (Shape == CpShape::S128x128b)
      TP_CP("128x128b");
    else if constexpr (Shape == CpShape::S32x128b_warpx4)
      TP_CP("32x128b.warpx4");
    else if constexpr (Shape == CpShape::S64x128b_warpx2_02_13)
      TP_CP("64x128b.warpx2::02_13");
    else if constexpr (Shape == CpShape::S64x128b_warpx2_01_23)
      TP_CP("64x128b.warpx2::01_23");
    else
      TP_CP("4x256b");
#undef TP_CP
  }
};
#endif // TP_HAS_TCGEN05

/// tcgen05.ld.sync.aligned.32x32b.xN.b32: this thread's N registers.
template <int N> TP_DEVICE void tcgen05_ld_32x32b(uint32_t taddr, uint32_t *r) {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                ".32x32b.xN: N in 1..32 (more would not fit beside the rest)");
#if TP_EMULATOR
  cpu::tcgen05_ld_32x32b(taddr, N, r);
#else
  TP_TCGEN05(TmemIO<N>::ld(taddr, r));
#endif
}

/// tcgen05.st.sync.aligned.32x32b.xN.b32.
template <int N>
TP_DEVICE void tcgen05_st_32x32b(uint32_t taddr, const uint32_t *r) {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                ".32x32b.xN: N in 1..32");
#if TP_EMULATOR
  cpu::tcgen05_st_32x32b(taddr, N, r);
#else
  TP_TCGEN05(TmemIO<N>::st(taddr, r));
#endif
}

/// tcgen05.ld.sync.aligned.32x32b.xN.pack::16b.b32: N registers, each
/// the low 16 bits of two adjacent columns (a 16-bit MMA accumulator holds
/// one element per 32-bit column).
template <int N>
TP_DEVICE void tcgen05_ld_32x32b_pack16(uint32_t taddr, uint32_t *r) {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                ".32x32b.xN.pack::16b: N in 1..32 registers");
#if TP_EMULATOR
  cpu::tcgen05_ld_32x32b_pack16(taddr, N, r);
#else
  TP_TCGEN05(TmemIO16<N>::ld(taddr, r));
#endif
}

/// tcgen05.st.sync.aligned.32x32b.xN.unpack::16b.b32.
template <int N>
TP_DEVICE void tcgen05_st_32x32b_unpack16(uint32_t taddr, const uint32_t *r) {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                ".32x32b.xN.unpack::16b: N in 1..32 registers");
#if TP_EMULATOR
  cpu::tcgen05_st_32x32b_unpack16(taddr, N, r);
#else
  TP_TCGEN05(TmemIO16<N>::st(taddr, r));
#endif
}

/// tcgen05.ld.sync.aligned.16x32bx2.xN.b32 [taddr], Half: threads 0-15
/// read lanes lane(taddr) + t, threads 16-31 the same lanes Half columns
/// further.
template <int N, int Half>
TP_DEVICE void tcgen05_ld_16x32bx2(uint32_t taddr, uint32_t *r) {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                ".16x32bx2.xN: N in 1..32");
#if TP_EMULATOR
  cpu::tcgen05_ld_16x32bx2(taddr, N, Half, r);
#else
  TP_TCGEN05(TmemIO16x2<N>::template ld<Half>(taddr, r));
#endif
}

/// tcgen05.st.sync.aligned.16x32bx2.xN.b32 [taddr], Half.
template <int N, int Half>
TP_DEVICE void tcgen05_st_16x32bx2(uint32_t taddr, const uint32_t *r) {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32,
                ".16x32bx2.xN: N in 1..32");
#if TP_EMULATOR
  cpu::tcgen05_st_16x32bx2(taddr, N, Half, r);
#else
  TP_TCGEN05(TmemIO16x2<N>::template st<Half>(taddr, r));
#endif
}

/// After tcgen05.wait::ld: ties the loaded registers to the wait (no
/// instruction), so that the compiler cannot hoist their uses above it.
template <int N> TP_DEVICE void tcgen05_pin(uint32_t *r) {
#if TP_HAS_TCGEN05
  TmemIO<N>::pin(r);
#else
  (void)r; // no registers of a tcgen05.ld to tie elsewhere
#endif
}

/// tcgen05.cp.cta_group::1.<Shape> [taddr], sdesc.
template <CpShape Shape>
TP_DEVICE void tcgen05_cp(uint32_t taddr, uint64_t sdesc) {
#if TP_EMULATOR
  cpu::tcgen05_cp(Shape, taddr, sdesc);
#else
  TP_TCGEN05(CpAsm<Shape>::cp(taddr, sdesc));
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_ARCH_SM100_TCGEN05_LD_ST_CP_CUH
