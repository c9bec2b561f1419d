//===- Functions.cpp - entries, regions and op creation -------------------===//
//
// The function section and the structure of bodies (docs in Ops.cpp). Every
// op is created from its decoded fields and verified once its regions are
// read; the first failure is an error at the op's byte offset that names
// the function.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/BytecodeReader.h"
#include "frontend/cutile/bytecode/OpDecoder.h"
#include "frontend/cutile/bytecode/OpSchemas.h"
#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilepipe::tileir;
using namespace tilepipe::tileir::bytecode;

namespace {
enum FunctionFlags : uint8_t { kEntry = 0x02, kHasHints = 0x04 };
} // namespace

bool OpDecoder::readFunctions() {
  ByteCursor in = state.cursor(*state.sections[unsigned(SectionId::Func)]);
  uint64_t count;
  if (!in.readVarint(count, in.remaining(), "function count"))
    return false;
  for (uint64_t i = 0; i < count; ++i)
    if (!readFunction(in, i))
      return false;
  if (!in.atEnd())
    return in.fail("trailing bytes in the function section");
  return true;
}

Location OpDecoder::nextLocation() {
  if (nextDebugId >= debugIds.size())
    return UnknownLoc::get(context());
  return state.debugLocation(debugIds[nextDebugId++]);
}

bool OpDecoder::readEntryHeader(ByteCursor &in, OperationState &entry,
                                FunctionType &type, uint64_t &debugIndex) {
  StringRef name;
  Type signature;
  uint8_t flags;
  size_t at = in.offset();
  if (!state.readString(in, name) || !state.readType(in, signature) ||
      !in.readByte(flags) ||
      !in.readVarint(debugIndex, state.debugIndices.size(), "debug index"))
    return false;
  functionName = name.str();
  type = dyn_cast<FunctionType>(signature);
  if (!type || !type.getResults().empty())
    return state.fail(at, "function '" + name +
                              "' needs a signature without results");
  if (!(flags & kEntry) || (flags & ~(kEntry | kHasHints)))
    return state.fail(at, "function '" + name + "': flags 0x" +
                              llvm::utohexstr(flags, /*LowerCase=*/true) +
                              " (only entries are read)");
  Builder b(context());
  entry.addAttribute(SymbolTable::getSymbolAttrName(), b.getStringAttr(name));
  entry.addAttribute("function_type", TypeAttr::get(type));
  if (flags & kHasHints) {
    Attribute hints;
    size_t hintsAt = in.offset();
    if (!state.readTaggedAttribute(in, hints))
      return false;
    if (!isa<OptimizationHintsAttr>(hints))
      return state.fail(hintsAt, "entry hints are not optimization hints");
    entry.addAttribute("optimization_hints", hints);
  }
  return true;
}

bool OpDecoder::readFunction(ByteCursor &in, uint64_t index) {
  size_t at = in.offset();
  OperationState entry(UnknownLoc::get(context()), EntryOp::getOperationName());
  FunctionType type;
  uint64_t debugIndex;
  if (!readEntryHeader(in, entry, type, debugIndex))
    return false;
  debugIds = debugIndex ? ArrayRef(state.debugIndices[debugIndex - 1])
                        : ArrayRef<uint64_t>();
  nextDebugId = 0;
  entry.location = nextLocation();
  uint64_t length;
  std::optional<ByteCursor> body;
  if (!in.readVarint(length, in.remaining(), "body length") ||
      !in.split(length, body))
    return false;
  Region *region = entry.addRegion();
  Block *block = new Block();
  region->push_back(block);
  values.clear();
  for (Type input : type.getInputs())
    values.push_back(block->addArgument(input, entry.location));
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Operation *op = builder.create(entry);
  while (!body->atEnd())
    if (!readOp(*body, *block, /*depth=*/0))
      return false;
  return checkTerminators(*block) && verifyOp(op, at);
}

