//===- PlanReportHook.h - the hook behind the pass's report= ---*- C++ -*-===//
//
// --tileas-materialize-schedule takes `report=FILE` (a picture of each loop's
// agents and pipes), but drawing is a tool's concern, not the materializer's:
// the pass hands each planned loop to a writer that the tool installs at
// start-up (tilepipe-opt installs the SVG writer of tools/report/), as the
// scheduler pass does (scheduler/mlir/ScheduleReport.h). Without one,
// `report=` is an error at the first loop.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_PLANREPORTHOOK_H
#define TILEPIPE_MATERIALIZE_MLIR_PLANREPORTHOOK_H

#include "materialize/mlir/LoopPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>

namespace tilepipe {

/// One loop the pass has planned, as the report writer sees it.
struct PlannedLoop {
  mlir::scf::ForOp loop;
  const LoopPlan &plan;
  /// The loop's place among the planned loops of this run, in program
  /// order, and their number (for "FILE-n.svg" when there are several).
  unsigned index = 0;
  unsigned numLoops = 0;
};

/// Writes the report of one loop for `report` (the option's value); an
/// error is emitted at the loop and fails the pass.
using PlanReportWriter =
    std::function<llvm::Error(llvm::StringRef report, const PlannedLoop &)>;

/// Installs the writer; a tool calls it once, before any pass runs.
void setPlanReportWriter(PlanReportWriter writer);
/// The installed writer; empty when no tool installed one.
const PlanReportWriter &getPlanReportWriter();

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_PLANREPORTHOOK_H
