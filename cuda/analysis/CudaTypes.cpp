//===- CudaTypes.cpp - MLIR element types as CUDA C++ types ---------------===//

#include "cuda/analysis/CudaTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

std::string tilepipe::cuda::cudaElementName(Type t) {
  if (t.isF32())
    return "float";
  if (t.isBF16())
    return "__nv_bfloat16";
  if (t.isF16())
    return "__half";
  if (isa<Float8E4M3FNType>(t))
    return "__nv_fp8_e4m3";
  if (isa<Float8E5M2Type>(t))
    return "__nv_fp8_e5m2";
  if (t.isInteger(32))
    return "int32_t";
  // Integer data (int8 weights dequantized in registers: sitofp).
  if (t.isSignlessInteger(8))
    return "int8_t";
  if (t.isSignlessInteger(16))
    return "int16_t";
  // Comparison results on register tiles (arith.cmpf, arith.select).
  if (t.isInteger(1))
    return "bool";
  // UE8M0 scale factors: MLIR 19 has no f8E8M0FNU, the IR writes ui8.
  if (t.isUnsignedInteger(8))
    return "uint8_t";
  return "";
}

std::string tilepipe::cuda::registerElementName(Type t) {
  return t.isUnsignedInteger(8) ? "" : cudaElementName(t);
}
