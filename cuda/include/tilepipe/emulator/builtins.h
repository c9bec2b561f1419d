//===- emulator/builtins.h - built-in CUDA types and variables --*- C++ -*-===//
//
// uint3, dim3 and the per-thread threadIdx, blockIdx, blockDim, gridDim,
// under their CUDA names in the global namespace. The variables are
// thread_local copies that the scheduler refreshes whenever it resumes an
// emulated thread: every emulated thread of a CTA runs on the one OS thread
// that called launch(), so plain reads see the running thread's values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_BUILTINS_H
#define TILEPIPE_EMULATOR_BUILTINS_H

struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;
inline constexpr int warpSize = 32;

#endif // TILEPIPE_EMULATOR_BUILTINS_H
