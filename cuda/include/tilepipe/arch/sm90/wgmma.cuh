//===- arch/sm90/wgmma.cuh - Hopper's warpgroup MMA atoms -------*- CUDA -*-===//
//
// wgmma.fence, wgmma.mma_async (f32 accumulators: m64nNk16 with f16 or bf16
// operands, A from SMEM or registers; m64nNk8 tf32 and m64nNk32 e4m3/e5m2,
// both from SMEM and K-major; s32 accumulators: m64nNk32 s8/u8 from SMEM,
// K-major), wgmma.commit_group and
// wgmma.wait_group, issued by all 128 threads of a warpgroup. Each atom has
// the two branches of config.cuh: the emulator's call (emulator/wgmma.h) and
// the PTX, which exists only in sm_90a device passes (TP_WGMMA: elsewhere a
// device pass traps). The asm of each N is generated
// (scripts/gen-wgmma-atoms.py -> wgmma_asm.inc). docs/wgmma-facts.md has the
// ISA's rules; layout/wgmma_layout.cuh the fragments and the descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_ARCH_SM90_WGMMA_CUH
#define TILEPIPE_ARCH_SM90_WGMMA_CUH

#include "tilepipe/config.cuh"
#include "tilepipe/layout/wgmma_shapes.h"

namespace tp::ptx {

/// The operand type of a 16-bit wgmma.
enum class Wgmma16 { F16, BF16 };

/// The operand types that wgmma reads K-major only, 32 bytes of K an
/// instruction: tf32 (K 8) and the two 8-bit floats (K 32).
enum class WgmmaKMajor { TF32, E4M3, E5M2 };

/// The 8-bit integer operand types (K 32, K-major, s32 accumulators).
enum class WgmmaInt8 { S8, U8 };

#if TP_HAS_WGMMA
namespace detail {
#include "tilepipe/arch/sm90/wgmma_asm.inc"
} // namespace detail
#endif

/// wgmma.fence.sync.aligned: orders the warpgroup's register accesses
/// before the wgmma that follows.
TP_DEVICE void wgmma_fence() {
#if TP_EMULATOR
  cpu::wgmma_fence();
#else
  TP_WGMMA(asm volatile("wgmma.fence.sync.aligned;" ::: "memory"));
#endif
}

TP_DEVICE void wgmma_commit_group() {
#if TP_EMULATOR
  cpu::wgmma_commit_group();
#else
  TP_WGMMA(asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"));
#endif
}

/// wgmma.wait_group.sync.aligned Pending: at most Pending of this thread's
/// committed groups still in flight.
template <int Pending> TP_DEVICE void wgmma_wait_group() {
  static_assert(Pending >= 0 && Pending <= 7, "wgmma.wait_group takes 0..7");
#if TP_EMULATOR
  cpu::wgmma_wait_group(Pending);
#else
  TP_WGMMA(asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending)
                        : "memory"));
#endif
}

/// Keeps the compiler from moving accesses of accumulator registers across
/// the atoms: the hardware reads and writes them behind its back.
template <int Count> TP_DEVICE void wgmma_fence_operand(float (&d)[Count]) {
#if !TP_EMULATOR
#pragma unroll
  for (int i = 0; i < Count; ++i)
    asm volatile("" : "+f"(d[i])::"memory");
#endif
}

/// The same for s32 accumulators (integer MMA).
template <int Count> TP_DEVICE void wgmma_fence_operand(int32_t (&d)[Count]) {
#if !TP_EMULATOR
#pragma unroll
  for (int i = 0; i < Count; ++i)
    asm volatile("" : "+r"(d[i])::"memory");
#endif
}

/// The same for A registers: made here, before the fence, not between the
/// atoms that read them.
template <int Count> TP_DEVICE void wgmma_fence_operand(uint32_t (&a)[Count]) {
#if !TP_EMULATOR
#pragma unroll
  for (int i = 0; i < Count; ++i)
    asm volatile("" : "+r"(a[i])::"memory");
#endif
}

