//===- TargetJSON.cpp - target files: load, write, print ------------------===//
//
// The loader is strict on purpose: a target file is hand-written, and a typo
// that silently falls back to a default would show up much later as an odd
// schedule. Every error names the field as a JSON path (with the file name
// in front), unknown keys are errors, and the finished model goes through
// validate() before it is handed out.
//
// The reader walks llvm::json values by hand instead of using
// json::ObjectMapper: ObjectMapper reports through json::Path, whose
// messages are fixed string literals, and these errors need the offending
// value in them ("unknown slot 'tpmma'").
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "support/JSONPath.h"
#include "target/TargetChecks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>

using namespace tilepipe::target;
using namespace tilepipe::target::detail;
using llvm::Error;
using llvm::StringRef;
namespace json = llvm::json;

namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
constexpr int64_t kMaxUnsigned = std::numeric_limits<unsigned>::max();
// Pools are indexed densely; a bound keeps a typo like 1000000 from
// allocating a million pools before the gap check rejects it.
constexpr unsigned kMaxPools = 64;

const char *describe(const json::Value &v) {
  return tilepipe::support::describeJSONKind(v);
}

Error typeError(StringRef path, const llvm::Twine &expected,
                const json::Value &got) {
  return fieldError(path, "expected " + expected + ", got " + describe(got));
}

Error missing(StringRef path) {
  return fieldError(path, "missing required field");
}

/// Keys sorted, so that the first error reported does not depend on the
/// hash order of json::Object.
std::vector<StringRef> sortedKeys(const json::Object &o) {
  std::vector<StringRef> keys;
  for (const auto &entry : o)
    keys.push_back(entry.first);
  llvm::sort(keys);
  return keys;
}

Error checkKeys(const json::Object &o, StringRef path,
                llvm::ArrayRef<StringRef> allowed) {
  for (StringRef key : sortedKeys(o))
    if (!llvm::is_contained(allowed, key))
      return fieldError(
          joinField(path, key),
          "unknown field (expected one of: " + llvm::join(allowed, ", ") + ")");
  return Error::success();
}

Error readInt(const json::Value &v, StringRef path, int64_t min, int64_t max,
              int64_t &out) {
  std::optional<int64_t> i = v.getAsInteger();
  if (!i) {
    if (v.kind() == json::Value::Number)
      return fieldError(path, "expected an integer, got " +
                                  llvm::formatv("{0}", v).str());
    return typeError(path, "an integer", v);
  }
  if (*i < min) {
    if (min == 0)
      return fieldError(path,
                        "must not be negative (got " + llvm::Twine(*i) + ")");
    return fieldError(path, "must be at least " + llvm::Twine(min) + " (got " +
                                llvm::Twine(*i) + ")");
  }
  if (*i > max)
    return fieldError(path, llvm::Twine(*i) + " is out of range (at most " +
                                llvm::Twine(max) + ")");
  out = *i;
  return Error::success();
}

template <typename T>
Error readInt(const json::Value &v, StringRef path, int64_t min, int64_t max,
              T &out) {
  int64_t value = 0;
  if (Error err = readInt(v, path, min, max, value))
    return err;
  out = static_cast<T>(value);
  return Error::success();
}

Error readString(const json::Value &v, StringRef path, std::string &out) {
  std::optional<StringRef> s = v.getAsString();
  if (!s)
    return typeError(path, "a string", v);
  out = s->str();
  return Error::success();
}

Error readBool(const json::Value &v, StringRef path, bool &out) {
  std::optional<bool> b = v.getAsBoolean();
  if (!b)
    return typeError(path, "true or false", v);
  out = *b;
  return Error::success();
}

/// Reads every field of one JSON object with its path at hand.
class ObjectReader {
public:
  ObjectReader(const json::Object &object, std::string path)
      : object(object), path(std::move(path)) {}

  std::string at(StringRef key) const { return joinField(path, key); }
  const json::Value *get(StringRef key) const { return object.get(key); }

  Error keys(llvm::ArrayRef<StringRef> allowed) const {
    return checkKeys(object, path, allowed);
  }

  template <typename T>
  Error integer(StringRef key, bool required, int64_t min, int64_t max,
                T &out) const {
    if (const json::Value *v = get(key))
      return readInt(*v, at(key), min, max, out);
    return required ? missing(at(key)) : Error::success();
  }
  Error string(StringRef key, bool required, std::string &out) const {
    if (const json::Value *v = get(key))
      return readString(*v, at(key), out);
    return required ? missing(at(key)) : Error::success();
  }
  Error boolean(StringRef key, bool &out) const {
    if (const json::Value *v = get(key))
      return readBool(*v, at(key), out);
    return Error::success();
  }

private:
  const json::Object &object;
  std::string path;
};

