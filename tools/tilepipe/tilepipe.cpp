//===- tilepipe.cpp - the tilepipe command-line driver --------------------===//
//
// Dispatches `tilepipe <subcommand> ...` to the registry in Subcommands.h.
//
//===----------------------------------------------------------------------===//

#include "tools/tilepipe/Subcommands.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilepipe::tool;

namespace tilepipe::tool {
int runScheduleCommand(int argc, char **argv); // ScheduleCommand.cpp
int runGausCommand(int argc, char **argv);     // GausCommand.cpp
int runReportCommand(int argc, char **argv);   // ReportCommand.cpp
int runCompileCommand(int argc, char **argv);  // CompileCommand.cpp
} // namespace tilepipe::tool

llvm::ArrayRef<Subcommand> tilepipe::tool::getSubcommands() {
  static const Subcommand table[] = {
      {"target", "print or check a target description (the resource model)",
       runTargetCommand},
      {"schedule", "modulo-schedule a problem file (JSON, or HatScheT graphML)",
       runScheduleCommand},
      {"gaus", "GauS, list and force-directed scheduling side by side "
               "(formulations A, B, C)",
       runGausCommand},
      {"report", "one HTML or SVG file with every loop's schedule and plan "
                 "pictures",
       runReportCommand},
      {"compile", "CUDA Tile IR bytecode or tile IR to a CUDA kernel and its "
                  "launchers",
       runCompileCommand},
  };
  return table;
}

static void printUsage(llvm::raw_ostream &os) {
  os << "usage: tilepipe <subcommand> [options]\n"
        "       tilepipe <subcommand> --help\n\nsubcommands:\n";
  for (const Subcommand &sub : getSubcommands())
    os << "  " << llvm::left_justify(sub.name, 10) << "  " << sub.help << "\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 2) {
    printUsage(llvm::errs());
    return ExitUsage;
  }
  llvm::StringRef name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(llvm::outs());
    return ExitOk;
  }
  for (const Subcommand &sub : getSubcommands())
    if (name == sub.name)
      return sub.run(argc - 1, argv + 1);
  llvm::errs() << "tilepipe: unknown subcommand '" << name << "'\n";
  printUsage(llvm::errs());
  return ExitUsage;
}
