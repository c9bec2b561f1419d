//===- TileIRDialect.h - The tileir dialect ---------------------*- C++ -*-===//
//
// The one public header of tilepipe's CUDA Tile IR dialect: the dialect, its
// types and attributes, the enums ops carry, and the ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_IR_TILEIRDIALECT_H
#define TILEPIPE_FRONTEND_CUTILE_IR_TILEIRDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

#include "frontend/cutile/ir/TileIRDialect.h.inc"
#include "frontend/cutile/ir/TileIREnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "frontend/cutile/ir/TileIRTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "frontend/cutile/ir/TileIRAttrs.h.inc"

#define GET_OP_CLASSES
#include "frontend/cutile/ir/TileIROps.h.inc"

namespace tilepipe::tileir {

/// Parses a tileir type written as tileirdisasm writes it, without the
/// `!tileir.` prefix (`tile<4xf32>`, `token`), or any other type in full.
mlir::ParseResult parseTileIRType(mlir::AsmParser &parser, mlir::Type &type);
/// Prints `type` so that parseTileIRType reads it back.
void printTileIRType(mlir::AsmPrinter &printer, mlir::Type type);

/// The padding values a partition view may name.
bool isPaddingValueName(llvm::StringRef name);

/// Registers the dialect: what a tool that reads cuTile kernels calls.
void registerTileIRDialect(mlir::DialectRegistry &registry);

} // namespace tilepipe::tileir

#endif // TILEPIPE_FRONTEND_CUTILE_IR_TILEIRDIALECT_H