llvm::Expected<const json::Object *> asObject(const json::Value &v,
                                              StringRef path) {
  if (const json::Object *o = v.getAsObject())
    return o;
  return typeError(path, "an object", v);
}

llvm::Expected<const json::Array *> asArray(const json::Value &v,
                                            StringRef path) {
  if (const json::Array *a = v.getAsArray())
    return a;
  return typeError(path, "an array", v);
}

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
  Error loadQuantity(const json::Value &v, StringRef path, Quantity &q);
  Error resolveSlot(const json::Value &v, StringRef path, unsigned &id);
  Error resolvePool(const json::Value &v, StringRef path, unsigned &index);

  TargetModel &m;
};

Error Loader::load(const json::Value &root) {
  const json::Object *top = root.getAsObject();
  if (!top)
    return llvm::createStringError(
        llvm::Twine("expected an object at the top level, got ") +
        describe(root));
  ObjectReader r(*top, "");
  if (Error err = r.keys({"name", "description", "inherit", "slots", "pools",
                          "caps", "chip", "op_classes"}))
    return err;

  // A file that inherits may list only what it changes; one that does not
  // must describe the whole machine.
  bool inherits = r.get("inherit") != nullptr;
  if (inherits) {
    std::string base;
    if (Error err = r.string("inherit", /*required=*/true, base))
      return err;
    if (base != "sm_100a")
      return fieldError("inherit",
                        "unknown base target '" + base + "' (known: sm_100a)");
    m = TargetModel::sm100a();
  }
  // Name and description describe this file's target, never the base's: a
  // derived model that still calls itself "sm_100a" would be misleading.
  m.description.clear();
  if (Error err = r.string("name", /*required=*/true, m.name))
    return err;
  if (Error err = r.string("description", /*required=*/false, m.description))
    return err;

  // Pools first: slots refer to pools, op classes refer to both.
  if (const json::Value *v = r.get("pools")) {
    if (Error err = loadPools(*v, r.at("pools")))
      return err;
  } else if (!inherits) {
    return missing("pools");
  }
  if (const json::Value *v = r.get("slots")) {
    if (Error err = loadSlots(*v, r.at("slots")))
      return err;
  } else if (!inherits) {
    return missing("slots");
  }
  if (const json::Value *v = r.get("caps"))
    if (Error err = loadCaps(*v, r.at("caps")))
      return err;
  if (const json::Value *v = r.get("chip"))
    if (Error err = loadChip(*v, r.at("chip")))
      return err;
  if (const json::Value *v = r.get("op_classes"))
    if (Error err = loadOpClasses(*v, r.at("op_classes")))
      return err;

  llvm::stable_sort(m.opClasses,
                    [](const OpClassInfo &a, const OpClassInfo &b) {
                      return a.name < b.name;
                    });
  m.rebuildIndex();
  return m.validate();
}

/// Applies the entries of a "slots" or "pools" array to the inherited table:
/// an entry replaces the one with its key or extends the table. Keys must
/// stay dense from `first`, since tables are indexed by key.
template <typename Info>
Error mergeTable(std::vector<Info> &table,
                 std::map<unsigned, std::pair<Info, std::string>> &entries,
                 unsigned first, StringRef keyField, StringRef what,
                 std::vector<std::string> &origin) {
  origin.assign(table.size(), std::string());
  for (auto &[key, entry] : entries) {
    unsigned position = key - first;
    if (position < table.size()) {
      table[position] = std::move(entry.first);
      origin[position] = entry.second;
      continue;
    }
    if (position != table.size())
      return fieldError(joinField(entry.second, keyField),
                        what + " " + llvm::Twine(key) + " leaves a gap (" +
                            what + "s must run from " + llvm::Twine(first) +
                            " without gaps; the next free one is " +
                            llvm::Twine(table.size() + first) + ")");
    table.push_back(std::move(entry.first));
    origin.push_back(entry.second);
  }
  return Error::success();
}

/// Reports a name used twice in a merged table at the entry the file wrote
/// (an inherited entry has no path of its own).
template <typename Info>
Error checkUniqueNames(const std::vector<Info> &table,
                       const std::vector<std::string> &origin, unsigned first,
                       StringRef what) {
  llvm::StringMap<unsigned> seen;
  for (auto [i, info] : llvm::enumerate(table)) {
    auto [it, fresh] = seen.try_emplace(info.name, i);
    if (fresh)
      continue;
    unsigned other = it->second;
    bool reportHere = !origin[i].empty();
    const std::string &path = reportHere ? origin[i] : origin[other];
    unsigned otherKey = (reportHere ? other : i) + first;
    return fieldError(joinField(path, "name"),
                      "duplicate " + what + " name '" + info.name + "' (also " +
                          what + " " + llvm::Twine(otherKey) + ")");
  }
  return Error::success();
}