/// Each op was verified when read, as the last of its block: a terminator
/// followed by more ops is caught here, at the terminator's offset.
bool OpDecoder::checkTerminators(Block &block) {
  for (Operation &op : block.without_terminator())
    if (op.hasTrait<OpTrait::IsTerminator>())
      return state.fail(opOffsets.lookup(&op),
                        "'" + op.getName().getStringRef() + "' in function '" +
                            functionName + "' is not the last op of its block");
  return true;
}

bool OpDecoder::verifyOp(Operation *op, size_t offset) {
  if (succeeded(mlir::verify(op, /*verifyRecursively=*/false)))
    return true;
  return state.fail(offset, "invalid '" + op->getName().getStringRef() +
                                "' in function '" + functionName +
                                "': " + lastDiagnostic);
}

bool OpDecoder::readOps(ByteCursor &in, Block &block, uint64_t count,
                        unsigned depth) {
  for (uint64_t i = 0; i < count; ++i)
    if (!readOp(in, block, depth))
      return false;
  return true;
}

bool OpDecoder::readOp(ByteCursor &in, Block &block, unsigned depth) {
  size_t at = in.offset();
  uint64_t opcode;
  if (!in.readVarint(opcode))
    return false;
  const OpSchema *schema = lookupOpSchema(opcode);
  if (!schema)
    return state.fail(at, "unknown opcode 0x" +
                              llvm::utohexstr(opcode, /*LowerCase=*/true) +
                              " in function '" + functionName + "'");
  if (schema->recipe.empty())
    return state.fail(at, "op '" + schema->name + "' (opcode 0x" +
                              llvm::utohexstr(opcode, /*LowerCase=*/true) +
                              ") in function '" + functionName +
                              "' is not supported");
  Location loc = nextLocation();
  DecodedOp decoded;
  SmallVector<StringRef, 16> tokens;
  schema->recipe.split(tokens, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef token : tokens)
    if (!readField(in, token, decoded))
      return false;
  OperationState op(loc, ("tileir." + schema->name).str());
  op.addTypes(decoded.resultTypes);
  op.addOperands(decoded.operands);
  if (decoded.segmented)
    decoded.attributes.append(
        "operandSegmentSizes",
        DenseI32ArrayAttr::get(context(), decoded.segments));
  op.addAttributes(decoded.attributes);
  for (unsigned i = 0; i < decoded.numRegions; ++i)
    op.addRegion();
  OpBuilder builder = OpBuilder::atBlockEnd(&block);
  Operation *created = builder.create(op);
  opOffsets[created] = at;
  if (decoded.numRegions &&
      !readRegions(in, created, decoded.numRegions, depth + 1))
    return false;
  values.append(created->result_begin(), created->result_end());
  return verifyOp(created, at);
}

bool OpDecoder::readRegions(ByteCursor &in, Operation *op, unsigned count,
                            unsigned depth) {
  size_t at = in.offset();
  if (depth > kMaxRegionDepth)
    return state.fail(at, "regions nest deeper than " + Twine(kMaxRegionDepth));
  uint64_t numRegions;
  if (!in.readVarint(numRegions))
    return false;
  if (numRegions != count)
    return state.fail(at, "'" + op->getName().getStringRef() + "' has " +
                              Twine(numRegions) + " regions, expected " +
                              Twine(count));
  for (Region &region : op->getRegions()) {
    uint8_t numBlocks;
    uint64_t numArgs, numOps;
    size_t blockAt = in.offset();
    if (!in.readByte(numBlocks))
      return false;
    if (numBlocks != 1)
      return state.fail(blockAt, "a region must hold one block");
    if (!in.readVarint(numArgs, in.remaining(), "block argument count"))
      return false;
    Block *block = new Block();
    region.push_back(block);
    size_t scope = values.size();
    for (uint64_t i = 0; i < numArgs; ++i) {
      Type type;
      if (!state.readType(in, type))
        return false;
      values.push_back(block->addArgument(type, op->getLoc()));
    }
    if (!in.readVarint(numOps, in.remaining(), "op count") ||
        !readOps(in, *block, numOps, depth) || !checkTerminators(*block))
      return false;
    values.resize(scope);
  }
  return true;
}
