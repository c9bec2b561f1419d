//===- TypesAndDebug.cpp - the type and debug tables of tileir bytecode ---===//
//
// A type entry is a varint tag: a simple type (integers, floats, token) or
// a composite one (pointer, tile, tensor view, partition view, function)
// with its fields. Integer lists are a count and fixed-width little-endian
// values (8 bytes for shapes and strides, 4 for tile shapes and dim maps);
// INT64_MIN is a dynamic size. Debug attributes (files, subprograms,
// locations, call sites) become MLIR locations.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/ReaderState.h"
#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace mlir;
using namespace tilepipe::tileir;
using namespace tilepipe::tileir::bytecode;

namespace {
enum TypeTag : uint64_t {
  kI1 = 0x00,
  kI8 = 0x01,
  kI16 = 0x02,
  kI32 = 0x03,
  kI64 = 0x04,
  kF16 = 0x05,
  kBF16 = 0x06,
  kF32 = 0x07,
  kTF32 = 0x08,
  kF64 = 0x09,
  kF8E4M3FN = 0x0a,
  kF8E5M2 = 0x0b,
  kPointer = 0x0c,
  kTile = 0x0d,
  kTensorView = 0x0e,
  kPartitionView = 0x0f,
  kFunction = 0x10,
  kToken = 0x11,
  kF8E8M0FNU = 0x12,
  kF4E2M1FN = 0x13,
  kGatherScatterView = 0x14,
  kStridedView = 0x15,
  kI4 = 0x16,
  kFNV8E5M3FNU = 0x82,
};
} // namespace

static Type simpleType(MLIRContext *ctx, uint64_t tag) {
  switch (tag) {
  case kI1:
    return IntegerType::get(ctx, 1);
  case kI4:
    return IntegerType::get(ctx, 4);
  case kI8:
    return IntegerType::get(ctx, 8);
  case kI16:
    return IntegerType::get(ctx, 16);
  case kI32:
    return IntegerType::get(ctx, 32);
  case kI64:
    return IntegerType::get(ctx, 64);
  case kF16:
    return Float16Type::get(ctx);
  case kBF16:
    return BFloat16Type::get(ctx);
  case kF32:
    return Float32Type::get(ctx);
  case kTF32:
    return FloatTF32Type::get(ctx);
  case kF64:
    return Float64Type::get(ctx);
  case kF8E4M3FN:
    return Float8E4M3FNType::get(ctx);
  case kF8E5M2:
    return Float8E5M2Type::get(ctx);
  case kToken:
    return TokenType::get(ctx);
  default:
    return {};
  }
}

/// `count, count * width-byte values`, the count bounded by the bytes left.
static bool readIntList(ByteCursor &in, unsigned width,
                        SmallVectorImpl<int64_t> &values) {
  uint64_t count;
  if (!in.readVarint(count, in.remaining() / width, "list length"))
    return false;
  for (uint64_t i = 0; i < count; ++i)
    if (!in.readFixed(width, /*isSigned=*/true, values.emplace_back()))
      return false;
  return true;
}

/// Sizes and strides: INT64_MIN is dynamic; negative static ones are bad.
static bool checkDims(ByteCursor &in, size_t at, ArrayRef<int64_t> dims,
                      bool allowDynamic) {
  for (int64_t d : dims) {
    if (d == std::numeric_limits<int64_t>::min() && allowDynamic)
      continue;
    if (d < 0 || (!allowDynamic && d == 0))
      return in.errorState().fail(at, "bad dimension " + Twine(d));
  }
  return true;
}

static SmallVector<int64_t> toMlirDims(ArrayRef<int64_t> dims) {
  return llvm::map_to_vector(dims, [](int64_t d) {
    return d == std::numeric_limits<int64_t>::min() ? ShapedType::kDynamic : d;
  });
}

bool ReaderState::decodeType(const TableEntry &entry, Type &type) {
  ByteCursor in = cursor(entry);
  uint64_t tag;
  if (!in.readVarint(tag))
    return false;
  if ((type = simpleType(context, tag))) {
    if (!in.atEnd())
      return in.fail("trailing bytes in a simple type");
    return true;
  }
  if (!decodeCompositeType(in, tag, type))
    return false;
  if (!in.atEnd())
    return in.fail("trailing bytes in type entry " + Twine(types.size()));
  return true;
}

/// The optional-fields bitfield that pointers and views carry from a
/// version on, with the fields it announces.
static bool readOptionalFlags(ByteCursor &in, bool present, uint64_t &flags) {
  flags = 0;
  if (!present)
    return true;
  if (!in.readVarint(flags))
    return false;
  if (flags > 1)
    return in.fail("unknown optional-field flags " + Twine(flags));
  return true;
}

