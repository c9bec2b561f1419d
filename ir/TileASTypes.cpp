//===- TileASTypes.cpp - Tile buffer and descriptor types -----------------===//
//
// Syntax and verification of !tileas.smem, !tileas.tmem and
// !tileas.tma_desc, and verification of !tileas.pipe.
//
//===----------------------------------------------------------------------===//

#include "ir/TileASDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

using namespace mlir;
using namespace mlir::tileas;

int64_t mlir::tileas::getTileSizeInBytes(ShapedType type) {
  // Rounded up so that sub-byte element types never report a zero-byte tile;
  // saturated, so that a tile of 2^62 elements is "too big", not negative.
  bool overflow = false;
  uint64_t bits = llvm::SaturatingMultiply(
      uint64_t(type.getNumElements()),
      uint64_t(type.getElementTypeBitWidth()), &overflow);
  uint64_t bytes = overflow ? UINT64_MAX / 8 : (bits + 7) / 8;
  return int64_t(std::min<uint64_t>(bytes, uint64_t(INT64_MAX)));
}

void mlir::tileas::detail::printTileType(AsmPrinter &printer,
                                         ArrayRef<int64_t> shape,
                                         Type elementType) {
  printer << '<';
  printer.printDimensionList(shape);
  printer << 'x' << elementType << '>';
}

ParseResult mlir::tileas::detail::parseTileBody(AsmParser &parser,
                                                SmallVectorImpl<int64_t> &shape,
                                                Type &elementType) {
  // Tiles are physical buffers, so dynamic sizes are rejected while parsing.
  return failure(parser.parseLess() ||
                 parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
                 parser.parseType(elementType) || parser.parseGreater());
}

/// Checks what every tile type requires: a non-empty static positive shape
/// and an integer or float element type, whose bit width sizes the buffer.
static LogicalResult verifyTile(function_ref<InFlightDiagnostic()> emitError,
                                StringRef typeName, ArrayRef<int64_t> shape,
                                Type elementType) {
  if (shape.empty())
    return emitError() << typeName << " must have at least one dimension";
  for (auto [i, size] : llvm::enumerate(shape))
    if (size <= 0)
      return emitError() << typeName << " dimension " << i
                         << " must be a static positive size, got " << size;
  if (!elementType.isIntOrFloat())
    return emitError() << typeName
                       << " element type must be an integer or float type, got "
                       << elementType;
  return success();
}

#define GET_TYPEDEF_CLASSES
#include "ir/TileASTypes.cpp.inc"

void TileASDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ir/TileASTypes.cpp.inc"
      >();
}

LogicalResult SmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  return verifyTile(emitError, "!tileas.smem", shape, elementType);
}

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (failed(verifyTile(emitError, "!tileas.tmem", shape, elementType)))
    return failure();
  // Tensor memory is addressed as (lane, column); dimension 0 maps to lanes.
  if (shape.size() != 2)
    return emitError() << "!tileas.tmem must have rank 2 (lanes x columns), "
                          "got rank "
                       << shape.size();
  constexpr int64_t kTmemLanes = 128;
  if (shape[0] > kTmemLanes)
    return emitError() << "!tileas.tmem dimension 0 maps to lanes and must be "
                          "at most "
                       << kTmemLanes << ", got " << shape[0];
  return success();
}

LogicalResult TmaDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType) {
  if (failed(verifyTile(emitError, "!tileas.tma_desc", shape, elementType)))
    return failure();
  // Hardware limits of a tiled tensor map (cuTensorMapEncodeTiled).
  constexpr size_t kMaxRank = 5;
  constexpr int64_t kMaxBoxDim = 256;
  if (shape.size() > kMaxRank)
    return emitError() << "!tileas.tma_desc box must have rank at most "
                       << kMaxRank << ", got rank " << shape.size();
  // The innermost dimension may be wider: the translation moves such a
  // tile as several hardware boxes side by side (docs/cuda.md, "Tiles wider
  // than a box"), as it moves a swizzled UMMA operand in column blocks.
  for (auto [i, size] : llvm::enumerate(shape))
    if (size > kMaxBoxDim && i + 1 < shape.size())
      return emitError() << "!tileas.tma_desc box dimension " << i
                         << " must be at most " << kMaxBoxDim
                         << " (only the innermost may be wider), got "
                         << size;
  // cuTensorMapEncodeTiled: boxDim[0] * elementSize must be a multiple of 16
  // bytes. The tile is what one load brings in, so an inner extent the
  // hardware cannot copy has no correct translation (block-scale factors
  // come in their 16-byte-row atom form instead, docs/cuda.md).
  int64_t innerBits = shape.back() * elementType.getIntOrFloatBitWidth();
  if (innerBits % 128 != 0)
    return emitError() << "!tileas.tma_desc box's inner dimension must span a "
                          "multiple of 16 bytes (TMA), got "
                       << shape.back() << " x " << elementType << " = "
                       << innerBits << " bits";
  return success();
}

LogicalResult PipeType::verify(function_ref<InFlightDiagnostic()> emitError,
                               Type payload) {
  // A slot is a physical buffer that TMA, UMMA or threads fill in place, so
  // only on-chip tiles can be pipe payloads.
  if (!llvm::isa<SmemType, TmemType>(payload))
    return emitError() << "!tileas.pipe payload must be a !tileas.smem or "
                          "!tileas.tmem tile, got "
                       << payload;
  return success();
}
