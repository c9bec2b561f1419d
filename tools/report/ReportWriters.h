//===- ReportWriters.h - the pictures behind the passes' report= -*- C++
//-*-===//
//
// The scheduler pass's `report=FILE` option calls a writer the tool
// installs (scheduler/mlir/ScheduleReport.h); this is the one tilepipe-opt
// and `tilepipe report` install: the schedule as an SVG picture
// (report/ScheduleSVG.h), one file per loop.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TOOLS_REPORT_REPORTWRITERS_H
#define TILEPIPE_TOOLS_REPORT_REPORTWRITERS_H

namespace tilepipe::tools {

/// Installs the SVG writer for --tileas-generate-schedule's `report=`.
void installReportWriters();

} // namespace tilepipe::tools

#endif // TILEPIPE_TOOLS_REPORT_REPORTWRITERS_H
