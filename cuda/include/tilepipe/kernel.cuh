//===- kernel.cuh - what translated kernels include ------------*- CUDA -*-===//
//
// The tp:: runtime the translator's kernels call, and its layers:
//
//   ptx/       raw PTX atoms, one header per concern: each takes the
//              instruction's operands and issues it, or under TILEPIPE_CPU
//              calls the emulator (tilepipe/emulator/atoms.h); config.cuh holds
//              the mode macros.
//   layout/    what the atoms' operands mean: swizzles, SMEM matrix and
//              instruction descriptors, tile layouts shared by TMA and UMMA,
//              scale-factor layouts. Pure constexpr arithmetic.
//   runtime/   the functions the kernel calls (tp::mbar_wait, tp::tma_load,
//              tp::umma_ss, tp::tmem_load, Frag math, ...), on top of both.
//   harness.cuh  the protocol harness probes (-DTILEPIPE_HARNESS).
//   host/      what the generated launcher and main use (not included here).
//
// docs/cuda.md has the map and the reasons.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_KERNEL_CUH
#define TILEPIPE_KERNEL_CUH

#include "tilepipe/harness.cuh"
#include "tilepipe/runtime/base.cuh"
#include "tilepipe/runtime/frag.cuh"
#include "tilepipe/runtime/mma.cuh"
#include "tilepipe/runtime/pipes.cuh"
#include "tilepipe/runtime/threads.cuh"
#include "tilepipe/runtime/tma.cuh"
#include "tilepipe/runtime/tmem.cuh"

#endif // TILEPIPE_KERNEL_CUH
