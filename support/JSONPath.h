//===- JSONPath.h - JSON paths for error messages --------------*- C++ -*-===//
//
// Readers of JSON files (target descriptions, scheduling problems) name the
// field an error is about as a path: `op_classes.umma.footprint[1].slot`, or
// `ops["odd key"]` for a key that is not an identifier.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_JSONPATH_H
#define TILEPIPE_SUPPORT_JSONPATH_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace tilepipe::support {

/// `parent.key`, or `parent["key"]` when the key is not an identifier.
inline std::string jsonPathKey(llvm::StringRef parent, llvm::StringRef key) {
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

/// The offset of the first '[' or '{' that opens level `maxDepth + 1`
/// (strings skipped), or none. json::parse, json::Value's destructor and
/// the readers' walks recurse once per level, so deeper text must be
/// refused before it is parsed.
inline std::optional<size_t> jsonTooDeep(llvm::StringRef text,
                                         unsigned maxDepth) {
  unsigned depth = 0;
  for (size_t pos = 0, e = text.size(); pos < e; ++pos) {
    char c = text[pos];
    if (c == '"') {
      for (++pos; pos < e && text[pos] != '"'; ++pos)
        if (text[pos] == '\\')
          ++pos;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        return pos;
    } else if ((c == ']' || c == '}') && depth) {
      --depth;
    }
  }
  return std::nullopt;
}

/// `parent[index]`.
inline std::string jsonPathIndex(llvm::StringRef parent, size_t index) {
  return (parent + "[" + llvm::Twine(index) + "]").str();
}

/// "a number", "an object", ...: for "expected X, got Y" messages.
inline const char *describeJSONKind(const llvm::json::Value &v) {
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

} // namespace tilepipe::support

#endif // TILEPIPE_SUPPORT_JSONPATH_H
