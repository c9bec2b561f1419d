//===- Passes.h - retargeting rewrites -------------------------*- C++ -*-===//

#ifndef TILEPIPE_RETARGET_PASSES_H
#define TILEPIPE_RETARGET_PASSES_H

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilepipe::retarget {

#define GEN_PASS_DECL
#include "retarget/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "retarget/Passes.h.inc"

} // namespace tilepipe::retarget

#endif // TILEPIPE_RETARGET_PASSES_H
