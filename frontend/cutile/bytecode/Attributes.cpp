//===- Attributes.cpp - tagged attributes of tileir bytecode --------------===//
//
// Attributes that carry their kind: a tag byte, then the value. Integers
// are a type and a varint; floats a type and their bits (one byte up to 8
// bits, else a zigzag varint); arrays and dictionaries nest (bounded
// here); assume predicates (div_by, bounded) and optimization hints have
// tags of their own.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/ReaderState.h"
#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tilepipe::tileir;
using namespace tilepipe::tileir::bytecode;

namespace {
enum AttrTag : uint8_t {
  kInteger = 1,
  kFloat = 2,
  kBool = 3,
  kType = 4,
  kString = 5,
  kArray = 6,
  kDenseElements = 7,
  kDivBy = 8,
  kSameElements = 9,
  kDictionary = 10,
  kOptimizationHints = 11,
  kBounded = 12,
};
/// Arrays in dictionaries in hints: cuTile nests two levels.
constexpr unsigned kMaxAttrDepth = 8;
} // namespace

static bool readInteger(ReaderState &state, ByteCursor &in, Attribute &attr) {
  Type type;
  uint64_t bits;
  size_t at = in.offset();
  if (!state.readType(in, type) || !in.readVarint(bits))
    return false;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return in.errorState().fail(at, "integer attribute of a non-integer type");
  unsigned width = intType.getWidth();
  if (width < 64 && (bits >> width))
    return in.errorState().fail(at, "integer attribute wider than its type");
  attr = IntegerAttr::get(type, APInt(width, bits));
  return true;
}

static bool readFloat(ReaderState &state, ByteCursor &in, Attribute &attr) {
  Type type;
  size_t at = in.offset();
  if (!state.readType(in, type))
    return false;
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return in.errorState().fail(at, "float attribute of a non-float type");
  unsigned width = floatType.getWidth();
  uint64_t bits = 0;
  if (width <= 8) {
    uint8_t byte;
    if (!in.readByte(byte))
      return false;
    bits = byte;
  } else {
    int64_t value;
    if (!in.readSignedVarint(value))
      return false;
    bits = uint64_t(value);
  }
  if (width < 64 && (bits >> width))
    return in.errorState().fail(at, "float attribute wider than its type");
  attr = FloatAttr::get(
      type, APFloat(floatType.getFloatSemantics(), APInt(width, bits)));
  return true;
}

static bool readDivBy(ByteCursor &in, MLIRContext *ctx, Attribute &attr) {
  uint64_t divisor;
  uint8_t present;
  std::optional<int64_t> every, along;
  if (!in.readVarint(divisor) || !in.readByte(present))
    return false;
  if (present > 3)
    return in.fail("unknown div_by flags");
  if ((present & 1) && !in.readSignedVarint(every.emplace()))
    return false;
  if ((present & 2) && !in.readSignedVarint(along.emplace()))
    return false;
  attr = DivByAttr::get(ctx, divisor, every, along);
  return true;
}

static bool readBounded(ByteCursor &in, MLIRContext *ctx, Attribute &attr) {
  uint8_t present;
  std::optional<int64_t> lb, ub;
  if (!in.readByte(present))
    return false;
  if (present > 3)
    return in.fail("unknown bounded flags");
  if ((present & 1) && !in.readSignedVarint(lb.emplace()))
    return false;
  if ((present & 2) && !in.readSignedVarint(ub.emplace()))
    return false;
  attr = BoundedAttr::get(ctx, lb, ub);
  return true;
}

/// `count, (string id, tagged)*`.
static bool readDictionary(ReaderState &state, ByteCursor &in, unsigned depth,
                           DictionaryAttr &dict) {
  uint64_t count;
  if (!in.readVarint(count, in.remaining() / 2, "dictionary size"))
    return false;
  NamedAttrList entries;
  for (uint64_t i = 0; i < count; ++i) {
    StringRef key;
    Attribute value;
    size_t at = in.offset();
    if (!state.readString(in, key) ||
        !state.readTaggedAttribute(in, value, depth + 1))
      return false;
    // MLIR's dictionaries need distinct, non-empty names.
    if (key.empty() || entries.get(key))
      return in.errorState().fail(
          at, "dictionary entry " + Twine(i) +
                  (key.empty() ? " has no name" : " repeats '" + key + "'"));
    entries.append(key, value);
  }
  dict = entries.getDictionary(state.context);
  return true;
}

bool ReaderState::readTaggedAttribute(ByteCursor &in, Attribute &attr,
                                      unsigned depth) {
  size_t at = in.offset();
  if (depth > kMaxAttrDepth)
    return in.fail("attributes nest deeper than " + Twine(kMaxAttrDepth));
  uint8_t tag;
  if (!in.readByte(tag))
    return false;
  switch (tag) {
  case kInteger:
    return readInteger(*this, in, attr);
  case kFloat:
    return readFloat(*this, in, attr);
  case kBool: {
    uint8_t value;
    if (!in.readByte(value))
      return false;
    attr = BoolAttr::get(context, value != 0);
    return true;
  }
  case kType: {
    Type type;
    if (!readType(in, type))
      return false;
    attr = TypeAttr::get(type);
    return true;
  }
  case kString: {
    StringRef value;
    if (!readString(in, value))
      return false;
    attr = StringAttr::get(context, value);
    return true;
  }
  case kArray: {
    uint64_t count;
    if (!in.readVarint(count, in.remaining(), "array size"))
      return false;
    SmallVector<Attribute> items(count);
    for (Attribute &item : items)
      if (!readTaggedAttribute(in, item, depth + 1))
        return false;
    attr = ArrayAttr::get(context, items);
    return true;
  }
  case kDivBy:
    return readDivBy(in, context, attr);
  case kBounded:
    return readBounded(in, context, attr);
  case kDictionary: {
    DictionaryAttr dict;
    if (!readDictionary(*this, in, depth, dict))
      return false;
    attr = dict;
    return true;
  }
  case kOptimizationHints:
    return readHintsDictionary(in, attr);
  default:
    return errors.fail(at, "unsupported attribute tag " + Twine(unsigned(tag)));
  }
}

/// Hint values print as tileirdisasm prints them (`latency = 2`): integers
/// as i64 whatever width the file gives them.
static Attribute normalizeHint(Attribute value) {
  if (auto integer = dyn_cast<IntegerAttr>(value);
      integer && isa<IntegerType>(integer.getType()) &&
      integer.getType().getIntOrFloatBitWidth() != 1)
    return IntegerAttr::get(IntegerType::get(value.getContext(), 64),
                            integer.getValue().getSExtValue());
  return value;
}

bool ReaderState::readHintsDictionary(ByteCursor &in, Attribute &hints) {
  size_t at = in.offset();
  DictionaryAttr byArch;
  if (!readDictionary(*this, in, 0, byArch))
    return false;
  NamedAttrList normalized;
  for (NamedAttribute arch : byArch) {
    auto dict = dyn_cast<DictionaryAttr>(arch.getValue());
    if (!dict)
      return errors.fail(at, "hints for '" + arch.getName().strref() +
                                 "' are not a dictionary");
    NamedAttrList values;
    for (NamedAttribute hint : dict)
      values.append(hint.getName(), normalizeHint(hint.getValue()));
    normalized.append(arch.getName(), values.getDictionary(context));
  }
  hints =
      OptimizationHintsAttr::get(context, normalized.getDictionary(context));
  return true;
}
