//===- FlatObject.h - one-level JSON objects read in place -----*- C++ -*-===//
//
// Part of the strict-JSON kit (docs/support.md).
//
// A problem file of a million ops is a million small objects of a few
// string and integer members. json::parse builds each as a json::Object
// (a hash table of at least 64 buckets) only for the reader to drop it: most
// of the reading time of a large file. parseFlatObject reads the common
// shape in place instead, and says no to anything else (a nested value, an
// escape, a non-ASCII byte, a fraction, a literal, a duplicate key, an
// integer past int64), which the caller then hands to json::parse for the
// exact value or the exact diagnostic. It accepts only text json::parse
// accepts, with the same values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_JSON_FLATOBJECT_H
#define TILEPIPE_SUPPORT_JSON_FLATOBJECT_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace tilepipe::support::json {

/// A member's value: an integer or a string of printable ASCII. Its
/// accessors answer as json::Value's do for the same text.
struct FlatValue {
  bool isString = false;
  int64_t integer = 0;
  llvm::StringRef string;

  llvm::json::Value::Kind kind() const {
    return isString ? llvm::json::Value::String : llvm::json::Value::Number;
  }
  std::optional<int64_t> getAsInteger() const {
    return isString ? std::nullopt : std::optional<int64_t>(integer);
  }
  std::optional<llvm::StringRef> getAsString() const {
    return isString ? std::optional<llvm::StringRef>(string) : std::nullopt;
  }
  std::optional<bool> getAsBoolean() const { return std::nullopt; }
  const llvm::json::Array *getAsArray() const { return nullptr; }
  const llvm::json::Object *getAsObject() const { return nullptr; }
};

/// A JSON object whose members are all FlatValues, keys distinct, in
/// written order.
class FlatObject {
public:
  using Member = std::pair<llvm::StringRef, FlatValue>;
  const FlatValue *get(llvm::StringRef key) const {
    for (const Member &m : members)
      if (m.first == key)
        return &m.second;
    return nullptr;
  }
  const Member *begin() const { return members.begin(); }
  const Member *end() const { return members.end(); }
  llvm::SmallVector<Member, 12> members;
};

/// Reads `text` (one JSON value, surrounding whitespace allowed) into
/// `out`; false when it is not a flat object as above, and then `out` is
/// unspecified.
bool parseFlatObject(llvm::StringRef text, FlatObject &out);

/// As describeKind and printValue (Path.h) say of the same json::Value.
inline const char *describeKind(const FlatValue &v) {
  return v.isString ? "a string" : "a number";
}
inline std::string printValue(const FlatValue &v) {
  return v.isString ? ("\"" + v.string + "\"").str()
                    : std::to_string(v.integer);
}

} // namespace tilepipe::support::json

#endif // TILEPIPE_SUPPORT_JSON_FLATOBJECT_H
