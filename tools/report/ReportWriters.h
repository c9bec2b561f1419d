//===- ReportWriters.h - the pictures behind report= ----------*- C++ -*-===//
//
// The passes' `report=FILE` options call writers the tool installs
// (scheduler/mlir/ScheduleReport.h, materialize/mlir/PlanReportHook.h);
// these are the ones tilepipe-opt and `tilepipe report` install: the
// schedule and the plan as SVG pictures (report/ScheduleSVG.h,
// report/PlanSVG.h), one file per loop.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TOOLS_REPORT_REPORTWRITERS_H
#define TILEPIPE_TOOLS_REPORT_REPORTWRITERS_H

namespace tilepipe::tools {

/// Installs the SVG writers for --tileas-generate-schedule's and
/// --tileas-materialize-schedule's `report=`.
void installReportWriters();

} // namespace tilepipe::tools

#endif // TILEPIPE_TOOLS_REPORT_REPORTWRITERS_H
