//===- Passes.h - tilepipe scheduler passes --------------------*- C++ -*-===//

#ifndef TILEPIPE_SCHEDULER_MLIR_PASSES_H
#define TILEPIPE_SCHEDULER_MLIR_PASSES_H

#include "scheduler/GeneratorSelection.h"
#include "scheduler/ModuloScheduler.h"
#include "scheduler/StageSink.h"
#include "scheduler/exact/ExactCheck.h"

#include "mlir/Pass/Pass.h"

namespace tilepipe {

#define GEN_PASS_DECL
#include "scheduler/mlir/Passes.h.inc"

// Declares registerTilePipePasses(), used by tilepipe-opt.
#define GEN_PASS_REGISTRATION
#include "scheduler/mlir/Passes.h.inc"

} // namespace tilepipe

#endif // TILEPIPE_SCHEDULER_MLIR_PASSES_H
