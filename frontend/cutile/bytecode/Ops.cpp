//===- Ops.cpp - functions and ops of tileir bytecode ---------------------===//
//
// The function section: per function its name, signature, flags (0x02
// entry, 0x04 hints follow), debug info index, hints and body. A body is a
// sequence of ops; an op with regions ends with a region count, and each
// region is one block: a byte 1, its argument types, an op count and the
// ops. Values are numbered in definition order (parameters first); a
// block's values go out of scope when the block ends.
//
// Recipe tokens (OpSchemas.h): R one result type; RS a count and result
// types; F or F@N the flags varint; u:B:name a unit attribute from flag bit
// B; E:kind:name[:default], E@N:..., E?B:... an enum byte (E?B only when
// flag bit B is set); H?B:name hints; I32:name, I64:name a varint;
// BOOL:name a byte; S:name a string; TAG:name a tagged attribute; ARR:name
// a count and tagged attributes; CONST:name a constant of the result type;
// P32:name a list of 4-byte integers; BA@N:name a list of bools; O an
// operand; O?B an optional one; OS a count and operands (a segment); ON a
// count and all the op's operands; REGn n regions; SEG the op records its
// operand segments.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/OpDecoder.h"
#include "frontend/cutile/bytecode/OpSchemas.h"
#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilepipe::tileir;
using namespace tilepipe::tileir::bytecode;

namespace {
struct EnumKind {
  StringRef name;
  unsigned count;
};
constexpr EnumKind kEnumKinds[] = {{"rnd", 8},   {"ovf", 4}, {"sign", 2},
                                   {"pred", 6},  {"ord", 2}, {"mem", 5},
                                   {"scope", 3}, {"rmw", 10}};
} // namespace

/// `E@3` -> 1303; `E` -> 0 (always).
static Version gateOf(StringRef head) {
  size_t at = head.find('@');
  unsigned minor = 0;
  if (at == StringRef::npos || head.drop_front(at + 1).getAsInteger(10, minor))
    return 0;
  return 1300 + minor;
}

/// `?B` in the head: the flag bit that says the field is present.
static std::optional<unsigned> flagBitOf(StringRef head) {
  size_t at = head.find('?');
  unsigned bit = 0;
  if (at == StringRef::npos || head.drop_front(at + 1).getAsInteger(10, bit))
    return std::nullopt;
  return bit;
}

bool OpDecoder::readOperand(ByteCursor &in, Value &value) {
  uint64_t id;
  size_t at = in.offset();
  if (!in.readVarint(id))
    return false;
  if (id >= values.size())
    return state.fail(at, "operand refers to value " + Twine(id) +
                              ", but only " + Twine(values.size()) +
                              " are defined");
  value = values[id];
  return true;
}

bool OpDecoder::readOperands(ByteCursor &in, SmallVectorImpl<Value> &out,
                             int32_t *count) {
  uint64_t n;
  if (!in.readVarint(n, in.remaining(), "operand count"))
    return false;
  for (uint64_t i = 0; i < n; ++i)
    if (!readOperand(in, out.emplace_back()))
      return false;
  if (count)
    *count = int32_t(n);
  return true;
}

bool OpDecoder::readEnum(ByteCursor &in, StringRef kindName, StringRef name,
                         StringRef defaultValue, NamedAttrList &attrs) {
  const EnumKind *kind = llvm::find_if(
      kEnumKinds, [&](const EnumKind &k) { return k.name == kindName; });
  uint8_t value;
  if (!in.readByte(value))
    return false;
  if (kind == std::end(kEnumKinds) || value >= kind->count)
    return in.errorState().fail(in.offset() - 1, "bad " + name + " value " +
                                                     Twine(unsigned(value)));
  unsigned fallback;
  if (!defaultValue.empty() && !defaultValue.getAsInteger(10, fallback) &&
      fallback == value)
    return true;
  attrs.append(name, IntegerAttr::get(IntegerType::get(context(), 32), value));
  return true;
}

bool OpDecoder::readConstantValue(ByteCursor &in, StringRef name,
                                  DecodedOpRef op) {
  size_t at = in.offset();
  ArrayRef<uint8_t> bytes;
  if (!state.readConstant(in, bytes))
    return false;
  auto tile = op.resultTypes.empty()
                  ? TileType()
                  : dyn_cast<TileType>(op.resultTypes.front());
  if (!tile || !tile.getElementType().isIntOrFloat())
    return in.errorState().fail(at, "constant of a non-numeric type");
  auto type = RankedTensorType::get(tile.getShape(), tile.getElementType());
  bool splat = false;
  ArrayRef<char> raw(reinterpret_cast<const char *>(bytes.data()),
                     bytes.size());
  if (!DenseElementsAttr::isValidRawBuffer(type, raw, splat))
    return in.errorState().fail(at, "constant has " + Twine(bytes.size()) +
                                        " bytes, which do not fill " +
                                        Twine(tile.getNumElements()) +
                                        " elements");
  op.attributes.append(name, DenseElementsAttr::getFromRawBuffer(type, raw));
  return true;
}

