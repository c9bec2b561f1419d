//===- cpu/runtime.h - the CPU emulator of translated kernels ---*- C++ -*-===//
//
// Everything a kernel compiled with -DTILEPIPE_CPU needs besides the CUDA
// spellings (prelude.h): the implementation of every atom of atoms.h, the
// source locations (TP_CPU_HERE, set_loc) and names (name_shared) that
// reports use, and launch().
//
//   cpu/cta.h       one CTA: threads as fibers, the scheduler
//   cpu/warp.h      warp rendezvous: elect, shfl, syncwarp, setmaxnreg
//   cpu/barrier.h   named barriers
//   cpu/mbarrier.h  mbarriers
//   cpu/async.h     async operations in flight: TMA, bulk groups, cp.async
//   cpu/tcgen05.h   tcgen05 ordering, TMEM allocation, ld/st
//   cpu/report.h    fault and deadlock reports
//   cpu/launch.h    launch(), LaunchOptions, the environment
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CPU_RUNTIME_H
#define TILEPIPE_CPU_RUNTIME_H

// A fault ends the run by unwinding the emulated threads' stacks.
#if !defined(__cpp_exceptions)
#error "the tilepipe CPU emulator needs C++ exceptions (-fexceptions)"
#endif

#include "tilepipe/cpu/atoms.h"
#include "tilepipe/cpu/launch.h"
#include "tilepipe/cpu/srcloc.h"
#include "tilepipe/cpu/thread_atoms.h"

#endif // TILEPIPE_CPU_RUNTIME_H
