//===- emulator/prelude.h - CUDA source as host C++ -------------*- C++ -*-===//
//
// Included first by a kernel compiled with g++ -x c++ -DTILEPIPE_CPU: the
// CUDA keywords become nothing (or their host meaning), and the CUDA
// built-ins the kernels use map onto the emulator (emulator.h).
//
// __shared__ is thread_local: a block-scope __shared__ variable is then one
// object shared by all threads of the running CTA (they all run on the
// launching OS thread), and the emitted declaration of dynamic shared memory,
//   extern __shared__ __align__(1024) unsigned char tp_smem_raw[];
// names the emulator's buffer (smem_buffer.h). Static __shared__ variables
// are outside the emulated shared window (cvta.to.shared faults on them) and
// are not reset between CTAs; translated kernels use dynamic memory only.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_PRELUDE_H
#define TILEPIPE_EMULATOR_PRELUDE_H

// A fault ends the run by unwinding the emulated threads' stacks.
#if !defined(__cpp_exceptions)
#error "the tilepipe CPU emulator needs C++ exceptions (-fexceptions)"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tilepipe/emulator/builtins.h"
#include "tilepipe/emulator/cuda_types.h"
#include "tilepipe/emulator/emulator.h"
#include "tilepipe/emulator/smem_buffer.h"
#include "tilepipe/emulator/srcloc.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __grid_constant__
#define __constant__
#define __align__(n) __attribute__((aligned(n)))
#define __shared__ thread_local

// Each built-in records its caller's line, so that reports name the kernel
// line of a raw __syncthreads() too.

inline void __syncthreads(tp::cpu::SrcLoc loc = TP_CPU_HERE) {
  tp::cpu::set_loc(loc);
  tp::cpu::syncthreads();
}

inline void __syncwarp(unsigned mask = 0xFFFFFFFFu,
                       tp::cpu::SrcLoc loc = TP_CPU_HERE) {
  tp::cpu::set_loc(loc);
  tp::cpu::syncwarp(mask);
}

namespace tp::cpu::rt {

/// Shuffles any 4- or 8-byte value 32 bits at a time. `src` is the lane to
/// read, already resolved within the caller's segment.
template <class T> inline T shuffle(unsigned mask, T v, int src) {
  static_assert(std::is_trivially_copyable_v<T> &&
                    (sizeof(T) == 4 || sizeof(T) == 8),
                "__shfl_*_sync of a 4- or 8-byte value");
  uint32_t w[2] = {0, 0};
  std::memcpy(w, &v, sizeof(T));
  for (size_t i = 0; i < sizeof(T) / 4; ++i)
    w[i] = shfl_idx_sync(mask, w[i], src);
  std::memcpy(&v, w, sizeof(T));
  return v;
}

inline int laneId() { return int(current().self().lane); }

} // namespace tp::cpu::rt

// CUDA's width splits the warp into segments; a source outside the
// caller's segment yields the caller's own value.

template <class T>
inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32,
                     tp::cpu::SrcLoc loc = TP_CPU_HERE) {
  tp::cpu::set_loc(loc);
  int lane = tp::cpu::rt::laneId(), base = lane & ~(width - 1);
  return tp::cpu::rt::shuffle(mask, var, base + (srcLane & (width - 1)));
}

template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32,
                         tp::cpu::SrcLoc loc = TP_CPU_HERE) {
  tp::cpu::set_loc(loc);
  int lane = tp::cpu::rt::laneId(), src = lane ^ laneMask;
  if ((src & ~(width - 1)) != (lane & ~(width - 1)))
    src = lane;
  return tp::cpu::rt::shuffle(mask, var, src);
}

template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                          tp::cpu::SrcLoc loc = TP_CPU_HERE) {
  tp::cpu::set_loc(loc);
  int lane = tp::cpu::rt::laneId(), src = lane + int(delta);
  if ((src & ~(width - 1)) != (lane & ~(width - 1)))
    src = lane;
  return tp::cpu::rt::shuffle(mask, var, src);
}

template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                        tp::cpu::SrcLoc loc = TP_CPU_HERE) {
  tp::cpu::set_loc(loc);
  int lane = tp::cpu::rt::laneId(), src = lane - int(delta);
  if (src < (lane & ~(width - 1)))
    src = lane;
  return tp::cpu::rt::shuffle(mask, var, src);
}

inline long long clock64() { return tp::cpu::clock64(); }

[[noreturn]] inline void __trap(tp::cpu::SrcLoc loc = TP_CPU_HERE) {
  tp::cpu::set_loc(loc);
  tp::cpu::trap();
}

inline size_t __cvta_generic_to_shared(const void *p) {
  return tp::cpu::generic_to_shared(p);
}
inline void *__cvta_shared_to_generic(size_t a) {
  return tp::cpu::shared_to_generic(static_cast<uint32_t>(a));
}

// One thread runs at a time and switches only inside atoms, so a plain
// read-modify-write is atomic; fences have nothing to order.
namespace tp::cpu {
template <class T, class F> inline T read_modify_write(T *p, F f) {
  T old = *p;
  *p = f(old);
  return old;
}
} // namespace tp::cpu
template <class T> inline T atomicAdd(T *p, T v) {
  return tp::cpu::read_modify_write(p, [v](T o) { return o + v; });
}
template <class T> inline T atomicExch(T *p, T v) {
  return tp::cpu::read_modify_write(p, [v](T) { return v; });
}
template <class T> inline T atomicMax(T *p, T v) {
  return tp::cpu::read_modify_write(p, [v](T o) { return o < v ? v : o; });
}
template <class T> inline T atomicMin(T *p, T v) {
  return tp::cpu::read_modify_write(p, [v](T o) { return v < o ? v : o; });
}
template <class T> inline T atomicAnd(T *p, T v) {
  return tp::cpu::read_modify_write(p, [v](T o) { return T(o & v); });
}
template <class T> inline T atomicOr(T *p, T v) {
  return tp::cpu::read_modify_write(p, [v](T o) { return T(o | v); });
}
template <class T> inline T atomicXor(T *p, T v) {
  return tp::cpu::read_modify_write(p, [v](T o) { return T(o ^ v); });
}
template <class T> inline T atomicCAS(T *p, T compare, T v) {
  return tp::cpu::read_modify_write(
      p, [compare, v](T o) { return o == compare ? v : o; });
}
inline void __threadfence() {}
inline void __threadfence_block() {}
template <class T> inline T __ldg(const T *p) { return *p; }

#endif // TILEPIPE_EMULATOR_PRELUDE_H
