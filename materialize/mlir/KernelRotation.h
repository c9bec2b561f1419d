//===- KernelRotation.h - where a kernel iteration begins -------*- C++ -*-===//
//
// A modulo schedule fixes each op's start; where the kernel's iteration
// begins is a free choice, as shifting every start by one constant keeps
// every latency and every modulo slot. With a wgmma whose accumulator the
// loop's SIMT code reads (Hopper attention's S), the materializer begins
// the iteration at that MMA: S_j is issued together with the P V of the
// iteration before, the softmax of S_j follows in the same iteration, and
// no MMA need stay in flight across the back-edge, where ptxas would
// serialize every wgmma of the kernel (C7514). docs/materialize.md, "Where
// the kernel's iteration begins".
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_KERNELROTATION_H
#define TILEPIPE_MATERIALIZE_MLIR_KERNELROTATION_H

#include "scheduler/Problem.h"
#include "scheduler/mlir/LoopProblem.h"

namespace tilepipe::materialize {

/// `schedule` shifted so that the first wgmma (in program order) of two
/// consumer warpgroups whose result a non-MMA op of the loop reads starts
/// at a multiple of the II; unchanged where there is none.
void beginKernelAtAccumulatorRead(const LoopProblem &lp,
                                  sched::Schedule &schedule);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_MLIR_KERNELROTATION_H