#if TP_EMULATOR
namespace detail {
constexpr cpu::WgmmaType wgmmaType(Wgmma16 t) {
  return t == Wgmma16::BF16 ? cpu::WgmmaType::BF16 : cpu::WgmmaType::F16;
}
constexpr cpu::WgmmaType wgmmaType(WgmmaKMajor t) {
  return t == WgmmaKMajor::TF32   ? cpu::WgmmaType::TF32
         : t == WgmmaKMajor::E4M3 ? cpu::WgmmaType::E4M3
                                  : cpu::WgmmaType::E5M2;
}
constexpr cpu::WgmmaType wgmmaType(WgmmaInt8 t) {
  return t == WgmmaInt8::S8 ? cpu::WgmmaType::S8 : cpu::WgmmaType::U8;
}
} // namespace detail
#endif

/// wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T d, adesc, bdesc, scale-d,
/// 1, 1, TransA, TransB: D (N / 2 f32 registers a thread) = A B^T (+ D).
template <int N, Wgmma16 T, int TransB = 0, int TransA = 0>
TP_DEVICE void wgmma_ss(float (&d)[N / 2], uint64_t a, uint64_t b,
                        bool scaleD) {
  static_assert(tp::wgmma_shape::n_ok(N), TP_WGMMA_RULE_N);
#if TP_EMULATOR
  cpu::wgmma_mma_ss(cpu::WgmmaShape{uint16_t(N), detail::wgmmaType(T),
                                    detail::wgmmaType(T), TransA != 0,
                                    TransB != 0},
                    d, a, b, scaleD);
#else
  uint32_t scale = scaleD;
  // Braced: the dispatch is an if-else chain of its own.
  if constexpr (T == Wgmma16::BF16) {
    TP_WGMMA(TP_WGMMA_DISPATCH(SS, N, "bf16"));
  } else {
    TP_WGMMA(TP_WGMMA_DISPATCH(SS, N, "f16"));
  }
  (void)scale;
#endif
}

/// The same with A from the thread's 4 registers (the m64k16 fragment,
/// layout/wgmma_layout.cuh).
template <int N, Wgmma16 T, int TransB = 0>
TP_DEVICE void wgmma_rs(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t b,
                        bool scaleD) {
  static_assert(tp::wgmma_shape::n_ok(N), TP_WGMMA_RULE_N);
#if TP_EMULATOR
  cpu::wgmma_mma_rs(cpu::WgmmaShape{uint16_t(N), detail::wgmmaType(T),
                                    detail::wgmmaType(T), false, TransB != 0},
                    d, a, b, scaleD);
#else
  uint32_t scale = scaleD;
  // Braced: the dispatch is an if-else chain of its own.
  if constexpr (T == Wgmma16::BF16) {
    TP_WGMMA(TP_WGMMA_DISPATCH(RS, N, "bf16"));
  } else {
    TP_WGMMA(TP_WGMMA_DISPATCH(RS, N, "f16"));
  }
  (void)scale;
#endif
}

/// wgmma.mma_async.sync.aligned.m64nNkK.f32.TA.TB d, adesc, bdesc,
/// scale-d, 1, 1 for tf32 (K 8) or e4m3/e5m2 (K 32, A and B may differ):
/// D (N / 2 f32 registers a thread) = A B^T (+ D), both K-major.
template <int N, WgmmaKMajor TA, WgmmaKMajor TB>
TP_DEVICE void wgmma_ss_kmajor(float (&d)[N / 2], uint64_t a, uint64_t b,
                               bool scaleD) {
  static_assert(tp::wgmma_shape::n_ok(N), TP_WGMMA_RULE_N);
  static_assert((TA == WgmmaKMajor::TF32) == (TB == WgmmaKMajor::TF32),
                TP_WGMMA_RULE_TYPES);
#if TP_EMULATOR
  cpu::wgmma_mma_ss(cpu::WgmmaShape{uint16_t(N), detail::wgmmaType(TA),
                                    detail::wgmmaType(TB), false, false},
                    d, a, b, scaleD);
#else
  uint32_t scale = scaleD;
  // The asm's type names are string literals: one branch per pair.
  if constexpr (TA == WgmmaKMajor::TF32) {
    TP_WGMMA(TP_WGMMA_DISPATCH_X(N, "8", "tf32", "tf32"));
  } else if constexpr (TA == WgmmaKMajor::E4M3 && TB == WgmmaKMajor::E4M3) {
    TP_WGMMA(TP_WGMMA_DISPATCH_X(N, "32", "e4m3", "e4m3"));
  } else if constexpr (TA == WgmmaKMajor::E4M3) {
    TP_WGMMA(TP_WGMMA_DISPATCH_X(N, "32", "e4m3", "e5m2"));
  } else if constexpr (TB == WgmmaKMajor::E4M3) {
    TP_WGMMA(TP_WGMMA_DISPATCH_X(N, "32", "e5m2", "e4m3"));
  } else {
    TP_WGMMA(TP_WGMMA_DISPATCH_X(N, "32", "e5m2", "e5m2"));
  }
  (void)scale;
#endif
}

