//===- CompileCommand.cpp - `tilepipe compile` ----------------------------===//
//
//   tilepipe compile KERNEL.tileirbc|KERNEL.mlir -o KERNEL.cu [options]
//
// The whole path in one process, through the library APIs the tools use:
// CUDA Tile IR bytecode is imported (what `tilepipe-translate
// --import-tileir-bytecode` prints), `tileir` is lowered to `tileas`
// (--tileir-to-tileas), every innermost loop is scheduled and materialized
// (--tileas-generate-schedule, --tileas-materialize-schedule, canonicalize,
// cse) and the stage code is translated to CUDA (--tileas-to-cuda). Input
// already in `tileir` or `tileas` text enters at its step.
//
// Exit status: 0 with the file written, 1 when a step fails (diagnostics on
// stderr with their locations; no file is written, none is left behind), 2
// for a bad command line (docs/cuda-tile-launch.md, "tilepipe compile").
//
//===----------------------------------------------------------------------===//

#include "cuda/TileASToCuda.h"
#include "frontend/cutile/bytecode/BytecodeReader.h"
#include "frontend/cutile/ir/TileIRDialect.h"
#include "frontend/cutile/lower/Passes.h"
#include "ir/ExternalModels.h"
#include "ir/TileASDialect.h"
#include "materialize/mlir/Passes.h"
#include "retarget/Passes.h"
#include "scheduler/mlir/Passes.h"
#include "target/Target.h"
#include "tools/OutputPath.h"
#include "tools/input/ModuleInput.h"
#include "tools/report/ReportWriters.h"
#include "tools/tilepipe/Subcommands.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>

using namespace tilepipe;
using namespace tilepipe::tool;
using llvm::StringRef;

namespace tilepipe::tool {
int runCompileCommand(int argc, char **argv);
} // namespace tilepipe::tool

namespace {

constexpr const char *kTool = "tilepipe compile";

void printCompileUsage(llvm::raw_ostream &os) {
  os << "usage: tilepipe compile KERNEL.tileirbc|KERNEL.mlir -o KERNEL.cu "
        "[options]\n\n"
        "  -o FILE                    the CUDA translation unit; '-' is "
        "stdout\n"
        "  --print-schedule           print each loop's schedule table on "
        "stdout\n"
        "  --report FILE              write each loop's schedule as an SVG "
        "picture\n"
        "                             (FILE-n.svg for the n-th of several)\n"
        "  --target FILE              JSON target description (default: the "
        "built-in\n"
        "                             sm_100a)\n"
        "  --schedule-options=OPTS    more options of "
        "--tileas-generate-schedule\n"
        "  --materialize-options=OPTS options of "
        "--tileas-materialize-schedule,\n"
        "                             e.g. 'mode=unspecialized'\n\n"
        "The input is CUDA Tile IR bytecode (cuTile's export), or MLIR text "
        "in the\n"
        "tileir or tileas dialect. It is imported, lowered to tileas, "
        "scheduled,\n"
        "materialized and translated to CUDA for sm_100a; the file is "
        "written only\n"
        "when every step succeeds. A kernel lowered from cuTile gets "
        "<kernel>_launch,\n"
        "which takes cuTile's parameters (docs/cuda-tile-launch.md).\n";
}

int usageError(const llvm::Twine &message) {
  llvm::errs() << kTool << ": " << message << "\n";
  printCompileUsage(llvm::errs());
  return ExitUsage;
}

struct CompileOptions {
  std::string input, output, targetFile, report;
  std::string scheduleOptions, materializeOptions;
  bool printSchedule = false;
};

/// Parses the command line; an exit status when it is done already (help,
/// or a usage error).
std::optional<int> parseCompileOptions(int argc, char **argv,
                                       CompileOptions &options) {
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    // A file-name option given as `--name FILE` or `--name=FILE`.
    auto fileOption = [&](StringRef name,
                          std::string &into) -> std::optional<int> {
      if (arg.consume_front(name)) {
        if (arg.consume_front("="))
          into = arg.str();
        else if (arg.empty() && i + 1 < argc)
          into = argv[++i];
        if (into.empty())
          return usageError(name + " needs a file name");
      }
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h") {
      printCompileUsage(llvm::outs());
      return ExitOk;
    }
    if (arg == "-o" || arg.starts_with("-o=")) {
      if (std::optional<int> exit = fileOption("-o", options.output))
        return exit;
    } else if (arg == "--report" || arg.starts_with("--report=")) {
      if (std::optional<int> exit = fileOption("--report", options.report))
        return exit;
    } else if (arg == "--target" || arg.starts_with("--target=")) {
      if (std::optional<int> exit = fileOption("--target", options.targetFile))
        return exit;
    } else if (arg == "--print-schedule") {
      options.printSchedule = true;
    } else if (arg.consume_front("--schedule-options=")) {
      options.scheduleOptions = arg.str();
    } else if (arg.consume_front("--materialize-options=")) {
      options.materializeOptions = arg.str();
    } else if (arg.starts_with("-") && arg != "-") {
      return usageError("unknown option '" + arg + "'");
    } else if (options.input.empty()) {
      options.input = arg.str();
    } else {
      return usageError("more than one input file ('" + options.input +
                        "' and '" + arg + "')");
    }
  }
  if (options.input.empty())
    return usageError("no input file");
  if (options.output.empty())
    return usageError("no output file (-o KERNEL.cu)");
  return std::nullopt;
}

