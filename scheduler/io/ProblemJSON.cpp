//===- ProblemJSON.cpp - scheduling problems as JSON files ----------------===//
//
// Three passes over a file: a scan of the raw text (nesting depth, because
// json::parse and json::Value's destructor recurse; duplicate keys, because
// json::parse keeps one of the two silently; where each element of the
// top-level "ops" and "edges" arrays lies), json::parse itself, and a walk
// of the parsed value that builds the Problem. The walk checks keys before
// values and visits keys in a fixed order, so the first error reported does
// not depend on json::Object's hash order.
//
// The two big arrays are parsed one element at a time, each dropped once
// its op or edge is built: a json::Object allocates at least 64 buckets
// (about 3.5 KB) even for three keys, so the whole document as one
// json::Value took 3 GB for the 214,591-op hyp graph. The rest of the file
// is parsed with the arrays' contents blanked out (offsets kept, so error
// positions are the file's). Any syntax error is reported from a parse of
// the whole text, as before.
//
//===----------------------------------------------------------------------===//

#include "scheduler/io/ProblemJSON.h"
#include "scheduler/io/FlatJSON.h"

#include "support/JSONPath.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <limits>
#include <map>
#include <memory>

using namespace tilepipe;
using namespace tilepipe::io;
using llvm::Error;
using llvm::StringRef;
namespace json = llvm::json;

