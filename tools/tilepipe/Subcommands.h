//===- Subcommands.h - the tilepipe CLI's subcommand registry --*- C++ -*-===//
//
// `tilepipe <subcommand> [options]`. Each subcommand lives in its own file
// and parses its own options, so that adding one (say `schedule`) is a new
// file, a declaration here and a row in the table in tilepipe.cpp. Options
// are parsed by hand rather than with llvm::cl: cl options are process-wide,
// and two subcommands could not both own a `--target`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TOOLS_TILEPIPE_SUBCOMMANDS_H
#define TILEPIPE_TOOLS_TILEPIPE_SUBCOMMANDS_H

#include "llvm/ADT/ArrayRef.h"

namespace tilepipe::tool {

/// Exit statuses shared by every subcommand.
enum ExitCode : int {
  ExitOk = 0,
  ExitFailure = 1, ///< The input was read and found wrong.
  ExitUsage = 2,   ///< The command line itself was wrong.
};

struct Subcommand {
  const char *name;
  const char *help; ///< One line for `tilepipe --help`.
  /// argv[0] is the subcommand's name; the options follow.
  int (*run)(int argc, char **argv);
};

/// Every subcommand, in the order `tilepipe --help` lists them.
llvm::ArrayRef<Subcommand> getSubcommands();

int runTargetCommand(int argc, char **argv);

} // namespace tilepipe::tool

#endif // TILEPIPE_TOOLS_TILEPIPE_SUBCOMMANDS_H
