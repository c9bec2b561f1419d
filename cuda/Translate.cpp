//===- Translate.cpp - `--tileas-to-cuda` ---------------------------------===//

#include "cuda/analysis/CarriedTiles.h"
#include "cuda/emit/EmitCutileLauncher.h"
#include "cuda/emit/EmitKernel.h"
#include "cuda/emit/EmitLauncher.h"
#include "cuda/analysis/KernelLayout.h"
#include "cuda/analysis/WgmmaAccumulators.h"
#include "cuda/TileASToCuda.h"
#include "materialize/exec/Check.h"

#include "ir/ExternalModels.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/CommandLine.h"

#include <optional>
#include <vector>

using namespace mlir;
using namespace tilepipe;

namespace {
/// One kernel and its launchers. The kernel is made from a copy in which
/// loops carry fewer register tiles (CarriedTiles.h); the input stays as it
/// was.
FailureOr<std::string> translateKernel(func::FuncOp original, OpBuilder &b,
                                       bool epilogueInRows) {
  OwningOpRef<func::FuncOp> copy = original.clone();
  func::FuncOp func = *copy;
  if (failed(cuda::prepareWgmmaAccumulators(func, epilogueInRows)))
    return failure();
  if (epilogueInRows)
    func->setAttr(cuda::kEpilogueInRowsAttr, b.getUnitAttr());
  cuda::shrinkCarriedTiles(func);
  FailureOr<cuda::KernelLayout> layout = cuda::layoutKernel(func);
  if (failed(layout))
    return failure();
  if (failed(cuda::emitKernel(func, *layout, b)))
    return failure();
  FailureOr<std::string> host = cuda::emitLauncher(func, *layout);
  if (failed(host))
    return failure();
  // A kernel lowered from cuTile also takes cuTile's parameter array.
  FailureOr<std::string> cutile = cuda::emitCutileLauncher(func, *layout);
  if (failed(cutile))
    return failure();
  return *host + *cutile;
}

/// The diagnostics of one attempt, held back until it is known which
/// attempt's to report.
struct HeldDiagnostics {
  explicit HeldDiagnostics(MLIRContext *ctx) : ctx(ctx) {
    handler.emplace(ctx, [this](Diagnostic &d) {
      held.push_back(std::move(d));
      return success();
    });
  }
  /// Holds no more (what it holds stays).
  void stop() { handler.reset(); }
  /// Stops and reports what it holds.
  void release() {
    stop();
    for (Diagnostic &d : held)
      ctx->getDiagEngine().emit(std::move(d));
    held.clear();
  }
  MLIRContext *ctx;
  std::vector<Diagnostic> held;
  std::optional<ScopedDiagnosticHandler> handler;
};

/// Erases what a failed attempt appended to the output module.
void eraseAfter(Block *body, Operation *last) {
  while (!body->empty() && &body->back() != last)
    body->back().erase();
}

/// A kernel with wgmmas runs its epilogue on the fragment's rows (docs/
/// cuda.md, "The epilogue on the fragment"): each warpgroup converts and
/// stores its own band, where staging the f32 accumulator through SMEM
/// first costs a 128 KB round trip, half the threads, and 8-way bank
/// conflicts (Nsight Compute on an H200, docs/retarget.md). An epilogue the
/// rows do not translate is staged through SMEM instead; where that fails
/// too, the staged attempt's diagnostics are the ones reported.
FailureOr<std::string>
translateKernelWithRetry(func::FuncOp original, OpBuilder &b,
                         const cuda::CudaOptions &options) {
  bool wgmma = original
                   .walk([](tileas::WgmmaOp) { return WalkResult::interrupt(); })
                   .wasInterrupted();
  if (!wgmma)
    return translateKernel(original, b, /*epilogueInRows=*/false);
  MLIRContext *ctx = original.getContext();
  Block *body = b.getInsertionBlock();
  Operation *last = body->empty() ? nullptr : &body->back();
  bool rowsFirst = options.wgmmaEpilogue == cuda::WgmmaEpilogue::Rows;
  HeldDiagnostics first(ctx);
  FailureOr<std::string> host =
      translateKernel(original, b, /*epilogueInRows=*/rowsFirst);
  if (succeeded(host)) {
    first.release();
    return host;
  }
  eraseAfter(body, last);
  first.stop();
  HeldDiagnostics second(ctx);
  host = translateKernel(original, b, /*epilogueInRows=*/!rowsFirst);
  if (succeeded(host)) {
    second.release();
    return host;
  }
  eraseAfter(body, last);
  second.stop();
  (rowsFirst ? second : first).release();
  return failure();
}
} // namespace