namespace {

//===----------------------------------------------------------------------===//
// JSON paths
//===----------------------------------------------------------------------===//

std::string pathKey(StringRef parent, StringRef key) {
  return tilepipe::support::jsonPathKey(parent, key);
}

std::string pathIndex(StringRef parent, size_t index) {
  return tilepipe::support::jsonPathIndex(parent, index);
}

std::pair<unsigned, unsigned> lineColumn(StringRef text, size_t at) {
  StringRef before = text.take_front(at);
  size_t lineStart = before.rfind('\n');
  unsigned column = at - (lineStart == StringRef::npos ? 0 : lineStart + 1) + 1;
  return {unsigned(before.count('\n') + 1), column};
}

//===----------------------------------------------------------------------===//
// The raw-text scan
//===----------------------------------------------------------------------===//

/// What the scan found; `deepAt` is checked before json::parse runs, the
/// duplicate only once the text is known to be valid JSON.
struct ScanResult {
  std::optional<size_t> deepAt;
  std::optional<std::string> duplicate; ///< "path: message".
  /// The top-level "ops" and "edges" arrays: their contents' byte range and
  /// each element's [begin, end) (valid JSON assumed; json::parse decides).
  struct BigArray {
    std::optional<std::pair<size_t, size_t>> contents;
    /// 32-bit offsets: half the memory for a large file (the reader
    /// refuses texts of 4 GiB and more).
    std::vector<std::pair<uint32_t, uint32_t>> elements;
  };
  BigArray ops, edges;
  /// A \u escape of a lone UTF-16 surrogate, which json::parse would
  /// silently replace with U+FFFD (a name would change unnoticed).
  std::optional<size_t> loneSurrogateAt;
};

/// The 16-bit value of the \uXXXX escape at `at` (pointing at the
/// backslash), if it is one.
std::optional<unsigned> unicodeEscape(StringRef text, size_t at) {
  if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u')
    return std::nullopt;
  unsigned value = 0;
  if (text.substr(at + 2, 4).getAsInteger(16, value))
    return std::nullopt;
  return value;
}

ScanResult scanText(StringRef text) {
  struct Level {
    bool object = false;
    bool expectKey = false;
    std::string key;  ///< Object: the current key, raw.
    size_t index = 0; ///< Array: the current element.
    /// Object: each key and where it was first written. A short list for
    /// the million small objects of a large file, a map past a few dozen.
    llvm::SmallVector<std::pair<StringRef, size_t>, 12> few;
    std::unique_ptr<llvm::StringMap<size_t>> many;
    /// Records `key` at `at`, or returns where it was first written.
    std::optional<size_t> insert(StringRef key, size_t at) {
      if (!many) {
        for (auto &[k, first] : few)
          if (k == key)
            return first;
        if (few.size() < 32) {
          few.push_back({key, at});
          return std::nullopt;
        }
        many = std::make_unique<llvm::StringMap<size_t>>();
        for (auto &[k, first] : few)
          many->try_emplace(k, first);
      }
      auto [it, fresh] = many->try_emplace(key, at);
      if (fresh)
        return std::nullopt;
      return it->second;
    }
  };
  ScanResult result;
  std::vector<Level> stack;
  // The big array being scanned (stack depth 2 under a root object), and
  // where its current element began.
  ScanResult::BigArray *big = nullptr;
  // Where the current element began; npos when none has.
  size_t elementBegin = StringRef::npos;
  auto endElement = [&](size_t end) {
    if (big && elementBegin != StringRef::npos) {
      size_t b = elementBegin;
      while (end > b && isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
      big->elements.push_back({uint32_t(b), uint32_t(end)});
    }
    elementBegin = StringRef::npos;
  };
  for (size_t pos = 0, e = text.size(); pos < e; ++pos) {
    char c = text[pos];
    if (big && stack.size() == 2 && elementBegin == StringRef::npos &&
        c != ',' && c != ']' && !isspace(static_cast<unsigned char>(c)))
      elementBegin = pos;
    if (c == '"') {
      size_t begin = pos + 1;
      for (++pos; pos < e && text[pos] != '"'; ++pos) {
        if (text[pos] != '\\')
          continue;
        std::optional<unsigned> unit = unicodeEscape(text, pos);
        if (unit && *unit >= 0xD800 && *unit <= 0xDFFF) {
          std::optional<unsigned> low = unicodeEscape(text, pos + 6);
          bool paired =
              *unit < 0xDC00 && low && *low >= 0xDC00 && *low <= 0xDFFF;
          if (!paired && !result.loneSurrogateAt)
            result.loneSurrogateAt = pos;
          if (paired)
            pos += 6;
        }
        ++pos;
      }
      if (stack.empty() || !stack.back().object || !stack.back().expectKey)
        continue;
      Level &top = stack.back();
      StringRef key = text.slice(begin, std::min(pos, e));
      top.expectKey = false;
      top.key = key.str();
      std::optional<size_t> firstAt = top.insert(key, begin - 1);
      if (!firstAt || result.duplicate)
        continue;
      std::string path;
      for (const Level &level : llvm::ArrayRef(stack).drop_back())
        path = level.object ? pathKey(path, level.key)
                            : pathIndex(path, level.index);
      auto [line, column] = lineColumn(text, begin - 1);
      auto [firstLine, firstColumn] = lineColumn(text, *firstAt);
      result.duplicate =
          pathKey(path, key) +
          llvm::formatv(": duplicate key at {0}:{1} (first written at {2}:{3})",
                        line, column, firstLine, firstColumn)
              .str();
    } else if (c == '{' || c == '[') {
      if (stack.size() >= kMaxJSONDepth) {
        result.deepAt = pos;
        return result;
      }
      stack.emplace_back();
      stack.back().object = c == '{';
      stack.back().expectKey = c == '{';
      if (c == '[' && stack.size() == 2 && stack[0].object) {
        ScanResult::BigArray *target = stack[0].key == "ops"     ? &result.ops
                                       : stack[0].key == "edges" ? &result.edges
                                                                 : nullptr;
        if (target && !target->contents) {
          big = target;
          big->contents = {pos + 1, pos + 1};
        }
      }
    } else if (c == '}' || c == ']') {
      if (big && stack.size() == 2) {
        endElement(pos);
        big->contents->second = pos;
        big = nullptr;
      }
      if (!stack.empty())
        stack.pop_back();
    } else if (c == ',' && !stack.empty()) {
      if (big && stack.size() == 2)
        endElement(pos);
      if (stack.back().object)
        stack.back().expectKey = true;
      else
        ++stack.back().index;
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// The walk over the parsed value
//===----------------------------------------------------------------------===//

const char *describe(const json::Value &v) {
  return tilepipe::support::describeJSONKind(v);
}
const char *describe(const FlatValue &v) {
  return v.isString ? "a string" : "a number";
}
std::string printed(const json::Value &v) {
  return llvm::formatv("{0}", v).str();
}
std::string printed(const FlatValue &v) {
  return v.isString ? ("\"" + v.string + "\"").str()
                    : std::to_string(v.integer);
}

/// How a named resource lowers to the RRT.
struct ResourceInfo {
  enum class Kind { Unlimited, Bit, Pool };
  Kind kind = Kind::Unlimited;
  unsigned index = 0;
  int64_t limit = -1;
};

class Reader {
public:
  Reader(StringRef fileName, StringRef defaultName)
      : fileName(fileName), defaultName(defaultName) {}

  /// `root` without the big arrays' contents; `text(key, i)` is the text
  /// of element i of the big array `key` ("ops" or "edges"), `element(key,
  /// i)` parses it. With `inPlace`, an element of the flat shape is read
  /// from its text (FlatJSON.h); any other, and any that the checks refuse,
  /// is parsed.
  using TextFn = llvm::function_ref<StringRef(StringRef, size_t)>;
  using ElementFn =
      llvm::function_ref<llvm::Expected<json::Value>(StringRef, size_t)>;
  llvm::Expected<ProblemFile> read(const json::Value &root, size_t numOps,
                                   size_t numEdges, TextFn text,
                                   ElementFn element, bool inPlace);

private:
  Error fail(StringRef path, const llvm::Twine &message) const {
    return makeReadError(fileName, 0, 0,
                         (path.empty() ? "" : path + ": ") + message);
  }
  template <class V>
  Error typeError(StringRef path, StringRef expected, const V &got) const {
    return fail(path, "expected " + expected + ", got " + describe(got));
  }

  // The getters take a json::Object or a FlatObject (Obj) and its values
  // (V): one set of checks for the fast and the general way in.
  template <class Obj>
  Error checkKeys(const Obj &o, StringRef path,
                  llvm::ArrayRef<StringRef> allowed) const;
  Error getObject(const json::Value &v, StringRef path,
                  const json::Object *&out) const;
  template <class Obj>
  Error getArray(const Obj &o, StringRef path, StringRef key,
                 const json::Array *&out) const;
  template <class Obj>
  Error getInt(const Obj &o, StringRef path, StringRef key, int64_t min,
               int64_t max, std::optional<int64_t> &out) const;
  template <class Obj>
  Error getString(const Obj &o, StringRef path, StringRef key,
                  std::optional<StringRef> &out) const;
  template <class Obj>
  Error getName(const Obj &o, StringRef path, StringRef key,
                StringRef &out) const;
  template <class Obj>
  Error getBool(const Obj &o, StringRef path, StringRef key,
                std::optional<bool> &out) const;

  Error readResources(const json::Object &root, rrt::ResourceLayout &layout);
  template <class Obj>
  Error readOp(const Obj &o, StringRef path, sched::Operation &op);
  Error addUse(StringRef path, StringRef resourcePath, StringRef resource,
               int64_t duration, int64_t amount, int64_t offset,
               sched::Operation &op) const;
  Error readGroups(sched::Problem &problem) const;
  template <class Obj>
  Error readEdge(const Obj &o, StringRef path, sched::Problem &problem) const;

  StringRef fileName;    ///< For messages.
  StringRef defaultName; ///< The name when the file gives none.
  llvm::StringMap<ResourceInfo> resources;
  llvm::StringMap<sched::OpId> opIds;
};

template <class Obj>
Error Reader::checkKeys(const Obj &o, StringRef path,
                        llvm::ArrayRef<StringRef> allowed) const {
  if (llvm::all_of(o, [&](const auto &entry) {
        return llvm::is_contained(allowed, StringRef(entry.first));
      }))
    return Error::success();
  // The first unknown key in sorted order: not json::Object's hash order.
  llvm::SmallVector<StringRef, 16> keys;
  for (const auto &entry : o)
    keys.push_back(entry.first);
  llvm::sort(keys);
  for (StringRef key : keys)
    if (!llvm::is_contained(allowed, key))
      return fail(pathKey(path, key), "unknown key (expected one of: " +
                                          llvm::join(allowed, ", ") + ")");
  return Error::success();
}

Error Reader::getObject(const json::Value &v, StringRef path,
                        const json::Object *&out) const {
  out = v.getAsObject();
  if (!out)
    return typeError(path, "an object", v);
  return Error::success();
}

template <class Obj>
Error Reader::getArray(const Obj &o, StringRef path, StringRef key,
                       const json::Array *&out) const {
  out = nullptr;
  const auto *v = o.get(key);
  if (!v)
    return Error::success();
  out = v->getAsArray();
  if (!out)
    return typeError(pathKey(path, key), "an array", *v);
  return Error::success();
}

template <class Obj>
Error Reader::getInt(const Obj &o, StringRef path, StringRef key, int64_t min,
                     int64_t max, std::optional<int64_t> &out) const {
  out.reset();
  const auto *v = o.get(key);
  if (!v)
    return Error::success();
  std::optional<int64_t> i = v->getAsInteger();
  if (!i) {
    if (v->kind() == json::Value::Number)
      return fail(pathKey(path, key),
                  "expected an integer, got " + printed(*v));
    return typeError(pathKey(path, key), "an integer", *v);
  }
  if (*i < min || *i > max)
    return fail(pathKey(path, key), llvm::Twine(*i) + " is out of range [" +
                                        llvm::Twine(min) + ", " +
                                        llvm::Twine(max) + "]");
  out = *i;
  return Error::success();
}

/// The string stays in the object (or the file's text): valid as long as
/// it is.
template <class Obj>
Error Reader::getString(const Obj &o, StringRef path, StringRef key,
                        std::optional<StringRef> &out) const {
  out.reset();
  const auto *v = o.get(key);
  if (!v)
    return Error::success();
  std::optional<StringRef> s = v->getAsString();
  if (!s)
    return typeError(pathKey(path, key), "a string", *v);
  out = *s;
  return Error::success();
}

/// A required, non-empty string.
template <class Obj>
Error Reader::getName(const Obj &o, StringRef path, StringRef key,
                      StringRef &out) const {
  std::optional<StringRef> s;
  if (Error err = getString(o, path, key, s))
    return err;
  if (!s)
    return fail(path, "missing required key '" + key + "'");
  if (s->empty())
    return fail(pathKey(path, key), "must not be empty");
  out = *s;
  return Error::success();
}

template <class Obj>
Error Reader::getBool(const Obj &o, StringRef path, StringRef key,
                      std::optional<bool> &out) const {
  out.reset();
  const auto *v = o.get(key);
  if (!v)
    return Error::success();
  out = v->getAsBoolean();
  if (!out)
    return typeError(pathKey(path, key), "true or false", *v);
  return Error::success();
}

Error Reader::readResources(const json::Object &root,
                            rrt::ResourceLayout &layout) {
  const json::Array *list = nullptr;
  if (Error err = getArray(root, "", "resources", list))
    return err;
  if (!list)
    return Error::success();
  for (size_t i = 0, e = list->size(); i < e; ++i) {
    std::string path = pathIndex("resources", i);
    const json::Object *o = nullptr;
    if (Error err = getObject((*list)[i], path, o))
      return err;
    if (Error err = checkKeys(*o, path, {"name", "limit"}))
      return err;
    StringRef name;
    if (Error err = getName(*o, path, "name", name))
      return err;
    std::optional<int64_t> limit;
    if (Error err = getInt(*o, path, "limit", -1, kMaxFileValue, limit))
      return err;
    if (limit == 0)
      return fail(pathKey(path, "limit"),
                  "must be -1 (unlimited) or at least 1, got 0");
    ResourceInfo info;
    info.limit = limit.value_or(-1);
    if (info.limit == 1) {
      info.kind = ResourceInfo::Kind::Bit;
      info.index = layout.addBit(name.str());
    } else if (info.limit > 1) {
      info.kind = ResourceInfo::Kind::Pool;
      info.index = layout.addPool(name.str(), unsigned(info.limit));
    }
    if (!resources.try_emplace(name, info).second)
      return fail(pathKey(path, "name"),
                  "duplicate resource name '" + name + "'");
  }
  return Error::success();
}

Error Reader::addUse(StringRef path, StringRef resourcePath, StringRef resource,
                     int64_t duration, int64_t amount, int64_t offset,
                     sched::Operation &op) const {
  auto it = resources.find(resource);
  if (it == resources.end())
    return fail(resourcePath, "unknown resource '" + resource + "'");
  const ResourceInfo &info = it->second;
  switch (info.kind) {
  case ResourceInfo::Kind::Unlimited:
    return Error::success();
  case ResourceInfo::Kind::Bit:
    if (amount != 1)
      return fail(pathKey(path, "amount"),
                  "resource '" + resource +
                      "' has limit 1, so a use holds 1 unit, not " +
                      llvm::Twine(amount));
    op.uses.push_back(
        rrt::Use::bit(info.index, unsigned(duration), unsigned(offset)));
    return Error::success();
  case ResourceInfo::Kind::Pool:
    op.uses.push_back(rrt::Use::pool(info.index, unsigned(duration),
                                     unsigned(amount), unsigned(offset)));
    return Error::success();
  }
  llvm_unreachable("unknown resource kind");
}

template <class Obj>
Error Reader::readOp(const Obj &object, StringRef path, sched::Operation &op) {
  const Obj *o = &object;
  if (Error err = checkKeys(*o, path,
                            {"name", "class", "latency", "resource", "blocking",
                             "uses", "max_depth", "gid", "leader_gid",
                             "result_bytes", "result_memory"}))
    return err;
  StringRef name;
  if (Error err = getName(*o, path, "name", name))
    return err;
  op.name = name.str();
  std::optional<StringRef> opClass;
  if (Error err = getString(*o, path, "class", opClass))
    return err;
  op.opClass = opClass.value_or("").str();

  std::optional<int64_t> latency;
  if (Error err = getInt(*o, path, "latency", 0, kMaxFileValue, latency))
    return err;
  if (!latency)
    return fail(path, "missing required key 'latency'");
  op.latency = *latency;

  std::optional<StringRef> resource;
  if (Error err = getString(*o, path, "resource", resource))
    return err;
  std::optional<int64_t> blocking;
  if (Error err = getInt(*o, path, "blocking", 0, kMaxFileValue, blocking))
    return err;
  if (blocking && !resource)
    return fail(pathKey(path, "blocking"), "given without 'resource'");
  if (resource && !resources.count(*resource))
    return fail(pathKey(path, "resource"),
                "unknown resource '" + *resource + "'");
  // blocking 0: the op names its unit but holds it for no cycle.
  if (resource && blocking.value_or(1) > 0)
    if (Error err = addUse(path, pathKey(path, "resource"), *resource,
                           blocking.value_or(1), 1, 0, op))
      return err;

  const json::Array *uses = nullptr;
  if (Error err = getArray(*o, path, "uses", uses))
    return err;
  for (size_t i = 0, e = uses ? uses->size() : 0; i < e; ++i) {
    std::string usePath = pathIndex(pathKey(path, "uses"), i);
    const json::Object *u = nullptr;
    if (Error err = getObject((*uses)[i], usePath, u))
      return err;
    if (Error err = checkKeys(*u, usePath,
                              {"resource", "duration", "amount", "offset"}))
      return err;
    StringRef name;
    if (Error err = getName(*u, usePath, "resource", name))
      return err;
    std::optional<int64_t> duration, amount, offset;
    if (Error err = getInt(*u, usePath, "duration", 1, kMaxFileValue, duration))
      return err;
    if (Error err = getInt(*u, usePath, "amount", 1, kMaxFileValue, amount))
      return err;
    if (Error err = getInt(*u, usePath, "offset", 0, kMaxFileValue, offset))
      return err;
    if (Error err = addUse(usePath, pathKey(usePath, "resource"), name,
                           duration.value_or(1), amount.value_or(1),
                           offset.value_or(0), op))
      return err;
  }

  std::optional<int64_t> resultBytes;
  if (Error err =
          getInt(*o, path, "result_bytes", 0, kMaxFileValue, resultBytes))
    return err;
  op.resultBytes = resultBytes.value_or(1);
  std::optional<StringRef> memory;
  if (Error err = getString(*o, path, "result_memory", memory))
    return err;
  if (memory) {
    if (*memory == "registers")
      op.resultMemory = sched::ValueMemory::Register;
    else if (*memory == "smem")
      op.resultMemory = sched::ValueMemory::Smem;
    else if (*memory == "tmem")
      op.resultMemory = sched::ValueMemory::Tmem;
    else
      return fail(pathKey(path, "result_memory"),
                  "unknown memory '" + *memory +
                      "' (expected registers, smem or tmem)");
  }

  std::optional<int64_t> maxDepth, gid, leaderGid;
  if (Error err = getInt(*o, path, "max_depth", 0, kMaxFileValue, maxDepth))
    return err;
  constexpr int64_t kMinGid = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMaxGid = std::numeric_limits<int32_t>::max();
  if (Error err = getInt(*o, path, "gid", kMinGid, kMaxGid, gid))
    return err;
  if (Error err = getInt(*o, path, "leader_gid", kMinGid, kMaxGid, leaderGid))
    return err;
  if (leaderGid && !gid)
    return fail(pathKey(path, "leader_gid"), "given without 'gid'");
  if (maxDepth)
    op.constraints.maxDepth = unsigned(*maxDepth);
  if (gid)
    op.constraints.gid = int32_t(*gid);
  if (leaderGid)
    op.constraints.leaderGid = int32_t(*leaderGid);
  return Error::success();
}

/// The constraint groups, seeded as the tileas attributes are
/// (docs/attributes.md): a gid joins its group, a leader_gid other than the
/// gid links the group to its leader, and a gid may name one leader only.
Error Reader::readGroups(sched::Problem &problem) const {
  sched::ConstraintGroups &groups = problem.getGroups();
  std::map<int32_t, sched::OpId> leaderSource; // Any int32_t is a gid.
  for (sched::OpId id = 0, e = problem.getNumOps(); id < e; ++id) {
    const sched::OpConstraints &c = problem.getOp(id).constraints;
    if (!c.gid)
      continue;
    groups.addMember(*c.gid, id);
    if (!c.leaderGid || *c.leaderGid == *c.gid)
      continue;
    if (std::optional<int32_t> previous =
            groups.setLeader(*c.gid, *c.leaderGid))
      return fail(pathKey(pathIndex("ops", id), "leader_gid"),
                  "constraint group " + llvm::Twine(*c.gid) +
                      " is given two leaders: " + llvm::Twine(*c.leaderGid) +
                      " here and " + llvm::Twine(*previous) + " at " +
                      pathIndex("ops", leaderSource[*c.gid]));
    leaderSource.try_emplace(*c.gid, id);
  }
  groups.freeze();
  return Error::success();
}

template <class Obj>
Error Reader::readEdge(const Obj &object, StringRef path,
                       sched::Problem &problem) const {
  const Obj *o = &object;
  if (Error err =
          checkKeys(*o, path, {"src", "dst", "latency", "delay", "distance"}))
    return err;
  sched::OpId ends[2] = {0, 0};
  StringRef keys[2] = {"src", "dst"};
  for (int i = 0; i < 2; ++i) {
    StringRef name;
    if (Error err = getName(*o, path, keys[i], name))
      return err;
    auto it = opIds.find(name);
    if (it == opIds.end())
      return fail(pathKey(path, keys[i]), "unknown op '" + name + "'");
    ends[i] = it->second;
  }
  std::optional<int64_t> latency, delay, distance;
  if (Error err = getInt(*o, path, "latency", 0, kMaxFileValue, latency))
    return err;
  if (Error err = getInt(*o, path, "delay", 0, kMaxFileValue, delay))
    return err;
  if (Error err = getInt(*o, path, "distance", 0, kMaxFileValue, distance))
    return err;
  sched::Dependence dep;
  dep.src = ends[0];
  dep.dst = ends[1];
  dep.latency =
      latency.value_or(*problem.getOp(dep.src).latency) + delay.value_or(0);
  dep.distance = unsigned(distance.value_or(0));
  problem.addDependence(dep);
  return Error::success();
}

llvm::Expected<ProblemFile> Reader::read(const json::Value &rootValue,
                                         size_t numOps, size_t numEdges,
                                         TextFn text, ElementFn element,
                                         bool inPlace) {
  const json::Object *root = rootValue.getAsObject();
  if (!root)
    return fail("", llvm::Twine("expected the problem to be an object, got ") +
                        describe(rootValue));
  if (Error err = checkKeys(
          *root, "",
          {"name", "comment", "force_serial", "resources", "ops", "edges"}))
    return err;
  std::optional<StringRef> name, comment;
  if (Error err = getString(*root, "", "name", name))
    return err;
  if (Error err = getString(*root, "", "comment", comment))
    return err;
  std::optional<bool> forceSerial;
  if (Error err = getBool(*root, "", "force_serial", forceSerial))
    return err;

  rrt::ResourceLayout layout;
  if (Error err = readResources(*root, layout))
    return err;

  const json::Array *ops = nullptr;
  if (Error err = getArray(*root, "", "ops", ops))
    return err;
  if (!ops)
    return fail("", "missing required key 'ops'");
  if (numOps == 0)
    return fail("ops", "a problem needs at least one op");

  ProblemFile file{name ? name->str() : defaultName.str(),
                   sched::Problem(std::move(layout))};
  sched::Problem &problem = file.problem;
  problem.setForceSerial(forceSerial.value_or(false));
  // Element i of `key` through `readAs(object, path)`: in place when it
  // can be, and once more from json::parse when that fails, so the message
  // is the general way's.
  FlatObject flat;
  auto readElement = [&](StringRef key, size_t i, StringRef path,
                         auto &&readAs) -> Error {
    if (inPlace && parseFlatObject(text(key, i), flat)) {
      Error err = readAs(flat, path);
      if (!err)
        return Error::success();
      llvm::consumeError(std::move(err));
    }
    llvm::Expected<json::Value> value = element(key, i);
    if (!value)
      return value.takeError();
    const json::Object *o = nullptr;
    if (Error err = getObject(*value, path, o))
      return err;
    return readAs(*o, path);
  };
  problem.reserve(numOps, numEdges);
  opIds = llvm::StringMap<sched::OpId>(unsigned(numOps));
  std::string path; // Reused: "ops[i]" for each op, then each edge.
  auto setPath = [&](StringRef key, size_t i) {
    path.assign(key.begin(), key.end());
    path += '[';
    path += llvm::utostr(i);
    path += ']';
  };
  for (size_t i = 0; i < numOps; ++i) {
    setPath("ops", i);
    sched::Operation op;
    if (Error err =
            readElement("ops", i, path, [&](const auto &o, StringRef at) {
              op = sched::Operation();
              return readOp(o, at, op);
            }))
      return err;
    auto [it, fresh] = opIds.try_emplace(op.name, sched::OpId(i));
    if (!fresh)
      return fail(pathKey(path, "name"),
                  "duplicate op name '" + op.name + "' (also " +
                      pathIndex("ops", it->second) + ")");
    problem.addOp(std::move(op));
  }
  if (Error err = readGroups(problem))
    return err;

  const json::Array *edges = nullptr;
  if (Error err = getArray(*root, "", "edges", edges))
    return err;
  for (size_t i = 0, e = edges ? numEdges : 0; i < e; ++i) {
    setPath("edges", i);
    if (Error err =
            readElement("edges", i, path, [&](const auto &o, StringRef at) {
              return readEdge(o, at, problem);
            }))
      return err;
  }
  problem.finalize();
  return file;
}

/// Rewrites json::parse's "[line:col, byte=N]: message" as
/// "file:line:col: not valid JSON: message".
Error syntaxError(StringRef fileName, Error err) {
  std::string text = llvm::toString(std::move(err));
  unsigned line = 0, column = 0, offset = 0;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "[%u:%u, byte=%u]: %n", &line, &column, &offset,
                  &consumed) == 3 &&
      consumed > 0)
    return makeReadError(fileName, line, std::max(column, 1u),
                         "not valid JSON: " +
                             StringRef(text).drop_front(consumed));
  return makeReadError(fileName, 0, 0, "not valid JSON: " + text);
}

} // namespace

llvm::Expected<ProblemFile> tilepipe::io::readProblemJSON(StringRef text,
                                                          StringRef fileName,
                                                          bool inPlace) {
  StringRef shownName = fileName.empty() ? StringRef("<input>") : fileName;
  if (text.size() >= (uint64_t(1) << 32))
    return makeReadError(shownName, 0, 0,
                         "the file is " + llvm::Twine(text.size()) +
                             " bytes; problem files are limited to 4 GiB");
  ScanResult scan = scanText(text);
  if (scan.deepAt) {
    auto [line, column] = lineColumn(text, *scan.deepAt);
    return makeReadError(shownName, line, column,
                         "arrays and objects nest deeper than " +
                             llvm::Twine(kMaxJSONDepth));
  }
  if (scan.loneSurrogateAt) {
    auto [line, column] = lineColumn(text, *scan.loneSurrogateAt);
    return makeReadError(shownName, line, column,
                         "a \\u escape names a lone UTF-16 surrogate, which "
                         "is not a character");
  }
  // The syntax error of the whole text, whichever piece found one first.
  auto wholeTextError = [&]() -> Error {
    llvm::Expected<json::Value> whole = json::parse(text);
    if (!whole)
      return syntaxError(shownName, whole.takeError());
    return makeReadError(shownName, 0, 0,
                         "not valid JSON (a piece of it failed to parse)");
  };
  // The text without the big arrays' contents (a failure is reported from
  // the whole text, so its offsets need not be the file's).
  std::string skeleton;
  {
    llvm::SmallVector<std::pair<size_t, size_t>, 2> cuts;
    for (const ScanResult::BigArray *big : {&scan.ops, &scan.edges})
      if (big->contents)
        cuts.push_back(*big->contents);
    llvm::sort(cuts);
    size_t at = 0;
    for (auto [b, e] : cuts) {
      skeleton += text.slice(at, b);
      at = e;
    }
    skeleton += text.substr(at);
  }
  llvm::Expected<json::Value> parsed = json::parse(skeleton);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return wholeTextError();
  }
  if (scan.duplicate)
    return makeReadError(shownName, 0, 0, *scan.duplicate);
  auto elementText = [&](StringRef key, size_t i) {
    const ScanResult::BigArray &big = key == "ops" ? scan.ops : scan.edges;
    auto [b, e] = big.elements[i];
    return text.slice(b, e);
  };
  auto element = [&](StringRef key, size_t i) -> llvm::Expected<json::Value> {
    llvm::Expected<json::Value> value = json::parse(elementText(key, i));
    if (!value) {
      llvm::consumeError(value.takeError());
      return wholeTextError();
    }
    return value;
  };
  bool syntaxFailed = false;
  auto checked = [&](StringRef key, size_t i) -> llvm::Expected<json::Value> {
    llvm::Expected<json::Value> value = element(key, i);
    syntaxFailed |= !value;
    return value;
  };
  llvm::Expected<ProblemFile> file =
      Reader(shownName, llvm::sys::path::stem(fileName))
          .read(*parsed, scan.ops.elements.size(), scan.edges.elements.size(),
                elementText, checked, inPlace);
  if (file || syntaxFailed)
    return file;
  // A content error: a syntax error later in the text still comes first,
  // as it did when the whole text was parsed before the walk.
  for (const ScanResult::BigArray *big : {&scan.ops, &scan.edges})
    for (auto [b, e] : big->elements) {
      llvm::Expected<json::Value> value = json::parse(text.slice(b, e));
      if (!value) {
        llvm::consumeError(value.takeError());
        llvm::consumeError(file.takeError());
        return wholeTextError();
      }
    }
  return file;
}

llvm::Expected<ProblemFile> tilepipe::io::readProblemJSONFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return makeReadError(path, 0, 0,
                         "cannot read file: " + buffer.getError().message());
  return readProblemJSON((*buffer)->getBuffer(), path);
}
