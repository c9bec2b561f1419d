//===- ScheduleReport.cpp - the installed report writer -------------------===//

#include "scheduler/mlir/ScheduleReport.h"

using namespace tilepipe;

namespace {
ScheduleReportWriter &installedWriter() {
  static ScheduleReportWriter writer;
  return writer;
}
} // namespace

void tilepipe::setScheduleReportWriter(ScheduleReportWriter writer) {
  installedWriter() = std::move(writer);
}

const ScheduleReportWriter &tilepipe::getScheduleReportWriter() {
  return installedWriter();
}