bool ReaderState::decodeCompositeType(ByteCursor &in, uint64_t tag,
                                      Type &type) {
  size_t at = in.offset();
  uint64_t flags = 0;
  Type element;
  switch (tag) {
  case kPointer: {
    uint8_t ptrAttr;
    if (!readOptionalFlags(in, version >= 1304, flags) ||
        !readType(in, element) || ((flags & 1) && !in.readByte(ptrAttr)))
      return false;
    type = PtrType::get(context, element);
    return true;
  }
  case kTile: {
    SmallVector<int64_t> shape;
    if (!readType(in, element) || !readIntList(in, 8, shape) ||
        !checkDims(in, at, shape, /*allowDynamic=*/false))
      return false;
    type = TileType::getChecked(
        [&] { return emitError(UnknownLoc::get(context)); }, context,
        ArrayRef<int64_t>(shape), element);
    return type ? true : in.errorState().fail(at, "bad tile type");
  }
  case kTensorView: {
    SmallVector<int64_t> shape, strides;
    uint8_t ptrAttr;
    if (!readOptionalFlags(in, version >= 1304, flags) ||
        !readType(in, element) || !readIntList(in, 8, shape) ||
        !readIntList(in, 8, strides) ||
        ((flags & 1) && !in.readByte(ptrAttr)) ||
        !checkDims(in, at, shape, true) || !checkDims(in, at, strides, true))
      return false;
    if (shape.size() != strides.size() || !isa<IntegerType, FloatType>(element))
      return in.errorState().fail(at, "bad tensor_view type");
    type = TensorViewType::get(context, element, toMlirDims(shape),
                               toMlirDims(strides));
    return true;
  }
  case kPartitionView:
    return decodePartitionView(in, type);
  case kFunction: {
    SmallVector<Type> inputs, results;
    for (SmallVector<Type> *list : {&inputs, &results}) {
      uint64_t count;
      if (!in.readVarint(count, in.remaining(), "type count"))
        return false;
      for (uint64_t i = 0; i < count; ++i)
        if (!readType(in, list->emplace_back()))
          return false;
    }
    type = FunctionType::get(context, inputs, results);
    return true;
  }
  default:
    return in.errorState().fail(
        at, "unsupported type tag 0x" +
                llvm::utohexstr(tag, /*LowerCase=*/true) +
                (tag == kGatherScatterView || tag == kStridedView
                     ? " (gather/scatter and strided views are not modelled)"
                     : ""));
  }
}

static StringRef paddingName(uint8_t value) {
  static constexpr StringRef names[] = {"zero", "neg_zero", "nan", "pos_inf",
                                        "neg_inf"};
  return value < std::size(names) ? names[value] : StringRef();
}

bool ReaderState::decodePartitionView(ByteCursor &in, Type &type) {
  size_t at = in.offset();
  uint64_t flags = 0, hasPadding = 0;
  uint8_t padding = 0;
  SmallVector<int64_t> tileShape, dimMap;
  Type view;
  // 13.3 folded the padding presence into a leading bitfield.
  bool unified = version >= 1303;
  if (!readOptionalFlags(in, unified, flags) ||
      !readIntList(in, 4, tileShape) || !readType(in, view) ||
      !readIntList(in, 4, dimMap) ||
      (!unified && !in.readVarint(hasPadding, 1, "padding flag")))
    return false;
  if ((flags & 1) || hasPadding) {
    if (!in.readByte(padding))
      return false;
    if (paddingName(padding).empty())
      return in.fail("unknown padding value " + Twine(unsigned(padding)));
  }
  auto tensorView = dyn_cast<TensorViewType>(view);
  if (!tensorView)
    return in.errorState().fail(at, "partition_view of a non-tensor_view");
  // The identity map is how tileirdisasm and the dialect leave it out.
  bool identity = true;
  for (auto [i, d] : llvm::enumerate(dimMap))
    identity &= d == int64_t(i);
  if (identity)
    dimMap.clear();
  StringRef paddingValue =
      (flags & 1) || hasPadding ? paddingName(padding) : StringRef();
  type = PartitionViewType::getChecked(
      [&] { return emitError(UnknownLoc::get(context)); }, context,
      ArrayRef<int64_t>(tileShape), tensorView, ArrayRef<int64_t>(dimMap),
      paddingValue);
  return type ? true : in.errorState().fail(at, "bad partition_view type");
}

