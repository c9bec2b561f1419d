//===- OpDecoder.h - decodes the functions and ops of a file ----*- C++ -*-===//
//
// Internal to the reader (docs in Ops.cpp): builds tileir.entry ops from
// the function section, one op at a time from its schema, and verifies
// each op as soon as its regions are complete so that an error names the
// op's byte offset.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_BYTECODE_OPDECODER_H
#define TILEPIPE_FRONTEND_CUTILE_BYTECODE_OPDECODER_H

#include "frontend/cutile/bytecode/ReaderState.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace tilepipe::tileir::bytecode {

/// What the fields of one op decode to.
struct DecodedOp {
  llvm::SmallVector<mlir::Type> resultTypes;
  llvm::SmallVector<mlir::Value> operands;
  llvm::SmallVector<int32_t> segments;
  mlir::NamedAttrList attributes;
  uint64_t flags = 0;
  unsigned numRegions = 0;
  bool segmented = false;
};
using DecodedOpRef = DecodedOp &;

class OpDecoder {
public:
  OpDecoder(ReaderState &state, mlir::ModuleOp module)
      : state(state), module(module) {}

  /// Decodes the function section into entries appended to the module.
  bool readFunctions();
  /// The last diagnostic a verifier emitted (for the error message).
  std::string lastDiagnostic;

private:
  mlir::MLIRContext *context() const { return state.context; }
  bool readFunction(ByteCursor &in, uint64_t index);
  bool readEntryHeader(ByteCursor &in, mlir::OperationState &entry,
                       mlir::FunctionType &type, uint64_t &debugIndex);
  bool readOps(ByteCursor &in, mlir::Block &block, uint64_t count,
               unsigned depth);
  bool readOp(ByteCursor &in, mlir::Block &block, unsigned depth);
  bool readRegions(ByteCursor &in, mlir::Operation *op, unsigned count,
                   unsigned depth);
  bool verifyOp(mlir::Operation *op, size_t offset);
  bool checkTerminators(mlir::Block &block);
  mlir::Location nextLocation();

  bool readField(ByteCursor &in, llvm::StringRef token, DecodedOpRef op);
  bool readAttributeField(ByteCursor &in, llvm::StringRef token,
                          DecodedOpRef op);
  bool readValueAttributeField(ByteCursor &in, llvm::StringRef head,
                               llvm::StringRef name, DecodedOpRef op);
  bool readEnum(ByteCursor &in, llvm::StringRef kind, llvm::StringRef name,
                llvm::StringRef defaultValue, mlir::NamedAttrList &attrs);
  bool readConstantValue(ByteCursor &in, llvm::StringRef name, DecodedOpRef op);
  bool readOperand(ByteCursor &in, mlir::Value &value);
  bool readOperands(ByteCursor &in, llvm::SmallVectorImpl<mlir::Value> &out,
                    int32_t *count);

  ReaderState &state;
  mlir::ModuleOp module;
  /// The values in scope, by id.
  llvm::SmallVector<mlir::Value> values;
  /// The current function's debug attribute ids, and the next op's index.
  llvm::ArrayRef<uint64_t> debugIds;
  size_t nextDebugId = 0;
  std::string functionName;
  /// Where each op starts, for errors found after it was read.
  llvm::DenseMap<mlir::Operation *, size_t> opOffsets;
};

} // namespace tilepipe::tileir::bytecode

#endif // TILEPIPE_FRONTEND_CUTILE_BYTECODE_OPDECODER_H
