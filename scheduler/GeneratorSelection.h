//===- GeneratorSelection.h - serial or cost-based -------------*- C++ -*-===//
//
// Which generator seats a loop. The default rule (`bound`) never gives away
// throughput: the serial generator only when force_serial_execution asks or
// when the serial length does not exceed the lower bound on II (then no
// overlapped schedule can be shorter). Seed 002's rule (`threshold`) stays
// selectable: force_serial_execution; fewer ops than serial_threshold; no
// TMA, MMA or async op; otherwise cost-based. docs/generators.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GENERATORSELECTION_H
#define TILEPIPE_SCHEDULER_GENERATORSELECTION_H

#include "scheduler/ScheduleAnalysis.h"

namespace tilepipe::sched {

enum class GeneratorRequest { Auto, Serial, CostBased };

/// The rule `GeneratorRequest::Auto` applies.
enum class SelectionRule {
  /// Serial only for force_serial_execution or serial length <= MII.
  Bound,
  /// Seed 002: force_serial_execution, op count below serialThreshold, no
  /// TMA/MMA/async op.
  Threshold,
};

struct SelectionOptions {
  GeneratorRequest request = GeneratorRequest::Auto;
  SelectionRule rule = SelectionRule::Bound;
  unsigned serialThreshold = 8; ///< Read by SelectionRule::Threshold only.
};

struct GeneratorSelection {
  GeneratorKind kind = GeneratorKind::Serial;
  std::string reason;
};

/// `bounds` are the problem's lower bounds when the caller has them
/// (computed here otherwise; only SelectionRule::Bound reads them).
GeneratorSelection selectGenerator(const Problem &problem,
                                   const SelectionOptions &options,
                                   const rrt::Bounds *bounds = nullptr);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_GENERATORSELECTION_H
