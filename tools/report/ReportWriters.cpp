//===- ReportWriters.cpp --------------------------------------------------===//

#include "tools/report/ReportWriters.h"

#include "materialize/mlir/PlanReportHook.h"
#include "report/PlanSVG.h"
#include "report/SVGText.h"
#include "report/ScheduleSVG.h"
#include "scheduler/mlir/ScheduleReport.h"
#include "tools/report/PlanPicture.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace tilepipe;

namespace {

/// `report` itself for a single loop, FILE-n.svg for the n-th of several;
/// titled by the loop's location.
llvm::Error writeScheduleSVG(llvm::StringRef report,
                             const ScheduledLoop &scheduled) {
  std::string path =
      report::numberedPath(report, scheduled.index, scheduled.numLoops);
  std::string title;
  llvm::raw_string_ostream name(title);
  mlir::scf::ForOp loop = scheduled.loop; // getLoc() is not const.
  name << "loop at " << loop.getLoc();
  return report::writeScheduleSVGFile(path, scheduled.problem,
                                      scheduled.analysis, name.str());
}

/// The plan's agents and pipes, numbered and titled as the schedule's.
llvm::Error writePlanSVG(llvm::StringRef report, const PlannedLoop &planned) {
  std::string path =
      report::numberedPath(report, planned.index, planned.numLoops);
  std::string title;
  llvm::raw_string_ostream name(title);
  mlir::scf::ForOp loop = planned.loop; // getLoc() is not const.
  name << "plan of loop at " << loop.getLoc();
  return report::writePlanSVGFile(path, planPicture(planned.plan, name.str()));
}

} // namespace

void tilepipe::tools::installReportWriters() {
  setScheduleReportWriter(writeScheduleSVG);
  setPlanReportWriter(writePlanSVG);
}
