//===- OpSchemas.h - how each opcode's fields are laid out ------*- C++ -*-===//
//
// An op in tileir bytecode is its opcode (a varint), then fields in an
// order fixed per opcode: result types, a flags varint that announces
// optional fields and unit attributes, attributes, operands (value ids) and
// regions. A schema spells that order as a recipe of space-separated
// tokens, interpreted by the op decoder (Ops.cpp; the tokens are listed
// there). `@N` gates a field on bytecode version 13.N or later.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_BYTECODE_OPSCHEMAS_H
#define TILEPIPE_FRONTEND_CUTILE_BYTECODE_OPSCHEMAS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tilepipe::tileir::bytecode {

struct OpSchema {
  uint64_t opcode;
  llvm::StringLiteral name; ///< The tileir op's mnemonic.
  /// Empty for an opcode the reader knows but the dialect does not model.
  llvm::StringLiteral recipe;
};

/// The schema of `opcode`, or null for an opcode unknown to 13.1-13.4.
const OpSchema *lookupOpSchema(uint64_t opcode);

} // namespace tilepipe::tileir::bytecode

#endif // TILEPIPE_FRONTEND_CUTILE_BYTECODE_OPSCHEMAS_H
