//===- kernel.cuh - what translated kernels include ------------*- CUDA -*-===//
//
// The tp:: runtime the translator's kernels call, and its layers (each
// includes only those below it):
//
//   runtime/     the functions the kernel calls (tp::mbar_wait, tp::tma_load,
//                tp::umma_ss, tp::tmem_load, Frag math, ...).
//   harness.cuh  picks the protocol harness's stand-ins or none, once
//                (harness/stand_ins.cuh under -DTILEPIPE_HARNESS, else
//                harness/no_stand_ins.cuh).
//   layout/      what the atoms' operands mean: swizzles, SMEM matrix and
//                instruction descriptors (field structs), tile layouts shared
//                by TMA and UMMA, scale-factor layouts. Pure constexpr.
//   arch/sm100/  the tcgen05 atoms (MMA, TMEM alloc/ld/st/cp, ordering);
//                arch/sm90/ is the place for wgmma.
//   ptx/         the atoms every target since sm_90 has: barriers, warps,
//                SMEM, mbarriers, TMA and bulk groups, cp.async, fences, SFU.
//                An atom has two branches: the emulator's call
//                (tilepipe/emulator/atoms.h) or the PTX.
//   config.cuh   the one switch: reads -DTILEPIPE_CPU / -DTILEPIPE_HARNESS
//                and defines TP_EMULATOR, TP_HARNESS, TP_TCGEN05(...), ...
//   emulator/    the CPU emulator (emulator mode only); it includes no
//                device header.
//   isa/         the ISA's qualifiers as plain C++ (MmaKind, CpShape), shared
//                by the atoms, the emulator and the compiler.
//   host/        what the generated launcher and main use (not included here).
//
// docs/cuda.md has the map and the reasons.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_KERNEL_CUH
#define TILEPIPE_KERNEL_CUH

#include "tilepipe/harness.cuh"
#include "tilepipe/runtime/base.cuh"
#include "tilepipe/runtime/frag.cuh"
#include "tilepipe/runtime/issue_turns.cuh"
#include "tilepipe/runtime/mma.cuh"
#include "tilepipe/runtime/pipes.cuh"
#include "tilepipe/runtime/positions.cuh"
#include "tilepipe/runtime/threads.cuh"
#include "tilepipe/runtime/tma.cuh"
#include "tilepipe/runtime/tmem.cuh"
#include "tilepipe/runtime/turns.cuh"
#include "tilepipe/runtime/wgmma.cuh"

#endif // TILEPIPE_KERNEL_CUH
