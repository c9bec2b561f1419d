//===- TargetLoader.h - the target file loader's parts ---------*- C++ -*-===//
//
// Internal to TilePipeTarget: the loader of target files, shared by
// TargetReader.cpp (the document, slot and pool tables, caps, chip) and
// TargetOpClassReader.cpp (op classes and their quantities).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TARGET_TARGETLOADER_H
#define TILEPIPE_TARGET_TARGETLOADER_H

#include "support/json/Fields.h"
#include "target/Target.h"
#include "target/TargetChecks.h"

#include "llvm/Support/JSON.h"

#include <limits>
#include <string>

namespace tilepipe::target::detail {

namespace json = llvm::json;
using llvm::Error;
using llvm::StringRef;

inline constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
inline constexpr int64_t kMaxUnsigned = std::numeric_limits<unsigned>::max();

inline Error missing(StringRef path) {
  return fieldError(path, "missing required field");
}

/// The integer at `path`, within [min, max] in this format's words.
Error readInt(const json::Value &v, StringRef path, int64_t min, int64_t max,
              int64_t &out);

template <typename T>
Error readInt(const json::Value &v, StringRef path, int64_t min, int64_t max,
              T &out) {
  int64_t value = 0;
  if (Error err = readInt(v, path, min, max, value))
    return err;
  out = static_cast<T>(value);
  return Error::success();
}

/// Reads every field of one JSON object with its path at hand: the kit's
/// getters, with this format's ranges, defaults and required fields.
class ObjectReader {
public:
  ObjectReader(const json::Object &object, std::string path)
      : path(std::move(path)), fields(object, this->path) {}

  std::string at(StringRef key) const { return fields.at(key); }
  const json::Value *get(StringRef key) const { return fields.get(key); }

  Error keys(llvm::ArrayRef<StringRef> allowed) const {
    return fields.knownKeys(allowed, "field");
  }

  template <typename T>
  Error integer(StringRef key, bool required, int64_t min, int64_t max,
                T &out) const {
    if (const json::Value *v = get(key))
      return readInt(*v, at(key), min, max, out);
    return required ? missing(at(key)) : Error::success();
  }
  Error string(StringRef key, bool required, std::string &out) const {
    std::optional<StringRef> s;
    if (Error err = fields.string(key, s))
      return err;
    if (s)
      out = s->str();
    return s || !required ? Error::success() : missing(at(key));
  }
  Error boolean(StringRef key, bool &out) const {
    std::optional<bool> b;
    if (Error err = fields.boolean(key, b))
      return err;
    if (b)
      out = *b;
    return Error::success();
  }

private:
  std::string path;
  support::json::ObjectFields<json::Object> fields;
};

/// Loads a parsed document into a model, field by field.
class Loader {
public:
  explicit Loader(TargetModel &model) : m(model) {}
  Error load(const json::Value &root);

private:
  Error loadPools(const json::Value &v, StringRef path);
  Error loadSlots(const json::Value &v, StringRef path);
  Error loadCaps(const json::Value &v, StringRef path);
  Error loadChip(const json::Value &v, StringRef path);
  Error loadOpClasses(const json::Value &v, StringRef path);
  Error loadOpClass(const json::Value &v, StringRef path, OpClassInfo &cls);
  Error loadFootprint(const json::Value &v, StringRef path, OpClassInfo &cls);
  Error loadPoolRequests(const json::Value &v, StringRef path,
                         OpClassInfo &cls);
  Error loadQuantity(const json::Value &v, StringRef path, Quantity &q);
  Error resolveSlot(const json::Value &v, StringRef path, unsigned &id);
  Error resolvePool(const json::Value &v, StringRef path, unsigned &index);

  TargetModel &m;
};

} // namespace tilepipe::target::detail

#endif // TILEPIPE_TARGET_TARGETLOADER_H
