//===- Fields.h - strict JSON: typed fields with path-named errors -*- C++ -*-//
//
// Part of the strict-JSON kit (docs/support.md). A reader walks the parsed
// value by hand rather than with json::ObjectMapper: ObjectMapper reports
// through json::Path, whose messages are fixed string literals, and these
// errors need the offending value in them ("expected an integer, got 1.5",
// "unknown slot 'tpmma'"). Every error is a FieldError naming the field as
// a JSON path; the reader adds its file name in front.
//
// The getters take a json::Object or a FlatObject (FlatObject.h) and their
// values alike, so that a reader's fast and general ways in share one set of
// checks. Range limits, required fields and their wording stay with each
// reader: they belong to its file format.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_JSON_FIELDS_H
#define TILEPIPE_SUPPORT_JSON_FIELDS_H

#include "support/json/FlatObject.h"
#include "support/json/Path.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace tilepipe::support::json {

/// An error about one field: "path: message", or the message alone for the
/// root (empty path).
class FieldError : public llvm::ErrorInfo<FieldError> {
public:
  FieldError(std::string path, std::string message)
      : path(std::move(path)), message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

  std::string path;
  std::string message;
  static char ID;
};

inline llvm::Error fieldError(const llvm::Twine &path,
                              const llvm::Twine &message) {
  return llvm::make_error<FieldError>(path.str(), message.str());
}

/// "path: expected <expected>, got <kind of got>".
template <class V>
llvm::Error typeMismatch(llvm::StringRef path, const llvm::Twine &expected,
                         const V &got) {
  return fieldError(path,
                    "expected " + expected + ", got " + describeKind(got));
}

template <class V>
llvm::Expected<int64_t> integerOf(const V &v, llvm::StringRef path) {
  if (std::optional<int64_t> i = v.getAsInteger())
    return *i;
  if (v.kind() == llvm::json::Value::Number)
    return fieldError(path, "expected an integer, got " + printValue(v));
  return typeMismatch(path, "an integer", v);
}

/// The string stays in the value (or the text it was read from).
template <class V>
llvm::Expected<llvm::StringRef> stringOf(const V &v, llvm::StringRef path) {
  if (std::optional<llvm::StringRef> s = v.getAsString())
    return *s;
  return typeMismatch(path, "a string", v);
}

template <class V>
llvm::Expected<bool> booleanOf(const V &v, llvm::StringRef path) {
  if (std::optional<bool> b = v.getAsBoolean())
    return *b;
  return typeMismatch(path, "true or false", v);
}

template <class V>
llvm::Expected<const llvm::json::Object *> objectOf(const V &v,
                                                    llvm::StringRef path) {
  if (const llvm::json::Object *o = v.getAsObject())
    return o;
  return typeMismatch(path, "an object", v);
}

template <class V>
llvm::Expected<const llvm::json::Array *> arrayOf(const V &v,
                                                  llvm::StringRef path) {
  if (const llvm::json::Array *a = v.getAsArray())
    return a;
  return typeMismatch(path, "an array", v);
}

/// The object's keys, sorted: the first error reported then does not
/// depend on json::Object's hash order.
template <class Obj>
llvm::SmallVector<llvm::StringRef, 16> sortedKeys(const Obj &object) {
  llvm::SmallVector<llvm::StringRef, 16> keys;
  for (const auto &entry : object)
    keys.push_back(entry.first);
  llvm::sort(keys);
  return keys;
}

/// The first key (in sorted order) not in `allowed`, as "path.key: unknown
/// <noun> (expected one of: a, b)".
template <class Obj>
llvm::Error checkKnownKeys(const Obj &object, llvm::StringRef path,
                           llvm::ArrayRef<llvm::StringRef> allowed,
                           llvm::StringRef noun) {
  if (llvm::all_of(object, [&](const auto &entry) {
        return llvm::is_contained(allowed, llvm::StringRef(entry.first));
      }))
    return llvm::Error::success();
  for (llvm::StringRef key : sortedKeys(object))
    if (!llvm::is_contained(allowed, key))
      return fieldError(pathKey(path, key),
                        "unknown " + noun + " (expected one of: " +
                            llvm::join(allowed, ", ") + ")");
  return llvm::Error::success();
}

/// The fields of one object, read with its path at hand. An absent field
/// leaves `out` empty; a present one of the wrong type is an error.
template <class Obj> class ObjectFields {
public:
  ObjectFields(const Obj &object, llvm::StringRef path)
      : object(object), path(path) {}

  llvm::StringRef getPath() const { return path; }
  std::string at(llvm::StringRef key) const { return pathKey(path, key); }
  const auto *get(llvm::StringRef key) const { return object.get(key); }

  llvm::Error knownKeys(llvm::ArrayRef<llvm::StringRef> allowed,
                        llvm::StringRef noun) const {
    return checkKnownKeys(object, path, allowed, noun);
  }

  // Each getter checks the value's type before it spells the path: a large
  // file's reader calls them millions of times, and almost always they
  // succeed.
  llvm::Error integer(llvm::StringRef key, std::optional<int64_t> &out) const {
    out.reset();
    const auto *v = get(key);
    if (!v || (out = v->getAsInteger()))
      return llvm::Error::success();
    return integerOf(*v, at(key)).takeError();
  }
  llvm::Error string(llvm::StringRef key,
                     std::optional<llvm::StringRef> &out) const {
    out.reset();
    const auto *v = get(key);
    if (!v || (out = v->getAsString()))
      return llvm::Error::success();
    return stringOf(*v, at(key)).takeError();
  }
  llvm::Error boolean(llvm::StringRef key, std::optional<bool> &out) const {
    out.reset();
    const auto *v = get(key);
    if (!v || (out = v->getAsBoolean()))
      return llvm::Error::success();
    return booleanOf(*v, at(key)).takeError();
  }
  llvm::Error array(llvm::StringRef key, const llvm::json::Array *&out) const {
    out = nullptr;
    const auto *v = get(key);
    if (!v || (out = v->getAsArray()))
      return llvm::Error::success();
    return arrayOf(*v, at(key)).takeError();
  }

private:
  const Obj &object;
  llvm::StringRef path;
};

} // namespace tilepipe::support::json

#endif // TILEPIPE_SUPPORT_JSON_FIELDS_H