Error Loader::loadPools(const json::Value &v, StringRef path) {
  auto array = asArray(v, path);
  if (!array)
    return array.takeError();
  std::map<unsigned, std::pair<PoolInfo, std::string>> entries;
  for (auto [i, item] : llvm::enumerate(**array)) {
    std::string at = joinIndex(path, i);
    auto object = asObject(item, at);
    if (!object)
      return object.takeError();
    ObjectReader r(**object, at);
    if (Error err = r.keys({"index", "name", "capacity", "binding", "role"}))
      return err;
    PoolInfo pool;
    if (Error err =
            r.integer("index", /*required=*/true, 0, kMaxPools - 1, pool.index))
      return err;
    if (Error err = r.string("name", /*required=*/true, pool.name))
      return err;
    if (Error err = r.integer("capacity", /*required=*/true, 1, kMaxUnsigned,
                              pool.capacity))
      return err;
    if (Error err = r.boolean("binding", pool.binding))
      return err;
    if (Error err = r.string("role", /*required=*/false, pool.role))
      return err;
    if (pool.name.empty())
      return fieldError(r.at("name"), "must not be empty");
    auto [it, fresh] = entries.try_emplace(pool.index, pool, at);
    if (!fresh)
      return fieldError(r.at("index"), "duplicate pool index " +
                                           llvm::Twine(pool.index) + " (also " +
                                           it->second.second + ")");
  }
  std::vector<std::string> origin;
  if (Error err = mergeTable(m.pools, entries, 0, "index", "pool", origin))
    return err;
  return checkUniqueNames(m.pools, origin, 0, "pool");
}

Error Loader::resolvePool(const json::Value &v, StringRef path,
                          unsigned &index) {
  if (std::optional<StringRef> name = v.getAsString()) {
    const PoolInfo *pool = m.lookupPool(*name);
    if (!pool)
      return fieldError(path, "unknown pool '" + *name + "'");
    index = pool->index;
    return Error::success();
  }
  if (std::optional<int64_t> i = v.getAsInteger()) {
    if (*i < 0 || !m.getPool(*i))
      return fieldError(path, "unknown pool " + llvm::Twine(*i));
    index = *i;
    return Error::success();
  }
  return typeError(path, "a pool name or index", v);
}

Error Loader::loadSlots(const json::Value &v, StringRef path) {
  auto array = asArray(v, path);
  if (!array)
    return array.takeError();
  std::map<unsigned, std::pair<SlotInfo, std::string>> entries;
  for (auto [i, item] : llvm::enumerate(**array)) {
    std::string at = joinIndex(path, i);
    auto object = asObject(item, at);
    if (!object)
      return object.takeError();
    ObjectReader r(**object, at);
    if (Error err =
            r.keys({"id", "name", "kind", "primary", "pool", "meaning"}))
      return err;
    SlotInfo slot;
    int64_t id = 0;
    if (Error err =
            r.integer("id", /*required=*/true,
                      std::numeric_limits<int64_t>::min(), kMaxInt64, id))
      return err;
    if (id < 1 || id > TargetModel::kNumSlotIds)
      return fieldError(r.at("id"), "slot id " + llvm::Twine(id) +
                                        " is out of range 1.." +
                                        llvm::Twine(TargetModel::kNumSlotIds));
    slot.id = id;
    if (Error err = r.string("name", /*required=*/true, slot.name))
      return err;
    if (slot.name.empty())
      return fieldError(r.at("name"), "must not be empty");
    std::string kind;
    if (Error err = r.string("kind", /*required=*/true, kind))
      return err;
    std::optional<SlotKind> parsedKind = symbolizeSlotKind(kind);
    if (!parsedKind)
      return fieldError(r.at("kind"), "unknown slot kind '" + kind +
                                          "' (expected coarse, fine or test)");
    slot.kind = *parsedKind;
    if (Error err = r.boolean("primary", slot.primary))
      return err;
    if (const json::Value *pool = r.get("pool")) {
      unsigned index = 0;
      if (Error err = resolvePool(*pool, r.at("pool"), index))
        return err;
      slot.pool = index;
    }
    if (Error err = r.string("meaning", /*required=*/false, slot.meaning))
      return err;
    auto [it, fresh] = entries.try_emplace(slot.id, slot, at);
    if (!fresh)
      return fieldError(r.at("id"), "duplicate slot id " +
                                        llvm::Twine(slot.id) + " (also " +
                                        it->second.second + ")");
  }
  std::vector<std::string> origin;
  if (Error err = mergeTable(m.slots, entries, 1, "id", "slot id", origin))
    return err;
  if (Error err = checkUniqueNames(m.slots, origin, 1, "slot"))
    return err;
  m.rebuildIndex();
  return Error::success();
}

