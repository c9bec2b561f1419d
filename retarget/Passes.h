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

/// --tileas-umma-to-wgmma's rewrite of everything under `root` (a module or
/// a function): failure after an error at the first op with no sm_90a form.
/// The cuTile lowering runs it in place for a register-accumulator target
/// (--tileir-to-tileas=wgmma), before its MMAs meet the umma verifier.
mlir::LogicalResult rewriteUmmaToWgmma(mlir::Operation *root);

/// Holds every f16 accumulator of a wgmma under `root` in f32, rounded to
/// f16 where anything but the next MMA reads it (F16Accumulators.cpp).
void promoteF16Accumulators(mlir::Operation *root);

} // namespace tilepipe::retarget

#endif // TILEPIPE_RETARGET_PASSES_H