/// CUDA Tile IR bytecode as tileir, as tilepipe-translate
/// --import-tileir-bytecode reads it; null after an error at the byte offset.
mlir::OwningOpRef<mlir::ModuleOp>
importBytecode(const llvm::MemoryBuffer &buffer, StringRef name,
               mlir::MLIRContext &context) {
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>(buffer.getBufferStart()),
      buffer.getBufferSize());
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tileir::bytecode::readBytecode(bytes, name, &context, error);
  if (!module)
    mlir::emitError(mlir::FileLineColLoc::get(&context, name, 0, 0)) << error;
  return module;
}

/// Reads the input as a module: bytecode through the importer, text through
/// the parser; null when that fails (diagnosed).
mlir::OwningOpRef<mlir::ModuleOp> readInput(const CompileOptions &options,
                                            mlir::MLIRContext &context,
                                            llvm::SourceMgr &sourceMgr) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(options.input, /*IsText=*/false);
  if (!buffer) {
    llvm::errs() << options.input << ": error: cannot read the file: "
                 << buffer.getError().message() << "\n";
    return nullptr;
  }
  if (tileir::bytecode::hasBytecodeMagic(llvm::arrayRefFromStringRef(
          (*buffer)->getBuffer())))
    return importBytecode(**buffer, options.input, context);
  return tools::parseModuleText(std::move(*buffer), options.input, context,
                                sourceMgr);
}

/// Whether `module` holds ops of cuTile's tile IR (the `tileir` dialect).
bool holdsTileIR(mlir::ModuleOp module) {
  return module
      .walk([](mlir::Operation *op) {
        return op->getDialect() && op->getDialect()->getNamespace() == "tileir"
                   ? mlir::WalkResult::interrupt()
                   : mlir::WalkResult::advance();
      })
      .wasInterrupted();
}

static bool accumulatesInRegisters(llvm::StringRef targetFile);

/// Lowers cuTile's tile IR to tileas as tilepipe-opt --tileir-to-tileas
/// does, when the module holds any; `registerMma` as with its `wgmma`
/// option (a target that accumulates in registers).
mlir::LogicalResult lowerTileIR(mlir::MLIRContext &context,
                                mlir::ModuleOp module, bool registerMma) {
  if (!holdsTileIR(module))
    return mlir::success();
  mlir::PassManager pm(&context);
  cutile::TileIRToTileASOptions lowering;
  lowering.wgmma = registerMma;
  pm.addPass(cutile::createTileIRToTileAS(lowering));
  return pm.run(module);
}

/// Schedules and materializes every innermost loop as tilepipe-opt
/// --tileas-generate-schedule --tileas-materialize-schedule -canonicalize
/// -cse does; an exit status when it fails.
///
/// A target whose tensor core accumulates in registers (it has the wgmma
/// classes and not the umma ones: sm_90a, or a file inheriting it) gets the
/// loop rewritten for it first (docs/retarget.md): the cuTile lowering and
/// hand-written tileas speak Blackwell's MMA.
static bool accumulatesInRegisters(llvm::StringRef targetFile) {
  if (targetFile.empty())
    return false;
  auto registerMma = [](const target::TargetModel &m) {
    return m.lookupOpClass("wgmma") && !m.lookupOpClass("umma");
  };
  if (const target::TargetModel *builtin = target::TargetModel::builtin(targetFile))
    return registerMma(*builtin);
  llvm::Expected<target::TargetModel> loaded =
      target::TargetModel::fromFile(targetFile);
  // A bad file: the schedule pass reports its error at its place.
  return loaded ? registerMma(*loaded)
                : (llvm::consumeError(loaded.takeError()), false);
}