/// The header's nvcc line names the architecture the kernel's tensor-core
/// ops need: wgmma runs on sm_90a only, tcgen05 and TMEM on sm_100a only
/// (and there as the protocol harness on sm_90a), SIMT code on either.
static std::string compileHeader(ModuleOp module) {
  bool hopper = false, blackwell = false;
  module.walk([&](Operation *op) {
    hopper |= isa<tileas::WgmmaOp>(op);
    blackwell |= isa<tileas::UmmaOp, tileas::AllocTmemOp, tileas::TmemLoadOp,
                     tileas::TmemStoreOp, tileas::TmemCopyOp>(op);
  });
  const char *sm90 = "-gencode arch=compute_90a,code=sm_90a";
  const char *sm100 = "-gencode arch=compute_100a,code=sm_100a";
  std::string text =
      "// Generated by tilepipe-translate --tileas-to-cuda. Compile with\n";
  text += std::string("//   nvcc -std=c++17 ") + (hopper ? sm90 : sm100) +
          " -I <tilepipe>/cuda/include\n";
  if (!hopper && !blackwell)
    text += std::string("// or ") + sm90 + " (no tensor-core op here);\n";
  if (blackwell)
    text += "// or, as the protocol harness on sm_90a, with "
            "-DTILEPIPE_HARNESS;\n";
  text += "// -DTILEPIPE_MAIN adds a main, and g++ -x c++ -DTILEPIPE_CPU runs "
          "it\n"
          "// on the CPU emulator (docs/cuda.md).\n"
          "#include <tilepipe/kernel.cuh>";
  return text;
}

LogicalResult cuda::translateToCuda(ModuleOp module, llvm::raw_ostream &os,
                                    const CudaOptions &options) {
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<emitc::EmitCDialect>();
  OwningOpRef<ModuleOp> out = ModuleOp::create(module.getLoc());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(out->getBody());
  b.create<emitc::VerbatimOp>(module.getLoc(), compileHeader(module));
  bool any = false;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    bool tileOps = func.walk([](Operation *op) {
                         return isa<tileas::TileASDialect>(op->getDialect())
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
    if (!tileOps || func.isExternal())
      continue;
    func::FuncOp original = func;
    FailureOr<std::string> host =
        translateKernelWithRetry(original, b, options);
    if (failed(host))
      return failure();
    // What cannot be translated at all is reported first. Stage code that
    // breaks a pipe or mutex rule deadlocks or races on the
    // GPU, and nothing in the CUDA would say so: the translation runs the
    // protocol check itself (as --tileas-check-protocol does) and refuses
    // such code at its first violation.
    exec::Census census = exec::census(original);
    if (census.pipes || census.agents) {
      // Fewer runs than the pass (every trip count up to two wraps of the
      // deepest ring, 2 interleavings each; FA4's kernel 1.2 s, 0.5 s a
      // seed): a translation is not the place for the pass's long runs,
      // and a broken rule shows in the first interleaving that reaches it.
      exec::CheckOptions options;
      options.tripCounts =
          exec::defaultTripCounts(original, /*withLongRun=*/false);
      options.seeds = 2;
      if (std::optional<exec::Finding> finding =
              exec::checkFunction(original, options)) {
        exec::emitFinding(*finding, original);
        return failure();
      }
    }
    b.create<emitc::VerbatimOp>(func.getLoc(), *host);
    any = true;
  }
  if (!any)
    return module.emitError("no function with tileas ops to translate");
  if (failed(verify(*out)))
    return module.emitError("internal error: the EmitC module does not "
                            "verify");
  return emitc::translateToCpp(*out, os);
}

/// Parses the stage code without verifying it, gives each stamped op its
/// stamp back as its location, and only then verifies: a verifier error
/// names the user's file and line like every error of the translation
/// (docs/stage-code.md, "Source locations survive printing").
static LogicalResult
translateStageCode(const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                   llvm::raw_ostream &os, MLIRContext *ctx,
                   const cuda::CudaOptions &options) {
  DialectRegistry registry;
  registerTileIRDialects(registry);
  registry.insert<emitc::EmitCDialect>();
  ctx->appendDialectRegistry(registry);
  ParserConfig config(ctx, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module)
    return failure();
  // Stage code printed without its locations still names the user's lines
  // in its stamps: every diagnostic of the translation, made at an op's
  // location, points there.
  FileLineColLoc stage = tileas::findFileLoc(module->getLoc());
  tileas::restoreSourceLocations(
      *module, stage ? stage.getFilename().getValue() : StringRef());
  if (failed(verify(*module)))
    return failure();
  return cuda::translateToCuda(*module, os, options);
}

void cuda::registerTileASToCudaTranslation() {
  static llvm::cl::opt<cuda::WgmmaEpilogue> wgmmaEpilogue(
      "tileas-wgmma-epilogue",
      llvm::cl::desc("where a wgmma kernel's epilogue runs first (the other "
                     "is the fallback)"),
      llvm::cl::init(cuda::WgmmaEpilogue::Rows),
      llvm::cl::values(
          clEnumValN(cuda::WgmmaEpilogue::Rows, "rows",
                     "on the fragment's rows, each warpgroup its band"),
          clEnumValN(cuda::WgmmaEpilogue::Staged, "staged",
                     "staged through SMEM, a thread a row (fewer "
                     "registers)")));
  static TranslateRegistration registration(
      "tileas-to-cuda",
      "translate materialized tileas code into a CUDA kernel (sm_100a)",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         llvm::raw_ostream &os, MLIRContext *ctx) {
        cuda::CudaOptions options;
        options.wgmmaEpilogue = wgmmaEpilogue;
        return translateStageCode(sourceMgr, os, ctx, options);
      });
}
