//===- ModuleInput.cpp - MLIR text in, for the tilepipe subcommands -------===//

#include "tools/input/ModuleInput.h"

#include "tools/input/NestedForwardUse.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

using namespace tilepipe;

mlir::OwningOpRef<mlir::ModuleOp>
tools::parseModuleText(std::unique_ptr<llvm::MemoryBuffer> buffer,
                       llvm::StringRef name, mlir::MLIRContext &context,
                       llvm::SourceMgr &sourceMgr) {
  // MLIR 19's parser crashes on this kind of invalid IR (NestedForwardUse.h).
  if (std::optional<NestedForwardUse> found =
          findNestedForwardUse(buffer->getBuffer())) {
    printNestedForwardUse(*found, name, llvm::errs());
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

std::string tools::quotedPassOption(llvm::StringRef value) {
  std::string out = "\"";
  for (char c : value)
    out += c == '"' ? '\'' : c;
  return out + "\"";
}
