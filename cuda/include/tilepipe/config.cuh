//===- config.cuh - the one switch between the compile modes ---*- CUDA -*-===//
//
// One emitted kernel compiles in three modes, and this file alone reads the
// flags that pick one; every other header tests the TP_ macros it defines:
//  - device mode (default), nvcc -gencode arch=compute_100a,code=sm_100a:
//    the atoms issue their PTX. tcgen05 exists only in arch- or
//    family-specific device passes (TP_HAS_TCGEN05); any other device pass,
//    e.g. the portable compute_100 PTX that -arch=sm_100a also builds, gets
//    __trap() there, so ptxas never sees an instruction it rejects and a JIT
//    of that PTX fails loudly rather than silently (TP_TCGEN05_TRAP).
//  - harness mode, -DTILEPIPE_HARNESS on sm_90a (TP_HARNESS): mbarriers,
//    bulk copies, named barriers, elect.sync and setmaxnreg are real;
//    tcgen05 atoms do nothing and the runtime stamps payloads instead
//    (harness.cuh picks the stand-ins once).
//  - emulator mode, -DTILEPIPE_CPU with a host compiler (TP_EMULATOR): no
//    CUDA headers; every atom calls the emulator (tilepipe/emulator/atoms.h),
//    and the runtime above the atoms is the same code as on the GPU.
//
// So an atom has two branches, `#if TP_EMULATOR` the emulator's call and
// `#else` the PTX; a tcgen05 atom wraps its PTX in TP_TCGEN05(...), which
// this file resolves per device pass (issue, trap, or nothing in the
// harness). layout/mma_shapes.h, which the compiler includes too, stands
// apart: it reads __CUDACC__ itself.
//
// Includes: this file includes the emulator (emulator mode) or the CUDA
// headers (the others); the emulator includes no device header (isa/ only).
//
// It also defines the function qualifiers (TP_DEVICE, ...) and the source
// location plumbing (TP_LOC, ...) that the emulator needs and nvcc does not.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CONFIG_CUH
#define TILEPIPE_CONFIG_CUH

#include <cstdint>

#if defined(TILEPIPE_CPU) && defined(TILEPIPE_HARNESS)
#error "TILEPIPE_CPU and TILEPIPE_HARNESS are different modes; define one"
#endif

#if defined(TILEPIPE_CPU)
#define TP_EMULATOR 1
#else
#define TP_EMULATOR 0
#endif

#if defined(TILEPIPE_HARNESS)
#define TP_HARNESS 1
#else
#define TP_HARNESS 0
#endif

#if TP_EMULATOR
#include "tilepipe/emulator/prelude.h"
#include "tilepipe/emulator/cuda_types.h"
#include "tilepipe/emulator/emulator.h"
#include "tilepipe/emulator/atoms.h"
#else
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#endif

// A device pass of nvcc (not its host pass, not the emulator).
#if defined(__CUDA_ARCH__)
#define TP_DEVICE_PASS 1
#else
#define TP_DEVICE_PASS 0
#endif

// tcgen05 exists on the sm_100/103/110 families, in arch- or family-specific
// targets only (compute_100a, compute_100f, ...), never in generic PTX.
#if defined(__CUDA_ARCH__) && !TP_HARNESS &&                                   \
    (defined(__CUDA_ARCH_FEAT_SM100_ALL) ||                                    \
     defined(__CUDA_ARCH_FEAT_SM103_ALL) ||                                    \
     defined(__CUDA_ARCH_FEAT_SM110_ALL) ||                                    \
     (defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ >= 1000 &&     \
      __CUDA_ARCH_SPECIFIC__ < 1200) ||                                        \
     (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) &&                                \
      __CUDA_ARCH_FAMILY_SPECIFIC__ >= 1000 &&                                 \
      __CUDA_ARCH_FAMILY_SPECIFIC__ < 1200))
#define TP_HAS_TCGEN05 1
#else
#define TP_HAS_TCGEN05 0
#endif

// A real-mode device pass without tcgen05: such code must never run.
#if defined(__CUDA_ARCH__) && !TP_HARNESS && !TP_HAS_TCGEN05
#define TP_TCGEN05_TRAP 1
#else
#define TP_TCGEN05_TRAP 0
#endif