Error Loader::loadCaps(const json::Value &v, StringRef path) {
  auto object = asObject(v, path);
  if (!object)
    return object.takeError();
  ObjectReader r(**object, path.str());
  if (Error err =
          r.keys({"smem_bytes", "tmem_columns", "tmem_lanes", "named_barriers",
                  "reserved_named_barriers", "registers_per_sm"}))
    return err;
  // Every cap is optional: an absent one keeps its inherited (or default
  // sm_100a) value.
  GlobalCaps &caps = m.caps;
  if (Error err = r.integer("smem_bytes", false, 0, kMaxInt64, caps.smemBytes))
    return err;
  if (Error err =
          r.integer("tmem_columns", false, 0, kMaxInt64, caps.tmemColumns))
    return err;
  if (Error err = r.integer("tmem_lanes", false, 0, kMaxInt64, caps.tmemLanes))
    return err;
  if (Error err = r.integer("named_barriers", false, 0, kMaxUnsigned,
                            caps.namedBarriers))
    return err;
  if (Error err = r.integer("reserved_named_barriers", false, 0, kMaxUnsigned,
                            caps.reservedNamedBarriers))
    return err;
  if (Error err = r.integer("registers_per_sm", false, 0, kMaxInt64,
                            caps.registersPerSM))
    return err;
  return checkCaps(caps, path);
}

Error Loader::loadChip(const json::Value &v, StringRef path) {
  auto object = asObject(v, path);
  if (!object)
    return object.takeError();
  ObjectReader r(**object, path.str());
  if (Error err =
          r.keys({"sm_count", "clock_mhz", "default_l2_reuse", "source"}))
    return err;
  // Like caps: every field optional, an absent one keeps its inherited (or
  // default sm_100a) value.
  ChipInfo &chip = m.chip;
  if (Error err = r.integer("sm_count", false, 1, kMaxUnsigned, chip.smCount))
    return err;
  if (Error err = r.integer("clock_mhz", false, 1, kMaxUnsigned, chip.clockMHz))
    return err;
  if (Error err = r.integer("default_l2_reuse", false, 1, kMaxUnsigned,
                            chip.defaultL2Reuse))
    return err;
  if (Error err = r.string("source", false, chip.source))
    return err;
  return checkChip(chip, path);
}

Error Loader::loadOpClasses(const json::Value &v, StringRef path) {
  auto object = asObject(v, path);
  if (!object)
    return object.takeError();
  for (StringRef name : sortedKeys(**object)) {
    std::string at = joinField(path, name);
    OpClassInfo cls;
    cls.name = name.str();
    if (Error err = loadOpClass(*(*object)->get(name), at, cls))
      return err;
    if (Error err = checkOpClass(m, cls, at))
      return err;
    // A listed class replaces an inherited one of the same name whole, so
    // that a file never mixes two sources' numbers in one class.
    auto existing = llvm::find_if(
        m.opClasses, [&](const OpClassInfo &c) { return c.name == cls.name; });
    if (existing != m.opClasses.end())
      *existing = std::move(cls);
    else
      m.opClasses.push_back(std::move(cls));
  }
  return Error::success();
}

Error Loader::resolveSlot(const json::Value &v, StringRef path, unsigned &id) {
  if (std::optional<StringRef> name = v.getAsString()) {
    const SlotInfo *slot = m.lookupSlot(*name);
    if (!slot)
      return fieldError(path, "unknown slot '" + *name + "'");
    id = slot->id;
    return Error::success();
  }
  if (std::optional<int64_t> i = v.getAsInteger()) {
    if (*i < 1 || !m.getSlot(*i))
      return fieldError(path, "unknown slot " + llvm::Twine(*i));
    id = *i;
    return Error::success();
  }
  return typeError(path, "a slot name or id", v);
}

