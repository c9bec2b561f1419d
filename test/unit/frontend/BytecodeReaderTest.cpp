//===- BytecodeReaderTest.cpp - the tileir bytecode reader's decoding -----===//
//
// The low-level reads (varints, fixed-width integers, alignment, windows),
// the offset tables, the string/type/constant tables through small files
// built here, each error path with its offset, and every prefix and every
// byte flip of a cuTile fixture read in process: an error or a module,
// never a crash.
//
//===----------------------------------------------------------------------===//

#include "frontend/cutile/bytecode/BytecodeReader.h"
#include "frontend/cutile/bytecode/ByteCursor.h"
#include "frontend/cutile/bytecode/ReaderState.h"
#include "frontend/cutile/ir/TileIRDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

using namespace tilepipe::tileir::bytecode;
using Bytes = std::vector<uint8_t>;

namespace {

ByteCursor cursorOver(const Bytes &bytes, ErrorState &errors) {
  return ByteCursor(bytes, 0, bytes.size(), errors);
}

Bytes varint(uint64_t value) {
  Bytes out;
  do {
    uint8_t byte = value & 0x7f;
    value >>= 7;
    out.push_back(byte | (value ? 0x80 : 0));
  } while (value);
  return out;
}

// One byte at a time: GCC 12 warns (-Warray-bounds, wrongly) about
// vector::insert of a short range here.
void append(Bytes &out, const Bytes &more) {
  for (uint8_t byte : more)
    out.push_back(byte);
}

/// count, padding to `width` (relative to `base`), offsets, data.
Bytes table(const std::vector<Bytes> &entries, unsigned width, size_t base) {
  Bytes out = varint(entries.size());
  while ((base + out.size()) % width)
    out.push_back(0xcb);
  uint64_t offset = 0;
  for (const Bytes &e : entries) {
    for (unsigned i = 0; i < width; ++i)
      out.push_back((offset >> (8 * i)) & 0xff);
    offset += e.size();
  }
  for (const Bytes &e : entries)
    append(out, e);
  return out;
}

/// A section whose payload is made once its absolute start is known.
void section(Bytes &out, uint8_t id, unsigned alignment,
             const std::function<Bytes(size_t)> &payloadAt) {
  // The payload's length comes first; make it twice (the start does not
  // depend on the length's bytes for the small files here).
  size_t guessStart = out.size() + 3;
  guessStart += (alignment - guessStart % alignment) % alignment;
  Bytes payload = payloadAt(guessStart);
  out.push_back(id | 0x80);
  append(out, varint(payload.size()));
  append(out, varint(alignment));
  while (out.size() % alignment)
    out.push_back(0xcb);
  EXPECT_EQ(out.size(), guessStart);
  append(out, payload);
}

/// A file with one entry `k` whose body is `body`, with `types` (entry 0
/// must be the function type) and `constants`.
Bytes file(const Bytes &body, std::vector<Bytes> types = {{0x10, 0, 0}},
           std::vector<Bytes> constants = {}, uint8_t minor = 4) {
  Bytes out = {0x7f, 'T', 'i', 'l', 'e', 'I', 'R', 0, 13, minor, 0, 0};
  section(out, 0x02, 8, [&](size_t) {
    Bytes f = {1, 0, 0, 0x02, 0};
    append(f, varint(body.size()));
    append(f, body);
    return f;
  });
  if (!constants.empty())
    section(out, 0x04, 8, [&](size_t at) { return table(constants, 8, at); });
  section(out, 0x05, 4, [&](size_t at) { return table(types, 4, at); });
  section(out, 0x01, 4, [&](size_t at) { return table({{'k'}}, 4, at); });
  out.push_back(0);
  return out;
}

const Bytes kReturn = {0x5c, 0, 0};

struct ReadResult {
  bool ok;
  std::string error;
  std::string text;
};

ReadResult read(const Bytes &bytes) {
  mlir::MLIRContext context;
  std::string error;
  auto module = readBytecode(bytes, "test.tileirbc", &context, error);
  ReadResult result{bool(module), error, ""};
  if (module) {
    llvm::raw_string_ostream os(result.text);
    module->print(os);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// ByteCursor.
//===----------------------------------------------------------------------===//

TEST(ByteCursor, Varints) {
  ErrorState errors;
  Bytes bytes = {0x00, 0x7f, 0x80, 0x01, 0xff, 0xff, 0xff,
                 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  ByteCursor in = cursorOver(bytes, errors);
  uint64_t v;
  ASSERT_TRUE(in.readVarint(v));
  EXPECT_EQ(v, 0u);
  ASSERT_TRUE(in.readVarint(v));
  EXPECT_EQ(v, 127u);
  ASSERT_TRUE(in.readVarint(v));
  EXPECT_EQ(v, 128u);
  ASSERT_TRUE(in.readVarint(v));
  EXPECT_EQ(v, ~uint64_t(0));
  EXPECT_TRUE(in.atEnd());
  EXPECT_FALSE(errors.failed());
}

TEST(ByteCursor, VarintErrors) {
  ErrorState overflow;
  Bytes tooWide = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  ByteCursor a = cursorOver(tooWide, overflow);
  uint64_t v;
  EXPECT_FALSE(a.readVarint(v));
  EXPECT_EQ(overflow.get()->offset, 0u);
  EXPECT_EQ(overflow.get()->message, "varint overflows 64 bits");

  ErrorState truncated;
  Bytes cut = {0x05, 0x80, 0x80};
  ByteCursor b = cursorOver(cut, truncated);
  EXPECT_TRUE(b.readVarint(v));
  EXPECT_FALSE(b.readVarint(v));
  EXPECT_EQ(truncated.get()->offset, 3u);
  EXPECT_EQ(truncated.get()->message, "unexpected end of data");

  ErrorState limited;
  Bytes big = {0x90, 0x4e}; // 10000
  ByteCursor c = cursorOver(big, limited);
  EXPECT_FALSE(c.readVarint(v, 100, "count"));
  EXPECT_EQ(limited.get()->message, "count 10000 exceeds 100");
}

TEST(ByteCursor, SignedAndFixed) {
  ErrorState errors;
  Bytes bytes = {0x00, 0x01, 0x02, 0x05, 0xfe, 0xff, 0x34, 0x12};
  ByteCursor in = cursorOver(bytes, errors);
  int64_t v;
  ASSERT_TRUE(in.readSignedVarint(v));
  EXPECT_EQ(v, 0);
  ASSERT_TRUE(in.readSignedVarint(v));
  EXPECT_EQ(v, -1);
  ASSERT_TRUE(in.readSignedVarint(v));
  EXPECT_EQ(v, 1);
  ASSERT_TRUE(in.readSignedVarint(v));
  EXPECT_EQ(v, -3);
  ASSERT_TRUE(in.readFixed(2, /*isSigned=*/true, v));
  EXPECT_EQ(v, -2);
  ASSERT_TRUE(in.readFixed(2, /*isSigned=*/false, v));
  EXPECT_EQ(v, 0x1234);
  EXPECT_FALSE(in.readFixed(1, false, v));
}

TEST(ByteCursor, AlignmentIsAbsoluteAndWindowsAreBounded) {
  ErrorState errors;
  Bytes bytes(16, 0xcb);
  ByteCursor in(bytes, 3, 16, errors);
  ASSERT_TRUE(in.alignTo(8));
  EXPECT_EQ(in.offset(), 8u);
  std::optional<ByteCursor> sub;
  ASSERT_TRUE(in.split(4, sub));
  EXPECT_EQ(sub->remaining(), 4u);
  EXPECT_EQ(in.offset(), 12u);
  EXPECT_FALSE(in.split(5, sub));
  EXPECT_EQ(errors.get()->offset, 12u);
  EXPECT_EQ(errors.get()->message, "length 5 exceeds the 4 bytes left");
  // The first error stays.
  uint8_t b;
  EXPECT_FALSE(in.readByte(b));
  EXPECT_EQ(errors.get()->offset, 12u);
}

TEST(Tables, OffsetsMustStayInsideTheData) {
  ErrorState errors;
  Bytes good = table({{'a', 'b'}, {'c'}}, 4, 0);
  ByteCursor in = cursorOver(good, errors);
  llvm::SmallVector<TableEntry> entries;
  ASSERT_TRUE(readTableAt(in, 4, entries));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].end - entries[1].begin, 1u);

  Bytes bad = good;
  bad[8] = 9; // The second entry starts past the data.
  ErrorState badErrors;
  ByteCursor in2 = cursorOver(bad, badErrors);
  entries.clear();
  EXPECT_FALSE(readTableAt(in2, 4, entries));
  EXPECT_EQ(badErrors.get()->message,
            "table entry 0 lies outside the table's data");

  Bytes huge = {0xff, 0x7f};
  ErrorState hugeErrors;
  ByteCursor in3 = cursorOver(huge, hugeErrors);
  EXPECT_FALSE(readTableAt(in3, 4, entries));
  EXPECT_EQ(hugeErrors.get()->message, "table size 16383 exceeds 0");
}

//===----------------------------------------------------------------------===//
// Whole files.
//===----------------------------------------------------------------------===//

TEST(Reader, SmallestEntry) {
  ReadResult r = read(file(kReturn));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(r.text.find("tileir.entry @k() {"), std::string::npos);
}

TEST(Reader, TypesAndConstants) {
  // Types: 0 the function, 1 f32, 2 tile<2xf32>. Body: constant of type 2
  // from constant 0, then return.
  std::vector<Bytes> types = {
      {0x10, 0, 0}, {0x07}, {0x0d, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0}};
  Bytes twoFloats = {8, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40}; // 1.0, 2.0
  Bytes body = {0x10, 2, 0};
  append(body, kReturn);
  ReadResult r = read(file(body, types, {twoFloats}));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(r.text.find("constant <f32: [1.000000e+00, 2.000000e+00]> : "
                        "tile<2xf32>"),
            std::string::npos)
      << r.text;

  // A constant of the wrong size.
  Bytes threeBytes = {3, 1, 2, 3};
  r = read(file(body, types, {threeBytes}));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("constant has 3 bytes, which do not fill 2 elements"),
            std::string::npos)
      << r.error;

  // A constant id past the table.
  Bytes badId = {0x10, 2, 7};
  append(badId, kReturn);
  r = read(file(badId, types, {twoFloats}));
  EXPECT_NE(r.error.find("constant id 7 out of range (1 constants)"),
            std::string::npos)
      << r.error;
}

TEST(Reader, TypeErrors) {
  // A tile whose element type comes later in the table.
  ReadResult r = read(file(kReturn, {{0x10, 0, 0}, {0x0d, 2, 0}, {0x07}}));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("type id 2 out of range (1 types)"), std::string::npos)
      << r.error;
  // A negative tile dimension.
  r = read(file(
      kReturn, {{0x10, 0, 0},
                {0x07},
                {0x0d, 1, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}));
  EXPECT_NE(r.error.find("bad dimension -1"), std::string::npos) << r.error;
  // An unknown type tag.
  r = read(file(kReturn, {{0x10, 0, 0}, {0x7e}}));
  EXPECT_NE(r.error.find("unsupported type tag 0x7e"), std::string::npos)
      << r.error;
}

TEST(Reader, ErrorsNameTheOffset) {
  EXPECT_EQ(read(file(kReturn, {{0x10, 0, 0}}, {}, 9)).error,
            "tileir bytecode: offset 0x8: unsupported bytecode version 13.9 "
            "(tag 0); 13.1 to 13.4 are read");
  EXPECT_EQ(
      read(file({0x7f, 0, 0})).error,
      "tileir bytecode: offset 0x16: unknown opcode 0x7f in function 'k'");
  EXPECT_EQ(read(file({0x2c})).error,
            "tileir bytecode: offset 0x16: op 'get_global' (opcode 0x2c) in "
            "function 'k' is not supported");
  EXPECT_EQ(read(file({0x5c, 0, 1, 4})).error,
            "tileir bytecode: offset 0x19: operand refers to value 4, but only "
            "0 are defined");
}

//===----------------------------------------------------------------------===//
// A cuTile fixture cut short and with bytes flipped, read in process.
//===----------------------------------------------------------------------===//

/// The checked-in cuTile fixtures (test/cutile/fixtures), by name.
std::vector<std::pair<std::string, Bytes>> fixtures() {
  std::vector<std::pair<std::string, Bytes>> found;
  std::error_code ec;
  std::string dir = std::string(TILEPIPE_SOURCE_DIR) + "/test/cutile/fixtures";
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (!llvm::StringRef(it->path()).ends_with(".tileirbc"))
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    if (buffer)
      found.emplace_back(it->path(), Bytes((*buffer)->getBufferStart(),
                                           (*buffer)->getBufferEnd()));
  }
  return found;
}

