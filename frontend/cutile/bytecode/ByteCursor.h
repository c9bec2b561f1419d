//===- ByteCursor.h - bounded reads from tileir bytecode --------*- C++ -*-===//
//
// The low-level decoding of CUDA Tile IR bytecode: bytes, LEB128 varints
// (unsigned and zigzag-signed), fixed-width little-endian integers and
// alignment padding. Every read is bounded by the bytes left in the cursor's
// window; the first failure records a message and the absolute byte offset
// where it happened, and every later read fails, so that callers may chain
// reads and check once.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_BYTECODE_BYTECURSOR_H
#define TILEPIPE_FRONTEND_CUTILE_BYTECODE_BYTECURSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilepipe::tileir::bytecode {

/// The first error of a read: what went wrong and where (absolute offset).
struct ReadError {
  uint64_t offset = 0;
  std::string message;
};

/// Shared by the cursors over one file: the first error wins.
class ErrorState {
public:
  bool failed() const { return error.has_value(); }
  /// Records the error unless one is already recorded; returns false.
  bool fail(uint64_t offset, const llvm::Twine &message);
  const std::optional<ReadError> &get() const { return error; }

private:
  std::optional<ReadError> error;
};

/// A window [begin, end) of the file with a read position.
class ByteCursor {
public:
  ByteCursor(llvm::ArrayRef<uint8_t> file, size_t begin, size_t end,
             ErrorState &errors)
      : file(file), pos(begin), end(end), errors(errors) {}

  size_t offset() const { return pos; }
  size_t remaining() const { return end - pos; }
  bool atEnd() const { return pos >= end; }
  bool ok() const { return !errors.failed(); }
  ErrorState &errorState() const { return errors; }
  /// Fails at the current offset.
  bool fail(const llvm::Twine &message) { return errors.fail(pos, message); }

  bool readByte(uint8_t &value);
  /// Unsigned LEB128, at most 10 bytes and 64 bits.
  bool readVarint(uint64_t &value);
  /// A varint that must fit `limit` (inclusive), e.g. a count or an id.
  bool readVarint(uint64_t &value, uint64_t limit, llvm::StringRef what);
  /// Zigzag: 2v for v >= 0, ~(2v) for v < 0.
  bool readSignedVarint(int64_t &value);
  /// `width` bytes (1..8), little-endian, sign-extended when `isSigned`.
  bool readFixed(unsigned width, bool isSigned, int64_t &value);
  bool readBytes(size_t count, llvm::ArrayRef<uint8_t> &bytes);
  /// Skips padding up to the next multiple of `alignment` of the absolute
  /// offset (the writer pads with 0xcb).
  bool alignTo(uint64_t alignment);
  /// A sub-cursor over the next `length` bytes, which this one skips.
  bool split(size_t length, std::optional<ByteCursor> &sub);

private:
  llvm::ArrayRef<uint8_t> file;
  size_t pos, end;
  ErrorState &errors;
};

} // namespace tilepipe::tileir::bytecode

#endif // TILEPIPE_FRONTEND_CUTILE_BYTECODE_BYTECURSOR_H