Error Loader::loadOpClass(const json::Value &v, StringRef path,
                          OpClassInfo &cls) {
  auto object = asObject(v, path);
  if (!object)
    return object.takeError();
  ObjectReader r(**object, path.str());
  if (Error err = r.keys({"latency", "chain_latency", "footprint", "pools",
                          "async", "tma", "mma", "source"}))
    return err;
  const json::Value *latency = r.get("latency");
  if (!latency)
    return missing(r.at("latency"));
  if (Error err = loadQuantity(*latency, r.at("latency"), cls.latency))
    return err;
  if (const json::Value *chain = r.get("chain_latency")) {
    Quantity q;
    if (Error err = loadQuantity(*chain, r.at("chain_latency"), q))
      return err;
    cls.chainLatency = std::move(q);
  }

  if (const json::Value *footprint = r.get("footprint")) {
    std::string fpPath = r.at("footprint");
    auto array = asArray(*footprint, fpPath);
    if (!array)
      return array.takeError();
    for (auto [i, item] : llvm::enumerate(**array)) {
      std::string at = joinIndex(fpPath, i);
      auto entry = asObject(item, at);
      if (!entry)
        return entry.takeError();
      ObjectReader t(**entry, at);
      if (Error err = t.keys({"slot", "duration", "occupancy"}))
        return err;
      FootprintTriple triple;
      const json::Value *slot = t.get("slot");
      if (!slot)
        return missing(t.at("slot"));
      if (Error err = resolveSlot(*slot, t.at("slot"), triple.slot))
        return err;
      const json::Value *duration = t.get("duration");
      if (!duration)
        return missing(t.at("duration"));
      if (Error err =
              loadQuantity(*duration, t.at("duration"), triple.duration))
        return err;
      if (Error err =
              t.integer("occupancy", false, 1, kMaxUnsigned, triple.occupancy))
        return err;
      cls.footprint.push_back(std::move(triple));
    }
  }

  if (const json::Value *pools = r.get("pools")) {
    std::string poolsPath = r.at("pools");
    auto array = asArray(*pools, poolsPath);
    if (!array)
      return array.takeError();
    for (auto [i, item] : llvm::enumerate(**array)) {
      std::string at = joinIndex(poolsPath, i);
      auto entry = asObject(item, at);
      if (!entry)
        return entry.takeError();
      ObjectReader p(**entry, at);
      if (Error err = p.keys({"pool", "amount"}))
        return err;
      PoolRequest request{0, 1};
      const json::Value *pool = p.get("pool");
      if (!pool)
        return missing(p.at("pool"));
      if (Error err = resolvePool(*pool, p.at("pool"), request.pool))
        return err;
      if (Error err =
              p.integer("amount", false, 1, kMaxUnsigned, request.amount))
        return err;
      cls.pools.push_back(request);
    }
  }

  if (Error err = r.boolean("async", cls.async))
    return err;
  if (Error err = r.boolean("tma", cls.tma))
    return err;
  if (Error err = r.boolean("mma", cls.mma))
    return err;
  return r.string("source", /*required=*/false, cls.source);
}

Error Loader::loadQuantity(const json::Value &v, StringRef path, Quantity &q) {
  q = Quantity();
  if (v.kind() == json::Value::Number)
    return readInt(v, path, 0, kMaxInt64, q.base);
  const json::Object *object = v.getAsObject();
  if (!object)
    return typeError(path, "an integer or a quantity object", v);
  ObjectReader r(*object, path.str());
  if (Error err = r.keys({"base", "bytes_per_cycle", "flops_per_cycle",
                          "elements_per_cycle", "hbm_bytes_per_cycle",
                          "fetched_bytes_per_cycle", "bytes_table"}))
    return err;
  if (Error err = r.integer("base", false, 0, kMaxInt64, q.base))
    return err;
  if (Error err =
          r.integer("bytes_per_cycle", false, 0, kMaxInt64, q.bytesPerCycle))
    return err;
  if (Error err =
          r.integer("flops_per_cycle", false, 0, kMaxInt64, q.flopsPerCycle))
    return err;
  if (Error err = r.integer("elements_per_cycle", false, 0, kMaxInt64,
                            q.elementsPerCycle))
    return err;
  if (Error err = r.integer("hbm_bytes_per_cycle", false, 0, kMaxInt64,
                            q.hbmBytesPerCycle))
    return err;
  if (Error err = r.integer("fetched_bytes_per_cycle", false, 0, kMaxInt64,
                            q.fetchedBytesPerCycle))
    return err;
  if (const json::Value *table = r.get("bytes_table")) {
    std::string tablePath = r.at("bytes_table");
    auto array = asArray(*table, tablePath);
    if (!array)
      return array.takeError();
    if ((*array)->empty())
      return fieldError(tablePath, "must have at least one [bytes, cycles] "
                                   "point");
    for (auto [i, item] : llvm::enumerate(**array)) {
      std::string at = joinIndex(tablePath, i);
      const json::Array *pair = item.getAsArray();
      if (!pair || pair->size() != 2)
        return fieldError(at, "expected a [bytes, cycles] pair");
      std::pair<int64_t, int64_t> point;
      if (Error err =
              readInt((*pair)[0], joinIndex(at, 0), 0, kMaxInt64, point.first))
        return err;
      if (Error err =
              readInt((*pair)[1], joinIndex(at, 1), 0, kMaxInt64, point.second))
        return err;
      q.bytesTable.push_back(point);
    }
  }
  return checkQuantity(q, path);
}

/// "file: message", or the message alone for an unnamed buffer.
Error inFile(StringRef fileName, Error err) {
  if (fileName.empty())
    return err;
  return llvm::createStringError(fileName + ": " +
                                 llvm::toString(std::move(err)));
}

