//===- ScheduleSVG.h - a schedule as a picture ------------------*- C++ -*-===//
//
// One self-contained SVG per schedule: the modulo reservation table as a
// heat map (a row per resource, a column per modulo cycle, bucketed past 240
// columns), one iteration's ops on a timeline with the stage boundaries, and
// the overlapped steady state (every op at its modulo row, coloured by
// stage). No scripts, fonts or external references.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_REPORT_SCHEDULESVG_H
#define TILEPIPE_REPORT_SCHEDULESVG_H

#include "scheduler/ScheduleAnalysis.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tilepipe::report {

void writeScheduleSVG(llvm::raw_ostream &os, const sched::Problem &problem,
                      const sched::ScheduleAnalysis &schedule,
                      llvm::StringRef title);

/// Writes the picture to `path`, whole or not at all (a partial file is
/// removed); the error names the path.
llvm::Error writeScheduleSVGFile(llvm::StringRef path,
                                 const sched::Problem &problem,
                                 const sched::ScheduleAnalysis &schedule,
                                 llvm::StringRef title);

} // namespace tilepipe::report

#endif // TILEPIPE_REPORT_SCHEDULESVG_H
