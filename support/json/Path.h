//===- Path.h - JSON paths and text positions for messages -----*- C++ -*-===//
//
// Part of the strict-JSON kit (docs/support.md). Readers of JSON files
// (target descriptions, scheduling problems) name the field an error is
// about as a path: `op_classes.umma.footprint[1].slot`, or `ops["odd key"]`
// for a key that is not an identifier; and a place in the text as the
// 1-based line and column editors show.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_JSON_PATH_H
#define TILEPIPE_SUPPORT_JSON_PATH_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace tilepipe::support::json {

/// `parent.key`, or `parent["key"]` when the key is not an identifier (op
/// class names such as "book.mma" contain dots, which would make a dotted
/// path ambiguous).
inline std::string pathKey(llvm::StringRef parent, llvm::StringRef key) {
  bool identifier =
      !key.empty() && !llvm::isDigit(key.front()) &&
      llvm::all_of(key, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  std::string out = parent.str();
  if (identifier) {
    if (!out.empty())
      out += '.';
    out += key;
    return out;
  }
  out += "[\"";
  for (char c : key) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  out += "\"]";
  return out;
}

/// `parent[index]`.
inline std::string pathIndex(llvm::StringRef parent, size_t index) {
  return (parent + "[" + llvm::Twine(index) + "]").str();
}

/// "a number", "an object", ...: for "expected X, got Y" messages.
inline const char *describeKind(const llvm::json::Value &v) {
  switch (v.kind()) {
  case llvm::json::Value::Null:
    return "null";
  case llvm::json::Value::Boolean:
    return "a boolean";
  case llvm::json::Value::Number:
    return "a number";
  case llvm::json::Value::String:
    return "a string";
  case llvm::json::Value::Array:
    return "an array";
  case llvm::json::Value::Object:
    return "an object";
  }
  llvm_unreachable("unknown json::Value kind");
}

/// The value as JSON text ("1.5", "\"x\""), for "expected an integer, got
/// 1.5".
inline std::string printValue(const llvm::json::Value &v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << v;
  return out;
}

/// A place in a text, both counted from 1.
struct TextPosition {
  unsigned line = 0;
  unsigned column = 0;
};

/// The line and column of byte `offset` of `text`.
inline TextPosition positionOf(llvm::StringRef text, size_t offset) {
  llvm::StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n');
  unsigned column =
      offset - (lineStart == llvm::StringRef::npos ? 0 : lineStart + 1) + 1;
  return {unsigned(before.count('\n') + 1), column};
}

} // namespace tilepipe::support::json

#endif // TILEPIPE_SUPPORT_JSON_PATH_H
