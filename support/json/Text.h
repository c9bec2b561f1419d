//===- Text.h - strict JSON: what json::parse does not check ---*- C++ -*-===//
//
// Part of the strict-JSON kit (docs/support.md). llvm::json::parse accepts
// a few things a hand-written file should not get away with: a key written
// twice in one object (it keeps one silently), nesting deep enough to
// overflow the stack (it, json::Value's destructor and every reader's walk
// recurse once per level), and a \u escape of a lone UTF-16 surrogate (it
// silently becomes U+FFFD). One scan of the raw text finds all three, and
// can split the arrays of the root object into their elements' byte ranges,
// so that a reader of a large file parses it one element at a time.
//
// parseStrict() runs the scan and json::parse in the order the readers
// report errors in: too deep, not valid JSON, duplicate key.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_JSON_TEXT_H
#define TILEPIPE_SUPPORT_JSON_TEXT_H

#include "support/json/Path.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilepipe::support::json {

/// The second of two equal keys in one object.
struct DuplicateKey {
  std::string path; ///< Of the key, e.g. `op_classes.umma.latency`.
  TextPosition at, first;
  /// "path: duplicate key at L:C (first written at L:C)".
  std::string describe() const;
};

/// An array member of the root object, split into its elements.
struct SplitArray {
  std::string key;
  /// The byte range between the brackets, once the array has been seen
  /// (the first array of that key only).
  std::optional<std::pair<size_t, size_t>> contents;
  /// Each element's [begin, end), surrounding whitespace left out. 32-bit
  /// offsets: half the memory for a large file (readers that split refuse
  /// texts of 4 GiB and more).
  std::vector<std::pair<uint32_t, uint32_t>> elements;
};

/// What scanText found. On text that is not valid JSON the findings other
/// than `tooDeepAt` mean nothing: check them once json::parse accepted it.
struct TextScan {
  /// The '[' or '{' that opens level maxDepth + 1; the scan stops there.
  std::optional<size_t> tooDeepAt;
  /// The first key written twice in one object, in text order.
  std::optional<DuplicateKey> duplicate;
  /// The backslash of the first \u escape of a lone surrogate.
  std::optional<size_t> loneSurrogateAt;
  /// One per key asked for, in the order asked.
  llvm::SmallVector<SplitArray, 2> arrays;

  const SplitArray &array(llvm::StringRef key) const;
};

/// Scans `text` once; `splitKeys` names the root object's array members to
/// split into elements.
TextScan scanText(llvm::StringRef text, unsigned maxDepth,
                  llvm::ArrayRef<llvm::StringRef> splitKeys = {});

/// json::parse's error "[line:col, byte=N]: message", taken apart.
struct SyntaxError {
  /// Where the parser stopped, as editors count (json::parse gives the
  /// column just after the character it stopped on, which is that
  /// character's 1-based column; 0 only before the first one, made 1).
  std::optional<TextPosition> at;
  /// The parser's message; its whole text when it had no position.
  std::string message;
};
SyntaxError takeSyntaxError(llvm::Error err);

/// Why parseStrict refused a text.
class TextError : public llvm::ErrorInfo<TextError> {
public:
  enum class Kind { TooDeep, Syntax, DuplicateKey };
  TextError(Kind kind, std::optional<TextPosition> at, std::string message)
      : kind(kind), at(at), message(std::move(message)) {}

  /// "L:C: message", or the message alone when it has no position.
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

  Kind kind;
  std::optional<TextPosition> at;
  /// "arrays and objects nest deeper than N", "not valid JSON: ..." or
  /// DuplicateKey::describe().
  std::string message;
  static char ID;
};

/// json::parse with the scan's checks; fails with a TextError.
llvm::Expected<llvm::json::Value> parseStrict(llvm::StringRef text,
                                              unsigned maxDepth);

} // namespace tilepipe::support::json

#endif // TILEPIPE_SUPPORT_JSON_TEXT_H
