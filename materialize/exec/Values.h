//===- Values.h - runtime values and symbolic tile terms --------*- C++ -*-===//
//
// The interpreter never computes tile data. A tile is a term: a 64-bit
// hash of (op name, relevant attributes, operand terms), hash-consed so a
// finding can print what a value was computed from. Two executions that
// compute the same tile from the same inputs get the same term, which is
// what the differential check compares.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_EXEC_VALUES_H
#define TILEPIPE_MATERIALIZE_EXEC_VALUES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace tilepipe::exec {

/// A stable 64-bit hash of a string (FNV-1a, then mixed): unlike
/// llvm::hash_value or std::hash it does not change between runs or builds.
uint64_t hashString(llvm::StringRef s);

/// Hash-consed terms. Leaves are integers and named opaque inputs.
class TermTable {
public:
  uint64_t intLeaf(int64_t value);
  /// An opaque input, e.g. ("arg", 3) or ("alloc", hash of its type).
  uint64_t leaf(llvm::StringRef kind, uint64_t payload);
  /// `name(args...)`; attrHash folds in the op's relevant attributes.
  uint64_t apply(llvm::StringRef name, uint64_t attrHash,
                 llvm::ArrayRef<uint64_t> args);
  /// A readable form, cut off below `depth` levels.
  std::string render(uint64_t term, unsigned depth = 3) const;

private:
  struct Node {
    std::string head;
    std::vector<uint64_t> args;
  };
  uint64_t intern(uint64_t hash, std::string head,
                  llvm::ArrayRef<uint64_t> args);
  llvm::DenseMap<uint64_t, Node> nodes;
};

/// One SSA value at run time.
struct Val {
  enum class Kind : uint8_t { None, Int, Term, Handle, Poison, Pipe, Mutex };
  Kind kind = Kind::None;
  /// Int: the value (sign-extended from its width). Pipe/Mutex: the index.
  int64_t i = 0;
  /// Term: the tile.
  uint64_t term = 0;
  /// Handle: the buffer.
  unsigned buffer = 0;
  /// Handle from a pipe op: the pipe and pipe iteration it was obtained
  /// for (-1 when the handle is not a slot handed out by a pipe).
  int pipe = -1;
  int64_t iter = 0;

  static Val integer(int64_t v) {
    Val r;
    r.kind = Kind::Int;
    r.i = v;
    return r;
  }
  static Val tile(uint64_t t) {
    Val r;
    r.kind = Kind::Term;
    r.term = t;
    return r;
  }
  static Val handle(unsigned buffer, int pipe = -1, int64_t iter = 0) {
    Val r;
    r.kind = Kind::Handle;
    r.buffer = buffer;
    r.pipe = pipe;
    r.iter = iter;
    return r;
  }
  static Val poison() {
    Val r;
    r.kind = Kind::Poison;
    return r;
  }
  static Val object(Kind kind, int64_t index) {
    Val r;
    r.kind = kind;
    r.i = index;
    return r;
  }
  bool isInt() const { return kind == Kind::Int; }
  bool isHandle() const { return kind == Kind::Handle; }
  bool isSlot() const { return kind == Kind::Handle && pipe >= 0; }
};

} // namespace tilepipe::exec

#endif // TILEPIPE_MATERIALIZE_EXEC_VALUES_H
