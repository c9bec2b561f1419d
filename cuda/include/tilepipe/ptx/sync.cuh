//===- ptx/sync.cuh - threads, warps and named barriers ---------*- CUDA -*-===//
//
// Raw atoms: each takes the instruction's operands and issues it (or, in
// emulator mode, calls the emulator's function of the same name).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_PTX_SYNC_CUH
#define TILEPIPE_PTX_SYNC_CUH

#include "tilepipe/config.cuh"

namespace tp::ptx {

/// bar.sync 0 with every thread of the CTA.
TP_DEVICE void syncthreads() {
#if TP_EMULATOR
  cpu::syncthreads();
#else
  __syncthreads();
#endif
}

/// bar.sync id, threads: waits until `threads` threads have arrived.
TP_DEVICE void bar_sync(uint32_t id, uint32_t threads) {
#if TP_EMULATOR
  cpu::bar_sync(id, threads);
#else
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
#endif
}

/// bar.arrive id, threads: counts this warp without waiting.
TP_DEVICE void bar_arrive(uint32_t id, uint32_t threads) {
#if TP_EMULATOR
  cpu::bar_arrive(id, threads);
#else
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
#endif
}

TP_DEVICE void syncwarp(uint32_t mask = 0xFFFFFFFFu) {
#if TP_EMULATOR
  cpu::syncwarp(mask);
#else
  __syncwarp(mask);
#endif
}

/// elect.sync over the full warp: true in exactly one lane.
TP_DEVICE bool elect_sync() {
#if TP_EMULATOR
  return cpu::elect_sync(0xFFFFFFFFu);
#else
  uint32_t pred;
  asm volatile("{\n .reg .pred p;\n .reg .b32 r;\n"
               " elect.sync r|p, 0xFFFFFFFF;\n selp.u32 %0, 1, 0, p;\n}"
               : "=r"(pred));
  return pred != 0;
#endif
}

/// shfl.sync.idx.b32 over the full warp.
TP_DEVICE uint32_t shfl_idx(uint32_t v, int srcLane) {
#if TP_EMULATOR
  return cpu::shfl_idx_sync(0xFFFFFFFFu, v, srcLane);
#else
  return __shfl_sync(0xFFFFFFFFu, v, srcLane);
#endif
}

/// setmaxnreg.{inc,dec}.sync.aligned.u32 N: a hint, warpgroup-wide.
template <bool Increase, int N> TP_DEVICE void setmaxnreg() {
  static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg range");
#if TP_EMULATOR
  cpu::setmaxnreg(Increase, N);
#else
  // Only a hint; generic targets keep the launch allocation (config.cuh).
  if constexpr (Increase)
    TP_SETMAXNREG(asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N)));
  else
    TP_SETMAXNREG(asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N)));
#endif
}

[[noreturn]] TP_DEVICE void trap() {
#if TP_EMULATOR
  cpu::trap();
#else
  __trap();
  __builtin_unreachable();
#endif
}

TP_DEVICE long long clock64() {
#if TP_EMULATOR
  return cpu::clock64();
#else
  return ::clock64();
#endif
}

} // namespace tp::ptx

#endif // TILEPIPE_PTX_SYNC_CUH
