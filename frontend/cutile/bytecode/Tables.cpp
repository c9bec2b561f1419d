//===- Tables.cpp - header, sections and tables of tileir bytecode --------===//
//
// The file starts with "\x7fTileIR\0", the version (major and minor bytes,
// a 16-bit tag) and a list of sections, each an id byte (bit 7: an
// alignment varint follows), a length varint and the payload, ended by id
// 0. Strings, types, constants and debug attributes are tables: a count, an
// offset per entry (4 or 8 bytes, aligned), then the entries' bytes. An
// entry may only refer to entries before it, so that decoding is one pass
// without recursion.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/BytecodeReader.h"
#include "frontend/cutile/bytecode/ReaderState.h"
#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilepipe::tileir;
using namespace tilepipe::tileir::bytecode;

bool ReaderState::readHeaderAndSections() {
  ByteCursor in = cursor(0, file.size());
  ArrayRef<uint8_t> magic;
  if (!in.readBytes(sizeof(kMagic), magic))
    return fail(0, "not tileir bytecode: too short for the header");
  if (!llvm::equal(magic, kMagic))
    return fail(0, "not tileir bytecode: bad magic number");
  uint8_t major, minor;
  int64_t tag;
  size_t versionOffset = in.offset();
  if (!in.readByte(major) || !in.readByte(minor) ||
      !in.readFixed(2, /*isSigned=*/false, tag))
    return false;
  if (major != 13 || minor < 1 || minor > 4 || tag != 0)
    return fail(versionOffset, "unsupported bytecode version " +
                                   Twine(unsigned(major)) + "." +
                                   Twine(unsigned(minor)) + " (tag " +
                                   Twine(tag) + "); 13.1 to 13.4 are read");
  version = major * 100 + minor;
  while (true) {
    size_t idOffset = in.offset();
    uint8_t idByte;
    if (!in.readByte(idByte))
      return fail(idOffset, "missing end-of-bytecode marker");
    unsigned id = idByte & 0x7f;
    if (id == unsigned(SectionId::End))
      break;
    if (id >= kNumSectionIds)
      return fail(idOffset, "unknown section id 0x" +
                                llvm::utohexstr(id, /*LowerCase=*/true));
    if (sections[id])
      return fail(idOffset, "section " + Twine(id) + " appears twice");
    uint64_t length, alignment = 1;
    if (!in.readVarint(length, in.remaining(), "section length") ||
        ((idByte & 0x80) && !in.readVarint(alignment)) ||
        !in.alignTo(alignment))
      return false;
    std::optional<ByteCursor> body;
    if (!in.split(length, body))
      return false;
    sections[id] = TableEntry{body->offset(), body->offset() + length};
  }
  if (!in.atEnd())
    return fail(in.offset(), "data after the end-of-bytecode marker");
  for (SectionId required :
       {SectionId::String, SectionId::Func, SectionId::Type})
    if (!sections[unsigned(required)])
      return fail(file.size(), "missing section " + Twine(unsigned(required)));
  return true;
}

bool ReaderState::readTable(SectionId id, unsigned indexSize,
                            SmallVectorImpl<TableEntry> &entries) {
  if (!sections[unsigned(id)])
    return true;
  ByteCursor in = cursor(*sections[unsigned(id)]);
  return readTableAt(in, indexSize, entries);
}

bool tilepipe::tileir::bytecode::readTableAt(
    ByteCursor &in, unsigned indexSize, SmallVectorImpl<TableEntry> &entries) {
  uint64_t count;
  if (!in.readVarint(count, in.remaining() / indexSize, "table size") ||
      !in.alignTo(indexSize))
    return false;
  SmallVector<uint64_t> starts;
  for (uint64_t i = 0; i < count; ++i) {
    int64_t start;
    if (!in.readFixed(indexSize, /*isSigned=*/false, start))
      return false;
    starts.push_back(uint64_t(start));
  }
  size_t dataBegin = in.offset(), dataSize = in.remaining();
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t end = i + 1 < count ? starts[i + 1] : dataSize;
    if (starts[i] > end || end > dataSize)
      return in.errorState().fail(dataBegin,
                                  "table entry " + Twine(i) +
                                      " lies outside the table's data");
    entries.push_back({dataBegin + starts[i], dataBegin + end});
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Lookups.
//===----------------------------------------------------------------------===//

bool ReaderState::readString(ByteCursor &in, StringRef &value) {
  uint64_t id;
  size_t at = in.offset();
  if (!in.readVarint(id))
    return false;
  if (id >= strings.size())
    return fail(at, "string id " + Twine(id) + " out of range (" +
                        Twine(strings.size()) + " strings)");
  value = strings[id];
  return true;
}

bool ReaderState::readType(ByteCursor &in, Type &type) {
  uint64_t id;
  size_t at = in.offset();
  if (!in.readVarint(id))
    return false;
  if (id >= types.size())
    return fail(at, "type id " + Twine(id) + " out of range (" +
                        Twine(types.size()) + " types)");
  type = types[id];
  return true;
}

bool ReaderState::readConstant(ByteCursor &in, ArrayRef<uint8_t> &bytes) {
  uint64_t id;
  size_t at = in.offset();
  if (!in.readVarint(id))
    return false;
  if (id >= constants.size())
    return fail(at, "constant id " + Twine(id) + " out of range (" +
                        Twine(constants.size()) + " constants)");
  ByteCursor entry = cursor(constants[id]);
  uint64_t length;
  return entry.readVarint(length, entry.remaining(), "constant length") &&
         entry.readBytes(length, bytes);
}

Location ReaderState::debugLocation(uint64_t id) const {
  if (id < debugLocs.size())
    return debugLocs[id];
  return UnknownLoc::get(context);
}

//===----------------------------------------------------------------------===//
// Tables.
//===----------------------------------------------------------------------===//

bool ReaderState::readTables() {
  SmallVector<TableEntry> stringEntries, typeEntries;
  if (!readTable(SectionId::String, 4, stringEntries) ||
      !readTable(SectionId::Type, 4, typeEntries) ||
      !readTable(SectionId::Constant, 8, constants))
    return false;
  for (const TableEntry &entry : stringEntries)
    strings.push_back(
        StringRef(reinterpret_cast<const char *>(file.data()) + entry.begin,
                  entry.end - entry.begin));
  for (const TableEntry &entry : typeEntries) {
    Type type;
    if (!decodeType(entry, type))
      return false;
    types.push_back(type);
  }
  return readDebugSection();
}