/// Rewrites json::parse's "[line:col, byte=N]: message" as the usual
/// "file:line:col: ..." so editors and FileCheck can point at it. The parser
/// reports the column just after the character it stopped on, which is that
/// character's column counted from 1, as editors count (0 only when it
/// stopped before the first character).
Error syntaxError(StringRef fileName, Error err) {
  std::string text = llvm::toString(std::move(err));
  unsigned line = 0, column = 0, offset = 0;
  int consumed = 0;
  if (std::sscanf(text.c_str(), "[%u:%u, byte=%u]: %n", &line, &column, &offset,
                  &consumed) == 3 &&
      consumed > 0)
    return llvm::createStringError(
        llvm::formatv("{0}:{1}:{2}: not valid JSON: {3}",
                      fileName.empty() ? StringRef("<input>") : fileName, line,
                      std::max(column, 1u),
                      StringRef(text).drop_front(consumed))
            .str());
  return inFile(fileName, llvm::createStringError("not valid JSON: " + text));
}

/// Finds a key written twice in one object. json::parse keeps one of the two
/// silently, and a duplicated op class or field is exactly the kind of
/// copy-paste slip this loader exists to catch. Runs on text that json::parse
/// accepted, so it only has to find its way, not to check syntax.
class DuplicateKeyScan {
public:
  explicit DuplicateKeyScan(StringRef text) : text(text) {}

  Error run() {
    value("");
    return std::move(error);
  }

private:
  void skipSpace() {
    while (pos < text.size() && StringRef(" \t\r\n").contains(text[pos]))
      ++pos;
  }

  /// Skips a string starting at its opening quote; returns its raw contents.
  StringRef string() {
    size_t begin = ++pos;
    while (pos < text.size() && text[pos] != '"')
      pos += text[pos] == '\\' ? 2 : 1;
    StringRef raw = text.slice(begin, pos);
    ++pos;
    return raw;
  }

  std::pair<unsigned, unsigned> lineColumn(size_t at) const {
    StringRef before = text.take_front(at);
    unsigned line = 1 + before.count('\n');
    size_t lineStart = before.rfind('\n');
    unsigned column =
        at - (lineStart == StringRef::npos ? 0 : lineStart + 1) + 1;
    return {line, column};
  }

  void value(const std::string &path) {
    skipSpace();
    if (error || pos >= text.size())
      return;
    char c = text[pos];
    if (c == '{') {
      ++pos;
      llvm::StringMap<size_t> seen;
      while (!error) {
        skipSpace();
        if (pos >= text.size() || text[pos] == '}')
          break;
        size_t keyAt = pos;
        StringRef key = string();
        std::string keyPath = joinField(path, key);
        auto [it, fresh] = seen.try_emplace(key, keyAt);
        if (!fresh) {
          auto [line, column] = lineColumn(keyAt);
          auto [firstLine, firstColumn] = lineColumn(it->second);
          error = fieldError(keyPath,
                             llvm::formatv("duplicate key at {0}:{1} (first "
                                           "written at {2}:{3})",
                                           line, column, firstLine, firstColumn)
                                 .str());
          return;
        }
        skipSpace();
        ++pos; // ':'
        value(keyPath);
        skipSpace();
        if (pos < text.size() && text[pos] == ',')
          ++pos;
      }
      ++pos; // '}'
      return;
    }
    if (c == '[') {
      ++pos;
      for (size_t i = 0; !error; ++i) {
        skipSpace();
        if (pos >= text.size() || text[pos] == ']')
          break;
        value(joinIndex(path, i));
        skipSpace();
        if (pos < text.size() && text[pos] == ',')
          ++pos;
      }
      ++pos; // ']'
      return;
    }
    if (c == '"') {
      string();
      return;
    }
    // A number, true, false or null.
    while (pos < text.size() && !StringRef(",]} \t\r\n").contains(text[pos]))
      ++pos;
  }

  StringRef text;
  size_t pos = 0;
  Error error = Error::success();
};

json::Value quantityToJSON(const Quantity &q) {
  if (q.isConstant())
    return q.base;
  json::Object o;
  if (q.base != 0)
    o["base"] = q.base;
  if (q.bytesPerCycle != 0)
    o["bytes_per_cycle"] = q.bytesPerCycle;
  if (q.flopsPerCycle != 0)
    o["flops_per_cycle"] = q.flopsPerCycle;
  if (q.elementsPerCycle != 0)
    o["elements_per_cycle"] = q.elementsPerCycle;
  if (q.hbmBytesPerCycle != 0)
    o["hbm_bytes_per_cycle"] = q.hbmBytesPerCycle;
  if (q.fetchedBytesPerCycle != 0)
    o["fetched_bytes_per_cycle"] = q.fetchedBytesPerCycle;
  if (!q.bytesTable.empty()) {
    json::Array table;
    for (auto [bytes, cycles] : q.bytesTable)
      table.push_back(json::Array{bytes, cycles});
    o["bytes_table"] = std::move(table);
  }
  return o;
}

} // namespace

