//===- TargetCommand.cpp - `tilepipe target` ------------------------------===//
//
//   tilepipe target --dump [--json] [--target NAME|FILE]
//   tilepipe target --check --target NAME|FILE
//
// Loads the built-in sm_100a model, or FILE, and prints it as a table or as
// JSON (the JSON loads back into the same model), or only checks that FILE
// loads. A bad FILE prints the loader's message and exits 1.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"
#include "tools/tilepipe/Subcommands.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace tilepipe;
using namespace tilepipe::tool;

static void printTargetUsage(llvm::raw_ostream &os) {
  os << "usage: tilepipe target --dump [--json] [--target NAME|FILE]\n"
        "       tilepipe target --check --target NAME|FILE\n\n"
        "  --dump           print the target description (default: the\n"
        "                   built-in sm_100a)\n"
        "  --json           print it as a JSON target file instead of a "
        "table\n"
        "  --target T       a built-in target by name (sm_100a, sm_90a) or a\n"
        "                   JSON target file\n"
        "  --check          only load and validate the target file\n";
}

static int usageError(const llvm::Twine &message) {
  llvm::errs() << "tilepipe target: " << message << "\n";
  printTargetUsage(llvm::errs());
  return ExitUsage;
}

int tilepipe::tool::runTargetCommand(int argc, char **argv) {
  bool dump = false, asJSON = false, check = false;
  std::optional<std::string> targetFile;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      printTargetUsage(llvm::outs());
      return ExitOk;
    }
    if (arg == "--dump") {
      dump = true;
    } else if (arg == "--json") {
      asJSON = true;
    } else if (arg == "--check") {
      check = true;
    } else if (arg == "--target") {
      if (i + 1 == argc)
        return usageError("--target needs a file name");
      targetFile = argv[++i];
    } else if (arg.consume_front("--target=")) {
      targetFile = arg.str();
    } else {
      return usageError("unknown option '" + arg + "'");
    }
  }
  if (dump == check)
    return usageError("give exactly one of --dump and --check");
  if (check && !targetFile)
    return usageError("--check needs --target FILE");
  if (asJSON && !dump)
    return usageError("--json only applies to --dump");

  std::optional<target::TargetModel> loaded;
  if (const target::TargetModel *builtin =
          targetFile ? target::TargetModel::builtin(*targetFile) : nullptr) {
    loaded = *builtin;
  } else if (targetFile) {
    llvm::Expected<target::TargetModel> model =
        target::TargetModel::fromFile(*targetFile);
    if (!model) {
      llvm::errs() << "tilepipe: error: " << llvm::toString(model.takeError())
                   << "\n";
      return ExitFailure;
    }
    loaded = std::move(*model);
  }
  const target::TargetModel &model =
      loaded ? *loaded : target::TargetModel::sm100a();

  if (check) {
    llvm::outs() << *targetFile << ": ok (" << model.getName() << ", "
                 << model.getSlots().size() << " slots, "
                 << model.getPools().size() << " pools, "
                 << model.getOpClasses().size() << " op classes)\n";
    return ExitOk;
  }
  if (asJSON)
    llvm::outs() << llvm::formatv("{0:2}", model.toJSON()) << "\n";
  else
    model.print(llvm::outs());
  return ExitOk;
}
