//===- fuzz-tileir-bytecode.cpp - libFuzzer target: the tileir reader -----===//
//
// Reads the bytes as CUDA Tile IR bytecode (frontend/cutile/bytecode): bad
// input must be an error with an offset, never a crash. What reads is
// printed and parsed back with the tileir dialect, which must accept it
// (abort otherwise): the reader never builds IR its own printer cannot
// write. Each input gets a fresh context.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/BytecodeReader.h"
#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

// The dialect's attribute and type storages are allocated by LLVM's bump
// allocator inlined into this (instrumented) code, which poisons each new
// slab for ASan; libMLIR, not instrumented, then allocates from the same
// slab without unpoisoning, and its next memcpy there reads as
// use-after-poison. Manual poisoning is off here; ASan still checks every
// heap allocation of its own.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::DialectRegistry registry;
  tilepipe::tileir::registerTileIRDialect(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilepipe::tileir::bytecode::readBytecode(
          llvm::ArrayRef(data, size), "fuzz.tileirbc", &context, error);
  if (!module) {
    if (!llvm::StringRef(error).starts_with("tileir bytecode: offset 0x"))
      abort();
    return 0;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  mlir::ParserConfig config(&context);
  if (!mlir::parseSourceString<mlir::ModuleOp>(os.str(), config))
    abort();
  return 0;
}
