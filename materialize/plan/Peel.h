//===- Peel.h - the unspecialized (peeled) stage structure -----*- C++ -*-===//
//
// docs/tileiras-facts.md 11.3, unspecialized mode: a schedule of S stages
// runs as a prologue of S-1 pieces, a steady state of N-(S-1) iterations and
// an epilogue of S-1 pieces. In steady-state iteration k the ops of stage s
// work on iteration k - s. Every op instance carries a guard 0 <= i < N, so
// the same code is correct for trip counts below S and for dynamic ones.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_PEEL_H
#define TILEPIPE_MATERIALIZE_PLAN_PEEL_H

#include "scheduler/ScheduleAnalysis.h"

namespace tilepipe::materialize {

/// Which part of the peeled loop an instance runs in.
enum class Part : uint8_t { Prologue, Steady, Epilogue };

/// One execution of one op for one iteration.
struct Instance {
  sched::OpId op = 0;
  int64_t iteration = 0;
  Part part = Part::Steady;
  unsigned piece = 0; ///< Prologue/epilogue piece, or steady iteration.
};

/// The instances the peeled loop executes for trip count `n`, in program
/// order: pieces in order, ops inside a piece by modulo cycle (start mod
/// II), at one cycle the later stage (older iteration) first, then order.
/// Instances whose guard fails (iteration outside [0, n)) are left out.
std::vector<Instance> peeledOrder(const sched::ScheduleAnalysis &schedule,
                                  int64_t n);

/// Checks the order against the loop: every (op, iteration) in [0, n) runs
/// exactly once, and after the instances it depends on. Returns the first
/// violation as text, or an empty string.
std::string checkPeeledOrder(const sched::ScheduleAnalysis &schedule, int64_t n,
                             llvm::ArrayRef<Instance> order);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_PEEL_H
