//===- TileASToCuda.h - materialized tile IR as a CUDA kernel --*- C++ -*-===//
//
// `tilepipe-translate --tileas-to-cuda` and its library entry: every
// func.func of materialized tileas code (warp-specialized agents or peeled
// rows, with pipes, fences and mutexes) becomes a `__global__` CUDA C++
// kernel. The translation builds EmitC IR (calls into the runtime header
// cuda/include/tilepipe/kernel.cuh) and prints it with MLIR's C++ emitter.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_TILEASTOCUDA_H
#define TILEPIPE_CUDA_TILEASTOCUDA_H

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

namespace tilepipe::cuda {

/// Where a wgmma kernel's epilogue runs (docs/cuda.md, "The epilogue on the
/// fragment"): on the fragment's rows, each warpgroup its band (fewer SMEM
/// round trips; more registers for long epilogue math), or staged through
/// SMEM a thread a row (fewer registers). The other is the fallback where
/// the first does not translate.
enum class WgmmaEpilogue { Rows, Staged };

struct CudaOptions {
  WgmmaEpilogue wgmmaEpilogue = WgmmaEpilogue::Rows;
};

/// Writes one .cu translation unit for every function of `module` that holds
/// tileas ops. Errors are emitted at the offending ops.
mlir::LogicalResult translateToCuda(mlir::ModuleOp module,
                                    llvm::raw_ostream &os,
                                    const CudaOptions &options = {});

/// Registers `--tileas-to-cuda` with mlir-translate's registry.
void registerTileASToCudaTranslation();

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_TILEASTOCUDA_H
