//===- Passes.h - the cuTile lowering pass ---------------------*- C++ -*-===//

#ifndef TILEPIPE_FRONTEND_CUTILE_LOWER_PASSES_H
#define TILEPIPE_FRONTEND_CUTILE_LOWER_PASSES_H

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace tilepipe::cutile {

#define GEN_PASS_DECL
#include "frontend/cutile/lower/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "frontend/cutile/lower/Passes.h.inc"

} // namespace tilepipe::cutile

#endif // TILEPIPE_FRONTEND_CUTILE_LOWER_PASSES_H
