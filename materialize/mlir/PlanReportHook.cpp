//===- PlanReportHook.cpp - the installed plan report writer --------------===//

#include "materialize/mlir/PlanReportHook.h"

using namespace tilepipe;

namespace {
PlanReportWriter &installedWriter() {
  static PlanReportWriter writer;
  return writer;
}
} // namespace

void tilepipe::setPlanReportWriter(PlanReportWriter writer) {
  installedWriter() = std::move(writer);
}

const PlanReportWriter &tilepipe::getPlanReportWriter() {
  return installedWriter();
}
