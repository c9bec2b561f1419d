//===- LoopCounters.h - the C++ type of a loop's counter --------*- C++ -*-===//
//
// A pipelined loop counts its iterations (the pipes' k) in int64_t, the C++
// type of `index`. Where the trip count provably fits 32 bits the emitter
// counts in int32_t instead and widens the value once per iteration: ptxas
// then increments and compares one 32-bit register where the 64-bit counter
// takes an add with carry and two compares each iteration (docs/cuda-tile.md,
// "Loop length against tileiras").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_LOOPCOUNTERS_H
#define TILEPIPE_CUDA_ANALYSIS_LOOPCOUNTERS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilepipe::cuda {

/// True when `loop` is a scheduled loop (it carries the schedule's
/// `tileas.schedule.ii`) over `index` from 0 by 1 to an upper bound that
/// provably lies in [INT32_MIN, INT32_MAX]: every value its counter takes,
/// the last one included, then fits int32_t.
bool hasNarrowCounter(mlir::scf::ForOp loop);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_LOOPCOUNTERS_H
