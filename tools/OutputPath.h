//===- OutputPath.h - refusing an -o the drivers cannot write --*- C++ -*-===//
//
// MLIR's opt and translate mains print "cannot open output file ..." with
// no "error:" and no tool name when `-o` names a missing folder or a folder
// itself. The drivers check the path first and say it as every other
// diagnostic does: "TOOL: error: ...", exit status 1, nothing written.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TOOLS_OUTPUTPATH_H
#define TILEPIPE_TOOLS_OUTPUTPATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace tilepipe::tools {

/// False, with the error printed, when an `-o` of argv names a path whose
/// folder does not exist or that is a folder.
inline bool checkOutputPath(int argc, char **argv, llvm::StringRef tool) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i], path;
    if ((arg == "-o" || arg == "--o") && i + 1 < argc)
      path = argv[i + 1];
    else if (arg.consume_front("-o=") || arg.consume_front("--o="))
      path = arg;
    else
      continue;
    if (path.empty() || path == "-")
      continue;
    llvm::StringRef folder = llvm::sys::path::parent_path(path);
    const char *why = nullptr;
    if (llvm::sys::fs::is_directory(path))
      why = "it is a folder";
    else if (!folder.empty() && !llvm::sys::fs::is_directory(folder))
      why = "its folder does not exist";
    if (!why)
      continue;
    llvm::errs() << tool << ": error: cannot open output file '" << path
                 << "': " << why << "\n";
    return false;
  }
  return true;
}

} // namespace tilepipe::tools

#endif // TILEPIPE_TOOLS_OUTPUTPATH_H