TEST(Corruption, EveryPrefixOfEveryFixtureIsRefusedWithAnOffset) {
  auto files = fixtures();
  ASSERT_GE(files.size(), 13u);
  for (auto &[name, whole] : files) {
    ASSERT_TRUE(read(whole).ok) << name;
    for (size_t cut = 0; cut < whole.size(); ++cut) {
      ReadResult r = read(Bytes(whole.begin(), whole.begin() + cut));
      ASSERT_FALSE(r.ok) << name << ": prefix of " << cut << " bytes read";
      ASSERT_EQ(r.error.rfind("tileir bytecode: offset 0x", 0), 0u) << r.error;
    }
  }
}

TEST(Corruption, EveryByteFlipIsReadOrRefused) {
  // One fixture of each kind, and the oldest version (scripts/
  // tileir-corrupt.py samples flips in all of them).
  for (auto &[name, whole] : fixtures()) {
    if (!llvm::is_contained({"matmul-13.1", "attention-13.4", "layernorm-13.4",
                             "matmul_bias_act-13.4"},
                            llvm::sys::path::stem(name)))
      continue;
    size_t refused = 0;
    for (size_t at = 0; at < whole.size(); ++at) {
      Bytes flipped = whole;
      flipped[at] ^= 0xff;
      ReadResult r = read(flipped);
      if (!r.ok) {
        ++refused;
        ASSERT_EQ(r.error.rfind("tileir bytecode: offset 0x", 0), 0u)
            << name << ": " << r.error;
      }
    }
    // Most flips break something; some hit padding or a constant's value.
    EXPECT_GT(refused, whole.size() / 2) << name;
  }
}

} // namespace
