//===- ScheduleReport.h - the hook behind the pass's report= ----*- C++ -*-===//
//
// --tileas-generate-schedule takes `report=FILE` (a picture of each
// scheduled loop), but drawing is a tool's concern, not the scheduler's: the
// pass hands each scheduled loop to a writer that the tool installs at
// start-up (tilepipe-opt installs the SVG writer of report/). Without one,
// `report=` is an error at the first loop.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_MLIR_SCHEDULEREPORT_H
#define TILEPIPE_SCHEDULER_MLIR_SCHEDULEREPORT_H

#include "scheduler/ScheduleAnalysis.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>

namespace tilepipe {

/// One loop the pass has scheduled, as the report writer sees it.
struct ScheduledLoop {
  mlir::scf::ForOp loop;
  const sched::Problem &problem;
  const sched::ScheduleAnalysis &analysis;
  /// The loop's place among the innermost loops of this run, in program
  /// order, and their number (for "FILE-n.svg" when there are several).
  unsigned index = 0;
  unsigned numLoops = 0;
};

/// Writes the report of one loop for `report` (the option's value); an
/// error is emitted at the loop and fails the pass.
using ScheduleReportWriter =
    std::function<llvm::Error(llvm::StringRef report, const ScheduledLoop &)>;

/// Installs the writer; a tool calls it once, before any pass runs.
void setScheduleReportWriter(ScheduleReportWriter writer);
/// The installed writer; empty when no tool installed one.
const ScheduleReportWriter &getScheduleReportWriter();

} // namespace tilepipe

#endif // TILEPIPE_SCHEDULER_MLIR_SCHEDULEREPORT_H
