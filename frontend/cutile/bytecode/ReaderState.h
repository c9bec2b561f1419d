//===- ReaderState.h - the state of one bytecode read -----------*- C++ -*-===//
//
// Internal to the reader: the file's sections and decoded tables (strings,
// types, constants, debug locations), shared by the table, attribute and
// op decoders.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_BYTECODE_READERSTATE_H
#define TILEPIPE_FRONTEND_CUTILE_BYTECODE_READERSTATE_H

#include "frontend/cutile/bytecode/ByteCursor.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>

namespace tilepipe::tileir::bytecode {

/// Bytecode version as major*100 + minor (1301 is 13.1).
using Version = unsigned;

/// Section ids (the high bit of the id byte says an alignment follows).
enum class SectionId : uint8_t {
  End = 0,
  String = 1,
  Func = 2,
  Debug = 3,
  Constant = 4,
  Type = 5,
  Global = 6,
};
inline constexpr unsigned kNumSectionIds = 7;

/// One entry of an offset-indexed table: its bytes' window in the file.
struct TableEntry {
  size_t begin = 0, end = 0;
};

/// Reads a table at `in`: a count, `indexSize`-byte offsets (aligned to
/// `indexSize`), then the entries' bytes up to the end of `in`.
bool readTableAt(ByteCursor &in, unsigned indexSize,
                 llvm::SmallVectorImpl<TableEntry> &entries);

struct ReaderState {
  ReaderState(llvm::ArrayRef<uint8_t> file, llvm::StringRef fileName,
              mlir::MLIRContext *context)
      : file(file), fileName(fileName), context(context) {}

  ByteCursor cursor(size_t begin, size_t end) {
    return ByteCursor(file, begin, end, errors);
  }
  ByteCursor cursor(const TableEntry &entry) {
    return cursor(entry.begin, entry.end);
  }
  bool fail(size_t offset, const llvm::Twine &message) {
    return errors.fail(offset, message);
  }

  /// The header and the section windows (absent sections stay empty).
  bool readHeaderAndSections();
  /// Decodes the string, type, constant and debug tables.
  bool readTables();

  /// Table lookups by id read at `cursor`; they fail there when the id is
  /// out of range.
  bool readString(ByteCursor &cursor, llvm::StringRef &value);
  bool readType(ByteCursor &cursor, mlir::Type &type);
  bool readConstant(ByteCursor &cursor, llvm::ArrayRef<uint8_t> &bytes);
  /// The location of debug attribute `id` (0: none, the file itself).
  mlir::Location debugLocation(uint64_t id) const;

  /// A tagged attribute (tags 1-12), nested at most a few levels deep.
  bool readTaggedAttribute(ByteCursor &cursor, mlir::Attribute &attr,
                           unsigned depth = 0);
  /// An untagged dictionary `count, (string id, tagged)*` of hints.
  bool readHintsDictionary(ByteCursor &cursor, mlir::Attribute &hints);

  llvm::ArrayRef<uint8_t> file;
  llvm::StringRef fileName;
  mlir::MLIRContext *context;
  ErrorState errors;
  Version version = 0;
  std::array<std::optional<TableEntry>, kNumSectionIds> sections;

  llvm::SmallVector<llvm::StringRef> strings;
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<TableEntry> constants;
  llvm::SmallVector<mlir::Location> debugLocs; ///< Index 0: unknown.
  /// Per function: the debug attribute id of the function, then of each op
  /// in pre-order.
  llvm::SmallVector<llvm::SmallVector<uint64_t>> debugIndices;

private:
  bool readTable(SectionId id, unsigned indexSize,
                 llvm::SmallVectorImpl<TableEntry> &entries);
  bool decodeType(const TableEntry &entry, mlir::Type &type);
  bool decodeCompositeType(ByteCursor &cursor, uint64_t tag, mlir::Type &type);
  bool decodePartitionView(ByteCursor &cursor, mlir::Type &type);
  bool readDebugSection();
  bool decodeDebugAttr(const TableEntry &entry, mlir::Location &loc);
};

} // namespace tilepipe::tileir::bytecode

#endif // TILEPIPE_FRONTEND_CUTILE_BYTECODE_READERSTATE_H
