//===- tilepipe-translate.cpp - mlir-translate for tile IR ----------------===//
//
// `tilepipe-translate --tileas-to-cuda IN.mlir -o OUT.cu` writes the CUDA
// kernel of a materialized function (docs/cuda.md);
// `--import-tileir-bytecode X.tileirbc` prints cuTile's bytecode as tileir.
//
//===----------------------------------------------------------------------===//

#include "cuda/TileASToCuda.h"
#include "frontend/cutile/bytecode/BytecodeReader.h"
#include "tools/OutputPath.h"
#include "tools/input/NestedForwardUse.h"

#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  if (!tilepipe::tools::checkOutputPath(argc, argv, "tilepipe-translate") ||
      !tilepipe::tools::checkNestedForwardUses(argc, argv))
    return 1;
  tilepipe::cuda::registerTileASToCudaTranslation();
  // CUDA Tile IR bytecode in (docs/cuda-tile-reader.md).
  tilepipe::tileir::bytecode::registerTileIRBytecodeImport();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tilepipe translation driver\n"));
}
