//===- ByteCursor.cpp - bounded reads from tileir bytecode ----------------===//

#include "frontend/cutile/bytecode/ByteCursor.h"

using namespace tilepipe::tileir::bytecode;

bool ErrorState::fail(uint64_t offset, const llvm::Twine &message) {
  if (!error)
    error = ReadError{offset, message.str()};
  return false;
}

bool ByteCursor::readByte(uint8_t &value) {
  if (!ok())
    return false;
  if (pos >= end)
    return fail("unexpected end of data");
  value = file[pos++];
  return true;
}

bool ByteCursor::readVarint(uint64_t &value) {
  size_t start = pos;
  value = 0;
  for (unsigned shift = 0;; shift += 7) {
    uint8_t byte;
    if (!readByte(byte))
      return false;
    // The tenth byte may only hold bit 63.
    if (shift == 63 && (byte & 0x7e))
      return errors.fail(start, "varint overflows 64 bits");
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
    if (shift == 63)
      return errors.fail(start, "varint longer than 10 bytes");
  }
}

bool ByteCursor::readVarint(uint64_t &value, uint64_t limit,
                            llvm::StringRef what) {
  size_t start = pos;
  if (!readVarint(value))
    return false;
  if (value > limit)
    return errors.fail(start, llvm::Twine(what) + " " + llvm::Twine(value) +
                                  " exceeds " + llvm::Twine(limit));
  return true;
}

bool ByteCursor::readSignedVarint(int64_t &value) {
  uint64_t raw;
  if (!readVarint(raw))
    return false;
  value = (raw & 1) ? ~int64_t(raw >> 1) : int64_t(raw >> 1);
  return true;
}

bool ByteCursor::readFixed(unsigned width, bool isSigned, int64_t &value) {
  llvm::ArrayRef<uint8_t> bytes;
  if (width == 0 || width > 8 || !readBytes(width, bytes))
    return ok() ? fail("bad fixed-width read") : false;
  uint64_t raw = 0;
  for (unsigned i = 0; i < width; ++i)
    raw |= uint64_t(bytes[i]) << (8 * i);
  if (isSigned && width < 8 && (raw >> (8 * width - 1)) & 1)
    raw |= ~uint64_t(0) << (8 * width);
  value = int64_t(raw);
  return true;
}

bool ByteCursor::readBytes(size_t count, llvm::ArrayRef<uint8_t> &bytes) {
  if (!ok())
    return false;
  if (count > remaining())
    return fail(llvm::Twine("needs ") + llvm::Twine(count) + " bytes, " +
                llvm::Twine(remaining()) + " left");
  bytes = file.slice(pos, count);
  pos += count;
  return true;
}

bool ByteCursor::alignTo(uint64_t alignment) {
  if (!ok())
    return false;
  if (alignment == 0 || (alignment & (alignment - 1)) || alignment > 4096)
    return fail(llvm::Twine("bad alignment ") + llvm::Twine(alignment));
  size_t padding = (alignment - pos % alignment) % alignment;
  llvm::ArrayRef<uint8_t> skipped;
  return readBytes(padding, skipped);
}

bool ByteCursor::split(size_t length, std::optional<ByteCursor> &sub) {
  if (!ok())
    return false;
  if (length > remaining())
    return fail(llvm::Twine("length ") + llvm::Twine(length) + " exceeds the " +
                llvm::Twine(remaining()) + " bytes left");
  sub.emplace(file, pos, pos + length, errors);
  pos += length;
  return true;
}
