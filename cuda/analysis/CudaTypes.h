//===- CudaTypes.h - MLIR element types as CUDA C++ types -------*- C++ -*-===//

#ifndef TILEPIPE_CUDA_ANALYSIS_CUDATYPES_H
#define TILEPIPE_CUDA_ANALYSIS_CUDATYPES_H

#include "mlir/IR/Types.h"

#include <string>

namespace tilepipe::cuda {

/// The CUDA C++ spelling of an element type (float, __nv_bfloat16, __half,
/// __nv_fp8_e4m3, __nv_fp8_e5m2, int32_t, uint8_t for UE8M0 scale factors);
/// empty when there is none.
std::string cudaElementName(mlir::Type type);

/// The element type of a register tile or SIMT math: cudaElementName, less
/// the raw bytes (ui8) that only scale-factor tiles in SMEM carry.
std::string registerElementName(mlir::Type type);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_CUDATYPES_H
