//===- BufferPlan.h - pipe depths and buffers from a schedule --*- C++ -*-===//
//
// The materializer's planning step, from the published ScheduleAnalysis
// alone (it never searches an II or probes the RRT): every value handed from
// one op to another across the loop's stage boundaries becomes a pipe whose
// depth covers the value's lifetime in modulo terms, widened CUTLASS-style
// while the SMEM / TMEM budgets allow; buffers of one class, type and size
// whose lifetimes never overlap share storage; mutexes get named-barrier ids
// from the free range, or fall back to mbarriers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_PLAN_BUFFERPLAN_H
#define TILEPIPE_MATERIALIZE_PLAN_BUFFERPLAN_H

#include "scheduler/ScheduleAnalysis.h"
#include "target/Target.h"

#include <optional>
#include <string>
#include <vector>

namespace tilepipe::materialize {

/// The unit at one end of a pipe: it decides how the end signals
/// (blackwell-facts 2.2): TMA completes by transaction bytes, UMMA commits
/// through tcgen05.commit, SIMT arrives after a fence.
enum class Unit : uint8_t { TMA, UMMA, SIMT, CpAsync, TMAStore };
enum class BufferClass : uint8_t { SMEM, TMEM, Register };

llvm::StringRef stringifyUnit(Unit unit);
llvm::StringRef stringifyBufferClass(BufferClass cls);

/// A value produced in the loop and read by later ops.
struct Value {
  sched::OpId producer = 0;
  BufferClass cls = BufferClass::SMEM;
  int64_t bytes = 0; ///< Per buffer (SMEM bytes; TMEM: 4 B x lanes x cols).
  int64_t tmemColumns = 0; ///< TMEM columns per buffer.
  std::string typeKey;     ///< Buffers share only when class and key match.
  /// Consumers with the iteration distance of each use (0: same iteration).
  std::vector<std::pair<sched::OpId, unsigned>> consumers;
  /// Written in place into the slot of value `aliasOf` by a thread holding
  /// it (P stored over S's TMEM columns): no buffer of its own.
  std::optional<unsigned> aliasOf;
  /// An accumulator read only by the next iteration: its pipe iteration is
  /// the producer's plus one, and pipe iteration 0 is the loop's initial
  /// buffer. One buffer: the next producer depends on the consumer.
  bool carried = false;
  /// Lives in the buffer of carried value `inPlaceOf` (the accumulator
  /// rescaled in place between two MMAs).
  std::optional<unsigned> inPlaceOf;
  /// Values of one ring take turns in one pipe's slots (FA4's K/V ring).
  std::string ring;
};

struct PlanInput {
  const sched::Problem *problem = nullptr;
  const sched::ScheduleAnalysis *schedule = nullptr;
  std::vector<Unit> units; ///< Per op.
  std::vector<Value> values;
  target::GlobalCaps caps;
  /// SMEM kept back for barriers and scalars before buffers are counted.
  int64_t smemCarveout = 1024;
  /// TMEM columns held for the whole loop outside any pipe (accumulators
  /// carried across iterations, allocated before the loop).
  int64_t fixedTmemColumns = 0;
  /// SMEM bytes of tiles made before the loop and read in it (a Q tile).
  int64_t fixedSmemBytes = 0;
  /// Deepest a TMA-fed mainloop pipe is widened to when SMEM allows.
  unsigned maxMainloopDepth = 8;
  /// Size pipes by the timeline instead of by stages: a slot is reused as
  /// soon as the schedule has completed its last reader (never below one).
  bool timelineDepths = false;
  /// SMEM bytes of fixedSmemBytes that only the code after the loop uses
  /// (an epilogue's staging tiles) and that may lie over the drained slots
  /// of the TMA-fed pipes the tensor core reads: counted only when the
  /// slots are not enough to hold them.
  int64_t overlaySmemBytes = 0;
  /// Tiles run one after another in each CTA (persistent kernels). The
  /// plan counts the epilogue's staging (stagingSmemBytes); the stage code
  /// double-buffers the accumulator it hands to the epilogue (its result
  /// pipe, StageCode.cpp) when the columns the plan leaves allow.
  bool persistent = false;
  /// Of fixedSmemBytes, the epilogue's staging a persistent plan keeps in
  /// its own SMEM (for the plan's printout).
  int64_t stagingSmemBytes = 0;
  /// Of fixedSmemBytes, the tiles the threads stage in SMEM inside the loop
  /// for their own agent, one buffer each (for the plan's printout).
  int64_t loopStagingSmemBytes = 0;
  /// Of fixedSmemBytes, what the function's other loops hold at least (for
  /// the plan's printout).
  int64_t otherLoopsSmemBytes = 0;
};

struct PipePlan {
  unsigned value = 0;
  sched::OpId producer = 0;
  std::vector<sched::OpId> consumers;
  Unit producerUnit = Unit::SIMT, consumerUnit = Unit::SIMT;
  BufferClass cls = BufferClass::SMEM;
  int64_t bytes = 0, tmemColumns = 0;
  /// Stages between the producer and its last consumer: the lifetime.
  unsigned stageDistance = 0;
  unsigned minDepth = 1; ///< The lifetime alone.
  unsigned depth = 1;    ///< After widening within the budget.
  /// Another pipe whose buffers this one reuses (disjoint lifetimes).
  std::optional<unsigned> sharesWith;
  /// The pipe whose slots this one hands on (Value::aliasOf).
  std::optional<unsigned> aliasOf;
  bool carried = false;
  /// Ring members after the first use the first member's pipe: pipe
  /// iteration = iteration * ringSize + ringMember.
  std::optional<unsigned> ringOf;
  unsigned ringMember = 0, ringSize = 1;
  /// Whether this pipe owns buffers that count against the budgets.
  bool ownsBuffers() const { return !sharesWith && !aliasOf && !ringOf; }
  /// SMEM bytes from one buffer to the next: a TMA box starts on 128 bytes
  /// and a thread's vector access on 16, so buffers of fewer bytes (an
  /// 8-row norm's per-row mean, 32 B) are spaced at that (the translation's
  /// layout, KernelLayout placeSmemRing).
  int64_t slotStride() const {
    int64_t align = producerUnit == Unit::TMA ? 128 : 16;
    return depth > 1 ? (bytes + align - 1) / align * align : bytes;
  }
};

struct BufferPlan {
  std::vector<PipePlan> pipes;
  /// Bytes of the SMEM pipes whose slots are drained once the loop's MMAs
  /// completed (TMA or cp.async in, UMMA out), and whether the epilogue
  /// tiles (PlanInput::overlaySmemBytes) lie over them.
  int64_t drainedSmemBytes = 0;
  bool overlaid = false;
  int64_t smemBytes = 0;   ///< Total, buffers shared counted once.
  int64_t tmemColumns = 0; ///< Total, allocation granularity applied.
};

/// What a plan needs at its minimum depths (before widening).
struct PlanNeed {
  int64_t smemBytes = 0, tmemColumns = 0;
  /// The plan failed on a budget alone, at these sizes.
  bool overBudget = false;
};

/// Plans every pipe of one scheduled loop; errors ("fails to assign smem
/// buffer: ...") carry the sizes involved, and `need` (when given) gets
/// them whether or not the plan fits.
std::optional<BufferPlan> planBuffers(const PlanInput &input,
                                      sched::DiagnosticList &diags,
                                      PlanNeed *need = nullptr);

} // namespace tilepipe::materialize

#endif // TILEPIPE_MATERIALIZE_PLAN_BUFFERPLAN_H
