//===- Passes.h - tilepipe materializer passes -----------------*- C++ -*-===//

#ifndef TILEPIPE_MATERIALIZE_MLIR_PASSES_H
#define TILEPIPE_MATERIALIZE_MLIR_PASSES_H

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Pass/Pass.h"

namespace tilepipe {

#define GEN_PASS_DECL
#include "materialize/mlir/Passes.h.inc"

// Declares registerTilePipeMaterializePasses(), used by tilepipe-opt.
#define GEN_PASS_REGISTRATION
#include "materialize/mlir/Passes.h.inc"

} // namespace tilepipe

#endif // TILEPIPE_MATERIALIZE_MLIR_PASSES_H
