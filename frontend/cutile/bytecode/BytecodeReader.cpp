//===- BytecodeReader.cpp - CUDA Tile IR bytecode to tileir ---------------===//
//
// The reader's entry point and the `--import-tileir-bytecode` translation:
// header and sections, tables, then the functions; any failure becomes one
// "tileir bytecode: offset 0x..: ..." error and no module.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/BytecodeReader.h"
#include "frontend/cutile/bytecode/OpDecoder.h"
#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tilepipe::tileir;
using namespace tilepipe::tileir::bytecode;

OwningOpRef<mlir::ModuleOp> tilepipe::tileir::bytecode::readBytecode(
    ArrayRef<uint8_t> bytes, StringRef fileName, MLIRContext *context,
    std::string &error) {
  context->getOrLoadDialect<TileIRDialect>();
  ReaderState state(bytes, fileName, context);
  OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(FileLineColLoc::get(context, fileName, 0, 0));
  OpDecoder decoder(state, *module);
  // Verifier messages become part of the reader's own error.
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    decoder.lastDiagnostic = diag.str();
    return success();
  });
  bool ok = state.readHeaderAndSections() && state.readTables() &&
            decoder.readFunctions();
  if (ok && failed(mlir::verify(*module)))
    state.fail(0, "invalid module: " + decoder.lastDiagnostic);
  if (const std::optional<ReadError> &failure = state.errors.get()) {
    error = ("tileir bytecode: offset 0x" +
             llvm::Twine(llvm::utohexstr(failure->offset, /*LowerCase=*/true)) +
             ": " + failure->message)
                .str();
    std::replace(error.begin(), error.end(), '\n', ' ');
    return nullptr;
  }
  return module;
}

void tilepipe::tileir::bytecode::registerTileIRBytecodeImport() {
  TranslateToMLIRRegistration registration(
      "import-tileir-bytecode", "read CUDA Tile IR bytecode into tileir",
      [](llvm::SourceMgr &sources,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sources.getMemoryBuffer(sources.getMainFileID());
        ArrayRef<uint8_t> bytes(
            reinterpret_cast<const uint8_t *>(buffer->getBufferStart()),
            buffer->getBufferSize());
        std::string error;
        OwningOpRef<mlir::ModuleOp> module =
            readBytecode(bytes, buffer->getBufferIdentifier(), context, error);
        if (!module) {
          // The offset is the location; the file is the input.
          emitError(
              FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0, 0))
              << error;
          return nullptr;
        }
        return OwningOpRef<Operation *>(module.release());
      },
      [](DialectRegistry &registry) { registry.insert<TileIRDialect>(); });
}
