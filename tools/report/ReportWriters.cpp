//===- ReportWriters.cpp --------------------------------------------------===//

#include "tools/report/ReportWriters.h"

#include "report/SVGText.h"
#include "report/ScheduleSVG.h"
#include "scheduler/mlir/ScheduleReport.h"

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

} // namespace

void tilepipe::tools::installReportWriters() {
  setScheduleReportWriter(writeScheduleSVG);
}