//===----------------------------------------------------------------------===//
// Debug info.
//===----------------------------------------------------------------------===//

/// Layout: function count; per function a 4-byte offset into the index
/// array (aligned to 4); the index count; per op an 8-byte debug attribute
/// id (aligned to 8); then the debug attribute table (ids from 1).
bool ReaderState::readDebugSection() {
  debugLocs.push_back(UnknownLoc::get(context));
  if (!sections[unsigned(SectionId::Debug)])
    return true;
  ByteCursor in = cursor(*sections[unsigned(SectionId::Debug)]);
  uint64_t numFunctions, numIndices;
  if (!in.readVarint(numFunctions, in.remaining() / 4, "function count") ||
      !in.alignTo(4))
    return false;
  SmallVector<int64_t> starts;
  for (uint64_t i = 0; i < numFunctions; ++i)
    if (!in.readFixed(4, /*isSigned=*/false, starts.emplace_back()))
      return false;
  if (!in.readVarint(numIndices, in.remaining() / 8, "debug index count") ||
      !in.alignTo(8))
    return false;
  SmallVector<uint64_t> indices;
  for (uint64_t i = 0; i < numIndices; ++i) {
    int64_t id;
    if (!in.readFixed(8, /*isSigned=*/false, id))
      return false;
    indices.push_back(uint64_t(id));
  }
  for (uint64_t f = 0; f < numFunctions; ++f) {
    uint64_t begin = starts[f],
             end = f + 1 < numFunctions ? starts[f + 1] : numIndices;
    if (begin > end || end > numIndices)
      return in.fail("debug index ranges out of order");
    debugIndices.emplace_back(indices.begin() + begin, indices.begin() + end);
  }
  SmallVector<TableEntry> attrs;
  if (!readTableAt(in, 4, attrs))
    return false;
  for (const TableEntry &entry : attrs) {
    Location loc = UnknownLoc::get(context);
    if (!decodeDebugAttr(entry, loc))
      return false;
    debugLocs.push_back(loc);
  }
  return true;
}

bool ReaderState::decodeDebugAttr(const TableEntry &entry, Location &loc) {
  ByteCursor in = cursor(entry);
  uint8_t tag;
  if (!in.readByte(tag))
    return false;
  // A reference to an earlier attribute (ids start at 1).
  auto ref = [&](Location &out) {
    uint64_t id;
    if (!in.readVarint(id, debugLocs.size() - 1, "debug attribute id"))
      return false;
    out = debugLocs[id];
    return true;
  };
  auto fileOf = [&](Location l) -> StringRef {
    if (auto file = dyn_cast<FileLineColLoc>(l))
      return file.getFilename();
    if (auto name = dyn_cast<NameLoc>(l))
      if (auto file = dyn_cast<FileLineColLoc>(name.getChildLoc()))
        return file.getFilename();
    return fileName;
  };
  Location scope = loc, file = loc, callee = loc;
  StringRef name, dir, linkage;
  uint64_t line = 0, column = 0, scopeLine = 0;
  switch (tag) {
  case 0: // The writer's placeholder when it has no debug info.
    return true;
  case 1: // Compile unit: its file.
    return ref(loc);
  case 2: // File: name, directory.
    if (!readString(in, name) || !readString(in, dir))
      return false;
    loc = FileLineColLoc::get(
        context, dir.empty() ? name : (dir + "/" + name).str(), 0, 0);
    return true;
  case 3: // Lexical block: scope, file, line, column.
    if (!ref(scope) || !ref(file) || !in.readVarint(line) ||
        !in.readVarint(column))
      return false;
    loc = FileLineColLoc::get(context, fileOf(file), line, column);
    return true;
  case 4: // Location: scope, file name, line, column.
    if (!ref(scope) || !readString(in, name) || !in.readVarint(line) ||
        !in.readVarint(column))
      return false;
    loc = FileLineColLoc::get(context, name, line, column);
    return true;
  case 5: // Subprogram: file, line, name, linkage name, unit, scope line.
    if (!ref(file) || !in.readVarint(line) || !readString(in, name) ||
        !readString(in, linkage) || !ref(scope) || !in.readVarint(scopeLine))
      return false;
    loc = NameLoc::get(StringAttr::get(context, name),
                       FileLineColLoc::get(context, fileOf(file), line, 0));
    return true;
  case 6: // Call site: callee, caller.
    if (!ref(callee) || !ref(scope))
      return false;
    loc = CallSiteLoc::get(callee, scope);
    return true;
  default:
    return in.fail("unknown debug attribute tag " + Twine(unsigned(tag)));
  }
}
