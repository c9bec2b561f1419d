//===- HarnessMain.h - the protocol harness's main of a kernel -*- C++ -*-===//

#ifndef TILEPIPE_CUDA_EMIT_HARNESSMAIN_H
#define TILEPIPE_CUDA_EMIT_HARNESSMAIN_H

#include "cuda/analysis/KernelLayout.h"

#include <string>

namespace tilepipe::cuda {

/// The harness main of `func`'s kernel, as C++ text guarded by
/// TILEPIPE_HARNESS_MAIN; `params` are the kernel's parameters in order.
std::string harnessMain(mlir::func::FuncOp func, const KernelLayout &layout,
                        llvm::ArrayRef<mlir::BlockArgument> params);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_EMIT_HARNESSMAIN_H
