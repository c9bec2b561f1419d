//===- RingDepth.h - lifetimes longer than a ring ------------*- C++ -*-===//
//
// The materializer hands a value from its producer's stage to its readers'
// through a ring of one slot per stage it lives across, and a pipe has at
// most 32 slots. A tiny tile's load (a (1, 256) f32 row piece: 1 KB) gives
// a short II and keeps its TMA latency, so it can be read 33 stages after
// it is issued; such a schedule has no plan. The pass measures the longest
// lifetime after scheduling and searches again from a larger II
// (docs/generators.md, "Ring depth").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MLIR_RINGDEPTH_H
#define TILEPIPE_SCHEDULER_MLIR_RINGDEPTH_H

#include "scheduler/ScheduleAnalysis.h"
#include "scheduler/mlir/LoopProblem.h"

namespace tilepipe {

/// The stages a value may be read after the one it is made in: a ring of
/// 32 slots (tileas.pipe.create's most) covers 31.
constexpr int64_t kMaxStagesAcross = 31;

/// The longest lifetime under `analysis`, from a value's producer's start
/// to its last reader's start in the same iteration: in stages, and in
/// cycles.
struct Lifetime {
  int64_t stages = 0;
  int64_t cycles = 0;
};
Lifetime longestLifetime(const LoopProblem &lp,
                         const sched::ScheduleAnalysis &analysis);

} // namespace tilepipe

#endif // TILEPIPE_SCHEDULER_MLIR_RINGDEPTH_H
