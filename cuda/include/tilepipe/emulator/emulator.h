//===- emulator/emulator.h - the emulator of translated kernels -*- C++ -*-===//
//
// Everything a kernel compiled with -DTILEPIPE_CPU needs besides the CUDA
// spellings (prelude.h): the implementation of every atom of atoms.h, the
// source locations (TP_CPU_HERE, set_loc) and names (name_shared) that
// reports use, and launch().
//
//   emulator/cta.h       one CTA: threads as fibers, the scheduler
//   emulator/warp.h      warp rendezvous: elect, shfl, syncwarp, setmaxnreg
//   emulator/barrier.h   named barriers
//   emulator/mbarrier_model.h  mbarriers
//   emulator/async.h     async operations in flight: TMA, bulk groups, cp.async
//   emulator/tcgen05.h   tcgen05 ordering, TMEM allocation, ld/st
//   emulator/report.h    fault and deadlock reports
//   emulator/launcher.h    launch(), LaunchOptions, the environment
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_EMULATOR_H
#define TILEPIPE_EMULATOR_EMULATOR_H

// A fault ends the run by unwinding the emulated threads' stacks.
#if !defined(__cpp_exceptions)
#error "the tilepipe CPU emulator needs C++ exceptions (-fexceptions)"
#endif

#include "tilepipe/emulator/atoms.h"
#include "tilepipe/emulator/launcher.h"
#include "tilepipe/emulator/srcloc.h"
#include "tilepipe/emulator/thread_atoms.h"

#endif // TILEPIPE_EMULATOR_EMULATOR_H