/// wgmma.mma_async.sync.aligned.m64nNk32.s32.TA.TB d, adesc, bdesc,
/// scale-d: D (N / 2 s32 registers a thread, wrapping) = A B^T (+ D), s8/u8
/// A and B from SMEM, both K-major.
template <int N, WgmmaInt8 TA, WgmmaInt8 TB>
TP_DEVICE void wgmma_ss_s32(int32_t (&d)[N / 2], uint64_t a, uint64_t b,
                            bool scaleD) {
  static_assert(tp::wgmma_shape::int8_n_ok(N), TP_WGMMA_RULE_N);
#if TP_EMULATOR
  cpu::wgmma_mma_ss(cpu::WgmmaShape{uint16_t(N), detail::wgmmaType(TA),
                                    detail::wgmmaType(TB), false, false},
                    reinterpret_cast<float *>(d), a, b, scaleD);
#else
  uint32_t scale = scaleD;
  if constexpr (TA == WgmmaInt8::S8 && TB == WgmmaInt8::S8) {
    TP_WGMMA(TP_WGMMA_DISPATCH_SSI(N, "s8", "s8"));
  } else if constexpr (TA == WgmmaInt8::S8) {
    TP_WGMMA(TP_WGMMA_DISPATCH_SSI(N, "s8", "u8"));
  } else if constexpr (TB == WgmmaInt8::S8) {
    TP_WGMMA(TP_WGMMA_DISPATCH_SSI(N, "u8", "s8"));
  } else {
    TP_WGMMA(TP_WGMMA_DISPATCH_SSI(N, "u8", "u8"));
  }
  (void)scale;
#endif
}

/// wgmma.mma_async.sync.aligned.m64nNk32.f32.TA.TB d, {a0..a3}, bdesc,
/// scale-d, 1, 1: an 8-bit A (e4m3/e5m2) from the thread's 4 registers (the
/// m64k32 fragment, docs/wgmma-facts.md), B K-major in SMEM.
template <int N, WgmmaKMajor TA, WgmmaKMajor TB>
TP_DEVICE void wgmma_rs_kmajor(float (&d)[N / 2], const uint32_t (&a)[4],
                               uint64_t b, bool scaleD) {
  static_assert(tp::wgmma_shape::n_ok(N), TP_WGMMA_RULE_N);
  static_assert(TA != WgmmaKMajor::TF32 && TB != WgmmaKMajor::TF32,
                "A from registers: 8-bit floats here (tf32 is not)");
#if TP_EMULATOR
  cpu::wgmma_mma_rs(cpu::WgmmaShape{uint16_t(N), detail::wgmmaType(TA),
                                    detail::wgmmaType(TB), false, false},
                    d, a, b, scaleD);
#else
  uint32_t scale = scaleD;
  if constexpr (TA == WgmmaKMajor::E4M3 && TB == WgmmaKMajor::E4M3) {
    TP_WGMMA(TP_WGMMA_DISPATCH_RSX(N, "e4m3", "e4m3"));
  } else if constexpr (TA == WgmmaKMajor::E4M3) {
    TP_WGMMA(TP_WGMMA_DISPATCH_RSX(N, "e4m3", "e5m2"));
  } else if constexpr (TB == WgmmaKMajor::E4M3) {
    TP_WGMMA(TP_WGMMA_DISPATCH_RSX(N, "e5m2", "e4m3"));
  } else {
    TP_WGMMA(TP_WGMMA_DISPATCH_RSX(N, "e5m2", "e5m2"));
  }
  (void)scale;
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_ARCH_SM90_WGMMA_CUH