std::optional<int> runSchedulePipeline(const CompileOptions &options,
                                       mlir::MLIRContext &context,
                                       mlir::ModuleOp module) {
  static bool registered = [] {
    registerTilePipePasses();
    registerTilePipeMaterializePasses();
    retarget::registerTileASUmmaToWgmmaPass();
    tools::installReportWriters();
    return true;
  }();
  (void)registered;
  std::string schedule = options.scheduleOptions;
  if (options.printSchedule)
    schedule += " print-schedule=true";
  if (!options.targetFile.empty())
    schedule += " target=" + tools::quotedPassOption(options.targetFile);
  if (!options.report.empty())
    schedule += " report=" + tools::quotedPassOption(options.report);
  std::string materialize = options.materializeOptions;
  if (!options.targetFile.empty())
    materialize += " target=" + tools::quotedPassOption(options.targetFile);
  mlir::PassManager pm(&context);
  std::string pipeline = "tileas-generate-schedule{" + schedule +
                         "},tileas-materialize-schedule{" + materialize + "}";
  if (accumulatesInRegisters(options.targetFile))
    pipeline = "tileas-umma-to-wgmma," + pipeline;
  std::string pipelineError;
  llvm::raw_string_ostream pipelineErrors(pipelineError);
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, pipelineErrors))) {
    llvm::errs() << kTool << ": bad --schedule-options or "
                 << "--materialize-options: " << pipelineError << "\n";
    return ExitUsage;
  }
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  if (mlir::failed(pm.run(module)))
    return ExitFailure;
  return std::nullopt;
}

/// A diagnostic held back while the warp-specialized attempt runs: shown as
/// it was when the peeled one fails too, as a remark when it succeeds.
struct HeldDiagnostic {
  mlir::Location loc;
  mlir::DiagnosticSeverity severity;
  std::string text;
  std::vector<std::pair<mlir::Location, std::string>> notes;
};

std::function<mlir::LogicalResult(mlir::Diagnostic &)>
holdInto(std::vector<HeldDiagnostic> &held) {
  return [&held](mlir::Diagnostic &d) {
    HeldDiagnostic h{d.getLocation(), d.getSeverity(), d.str(), {}};
    for (mlir::Diagnostic &note : d.getNotes())
      h.notes.emplace_back(note.getLocation(), note.str());
    held.push_back(std::move(h));
    return mlir::success();
  };
}

void replay(const std::vector<HeldDiagnostic> &held) {
  for (const HeldDiagnostic &h : held) {
    mlir::InFlightDiagnostic d = h.loc->getContext()->getDiagEngine().emit(
        h.loc, h.severity);
    d << h.text;
    for (const auto &[loc, text] : h.notes)
      d.attachNote(loc) << text;
  }
}

/// Schedule, materialization and translation of the lowered `module`; the
/// CUDA in `cuda`, held until the translation has succeeded (a failure
/// leaves no file). An exit status when a step fails.
std::optional<int> compileLowered(const CompileOptions &options,
                                  mlir::MLIRContext &context,
                                  mlir::ModuleOp module, std::string &cuda) {
  if (std::optional<int> exit = runSchedulePipeline(options, context, module))
    return exit;
  cuda.clear();
  llvm::raw_string_ostream os(cuda);
  if (mlir::failed(cuda::translateToCuda(module, os)))
    return ExitFailure;
  return std::nullopt;
}

/// Writes `text` to -o (stdout for "-"); the file appears whole or not at
/// all.
int writeOutput(const CompileOptions &options, StringRef text) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file =
      mlir::openOutputFile(options.output, &error);
  if (!file) {
    llvm::errs() << kTool << ": error: " << error << "\n";
    return ExitFailure;
  }
  file->os() << text;
  file->os().flush();
  if (file->os().has_error()) {
    llvm::errs() << kTool << ": error: cannot write '" << options.output
                 << "'\n";
    file->os().clear_error();
    return ExitFailure;
  }
  file->keep();
  return ExitOk;
}

/// One way to compile the kernel, and what it changes from the user's.
struct Attempt {
  CompileOptions options;
  bool peeled = false, minBuffer = false;
  /// Tried only when the first attempt ran out of SMEM.
  bool forSmem = false;
};

/// The user's options, then the forms `tilepipe compile` falls back to
/// where the user left the choice open: peeled stage code, and a
/// schedule's stages placed for the fewest buffered bytes.
std::vector<Attempt> fallbacks(const CompileOptions &options) {
  std::vector<Attempt> attempts{{options}};
  bool modeOpen = !StringRef(options.materializeOptions).contains("mode=");
  bool stagesOpen = !StringRef(options.scheduleOptions).contains("stages=");
  auto add = [&](bool peeled, bool minBuffer) {
    Attempt a{options, peeled, minBuffer, minBuffer};
    if (peeled)
      a.options.materializeOptions += " mode=unspecialized";
    if (minBuffer)
      a.options.scheduleOptions += " stages=min-buffer";
    // Each schedule is printed (and drawn) once: the peeled forms share
    // the schedule of the attempt before them.
    if (peeled) {
      a.options.printSchedule = false;
      a.options.report.clear();
    }
    attempts.push_back(std::move(a));
  };
  if (modeOpen)
    add(/*peeled=*/true, /*minBuffer=*/false);
  if (stagesOpen)
    add(/*peeled=*/false, /*minBuffer=*/true);
  if (modeOpen && stagesOpen)
    add(/*peeled=*/true, /*minBuffer=*/true);
  return attempts;
}

