//===- BytecodeReader.h - CUDA Tile IR bytecode to tileir -------*- C++ -*-===//
//
// Reads CUDA Tile IR bytecode (versions 13.1 to 13.4, as cuTile writes it)
// into the tileir dialect (docs/cuda-tile-reader.md). Bad input is an error
// naming the byte offset, never a crash or a hang: every length is bounded
// by the bytes left, tables may only refer backwards, and regions nest at
// most kMaxRegionDepth deep.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_BYTECODE_BYTECODEREADER_H
#define TILEPIPE_FRONTEND_CUTILE_BYTECODE_BYTECODEREADER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tilepipe::tileir::bytecode {

/// How deep regions (loop and branch bodies) may nest.
inline constexpr unsigned kMaxRegionDepth = 64;

/// The 8 bytes every CUDA Tile IR bytecode file opens with.
inline constexpr uint8_t kMagic[8] = {0x7f, 'T', 'i', 'l', 'e', 'I', 'R', 0};

/// Whether `bytes` opens with the bytecode's magic number (a tool's choice
/// between the bytecode reader and the MLIR text parser).
inline bool hasBytecodeMagic(llvm::ArrayRef<uint8_t> bytes) {
  return bytes.size() >= sizeof(kMagic) &&
         llvm::equal(bytes.take_front(sizeof(kMagic)), kMagic);
}

/// Reads `bytes` into a module of tileir.entry ops. On bad input returns
/// null and sets `error` to "tileir bytecode: offset 0x1a3: ...".
/// `fileName` names the input in locations when the debug info has none.
mlir::OwningOpRef<mlir::ModuleOp> readBytecode(llvm::ArrayRef<uint8_t> bytes,
                                               llvm::StringRef fileName,
                                               mlir::MLIRContext *context,
                                               std::string &error);

/// `tilepipe-translate --import-tileir-bytecode`.
void registerTileIRBytecodeImport();

} // namespace tilepipe::tileir::bytecode

#endif // TILEPIPE_FRONTEND_CUTILE_BYTECODE_BYTECODEREADER_H
