//===- ReportCommand.cpp - `tilepipe report` ------------------------------===//
//
//   tilepipe report KERNEL.mlir -o OUT.html|OUT.svg [options]
//
// Schedules every innermost loop of a tile-IR file (pass 1,
// --tileas-generate-schedule), plans its stage code as the materializer
// does (buildLoopPlan, the plan `print-plan` prints), and writes one
// self-contained file with, per loop: the modulo reservation table as a
// heat map, one iteration on a stage timeline, the overlapped steady state,
// and the agents with their pipes and mutexes. The IR itself is not
// rewritten or written out.
//
// Exit status: 0 with the file written, 1 when the input cannot be read,
// parsed or scheduled (diagnostics on stderr with their locations; no file
// is left behind), 2 for a bad command line.
//
//===----------------------------------------------------------------------===//

#include "ir/ExternalModels.h"
#include "ir/TileASDialect.h"
#include "materialize/mlir/LoopPlan.h"
#include "tools/report/PlanPicture.h"
#include "report/Document.h"
#include "report/SVGText.h"
#include "report/ScheduleSVG.h"
#include "scheduler/mlir/LoopProblem.h"
#include "scheduler/mlir/Passes.h"
#include "tools/input/ModuleInput.h"
#include "tools/report/ReportWriters.h"
#include "tools/tilepipe/Subcommands.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace tilepipe;
using namespace tilepipe::tool;
using llvm::StringRef;

namespace tilepipe::tool {
int runReportCommand(int argc, char **argv);
} // namespace tilepipe::tool

namespace {

void printReportUsage(llvm::raw_ostream &os) {
  os << "usage: tilepipe report KERNEL.mlir -o OUT.html|OUT.svg [options]\n\n"
        "  -o FILE                 the report: an HTML page with the pictures "
        "inline,\n"
        "                          or (OUT.svg) one SVG stacking them; '-' "
        "is stdout\n"
        "  --format=html|svg       override the format the extension picks\n"
        "  --target FILE           JSON target description (default: the "
        "built-in\n"
        "                          sm_100a)\n"
        "  --schedule-options=OPTS more options of --tileas-generate-schedule"
        ",\n"
        "                          e.g. 'seed=gaus search=linear'\n\n"
        "Per innermost scf.for loop: the modulo reservation table as a heat "
        "map, one\n"
        "iteration on a stage timeline, the overlapped steady state, and the "
        "agents\n"
        "with their pipes and mutexes (the plan the materializer builds).\n";
}

int usageError(const llvm::Twine &message) {
  llvm::errs() << "tilepipe report: " << message << "\n";
  printReportUsage(llvm::errs());
  return ExitUsage;
}

struct ReportOptions {
  std::string input, output, targetFile, scheduleOptions;
  std::optional<report::DocumentFormat> format;
};

/// Parses the command line; an exit status when it is done already (help,
/// or a usage error).
std::optional<int> parseReportOptions(int argc, char **argv,
                                      ReportOptions &options) {
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    // The value of a two-word option (`-o FILE`).
    auto next = [&]() -> std::optional<std::string> {
      if (i + 1 == argc)
        return std::nullopt;
      return std::string(argv[++i]);
    };
    if (arg == "--help" || arg == "-h") {
      printReportUsage(llvm::outs());
      return ExitOk;
    }
    if (arg == "-o") {
      std::optional<std::string> v = next();
      if (!v || v->empty())
        return usageError("-o needs a file name");
      options.output = *v;
    } else if (arg.consume_front("--format=")) {
      if (arg == "html")
        options.format = report::DocumentFormat::HTML;
      else if (arg == "svg")
        options.format = report::DocumentFormat::SVG;
      else
        return usageError("unknown format '" + arg +
                          "' (expected html or svg)");
    } else if (arg == "--target" || arg.starts_with("--target=")) {
      std::optional<std::string> v =
          arg.consume_front("--target=") ? std::optional(arg.str()) : next();
      if (!v || v->empty())
        return usageError("--target needs a file name");
      options.targetFile = *v;
    } else if (arg.consume_front("--schedule-options=")) {
      options.scheduleOptions = arg.str();
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
    return usageError("no output file (-o OUT.html or -o OUT.svg)");
  if (!options.format)
    options.format =
        llvm::sys::path::extension(options.output).equals_insensitive(".svg")
            ? report::DocumentFormat::SVG
            : report::DocumentFormat::HTML;
  return std::nullopt;
}

/// Reads and verifies the input module; null when that fails (diagnosed).
mlir::OwningOpRef<mlir::ModuleOp> readModule(const ReportOptions &options,
                                             mlir::MLIRContext &context,
                                             llvm::SourceMgr &sourceMgr) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(options.input, /*IsText=*/true);
  if (!buffer) {
    llvm::errs() << options.input << ": error: cannot read the file: "
                 << buffer.getError().message() << "\n";
    return nullptr;
  }
  return tools::parseModuleText(std::move(*buffer), options.input, context,
                                sourceMgr);
}

/// Pass 1 as tilepipe-opt runs it, so that the report shows what the
/// pipeline would publish (its options included); an exit status when it
/// fails.
std::optional<int> runSchedulePass(const ReportOptions &options,
                                   mlir::MLIRContext &context,
                                   mlir::ModuleOp module) {
  static bool registered = [] {
    registerTilePipePasses();
    tools::installReportWriters();
    return true;
  }();
  (void)registered;
  std::string passOptions = options.scheduleOptions;
  if (!options.targetFile.empty())
    passOptions += " target=" + tools::quotedPassOption(options.targetFile);
  mlir::PassManager pm(&context);
  // The pipeline nests under the module the manager is anchored on.
  std::string pipeline = "tileas-generate-schedule{" + passOptions + "}";
  std::string pipelineError;
  llvm::raw_string_ostream pipelineErrors(pipelineError);
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, pipelineErrors))) {
    llvm::errs() << "tilepipe report: bad --schedule-options '"
                 << options.scheduleOptions << "': " << pipelineError << "\n";
    return ExitUsage;
  }
  if (mlir::failed(pm.run(module)))
    return ExitFailure;
  return std::nullopt;
}

