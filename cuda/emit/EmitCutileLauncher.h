//===- EmitCutileLauncher.h - a launcher with cuTile's convention -*- C++
//-*-===//
//
// A kernel lowered from cuTile bytecode (frontend/cutile/lower/) carries
// `tileas.cutile.params` on its func.func (cuTile's parameters as the
// bytecode entry lists them after flattening) and `tileas.cutile.source` on
// each argument (which array's descriptor, shape or stride, or which
// scalar, it is made from). For such a kernel the translation also writes
//
//   extern "C" cudaError_t <kernel>_launch(dim3 grid, cudaStream_t stream,
//                                          void **params);
//   extern "C" const char *<kernel>_launch_error(void);
//
// whose `params` is what cuLaunchKernel would receive for tileiras's cubin
// of the same bytecode, so that one host program launches either
// (docs/cuda-tile-launch.md). It reads the arrays' pointers, shapes and
// strides (tilepipe/host/cutile.cuh), makes the arguments the sources name
// and calls tp_launch_<kernel> (EmitLauncher.h), which encodes the tensor
// maps and launches with the kernel's block and SMEM.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_EMIT_EMITCUTILELAUNCHER_H
#define TILEPIPE_CUDA_EMIT_EMITCUTILELAUNCHER_H

#include "cuda/analysis/KernelLayout.h"

#include <string>

namespace tilepipe::cuda {

/// The attribute names of the interface from the cuTile lowering.
inline constexpr const char *kCutileParamsAttr = "tileas.cutile.params";
inline constexpr const char *kCutileSourceAttr = "tileas.cutile.source";

/// The cuTile launcher of `func`'s kernel as C++ text; "" when `func` has no
/// `tileas.cutile.params`; an error at the function or the argument whose
/// attributes do not describe a launch.
mlir::FailureOr<std::string> emitCutileLauncher(mlir::func::FuncOp func,
                                                const KernelLayout &layout);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_EMIT_EMITCUTILELAUNCHER_H
