//===- Passes.h - tilepipe materializer passes -----------------*- C++ -*-===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_PASSES_H
#define TILEPIPE_MATERIALIZE_MLIR_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tilepipe {

#define GEN_PASS_DECL
#include "materialize/mlir/Passes.h.inc"

// Declares registerTilePipeMaterializePasses(), used by tilepipe-opt.
#define GEN_PASS_REGISTRATION
#include "materialize/mlir/Passes.h.inc"

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_PASSES_H
