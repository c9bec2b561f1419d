//===- EmitLauncher.h - a kernel's host launcher and main -------*- C++ -*-===//
//
// After each kernel the translation writes its host side (docs/cuda.md, "The
// launcher" and "The main"):
//   tp::host::Status tp_launch_<kernel>(params..., dim3 grid,
//                                       const tp::host::LaunchOptions &);
// where each !tileas.tma_desc parameter becomes a tp::host::Tensor (the
// global tensor: address, sizes, strides) whose tensor map the launcher
// encodes for the tile layout the kernel's TMAs move, and, under
// -DTILEPIPE_MAIN, a main that reads the inputs from .npy files, runs the
// launcher and writes the outputs. The same text runs on a GPU and, under
// -DTILEPIPE_CPU, on the emulator (tilepipe/host/launch.cuh switches).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_EMIT_EMITLAUNCHER_H
#define TILEPIPE_CUDA_EMIT_EMITLAUNCHER_H

#include "cuda/analysis/KernelLayout.h"

#include <string>

namespace tilepipe::cuda {

/// The name a kernel parameter goes by on the host: the argument's
/// `tileas.name` attribute, else its name location (loc("A")), else argN.
std::string parameterName(mlir::func::FuncOp func, unsigned index);

/// The C++ spelling of a scalar kernel parameter of type `t`, as EmitC
/// prints the kernel's; "" when it has none.
std::string hostScalarType(mlir::Type t);

/// The launcher and main of `func`'s kernel as C++ text, or an error at the
/// parameter that has no host form.
mlir::FailureOr<std::string> emitLauncher(mlir::func::FuncOp func,
                                          const KernelLayout &layout);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_EMIT_EMITLAUNCHER_H