llvm::Expected<TargetModel> TargetModel::fromJSON(StringRef text,
                                                  StringRef fileName) {
  // A target file is a few levels deep; 20000 levels once overflowed the
  // stack inside json::parse.
  constexpr unsigned kMaxTargetDepth = 64;
  if (std::optional<size_t> at =
          tilepipe::support::jsonTooDeep(text, kMaxTargetDepth)) {
    StringRef before = text.take_front(*at);
    size_t lineStart = before.rfind('\n');
    unsigned column =
        *at - (lineStart == StringRef::npos ? 0 : lineStart + 1) + 1;
    return llvm::createStringError(
        fileName + ":" + llvm::Twine(1 + before.count('\n')) + ":" +
        llvm::Twine(column) + ": arrays and objects nest deeper than " +
        llvm::Twine(kMaxTargetDepth));
  }
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return syntaxError(fileName, parsed.takeError());
  if (Error err = DuplicateKeyScan(text).run())
    return inFile(fileName, std::move(err));
  TargetModel model;
  if (Error err = Loader(model).load(*parsed))
    return inFile(fileName, std::move(err));
  return model;
}

llvm::Expected<TargetModel> TargetModel::fromFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(
        path + ": cannot read file: " + buffer.getError().message());
  return fromJSON((*buffer)->getBuffer(), path);
}

json::Value TargetModel::toJSON() const {
  // References are written by name: the file then reads as prose, and it
  // loads back to the same ids because names are unique.
  auto slotRef = [&](unsigned id) -> json::Value {
    if (const SlotInfo *slot = getSlot(id))
      return slot->name;
    return id;
  };
  auto poolRef = [&](unsigned index) -> json::Value {
    if (const PoolInfo *pool = getPool(index))
      return pool->name;
    return index;
  };

  json::Array slotArray;
  for (const SlotInfo &slot : slots) {
    json::Object o{{"id", slot.id},
                   {"name", slot.name},
                   {"kind", stringifySlotKind(slot.kind)},
                   {"primary", slot.primary},
                   {"meaning", slot.meaning}};
    if (slot.pool)
      o["pool"] = poolRef(*slot.pool);
    slotArray.push_back(std::move(o));
  }

  json::Array poolArray;
  for (const PoolInfo &pool : pools)
    poolArray.push_back(json::Object{{"index", pool.index},
                                     {"name", pool.name},
                                     {"capacity", pool.capacity},
                                     {"binding", pool.binding},
                                     {"role", pool.role}});

  json::Object capsObject{
      {"smem_bytes", caps.smemBytes},
      {"tmem_columns", caps.tmemColumns},
      {"tmem_lanes", caps.tmemLanes},
      {"named_barriers", caps.namedBarriers},
      {"reserved_named_barriers", caps.reservedNamedBarriers},
      {"registers_per_sm", caps.registersPerSM}};

  // json::Object prints its keys sorted, so the classes come out by name
  // whatever their order in the model.
  json::Object classes;
  for (const OpClassInfo &cls : opClasses) {
    json::Array footprint;
    for (const FootprintTriple &t : cls.footprint)
      footprint.push_back(json::Object{{"slot", slotRef(t.slot)},
                                       {"duration", quantityToJSON(t.duration)},
                                       {"occupancy", t.occupancy}});
    json::Array requests;
    for (const PoolRequest &p : cls.pools)
      requests.push_back(
          json::Object{{"pool", poolRef(p.pool)}, {"amount", p.amount}});
    json::Object o{{"latency", quantityToJSON(cls.latency)},
                   {"footprint", std::move(footprint)},
                   {"pools", std::move(requests)},
                   {"async", cls.async},
                   {"tma", cls.tma},
                   {"mma", cls.mma},
                   {"source", cls.source}};
    if (cls.chainLatency)
      o["chain_latency"] = quantityToJSON(*cls.chainLatency);
    classes[cls.name] = std::move(o);
  }

  return json::Object{
      {"name", name},
      {"description", description},
      {"slots", std::move(slotArray)},
      {"pools", std::move(poolArray)},
      {"caps", std::move(capsObject)},
      {"chip", json::Object{{"sm_count", chip.smCount},
                            {"clock_mhz", chip.clockMHz},
                            {"default_l2_reuse", chip.defaultL2Reuse},
                            {"source", chip.source}}},
      {"op_classes", std::move(classes)}};
}

//===----------------------------------------------------------------------===//
// print()
//===----------------------------------------------------------------------===//

namespace {
std::string quantityText(const Quantity &q) {
  std::string text;
  llvm::raw_string_ostream os(text);
  q.print(os);
  return text;
}

template <typename T, typename F>
size_t widest(const std::vector<T> &items, size_t least, F width) {
  size_t w = least;
  for (const T &item : items)
    w = std::max(w, width(item));
  return w;
}
} // namespace