/// One section per innermost loop: its schedule and plan pictures, or why
/// it was not scheduled. Fails when a loop was diagnosed already.
mlir::LogicalResult loopSections(mlir::ModuleOp module,
                                 const target::TargetModel &target,
                                 std::vector<report::Section> &sections) {
  for (mlir::scf::ForOp loop : innermostLoops(module)) {
    report::Section section;
    llvm::raw_string_ostream heading(section.heading);
    heading << "loop at " << loop.getLoc();
    std::string why;
    mlir::FailureOr<LoopPlan> plan =
        buildLoopPlan(loop, /*published=*/nullptr, target, why);
    if (mlir::failed(plan)) {
      if (why.empty())
        return mlir::failure(); // Diagnosed at the loop already.
      section.notes.push_back("not scheduled: " + why);
      sections.push_back(std::move(section));
      continue;
    }
    // A schedule read back from the attributes carries no bounds; the
    // picture's title compares the II with MII.
    plan->schedule.bounds = plan->loop.problem.computeBounds();
    std::string scheduleSVG, planSVG;
    llvm::raw_string_ostream scheduleOS(scheduleSVG), planOS(planSVG);
    // The section heading names the loop; the pictures say what they show.
    report::writeScheduleSVG(scheduleOS, plan->loop.problem, plan->schedule,
                             "schedule");
    report::writePlanSVG(planOS, planPicture(*plan, "agents and pipes"));
    section.svgs = {std::move(scheduleSVG), std::move(planSVG)};
    sections.push_back(std::move(section));
  }
  return mlir::success();
}

/// Writes the document to -o (stdout for "-").
int writeReportDocument(const ReportOptions &options,
                        const std::vector<report::Section> &sections) {
  std::string title =
      "tilepipe report: " + llvm::sys::path::filename(options.input).str();
  auto write = [&](llvm::raw_ostream &os) {
    report::writeDocument(os, title, sections, *options.format);
  };
  if (options.output == "-") {
    write(llvm::outs());
    return ExitOk;
  }
  if (llvm::Error err = report::writeSVGFile(options.output, write)) {
    llvm::errs() << options.output
                 << ": error: " << llvm::toString(std::move(err)) << "\n";
    return ExitFailure;
  }
  return ExitOk;
}

} // namespace

int tilepipe::tool::runReportCommand(int argc, char **argv) {
  ReportOptions options;
  if (std::optional<int> exit = parseReportOptions(argc, argv, options))
    return *exit;

  mlir::DialectRegistry registry;
  registerTileIRDialects(registry);
  mlir::MLIRContext context(registry);
  // One thread: the report is a few loops, and a single-threaded context
  // keeps diagnostics in program order.
  context.disableMultithreading();
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      readModule(options, context, sourceMgr);
  if (!module)
    return ExitFailure;
  if (std::optional<int> exit = runSchedulePass(options, context, *module))
    return *exit;

  const target::TargetModel *target = nullptr;
  std::shared_ptr<target::TargetModel> ownedTarget;
  if (mlir::failed(
          loadTargetOption(&context, options.targetFile, target, ownedTarget)))
    return ExitFailure;
  std::vector<report::Section> sections;
  if (mlir::failed(loopSections(*module, *target, sections)))
    return ExitFailure;
  if (sections.empty())
    llvm::errs() << options.input
                 << ": warning: no innermost scf.for loop to report\n";
  return writeReportDocument(options, sections);
}
