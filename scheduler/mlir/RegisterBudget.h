//===- RegisterBudget.h - register tiles held across stages -----*- C++ -*-===//
//
// On a target whose MMA accumulates in registers (Hopper's wgmma), every
// tile a schedule holds across a stage boundary lives in the consumer
// warpgroups' registers: the in-flight S, the scaled S waiting for its row
// maximum, P waiting for the P V MMA. The modulo schedule does not count
// them, and at the II the MUFU allows, attention at head dim 64 holds 194
// words a thread (312 B spilled at 240 registers). The budget check counts
// them after a schedule is found; the pass then searches again from larger
// IIs until they fit (docs/generators.md, "Register budget").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MLIR_REGISTERBUDGET_H
#define TILEPIPE_SCHEDULER_MLIR_REGISTERBUDGET_H

#include "scheduler/Problem.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilepipe {

/// Registers a consumer thread keeps besides the tiles held across stage
/// boundaries: the tiles of the stage it is in (S as it becomes P), row
/// state, addresses, the loop's counters. Measured on the sm_90a tests
/// (docs/generators.md): 194 words held spill at 240 registers with one
/// more 64-word tile in flight, 161 do not.
constexpr int64_t kStageWorkingSet = 56;

/// The consumer warpgroups a loop's wgmmas need (the most of any), 0 when
/// the loop issues none: its MMAs accumulate in TMEM, not registers.
int64_t registerMmaWarpgroups(mlir::scf::ForOp loop);

/// The registers a consumer thread gets: 240 beside a 24-register producer
/// warpgroup with two consumer warpgroups (cuda/analysis/KernelLayout.cpp),
/// 255 (ptxas's most) with one.
int64_t consumerRegisters(int64_t warpgroups);

/// The 32-bit words a consumer thread holds across stage boundaries under
/// `schedule`: the register bytes the schedule buffers, over the threads.
int64_t heldWords(const sched::Problem &problem,
                  const sched::Schedule &schedule, int64_t warpgroups);

} // namespace tilepipe

#endif // TILEPIPE_SCHEDULER_MLIR_REGISTERBUDGET_H
