//===- tilepipe-opt.cpp - mlir-opt for tile IR ----------------------------===//
//
// Parses, verifies and transforms tileas IR. Besides tileas it registers the
// dialects tile kernels are written with (func, scf, arith, memref, tensor)
// and MLIR's generic transform passes (canonicalize, cse, ...).
//
//===----------------------------------------------------------------------===//

#include "ir/ExternalModels.h"
#include "ir/TileASDialect.h"
#include "materialize/mlir/Passes.h"
#include "scheduler/mlir/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace tilepipe {
void registerTestWorkPass();
} // namespace tilepipe

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tilepipe::registerTestWorkPass();

  // Scheduler passes.
  tilepipe::registerTilePipePasses();
  tilepipe::registerTilePipeMaterializePasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::tileas::TileASDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect, mlir::ub::UBDialect>();
  // Other dialects' ops the scheduler understands (docs/adopting.md).
  tilepipe::registerArithMathSchedulingModels(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilepipe tile-IR driver\n", registry));
}
