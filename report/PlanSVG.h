//===- PlanSVG.h - the agents and their pipes as a picture -----*- C++ -*-===//
//
// The materialization plan of one loop as a self-contained SVG: a box per
// warp-specialized agent (its role and the ops it runs), an arrow per pipe
// from the producing agent to the consuming one, labelled with its buffer
// class, size and depth, and the mutexes listed below. The picture model is
// plain data so that this library does not depend on the materializer; the
// materializer fills it (materialize/mlir/LoopPlan.h, planPicture).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_REPORT_PLANSVG_H
#define TILEPIPE_REPORT_PLANSVG_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tilepipe::report {

struct AgentBox {
  std::string name;             ///< "load", "mma", "simt.wg1", ...
  std::vector<std::string> ops; ///< The ops it runs, in (stage, order).
};

struct PipeArrow {
  unsigned from = 0, to = 0; ///< Agent indices.
  std::string label;         ///< "pipe 0: SMEM 16384 B x4 (tma_tx/umma)"
  bool carried = false;      ///< Handed to the next iteration.
};

struct PlanPicture {
  std::string title;
  std::string summary; ///< "II 512, stages 3, smem ... of ..."
  std::vector<AgentBox> agents;
  std::vector<PipeArrow> pipes;
  std::vector<std::string> mutexes; ///< One line each.
};

void writePlanSVG(llvm::raw_ostream &os, const PlanPicture &picture);

/// Writes the picture to `path`, whole or not at all; the error names it.
llvm::Error writePlanSVGFile(llvm::StringRef path, const PlanPicture &picture);

} // namespace tilepipe::report

#endif // TILEPIPE_REPORT_PLANSVG_H
