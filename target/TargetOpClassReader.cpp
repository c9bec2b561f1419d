//===- TargetOpClassReader.cpp - target files: op classes -----------------===//
//
// The op classes of a target file, each with its latency and footprint as
// quantities (docs/target-format.md). A listed class replaces an inherited
// one of the same name whole.
//
//===----------------------------------------------------------------------===//

#include "target/TargetLoader.h"

#include "llvm/ADT/STLExtras.h"

using namespace tilepipe::target;
using namespace tilepipe::target::detail;
namespace strict = tilepipe::support::json;

Error Loader::loadOpClasses(const json::Value &v, StringRef path) {
  auto object = strict::objectOf(v, path);
  if (!object)
    return object.takeError();
  for (StringRef name : strict::sortedKeys(**object)) {
    std::string at = pathKey(path, name);
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
  return strict::typeMismatch(path, "a slot name or id", v);
}

Error Loader::loadOpClass(const json::Value &v, StringRef path,
                          OpClassInfo &cls) {
  auto object = strict::objectOf(v, path);
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

  if (const json::Value *footprint = r.get("footprint"))
    if (Error err = loadFootprint(*footprint, r.at("footprint"), cls))
      return err;
  if (const json::Value *pools = r.get("pools"))
    if (Error err = loadPoolRequests(*pools, r.at("pools"), cls))
      return err;
  if (Error err = r.boolean("async", cls.async))
    return err;
  if (Error err = r.boolean("tma", cls.tma))
    return err;
  if (Error err = r.boolean("mma", cls.mma))
    return err;
  return r.string("source", /*required=*/false, cls.source);
}

/// The [{slot, duration, occupancy}, ...] list of an op class.
Error Loader::loadFootprint(const json::Value &v, StringRef path,
                            OpClassInfo &cls) {
  auto array = strict::arrayOf(v, path);
  if (!array)
    return array.takeError();
  for (auto [i, item] : llvm::enumerate(**array)) {
    std::string at = pathIndex(path, i);
    auto entry = strict::objectOf(item, at);
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
    if (Error err = loadQuantity(*duration, t.at("duration"), triple.duration))
      return err;
    if (Error err =
            t.integer("occupancy", false, 1, kMaxUnsigned, triple.occupancy))
      return err;
    cls.footprint.push_back(std::move(triple));
  }
  return Error::success();
}

/// The [{pool, amount}, ...] list of an op class.
Error Loader::loadPoolRequests(const json::Value &v, StringRef path,
                               OpClassInfo &cls) {
  auto array = strict::arrayOf(v, path);
  if (!array)
    return array.takeError();
  for (auto [i, item] : llvm::enumerate(**array)) {
    std::string at = pathIndex(path, i);
    auto entry = strict::objectOf(item, at);
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
    if (Error err = p.integer("amount", false, 1, kMaxUnsigned, request.amount))
      return err;
    cls.pools.push_back(request);
  }
  return Error::success();
}

Error Loader::loadQuantity(const json::Value &v, StringRef path, Quantity &q) {
  q = Quantity();
  if (v.kind() == json::Value::Number)
    return readInt(v, path, 0, kMaxInt64, q.base);
  const json::Object *object = v.getAsObject();
  if (!object)
    return strict::typeMismatch(path, "an integer or a quantity object", v);
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
    auto array = strict::arrayOf(*table, tablePath);
    if (!array)
      return array.takeError();
    if ((*array)->empty())
      return fieldError(tablePath, "must have at least one [bytes, cycles] "
                                   "point");
    for (auto [i, item] : llvm::enumerate(**array)) {
      std::string at = pathIndex(tablePath, i);
      const json::Array *pair = item.getAsArray();
      if (!pair || pair->size() != 2)
        return fieldError(at, "expected a [bytes, cycles] pair");
      std::pair<int64_t, int64_t> point;
      if (Error err =
              readInt((*pair)[0], pathIndex(at, 0), 0, kMaxInt64, point.first))
        return err;
      if (Error err =
              readInt((*pair)[1], pathIndex(at, 1), 0, kMaxInt64, point.second))
        return err;
      q.bytesTable.push_back(point);
    }
  }
  return checkQuantity(q, path);
}

/// "file: message", or the message alone for an unnamed buffer.
/// "file: message", or the message alone for an unnamed buffer.
