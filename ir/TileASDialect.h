//===- TileASDialect.h - The tileas dialect ---------------------*- C++ -*-===//
//
// The one public header of the tileas dialect: the dialect, its tile types,
// SchedulableOpInterface and the ops.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_TILEASDIALECT_H
#define TILEPIPE_IR_TILEASDIALECT_H

#include "target/Target.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

//===----------------------------------------------------------------------===//
// Dialect and types.
//===----------------------------------------------------------------------===//

#include "ir/TileASDialect.h.inc"

namespace mlir::tileas {

/// Bytes a statically shaped tile (smem, tmem, descriptor box or tensor)
/// occupies: element bit width times element count, rounded up.
int64_t getTileSizeInBytes(ShapedType type);
/// The buffer a chain of `tileas.smem_view`s reads.
Value stripViews(Value v);

namespace detail {
/// The `<128x64xbf16>` syntax shared by every tile type.
void printTileType(AsmPrinter &printer, ArrayRef<int64_t> shape,
                   Type elementType);
ParseResult parseTileBody(AsmParser &parser, SmallVectorImpl<int64_t> &shape,
                          Type &elementType);

template <typename TileT> Type parseTileType(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (failed(parseTileBody(parser, shape, elementType)))
    return {};
  return TileT::getChecked([&] { return parser.emitError(loc); },
                           parser.getContext(), shape, elementType);
}
} // namespace detail

} // namespace mlir::tileas

#define GET_TYPEDEF_CLASSES
#include "ir/TileASTypes.h.inc"

//===----------------------------------------------------------------------===//
// Memory resources.
//===----------------------------------------------------------------------===//

namespace mlir::tileas {

/// The CTA's shared memory, distinct from global memory (the default
/// resource) so that analyses do not order SMEM traffic against memref ops.
struct SharedMemoryResource
    : public SideEffects::Resource::Base<SharedMemoryResource> {
  StringRef getName() final { return "tileas.shared_memory"; }
};

/// The SM's tensor memory (TMEM).
struct TensorMemoryResource
    : public SideEffects::Resource::Base<TensorMemoryResource> {
  StringRef getName() final { return "tileas.tensor_memory"; }
};

} // namespace mlir::tileas

MLIR_DECLARE_EXPLICIT_TYPE_ID(::mlir::tileas::SharedMemoryResource)
MLIR_DECLARE_EXPLICIT_TYPE_ID(::mlir::tileas::TensorMemoryResource)

//===----------------------------------------------------------------------===//
// Interface and ops.
//===----------------------------------------------------------------------===//

#include "ir/TileASInterfaces.h.inc"

// The pipe, mutex and agent kinds; op accessors return these.
#include "ir/TileASEnums.h.inc"

namespace mlir::tileas {
/// How a producer of this kind makes a slot's full barrier complete: the
/// only commit `via` its pipes accept (docs/stage-code.md).
SignalKind getCommitKind(PipeProducerKind kind);
/// The release a consumer of this kind can perform on the empty barrier.
SignalKind getReleaseKind(PipeConsumerKind kind);
/// 32-bit TMEM columns one tile of this type spans (all 128 lanes).
int64_t getTmemColumns(TmemType type);
} // namespace mlir::tileas

#define GET_OP_CLASSES
#include "ir/TileASOps.h.inc"

namespace mlir::tileas {
/// The `into` operand of an op that writes a buffer it is given (tma_load,
/// cp_async, tmem_store, smem_store, tmem_copy), or null when it names none.
OpOperand *getIntoOperand(Operation *op);
/// Makes such an op write `buffer` (a pipe slot): sets its `into` operand,
/// keeping the operand segments of those with coordinates right.
void setIntoOperand(Operation *op, Value buffer);

/// Whether a TMEM tile holds an MMA accumulator (D): made by alloc_tmem or
/// umma, read or written as some umma's accumulator, or a slot of a pipe an
/// umma produces. The other TMEM tiles hold data written by tcgen05.st
/// (tmem_store) for an MMA's A operand, or tcgen05.cp's scale factors.
bool holdsAccumulator(Value tile);
/// 32-bit TMEM columns an MMA accumulator of this type spans: one element
/// per column whatever its width (PTX ISA, "Data path layout
/// organization"; a 16-bit D sits in the low half of its column).
int64_t getAccumulatorColumns(TmemType type);
/// The columns `tile` spans in the layout it holds (accumulator or data).
int64_t getTmemColumns(Value tile);

/// An MMA's `a_unsigned` / `b_unsigned` (umma, wgmma): each set only on an
/// 8-bit integer operand.
LogicalResult verifyUnsignedOperands(Operation *mma, Type a, Type b,
                                     bool aUnsigned, bool bUnsigned);
/// The columns one TMEM slot of `pipe` spans: an accumulator's when an umma
/// produces the pipe's slots.
int64_t getPipeSlotColumns(PipeCreateOp pipe, TmemType slot);

/// The discardable attribute that carries a stage-code op's origin, the
/// user's file and line, through any printer (docs/stage-code.md, "Source
/// locations survive printing").
inline constexpr llvm::StringLiteral kSourceLocAttrName = "tileas.src";
/// Stamps every op under `root` (not `root` itself) whose location names a
/// file, and that has no stamp yet, with that file location.
void stampSourceLocations(Operation *root);
/// Gives every stamped op under `root` its stamp as its location unless its
/// own location names a file other than `stageFile` (the stage code's own
/// text), so that diagnostics name the user's file and line.
void restoreSourceLocations(Operation *root, StringRef stageFile);
/// The first file location inside `loc` (through fused, name and call-site
/// locations), or null.
FileLineColLoc findFileLoc(Location loc);
} // namespace mlir::tileas

#endif // TILEPIPE_IR_TILEASDIALECT_H
