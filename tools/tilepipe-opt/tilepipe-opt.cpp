//===- tilepipe-opt.cpp - mlir-opt for tile IR ----------------------------===//
//
// Parses, verifies and transforms tileas IR. Besides tileas it registers the
// dialects tile kernels are written with (func, scf, arith, memref, tensor)
// and MLIR's generic transform passes (canonicalize, cse, ...).
//
//===----------------------------------------------------------------------===//

#include "ir/ExternalModels.h"
#include "materialize/mlir/Passes.h"
#include "scheduler/mlir/Passes.h"
#include "tools/OutputPath.h"
#include "tools/input/NestedForwardUse.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

namespace tilepipe {
void registerTestWorkPass();
} // namespace tilepipe

int main(int argc, char **argv) {
  if (!tilepipe::tools::checkOutputPath(argc, argv, "tilepipe-opt") ||
      !tilepipe::tools::checkNestedForwardUses(argc, argv))
    return 1;
  mlir::registerTransformsPasses();
  tilepipe::registerTestWorkPass();

  // Scheduler passes.
  tilepipe::registerTilePipePasses();
  tilepipe::registerTilePipeMaterializePasses();

  mlir::DialectRegistry registry;
  // With other dialects' ops the scheduler understands (docs/adopting.md).
  tilepipe::registerTileIRDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilepipe tile-IR driver\n", registry));
}