void TargetModel::print(llvm::raw_ostream &os) const {
  using llvm::left_justify;
  using llvm::right_justify;

  os << "target " << name << "\n";
  if (!description.empty())
    os << "  " << description << "\n";

  auto poolLabel = [&](unsigned index) {
    const PoolInfo *pool = getPool(index);
    return (llvm::Twine(index) + " " + (pool ? pool->name : "?")).str();
  };

  os << "\nslots: " << slots.size() << " (RRT bit = id - 1)\n";
  size_t nameW =
      widest(slots, 4, [](const SlotInfo &s) { return s.name.size(); });
  size_t poolW = widest(slots, 4, [&](const SlotInfo &s) {
    return s.pool ? poolLabel(*s.pool).size() : 1;
  });
  os << "  " << right_justify("id", 3) << "  " << left_justify("name", nameW)
     << "  " << left_justify("kind", 6) << "  primary  "
     << left_justify("pool", poolW) << "  meaning\n";
  for (const SlotInfo &s : slots)
    os << "  " << right_justify(std::to_string(s.id), 3) << "  "
       << left_justify(s.name, nameW) << "  "
       << left_justify(stringifySlotKind(s.kind), 6) << "  "
       << left_justify(s.primary ? "yes" : "-", 7) << "  "
       << left_justify(s.pool ? poolLabel(*s.pool) : "-", poolW) << "  "
       << s.meaning << "\n";

  os << "\npools: " << pools.size() << " (capacity per modulo cycle)\n";
  size_t poolNameW =
      widest(pools, 4, [](const PoolInfo &p) { return p.name.size(); });
  os << "  index  " << left_justify("name", poolNameW)
     << "  cap  binding  role\n";
  for (const PoolInfo &p : pools)
    os << "  " << right_justify(std::to_string(p.index), 5) << "  "
       << left_justify(p.name, poolNameW) << "  "
       << right_justify(std::to_string(p.capacity), 3) << "  "
       << left_justify(p.binding ? "yes" : "no", 7) << "  " << p.role << "\n";

  os << "\ncaps (whole schedule)\n";
  const std::pair<const char *, int64_t> capRows[] = {
      {"smem_bytes", caps.smemBytes},
      {"tmem_columns", caps.tmemColumns},
      {"tmem_lanes", caps.tmemLanes},
      {"named_barriers", caps.namedBarriers},
      {"reserved_named_barriers", caps.reservedNamedBarriers},
      {"registers_per_sm", caps.registersPerSM}};
  for (auto [field, value] : capRows)
    os << "  " << left_justify(field, 24) << "  " << value << "\n";

  os << "\nchip (throughput and default L2 reuse)\n";
  const std::pair<const char *, int64_t> chipRows[] = {
      {"sm_count", chip.smCount},
      {"clock_mhz", chip.clockMHz},
      {"default_l2_reuse", chip.defaultL2Reuse}};
  for (auto [field, value] : chipRows)
    os << "  " << left_justify(field, 24) << "  " << value << "\n";
  if (!chip.source.empty())
    os << "  source: " << chip.source << "\n";

  std::vector<const OpClassInfo *> classes;
  for (const OpClassInfo &cls : opClasses)
    classes.push_back(&cls);
  llvm::stable_sort(classes, [](const OpClassInfo *a, const OpClassInfo *b) {
    return a->name < b->name;
  });
  os << "\nop classes: " << classes.size()
     << " (x/r: x divided by r, rounded up)\n";
  for (const OpClassInfo *cls : classes) {
    os << "  " << cls->name;
    llvm::SmallVector<StringRef, 3> flags;
    if (cls->async)
      flags.push_back("async");
    if (cls->tma)
      flags.push_back("tma");
    if (cls->mma)
      flags.push_back("mma");
    if (!flags.empty())
      os << "  [" << llvm::join(flags, ", ") << "]";
    os << "\n";
    auto row = [&](StringRef label) -> llvm::raw_ostream & {
      return os << "    " << left_justify(label, 13) << "  ";
    };
    row("latency") << quantityText(cls->latency) << "\n";
    if (cls->chainLatency)
      row("chain latency") << quantityText(*cls->chainLatency) << "\n";
    row("footprint");
    if (cls->footprint.empty())
      os << "-";
    llvm::interleave(
        cls->footprint, os,
        [&](const FootprintTriple &t) {
          const SlotInfo *slot = getSlot(t.slot);
          os << "(" << (slot ? slot->name : std::to_string(t.slot)) << ", "
             << quantityText(t.duration) << ", " << t.occupancy << ")";
        },
        " ");
    os << "\n";
    if (!cls->pools.empty()) {
      row("pools");
      llvm::interleave(
          cls->pools, os,
          [&](const PoolRequest &p) {
            os << poolLabel(p.pool) << " x" << p.amount;
          },
          ", ");
      os << "\n";
    }
    if (!cls->source.empty())
      row("source") << cls->source << "\n";
  }
}