// The device branch of a tcgen05 atom: TP_TCGEN05(the asm statement) issues
// it where tcgen05 exists, traps in a device pass without it, and is
// nothing in the harness, which has no tensor core. TP_TCGEN05_FENCE(ptx)
// is the same for the ordering atoms, except that a pass without tcgen05
// (the harness, sm_90a) keeps a compiler barrier there: the emitted order of
// SMEM accesses stays, and nothing traps.
#if TP_HAS_TCGEN05
#define TP_TCGEN05(...) __VA_ARGS__
#define TP_TCGEN05_FENCE(ptx) asm volatile(ptx ::: "memory")
#elif TP_TCGEN05_TRAP
#define TP_TCGEN05(...) __trap()
// A fence alone orders nothing where no tcgen05 operation can run: every
// operation it would order traps by itself. So a kernel with no tensor-core
// work (a row softmax, whose translation still fences its setup barrier)
// runs in an sm_90a pass, while one that issues tcgen05 still traps there.
#define TP_TCGEN05_FENCE(ptx) asm volatile("" ::: "memory")
#else
#define TP_TCGEN05(...) ((void)0)
#define TP_TCGEN05_FENCE(ptx) asm volatile("" ::: "memory")
#endif

// wgmma exists on sm_90a only (not in sm_90's generic PTX, not on sm_100).
// The device branch of a wgmma atom, TP_WGMMA(the asm statement), issues it
// there, traps in any other device pass, and is nothing in the harness.
#if defined(__CUDA_ARCH__) && !TP_HARNESS && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TP_HAS_WGMMA 1
#define TP_WGMMA(...) __VA_ARGS__
#elif defined(__CUDA_ARCH__) && !TP_HARNESS
#define TP_HAS_WGMMA 0
#define TP_WGMMA(...) __trap()
#else
#define TP_HAS_WGMMA 0
#define TP_WGMMA(...) ((void)0)
#endif
// setmaxnreg needs an arch- or family-specific target (sm_90a, sm_100a, ...).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 &&                          \
    (defined(__CUDA_ARCH_SPECIFIC__) ||                                        \
     defined(__CUDA_ARCH_FAMILY_SPECIFIC__))
#define TP_HAS_SETMAXNREG 1
#else
#define TP_HAS_SETMAXNREG 0
#endif

// setmaxnreg is only a hint: where it cannot be issued the launch
// allocation stays.
#if TP_HAS_SETMAXNREG
#define TP_SETMAXNREG(...) __VA_ARGS__
#else
#define TP_SETMAXNREG(...) ((void)0)
#endif

// Qualifiers. In emulator mode everything is ordinary inline C++; a host
// compiler knows neither __device__ nor __forceinline__ of its own.
#if TP_EMULATOR
#define TP_DEVICE inline
#define TP_HOST_DEVICE inline
#define TP_CONSTEXPR constexpr
#else
#define TP_DEVICE __device__ __forceinline__
#define TP_HOST_DEVICE __host__ __device__ __forceinline__
#define TP_CONSTEXPR __host__ __device__ constexpr
#endif

// Source locations: in emulator mode every runtime function that blocks
// or issues an asynchronous operation takes the caller's location as a
// trailing default argument (TP_CPU_HERE, evaluated at the call site) and
// hands it to the emulator before its atoms run, so that a fault or a
// deadlock names the line of the emitted kernel. nvcc sees none of it.
//   void f(int x TP_LOC);      declares the parameter (after others)
//   void g(TP_LOC_ONLY);       ... as the only parameter
//   TP_AT();                   reports it to the emulator
//   h(x TP_LOC_FWD);           passes it on to another such function
#if TP_EMULATOR
#define TP_LOC , ::tp::cpu::SrcLoc tp_loc = TP_CPU_HERE
#define TP_LOC_ONLY ::tp::cpu::SrcLoc tp_loc = TP_CPU_HERE
#define TP_AT() ::tp::cpu::set_loc(tp_loc)
#define TP_LOC_FWD , tp_loc
#else
#define TP_LOC
#define TP_LOC_ONLY
#define TP_AT() ((void)0)
#define TP_LOC_FWD
#endif

#endif // TILEPIPE_CONFIG_CUH
