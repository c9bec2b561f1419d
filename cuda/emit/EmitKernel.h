//===- EmitKernel.h - one materialized function as EmitC -------*- C++ -*-===//

#ifndef TILEPIPE_CUDA_EMIT_EMITKERNEL_H
#define TILEPIPE_CUDA_EMIT_EMITKERNEL_H

#include "cuda/analysis/KernelLayout.h"

#include "mlir/IR/Builders.h"

namespace tilepipe::cuda {

/// Emits the body of `func`'s kernel (after the prologue the caller wrote)
/// at `b`'s insertion point, inside an emitc.func. Errors go to the ops.
mlir::LogicalResult emitKernel(mlir::func::FuncOp func,
                               const KernelLayout &layout, mlir::OpBuilder &b);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_EMIT_EMITKERNEL_H
