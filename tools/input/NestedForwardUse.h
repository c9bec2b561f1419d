//===- NestedForwardUse.h - values used before a nested definition -*- C++ -*-===//
//
// MLIR 19's parser crashes (a use after free) on a value that an op uses
// before the value's definition inside one of that op's own regions:
//
//   %r = scf.for ... iter_args(%a = %x) -> (f32) {
//     %x = arith.constant 1.0 : f32
//
// The forward reference is resolved and freed while the op is still an
// OperationState (llvm/llvm-project#127778, fixed in LLVM 20). Such IR is
// never valid: a value defined in a region is visible only inside it. The
// drivers scan their input for it before MLIR parses it and report it as an
// error with a location (docs/fuzzing.md, "The campaign").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TOOLS_INPUT_NESTEDFORWARDUSE_H
#define TILEPIPE_TOOLS_INPUT_NESTEDFORWARDUSE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace tilepipe::tools {

struct NestedForwardUse {
  std::string name;        ///< The value, with its `%`.
  unsigned line = 0, column = 0; ///< The use (1-based).
  unsigned defLine = 0;    ///< The definition, nested deeper.
};

/// The first value of `text` used before a definition that lies in a
/// region opened after the use and before the use's own region closes.
/// Conservative the safe way: a use it takes for a definition can only hide
/// a finding, never make one. `// -----` (split-input-file) starts afresh.
std::optional<NestedForwardUse> findNestedForwardUse(llvm::StringRef text);

/// "FILE:LINE:COL: error: '%x' is used before its definition ...".
void printNestedForwardUse(const NestedForwardUse &found, llvm::StringRef file,
                           llvm::raw_ostream &os);

/// For the drivers: scans the input file that `argv` names (stdin when it
/// names none, or "-": then the text read is handed back on stdin), and on a
/// finding prints "FILE:LINE:COL: error: ..." and returns false.
bool checkNestedForwardUses(int argc, char **argv);

} // namespace tilepipe::tools

#endif // TILEPIPE_TOOLS_INPUT_NESTEDFORWARDUSE_H
