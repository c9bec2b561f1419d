//===- TargetReader.cpp - target files: the loader ------------------------===//
//
// The loader is strict on purpose: a target file is hand-written, and a typo
// that silently falls back to a default would show up much later as an odd
// schedule. Every error names the field as a JSON path (with the file name
// in front), unknown keys are errors, and the finished model goes through
// validate() before it is handed out.
//
// The text goes through the strict-JSON kit (support/json/): parseStrict
// refuses duplicate keys and runaway nesting, and the typed getters of
// Fields.h name the field and the offending value in their errors ("unknown
// slot 'tpmma'"), which json::ObjectMapper's fixed messages cannot.
//
//===----------------------------------------------------------------------===//

#include "support/json/Text.h"
#include "target/TargetLoader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace tilepipe::target;
using namespace tilepipe::target::detail;
namespace strict = tilepipe::support::json;

namespace {

// Pools are indexed densely; a bound keeps a typo like 1000000 from
// allocating a million pools before the gap check rejects it.
constexpr unsigned kMaxPools = 64;
// A target file is a few levels deep; 20000 levels once overflowed the
// stack inside json::parse.
constexpr unsigned kMaxTargetDepth = 64;

} // namespace

Error tilepipe::target::detail::readInt(const json::Value &v, StringRef path,
                                        int64_t min, int64_t max,
                                        int64_t &out) {
  llvm::Expected<int64_t> i = strict::integerOf(v, path);
  if (!i)
    return i.takeError();
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

Error Loader::load(const json::Value &root) {
  const json::Object *top = root.getAsObject();
  if (!top)
    return llvm::createStringError(
        llvm::Twine("expected an object at the top level, got ") +
        strict::describeKind(root));
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
    const TargetModel *builtin = TargetModel::builtin(base);
    if (!builtin)
      return fieldError("inherit", "unknown base target '" + base +
                                       "' (known: " +
                                       TargetModel::builtinNameList() + ")");
    m = *builtin;
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

namespace {

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
      return fieldError(pathKey(entry.second, keyField),
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
    return fieldError(pathKey(path, "name"),
                      "duplicate " + what + " name '" + info.name + "' (also " +
                          what + " " + llvm::Twine(otherKey) + ")");
  }
  return Error::success();
}

} // namespace

Error Loader::loadPools(const json::Value &v, StringRef path) {
  auto array = strict::arrayOf(v, path);
  if (!array)
    return array.takeError();
  std::map<unsigned, std::pair<PoolInfo, std::string>> entries;
  for (auto [i, item] : llvm::enumerate(**array)) {
    std::string at = pathIndex(path, i);
    auto object = strict::objectOf(item, at);
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
  return strict::typeMismatch(path, "a pool name or index", v);
}

Error Loader::loadSlots(const json::Value &v, StringRef path) {
  auto array = strict::arrayOf(v, path);
  if (!array)
    return array.takeError();
  std::map<unsigned, std::pair<SlotInfo, std::string>> entries;
  for (auto [i, item] : llvm::enumerate(**array)) {
    std::string at = pathIndex(path, i);
    auto object = strict::objectOf(item, at);
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
  auto object = strict::objectOf(v, path);
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
  auto object = strict::objectOf(v, path);
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

namespace {

/// "file: message", or the message alone for an unnamed buffer.
Error inFile(StringRef fileName, Error err) {
  if (fileName.empty())
    return err;
  return llvm::createStringError(fileName + ": " +
                                 llvm::toString(std::move(err)));
}

/// The kit's TextError as "file:line:col: message", so editors and
/// FileCheck can point at it; "file: message" when it has no place.
Error textError(StringRef fileName, Error err) {
  return llvm::handleErrors(
      std::move(err), [&](const strict::TextError &e) -> Error {
        if (!e.at)
          return inFile(fileName, llvm::createStringError(e.message));
        // A syntax error in an unnamed buffer says "<input>"; the depth
        // error has always put the name as given, empty or not.
        StringRef shown = fileName;
        if (e.kind == strict::TextError::Kind::Syntax && fileName.empty())
          shown = "<input>";
        return llvm::createStringError(llvm::formatv("{0}:{1}:{2}: {3}", shown,
                                                     e.at->line, e.at->column,
                                                     e.message)
                                           .str());
      });
}

} // namespace

llvm::Expected<TargetModel> TargetModel::fromJSON(StringRef text,
                                                  StringRef fileName) {
  llvm::Expected<json::Value> parsed =
      strict::parseStrict(text, kMaxTargetDepth);
  if (!parsed)
    return textError(fileName, parsed.takeError());
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
