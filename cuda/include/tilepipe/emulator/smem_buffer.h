//===- emulator/smem_buffer.h - dynamic shared memory bytes -----*- C++ -*-===//
//
// Emitted kernels declare their dynamic shared memory as CUDA source does,
//   extern __shared__ __align__(1024) unsigned char tp_smem_raw[];
// and under TILEPIPE_CPU (prelude.h: __shared__ is thread_local) that block
// scope declaration names this array. The CTAs of a launch run one after
// another on the launching OS thread, so one buffer per OS thread serves
// them all; each CTA refills it with the poison pattern before it starts.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_SMEM_BUFFER_H
#define TILEPIPE_EMULATOR_SMEM_BUFFER_H

#include <cstdint>

namespace tp::cpu {
/// The largest dynamic shared memory of an sm_100 CTA (227 KiB).
inline constexpr uint32_t kMaxDynamicSmem = 227 * 1024;
} // namespace tp::cpu

alignas(1024) inline thread_local unsigned char tp_smem_raw
    [tp::cpu::kMaxDynamicSmem];

#endif // TILEPIPE_EMULATOR_SMEM_BUFFER_H
