//===- BufferCost.h - bytes a stage assignment buffers ----------*- C++ -*-===//
//
// With the II and every op's modulo row fixed, the stages decide how long
// each value lives: from its producer's stage to the stage of its last use
// (a use d iterations later counts d stages later). The materializer gives
// an SMEM or TMEM value a pipe of (that distance + 1) slots
// (materialize/plan/BufferPlan.cpp: depth = stageDistance + 1 before any
// widening), so those bytes are what the stages cost; a register value is
// held across `distance` stage boundaries.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_STAGES_BUFFERCOST_H
#define TILEPIPE_SCHEDULER_STAGES_BUFFERCOST_H

#include "scheduler/Problem.h"

#include <optional>

namespace tilepipe::sched {

struct BufferedBytes {
  int64_t smem = 0, tmem = 0, registers = 0;
  /// What the pipes allocate: the scarce on-chip buffers.
  int64_t pipes() const { return smem + tmem; }
  bool operator==(const BufferedBytes &o) const {
    return smem == o.smem && tmem == o.tmem && registers == o.registers;
  }
  /// Fewer pipe bytes first, then fewer register bytes.
  bool operator<(const BufferedBytes &o) const {
    return pipes() != o.pipes() ? pipes() < o.pipes() : registers < o.registers;
  }
};

/// Per op, the stage distance of its value: the latest use (dependence to another
/// op, its stage plus distance) minus the producer's stage; nullopt when no
/// other op uses it. Self-dependences (an accumulator feeding itself) do not
/// count: their lifetime is one iteration whatever the stages.
std::vector<std::optional<int64_t>>
valueStageDistances(const Problem &problem, const Schedule &schedule);

/// What `op`'s value buffers at stage distance `distance` (saturating).
int64_t bufferedBytesOf(const Operation &op, int64_t distance);

/// SMEM and TMEM: bytes x (distance + 1) per value (the pipe's slots);
/// registers: bytes x distance.
BufferedBytes bufferedBytes(const Problem &problem, const Schedule &schedule);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_STAGES_BUFFERCOST_H
