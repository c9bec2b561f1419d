//===- ProblemJSON.cpp - scheduling problems as JSON files ----------------===//
//
// Three passes over a file: the strict-JSON kit's scan of the raw text
// (support/json/Text.h: nesting depth, duplicate keys, lone surrogates, and
// where each element of the top-level "ops" and "edges" arrays lies),
// json::parse itself, and a walk of the parsed value that builds the
// Problem. The walk checks keys before
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

#include "support/json/Fields.h"
#include "support/json/FlatObject.h"
#include "support/json/Text.h"

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
namespace strict = tilepipe::support::json;
using strict::FlatObject;
using strict::pathIndex;
using strict::pathKey;

namespace {

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
  /// from its text (support/json/FlatObject.h); any other, and any that the
  /// checks refuse, is parsed.
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
  /// The kit's FieldError as this reader's ReadError, with the file name.
  Error inFile(Error err) const {
    return llvm::handleErrors(std::move(err), [&](const strict::FieldError &e) {
      return fail(e.path, e.message);
    });
  }

  // The getters take a json::Object or a FlatObject (Obj): one set of
  // checks, the strict-JSON kit's (support/json/Fields.h), for the fast and
  // the general way in. Ranges and required keys are this format's.
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
  return inFile(strict::checkKnownKeys(o, path, allowed, "key"));
}

Error Reader::getObject(const json::Value &v, StringRef path,
                        const json::Object *&out) const {
  llvm::Expected<const json::Object *> object = strict::objectOf(v, path);
  if (!object)
    return inFile(object.takeError());
  out = *object;
  return Error::success();
}

template <class Obj>
Error Reader::getArray(const Obj &o, StringRef path, StringRef key,
                       const json::Array *&out) const {
  return inFile(strict::ObjectFields<Obj>(o, path).array(key, out));
}

template <class Obj>
Error Reader::getInt(const Obj &o, StringRef path, StringRef key, int64_t min,
                     int64_t max, std::optional<int64_t> &out) const {
  if (Error err = strict::ObjectFields<Obj>(o, path).integer(key, out))
    return inFile(std::move(err));
  if (out && (*out < min || *out > max))
    return fail(pathKey(path, key), llvm::Twine(*out) + " is out of range [" +
                                        llvm::Twine(min) + ", " +
                                        llvm::Twine(max) + "]");
  return Error::success();
}

/// The string stays in the object (or the file's text): valid as long as
/// it is.
template <class Obj>
Error Reader::getString(const Obj &o, StringRef path, StringRef key,
                        std::optional<StringRef> &out) const {
  return inFile(strict::ObjectFields<Obj>(o, path).string(key, out));
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
  return inFile(strict::ObjectFields<Obj>(o, path).boolean(key, out));
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
                        strict::describeKind(rootValue));
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

/// json::parse's error as "file:line:col: not valid JSON: message".
Error syntaxError(StringRef fileName, Error err) {
  strict::SyntaxError syntax = strict::takeSyntaxError(std::move(err));
  if (!syntax.at)
    return makeReadError(fileName, 0, 0, "not valid JSON: " + syntax.message);
  return makeReadError(fileName, syntax.at->line, syntax.at->column,
                       "not valid JSON: " + syntax.message);
}

/// An error at byte `offset` of `text`.
Error errorAt(StringRef fileName, StringRef text, size_t offset,
              const llvm::Twine &message) {
  strict::TextPosition at = strict::positionOf(text, offset);
  return makeReadError(fileName, at.line, at.column, message);
}

/// The text without the big arrays' contents (a failure is reported from
/// the whole text, so its offsets need not be the file's).
std::string skeletonOf(StringRef text, const strict::TextScan &scan) {
  llvm::SmallVector<std::pair<size_t, size_t>, 2> cuts;
  for (const strict::SplitArray &big : scan.arrays)
    if (big.contents)
      cuts.push_back(*big.contents);
  llvm::sort(cuts);
  std::string skeleton;
  size_t at = 0;
  for (auto [b, e] : cuts) {
    skeleton += text.slice(at, b);
    at = e;
  }
  skeleton += text.substr(at);
  return skeleton;
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
  strict::TextScan scan =
      strict::scanText(text, kMaxJSONDepth, {"ops", "edges"});
  if (scan.tooDeepAt)
    return errorAt(shownName, text, *scan.tooDeepAt,
                   "arrays and objects nest deeper than " +
                       llvm::Twine(kMaxJSONDepth));
  if (scan.loneSurrogateAt)
    return errorAt(shownName, text, *scan.loneSurrogateAt,
                   "a \\u escape names a lone UTF-16 surrogate, which "
                   "is not a character");
  // The syntax error of the whole text, whichever piece found one first.
  auto wholeTextError = [&]() -> Error {
    llvm::Expected<json::Value> whole = json::parse(text);
    if (!whole)
      return syntaxError(shownName, whole.takeError());
    return makeReadError(shownName, 0, 0,
                         "not valid JSON (a piece of it failed to parse)");
  };
  llvm::Expected<json::Value> parsed = json::parse(skeletonOf(text, scan));
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return wholeTextError();
  }
  if (scan.duplicate)
    return makeReadError(shownName, 0, 0, scan.duplicate->describe());
  const strict::SplitArray &ops = scan.array("ops"),
                           &edges = scan.array("edges");
  auto elementText = [&](StringRef key, size_t i) {
    auto [b, e] = (key == "ops" ? ops : edges).elements[i];
    return text.slice(b, e);
  };
  bool syntaxFailed = false;
  auto element = [&](StringRef key, size_t i) -> llvm::Expected<json::Value> {
    llvm::Expected<json::Value> value = json::parse(elementText(key, i));
    if (!value) {
      llvm::consumeError(value.takeError());
      syntaxFailed = true;
      return wholeTextError();
    }
    return value;
  };
  llvm::Expected<ProblemFile> file =
      Reader(shownName, llvm::sys::path::stem(fileName))
          .read(*parsed, ops.elements.size(), edges.elements.size(),
                elementText, element, inPlace);
  if (file || syntaxFailed)
    return file;
  // A content error: a syntax error later in the text still comes first,
  // as it did when the whole text was parsed before the walk.
  for (const strict::SplitArray *big : {&ops, &edges})
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
