//===- ModuleInput.h - MLIR text in, for the tilepipe subcommands -*- C++ -*-===//
//
// What every subcommand that takes MLIR text does with it: guard MLIR 19's
// parser against the input that crashes it (NestedForwardUse.h), parse,
// verify; and how a file name goes into a textual pass pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TOOLS_INPUT_MODULEINPUT_H
#define TILEPIPE_TOOLS_INPUT_MODULEINPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace tilepipe::tools {

/// The module `buffer` holds as MLIR text (`name` in diagnostics), parsed
/// and verified; null when that fails (diagnosed, the parser's through
/// `sourceMgr`).
mlir::OwningOpRef<mlir::ModuleOp>
parseModuleText(std::unique_ptr<llvm::MemoryBuffer> buffer,
                llvm::StringRef name, mlir::MLIRContext &context,
                llvm::SourceMgr &sourceMgr);

/// A pass-option value in a textual pipeline, quoted so that spaces and
/// braces in a path survive.
std::string quotedPassOption(llvm::StringRef value);

} // namespace tilepipe::tools

#endif // TILEPIPE_TOOLS_INPUT_MODULEINPUT_H
