//===- GeneratorSelection.h - serial or cost-based -------------*- C++ -*-===//
//
// Seed 002's rules, first match wins: force_serial_execution on the loop;
// fewer ops than serial_threshold; no TMA, MMA or async op; otherwise the
// cost-based generator.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GENERATORSELECTION_H
#define TILEPIPE_SCHEDULER_GENERATORSELECTION_H

#include "scheduler/ScheduleAnalysis.h"

namespace tilepipe::sched {

enum class GeneratorRequest { Auto, Serial, CostBased };

struct SelectionOptions {
  GeneratorRequest request = GeneratorRequest::Auto;
  unsigned serialThreshold = 8;
};

struct GeneratorSelection {
  GeneratorKind kind = GeneratorKind::Serial;
  std::string reason;
};

GeneratorSelection selectGenerator(const Problem &problem,
                                   const SelectionOptions &options);

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_GENERATORSELECTION_H