/// The remarks of a fallback that compiled: why the first attempt failed,
/// and what was compiled instead.
void remarkFallback(mlir::ModuleOp module,
                    const std::vector<HeldDiagnostic> &first,
                    const Attempt &attempt) {
  mlir::Location at = module->getLoc();
  for (const HeldDiagnostic &d : first)
    if (d.severity == mlir::DiagnosticSeverity::Error) {
      mlir::emitRemark(d.loc)
          << (attempt.minBuffer ? "the default schedule's stage code failed: "
                                : "warp-specialized stage code failed: ")
          << d.text;
      at = d.loc;
    }
  if (!attempt.minBuffer) {
    mlir::emitRemark(at) << "compiled as peeled stage code (--materialize-"
                            "options=mode=unspecialized) instead";
    return;
  }
  mlir::emitRemark(at)
      << "compiled with each loop's stages placed for the fewest buffered "
         "bytes (--schedule-options=stages=min-buffer"
      << (attempt.peeled ? ", --materialize-options=mode=unspecialized" : "")
      << ") instead";
}

} // namespace

int tilepipe::tool::runCompileCommand(int argc, char **argv) {
  CompileOptions options;
  if (std::optional<int> exit = parseCompileOptions(argc, argv, options))
    return *exit;
  if (!tools::checkOutputPath(argc, argv, kTool))
    return ExitFailure;

  mlir::DialectRegistry registry;
  registerTileIRDialects(registry);
  tileir::registerTileIRDialect(registry);
  registry.insert<mlir::emitc::EmitCDialect>();
  mlir::MLIRContext context(registry);
  // Diagnostics in program order, and the protocol check's runs as the
  // translation makes them.
  context.disableMultithreading();
  // A diagnostic names the kernel's source line; the pass's dump of the whole
  // op it stands at (an entry, for a hint's remark) would bury it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      readInput(options, context, sourceMgr);
  if (!module ||
      mlir::failed(lowerTileIR(context, *module,
                               accumulatesInRegisters(options.targetFile))))
    return ExitFailure;
  // The default stage code is warp-specialized. Where the user named no
  // mode and that fails (e.g. two loops' rings that do not fit in SMEM side
  // by side), the kernel is compiled peeled instead and the reason is said
  // (docs/cuda-tile-launch.md, "Peeled when warp specialization fails").
  // Where the user named no stage policy and both fail for SMEM (attention
  // at head dim 256: K and V read stages after their loads), the loop is
  // scheduled again with stages=min-buffer, the fewest buffered bytes at
  // the same II, in both forms.
  std::vector<Attempt> attempts = fallbacks(options);
  std::vector<HeldDiagnostic> first;
  std::optional<int> exit;
  std::string cuda;
  bool overSmem = false;
  for (auto [i, attempt] : llvm::enumerate(attempts)) {
    if (attempt.forSmem && !overSmem)
      continue;
    // Each attempt compiles its own copy; the last may take the original.
    mlir::OwningOpRef<mlir::ModuleOp> copy;
    mlir::ModuleOp target = *module;
    if (i + 1 < attempts.size()) {
      copy = module->clone();
      target = *copy;
    }
    std::vector<HeldDiagnostic> held;
    std::optional<int> result;
    {
      std::optional<mlir::ScopedDiagnosticHandler> hold;
      if (attempts.size() > 1)
        hold.emplace(&context, holdInto(i == 0 ? first : held));
      result = compileLowered(attempt.options, context, target, cuda);
    }
    if (i == 0)
      exit = result;
    // Any attempt that ran out of SMEM (warp-specialized, or peeled after
    // the warp-specialized one failed otherwise) opens the min-buffer ones.
    overSmem |=
        llvm::any_of(i == 0 ? first : held, [](const HeldDiagnostic &d) {
          return StringRef(d.text).contains("fails to assign smem buffer") ||
                 StringRef(d.text).contains("of shared memory; a CTA has");
        });
    if (!result) {
      if (i > 0)
        remarkFallback(*module, first, attempt);
      exit = std::nullopt;
      break;
    }
    if (result != ExitFailure)
      break; // A usage error: no fallback changes that.
  }
  if (exit) {
    replay(first);
    return *exit;
  }
  return writeOutput(options, cuda);
}