/// The attribute tokens of a recipe (those with a `:name`).
bool OpDecoder::readAttributeField(ByteCursor &in, StringRef token,
                                   DecodedOpRef op) {
  SmallVector<StringRef, 4> parts;
  token.split(parts, ':');
  StringRef head = parts[0], name = parts.back();
  std::optional<unsigned> bit = flagBitOf(head);
  if ((bit && !((op.flags >> *bit) & 1)) || state.version < gateOf(head))
    return true;
  Builder b(context());
  if (head == "u") {
    unsigned flagBit = 0;
    if (parts.size() != 3 || parts[1].getAsInteger(10, flagBit))
      return in.fail("bad recipe token " + token);
    if ((op.flags >> flagBit) & 1)
      op.attributes.append(name, b.getUnitAttr());
    return true;
  }
  if (head.starts_with("E"))
    return readEnum(in, parts[1], parts[2], parts.size() > 3 ? parts[3] : "",
                    op.attributes);
  if (head.starts_with("H")) {
    Attribute hints;
    if (!state.readHintsDictionary(in, hints))
      return false;
    op.attributes.append(name, hints);
    return true;
  }
  if (head == "I32" || head == "I64") {
    uint64_t v;
    if (!in.readVarint(v, head == "I32" ? INT32_MAX : INT64_MAX, name))
      return false;
    op.attributes.append(name, head == "I32" ? b.getI32IntegerAttr(v)
                                             : b.getI64IntegerAttr(v));
    return true;
  }
  return readValueAttributeField(in, head, name, op);
}

bool OpDecoder::readValueAttributeField(ByteCursor &in, StringRef head,
                                        StringRef name, DecodedOpRef op) {
  Builder b(context());
  Attribute attr;
  if (head == "BOOL") {
    uint8_t v;
    if (!in.readByte(v))
      return false;
    if (v)
      op.attributes.append(name, b.getUnitAttr());
    return true;
  }
  if (head == "S") {
    StringRef s;
    if (!state.readString(in, s))
      return false;
    attr = b.getStringAttr(s);
  } else if (head == "TAG") {
    if (!state.readTaggedAttribute(in, attr))
      return false;
  } else if (head == "ARR") {
    uint64_t n;
    if (!in.readVarint(n, in.remaining(), "array size"))
      return false;
    SmallVector<Attribute> items(n);
    for (Attribute &item : items)
      if (!state.readTaggedAttribute(in, item, 1))
        return false;
    attr = b.getArrayAttr(items);
  } else if (head == "CONST") {
    return readConstantValue(in, name, op);
  } else if (head == "P32" || head.starts_with("BA")) {
    unsigned width = head == "P32" ? 4 : 1;
    uint64_t n;
    if (!in.readVarint(n, in.remaining() / width, "list length"))
      return false;
    SmallVector<int32_t> ints;
    SmallVector<bool> bools;
    for (uint64_t i = 0; i < n; ++i) {
      int64_t v;
      if (!in.readFixed(width, /*isSigned=*/true, v))
        return false;
      ints.push_back(int32_t(v));
      bools.push_back(v != 0);
    }
    if (width == 1 && !llvm::is_contained(bools, true))
      return true; // All false is the default.
    attr = width == 4 ? Attribute(b.getDenseI32ArrayAttr(ints))
                      : Attribute(b.getDenseBoolArrayAttr(bools));
  } else {
    return in.fail("bad recipe token " + head);
  }
  op.attributes.append(name, attr);
  return true;
}

bool OpDecoder::readField(ByteCursor &in, StringRef token, DecodedOpRef op) {
  if (token == "SEG") {
    op.segmented = true;
    return true;
  }
  if (token == "R")
    return state.readType(in, op.resultTypes.emplace_back());
  if (token == "RS") {
    uint64_t n;
    if (!in.readVarint(n, in.remaining(), "result count"))
      return false;
    for (uint64_t i = 0; i < n; ++i)
      if (!state.readType(in, op.resultTypes.emplace_back()))
        return false;
    return true;
  }
  if (token == "F" || token.starts_with("F@")) {
    if (state.version < gateOf(token))
      return true;
    return in.readVarint(op.flags, 31, "flags");
  }
  if (token == "O" || token.starts_with("O?")) {
    std::optional<unsigned> bit = flagBitOf(token);
    bool present = !bit || ((op.flags >> *bit) & 1);
    if (present && !readOperand(in, op.operands.emplace_back()))
      return false;
    op.segments.push_back(present);
    return true;
  }
  if (token == "OS")
    return readOperands(in, op.operands, &op.segments.emplace_back());
  if (token == "ON")
    return readOperands(in, op.operands, nullptr);
  if (token.starts_with("REG")) {
    op.numRegions = token.back() - '0';
    return true;
  }
  return readAttributeField(in, token, op);
}
