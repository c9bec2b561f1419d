//===- PlanPicture.h - a loop plan as a picture model ----------*- C++ -*-===//
//
// Fills report::PlanPicture from a LoopPlan: the warp-specialized agents
// (materialize::agentOf, as the stage code forms them), the pipes between
// them with their buffers and depths, and the mutexes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TOOLS_REPORT_PLANPICTURE_H
#define TILEPIPE_TOOLS_REPORT_PLANPICTURE_H

#include "materialize/mlir/LoopPlan.h"
#include "report/PlanSVG.h"

namespace tilepipe {

report::PlanPicture planPicture(const LoopPlan &plan, llvm::StringRef title);

} // namespace tilepipe

#endif // TILEPIPE_TOOLS_REPORT_PLANPICTURE_H
