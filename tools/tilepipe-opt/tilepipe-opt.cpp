//===- tilepipe-opt.cpp - mlir-opt for tile IR ----------------------------===//
//
// Parses, verifies and transforms tileas IR. Besides tileas it registers the
// dialects tile kernels are written with (func, scf, arith, memref, tensor)
// and MLIR's generic transform passes (canonicalize, cse, ...).
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/ir/TileIRDialect.h"
#include "frontend/cutile/lower/Passes.h"
#include "ir/ExternalModels.h"
#include "materialize/mlir/Passes.h"
#include "retarget/Passes.h"
#include "scheduler/mlir/Passes.h"
#include "tools/OutputPath.h"
#include "tools/input/NestedForwardUse.h"
#include "tools/report/ReportWriters.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace tilepipe {
void registerTestWorkPass();
} // namespace tilepipe

/// Schedules and stage code are printed with their locations
/// (-mlir-print-debuginfo) unless the command line says otherwise: the
/// translation's diagnostics then name the user's file and line however the
/// stage code reaches tilepipe-translate, in one tilepipe-opt or through
/// several (docs/stage-code.md, "Source locations").
static std::vector<char *> withStageCodeLocations(int argc, char **argv) {
  std::vector<char *> args(argv, argv + argc);
  auto has = [&](llvm::StringRef what) {
    return llvm::any_of(args, [&](char *a) {
      return llvm::StringRef(a).ltrim('-').starts_with(what);
    });
  };
  static char flag[] = "--mlir-print-debuginfo";
  if ((has("tileas-generate-schedule") || has("tileas-materialize-schedule")) &&
      !has("mlir-print-debuginfo"))
    args.push_back(flag);
  args.push_back(nullptr);
  return args;
}

int main(int argc, char **argv) {
  std::vector<char *> args = withStageCodeLocations(argc, argv);
  argc = int(args.size()) - 1;
  argv = args.data();
  if (!tilepipe::tools::checkOutputPath(argc, argv, "tilepipe-opt") ||
      !tilepipe::tools::checkNestedForwardUses(argc, argv))
    return 1;
  mlir::registerTransformsPasses();
  tilepipe::registerTestWorkPass();

  // Scheduler passes, and the pictures behind their report= option.
  tilepipe::registerTilePipePasses();
  tilepipe::registerTilePipeMaterializePasses();
  // cuTile's tile IR to tileas (docs/cuda-tile-lowering.md).
  tilepipe::cutile::registerTileIRToTileASPass();
  tilepipe::cutile::registerTileASSplitRowsPass();
  tilepipe::retarget::registerTileASUmmaToWgmmaPass();
  tilepipe::tools::installReportWriters();

  mlir::DialectRegistry registry;
  // With other dialects' ops the scheduler understands (docs/adopting.md).
  tilepipe::registerTileIRDialects(registry);
  // CUDA Tile IR as cuTile writes it (docs/cuda-tile-reader.md).
  tilepipe::tileir::registerTileIRDialect(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilepipe tile-IR driver\n", registry));
}
