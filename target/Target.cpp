//===- Target.cpp - resource model queries and checks ---------------------===//
//
// Quantity evaluation, lookups, resolve() and validate(). The loader in
// TargetReader.cpp shares the per-field checks (TargetChecks.h) so that a bad
// file and a bad hand-built model are reported in the same words.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "target/TargetChecks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>
#include <tuple>

using namespace tilepipe::target;
using llvm::Error;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// SlotKind
//===----------------------------------------------------------------------===//

StringRef tilepipe::target::stringifySlotKind(SlotKind kind) {
  switch (kind) {
  case SlotKind::Coarse:
    return "coarse";
  case SlotKind::Fine:
    return "fine";
  case SlotKind::Test:
    return "test";
  }
  llvm_unreachable("unknown SlotKind");
}

std::optional<SlotKind> tilepipe::target::symbolizeSlotKind(StringRef name) {
  if (name == "coarse")
    return SlotKind::Coarse;
  if (name == "fine")
    return SlotKind::Fine;
  if (name == "test")
    return SlotKind::Test;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Quantity
//===----------------------------------------------------------------------===//

namespace {
// Work and rates are int64; products of two of them do not fit, so the
// arithmetic runs in 128 bits and saturates on the way out. A saturated
// duration is absurd but harmless: the scheduler reports it, it never wraps.
using Wide = __int128;

int64_t saturate(Wide v) {
  if (v > std::numeric_limits<int64_t>::max())
    return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min())
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

/// Rounds toward +infinity for either sign; `den` is positive.
Wide ceilDiv(Wide num, Wide den) {
  Wide q = num / den;
  if (num % den != 0 && num > 0)
    ++q;
  return q;
}

Wide interpolate(llvm::ArrayRef<std::pair<int64_t, int64_t>> table,
                 int64_t bytes) {
  if (table.size() == 1 || bytes <= table.front().first)
    return table.front().second;
  // The segment whose right end is the first point at or beyond `bytes`;
  // past the last point this is the last segment, extended.
  size_t hi = 1;
  while (hi + 1 < table.size() && table[hi].first < bytes)
    ++hi;
  auto [x0, y0] = table[hi - 1];
  auto [x1, y1] = table[hi];
  return Wide(y0) + ceilDiv(Wide(bytes - x0) * Wide(y1 - y0), Wide(x1 - x0));
}
} // namespace

int64_t OpWork::fetchedBytes() const {
  int64_t b = std::max<int64_t>(bytes, 0);
  return multicast > 1 ? (b + multicast - 1) / multicast : b;
}

int64_t OpWork::hbmBytes() const {
  int64_t f = fetchedBytes();
  return l2Reuse > 1 ? (f + l2Reuse - 1) / l2Reuse : f;
}

int64_t Quantity::evaluate(const OpWork &work) const {
  int64_t bytes = std::max<int64_t>(work.bytes, 0);
  int64_t flops = std::max<int64_t>(work.flops, 0);
  int64_t elements = std::max<int64_t>(work.elements, 0);
  Wide total = base;
  if (!bytesTable.empty())
    total += interpolate(bytesTable, bytes);
  else if (bytesPerCycle > 0)
    total += ceilDiv(bytes, bytesPerCycle);
  if (flopsPerCycle > 0)
    total += ceilDiv(flops, flopsPerCycle);
  if (elementsPerCycle > 0)
    total += ceilDiv(elements, elementsPerCycle);
  if (hbmBytesPerCycle > 0)
    total += ceilDiv(work.hbmBytes(), hbmBytesPerCycle);
  if (fetchedBytesPerCycle > 0)
    total += ceilDiv(work.fetchedBytes(), fetchedBytesPerCycle);
  return std::max<int64_t>(saturate(total), 0);
}

void Quantity::print(llvm::raw_ostream &os) const {
  if (isConstant()) {
    os << base;
    return;
  }
  bool first = true;
  auto term = [&](const llvm::Twine &text) {
    if (!first)
      os << " + ";
    os << text;
    first = false;
  };
  if (base != 0)
    term(llvm::Twine(base));
  if (!bytesTable.empty()) {
    std::string points;
    llvm::raw_string_ostream pos(points);
    llvm::interleave(
        bytesTable, pos,
        [&](const std::pair<int64_t, int64_t> &p) {
          pos << p.first << ':' << p.second;
        },
        " ");
    term("table(bytes; " + points + ")");
  } else if (bytesPerCycle != 0) {
    term("bytes/" + llvm::Twine(bytesPerCycle));
  }
  if (flopsPerCycle != 0)
    term("flops/" + llvm::Twine(flopsPerCycle));
  if (elementsPerCycle != 0)
    term("elements/" + llvm::Twine(elementsPerCycle));
  if (hbmBytesPerCycle != 0)
    term("hbm_bytes/" + llvm::Twine(hbmBytesPerCycle));
  if (fetchedBytesPerCycle != 0)
    term("fetched_bytes/" + llvm::Twine(fetchedBytesPerCycle));
}

//===----------------------------------------------------------------------===//
// Equality
//===----------------------------------------------------------------------===//

bool tilepipe::target::operator==(const Quantity &a, const Quantity &b) {
  return std::tie(a.base, a.bytesPerCycle, a.flopsPerCycle, a.elementsPerCycle,
                  a.hbmBytesPerCycle, a.fetchedBytesPerCycle, a.bytesTable) ==
         std::tie(b.base, b.bytesPerCycle, b.flopsPerCycle, b.elementsPerCycle,
                  b.hbmBytesPerCycle, b.fetchedBytesPerCycle, b.bytesTable);
}

bool tilepipe::target::operator==(const ChipInfo &a, const ChipInfo &b) {
  return std::tie(a.smCount, a.clockMHz, a.defaultL2Reuse, a.source) ==
         std::tie(b.smCount, b.clockMHz, b.defaultL2Reuse, b.source);
}

bool tilepipe::target::operator==(const SlotInfo &a, const SlotInfo &b) {
  return std::tie(a.id, a.name, a.kind, a.primary, a.pool, a.meaning) ==
         std::tie(b.id, b.name, b.kind, b.primary, b.pool, b.meaning);
}

bool tilepipe::target::operator==(const PoolInfo &a, const PoolInfo &b) {
  return std::tie(a.index, a.name, a.capacity, a.binding, a.role) ==
         std::tie(b.index, b.name, b.capacity, b.binding, b.role);
}

bool tilepipe::target::operator==(const FootprintTriple &a,
                                  const FootprintTriple &b) {
  return std::tie(a.slot, a.duration, a.occupancy) ==
         std::tie(b.slot, b.duration, b.occupancy);
}

bool tilepipe::target::operator==(const PoolRequest &a, const PoolRequest &b) {
  return a.pool == b.pool && a.amount == b.amount;
}

bool tilepipe::target::operator==(const OpClassInfo &a, const OpClassInfo &b) {
  return std::tie(a.name, a.latency, a.chainLatency, a.footprint, a.pools,
                  a.async, a.tma, a.mma, a.source) ==
         std::tie(b.name, b.latency, b.chainLatency, b.footprint, b.pools,
                  b.async, b.tma, b.mma, b.source);
}

bool tilepipe::target::operator==(const GlobalCaps &a, const GlobalCaps &b) {
  return std::tie(a.smemBytes, a.tmemColumns, a.tmemLanes, a.namedBarriers,
                  a.reservedNamedBarriers, a.registersPerSM) ==
         std::tie(b.smemBytes, b.tmemColumns, b.tmemLanes, b.namedBarriers,
                  b.reservedNamedBarriers, b.registersPerSM);
}

bool TargetModel::operator==(const TargetModel &other) const {
  if (std::tie(name, description, slots, pools, caps, chip) !=
          std::tie(other.name, other.description, other.slots, other.pools,
                   other.caps, other.chip) ||
      opClasses.size() != other.opClasses.size())
    return false;
  // Op class order is an accident of how the model was built (the JSON
  // loader sorts by name, a hand-built model need not), so compare by name.
  auto sorted = [](const std::vector<OpClassInfo> &classes) {
    std::vector<const OpClassInfo *> out;
    for (const OpClassInfo &cls : classes)
      out.push_back(&cls);
    llvm::stable_sort(out, [](const OpClassInfo *a, const OpClassInfo *b) {
      return a->name < b->name;
    });
    return out;
  };
  std::vector<const OpClassInfo *> mine = sorted(opClasses);
  std::vector<const OpClassInfo *> theirs = sorted(other.opClasses);
  for (size_t i = 0, e = mine.size(); i != e; ++i)
    if (!(*mine[i] == *theirs[i]))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Lookups and resolve()
//===----------------------------------------------------------------------===//

void TargetModel::rebuildIndex() {
  slotIndex.clear();
  opClassIndex.clear();
  // First entry wins on a duplicate, so a lookup is stable even on a model
  // that validate() is about to reject.
  for (const SlotInfo &slot : slots)
    slotIndex.try_emplace(slot.name, slot.id);
  for (auto [i, cls] : llvm::enumerate(opClasses))
    opClassIndex.try_emplace(cls.name, i);
}

const SlotInfo *TargetModel::getSlot(unsigned id) const {
  if (id == 0 || id > slots.size() || slots[id - 1].id != id)
    return nullptr;
  return &slots[id - 1];
}

const SlotInfo *TargetModel::lookupSlot(StringRef slotName) const {
  auto it = slotIndex.find(slotName);
  return it == slotIndex.end() ? nullptr : getSlot(it->second);
}

const OpClassInfo *TargetModel::lookupOpClass(StringRef className) const {
  auto it = opClassIndex.find(className);
  if (it == opClassIndex.end() || it->second >= opClasses.size())
    return nullptr;
  return &opClasses[it->second];
}

const PoolInfo *TargetModel::getPool(unsigned index) const {
  return index < pools.size() ? &pools[index] : nullptr;
}

const PoolInfo *TargetModel::lookupPool(StringRef poolName) const {
  // Nine pools: a scan is cheaper than keeping another index in sync.
  for (const PoolInfo &pool : pools)
    if (pool.name == poolName)
      return &pool;
  return nullptr;
}

ResolvedOp TargetModel::resolve(const OpClassInfo &cls,
                                const OpWork &stated) const {
  // A load that does not say how often its tile is re-read gets the chip's
  // default reuse (docs/target.md, "Where TMA bytes come from").
  OpWork work = stated;
  if (work.l2Reuse <= 0)
    work.l2Reuse = chip.defaultL2Reuse;
  ResolvedOp op;
  op.latency = cls.latency.evaluate(work);
  op.chainLatency =
      cls.chainLatency ? cls.chainLatency->evaluate(work) : op.latency;
  op.triples.reserve(cls.footprint.size());
  for (const FootprintTriple &t : cls.footprint) {
    // A triple always holds its slot for at least one cycle: an op that
    // names a slot uses it, even when its work rounds to nothing.
    int64_t cycles = std::clamp<int64_t>(t.duration.evaluate(work), 1,
                                         std::numeric_limits<unsigned>::max());
    op.triples.push_back({t.slot, static_cast<unsigned>(cycles), t.occupancy});
  }
  op.pools = cls.pools;
  return op;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

namespace tilepipe::target::detail {

Error checkQuantity(const Quantity &q, StringRef path) {
  // A plain integer in a file is the whole quantity, so name the field
  // itself rather than a "base" the author never wrote.
  if (q.isConstant()) {
    if (q.base < 0)
      return fieldError(path, "must not be negative (got " +
                                  llvm::Twine(q.base) + ")");
    return Error::success();
  }
  const std::pair<StringRef, int64_t> terms[] = {
      {"base", q.base},
      {"bytes_per_cycle", q.bytesPerCycle},
      {"flops_per_cycle", q.flopsPerCycle},
      {"elements_per_cycle", q.elementsPerCycle},
      {"hbm_bytes_per_cycle", q.hbmBytesPerCycle},
      {"fetched_bytes_per_cycle", q.fetchedBytesPerCycle}};
  for (auto [field, value] : terms)
    if (value < 0)
      return fieldError(pathKey(path, field), "must not be negative (got " +
                                                    llvm::Twine(value) + ")");
  if (q.bytesTable.empty())
    return Error::success();
  if (q.bytesPerCycle != 0)
    return fieldError(pathKey(path, "bytes_per_cycle"),
                      "cannot be combined with bytes_table (the table "
                      "replaces the bytes term)");
  std::string table = pathKey(path, "bytes_table");
  for (auto [i, point] : llvm::enumerate(q.bytesTable)) {
    std::string at = pathIndex(table, i);
    if (point.first < 0)
      return fieldError(at, "bytes must not be negative (got " +
                                llvm::Twine(point.first) + ")");
    if (point.second < 0)
      return fieldError(at, "cycles must not be negative (got " +
                                llvm::Twine(point.second) + ")");
    if (i > 0 && point.first <= q.bytesTable[i - 1].first)
      return fieldError(at, "bytes " + llvm::Twine(point.first) +
                                " must be above the previous point's " +
                                llvm::Twine(q.bytesTable[i - 1].first) +
                                " (bytes_table must be strictly increasing)");
  }
  return Error::success();
}

Error checkOpClass(const TargetModel &model, const OpClassInfo &cls,
                   StringRef path) {
  if (cls.name.empty())
    return fieldError(path, "op class name must not be empty");
  if (Error err = checkQuantity(cls.latency, pathKey(path, "latency")))
    return err;
  if (cls.chainLatency)
    if (Error err =
            checkQuantity(*cls.chainLatency, pathKey(path, "chain_latency")))
      return err;

  std::string footprint = pathKey(path, "footprint");
  for (auto [i, triple] : llvm::enumerate(cls.footprint)) {
    std::string at = pathIndex(footprint, i);
    const SlotInfo *slot = model.getSlot(triple.slot);
    if (!slot)
      return fieldError(pathKey(at, "slot"),
                        "unknown slot " + llvm::Twine(triple.slot));
    // Two triples on one slot would make the op collide with itself in the
    // RRT (or, on a pooled slot, split one claim in two for no reason).
    for (size_t j = 0; j != i; ++j)
      if (cls.footprint[j].slot == triple.slot)
        return fieldError(pathKey(at, "slot"), "slot '" + slot->name +
                                                     "' already appears in " +
                                                     pathIndex("footprint", j));
    if (Error err = checkQuantity(triple.duration, pathKey(at, "duration")))
      return err;
    std::string occupancy = pathKey(at, "occupancy");
    if (triple.occupancy == 0)
      return fieldError(occupancy, "must be at least 1");
    if (!slot->pool) {
      if (triple.occupancy != 1)
        return fieldError(occupancy,
                          "slot '" + slot->name +
                              "' is a singleton (bound to no pool), so "
                              "occupancy must be 1 (got " +
                              llvm::Twine(triple.occupancy) + ")");
      continue;
    }
    const PoolInfo *pool = model.getPool(*slot->pool);
    if (!pool)
      return fieldError(occupancy, "slot '" + slot->name +
                                       "' is bound to unknown pool " +
                                       llvm::Twine(*slot->pool));
    if (triple.occupancy > pool->capacity)
      return fieldError(
          occupancy, llvm::Twine(triple.occupancy) + " exceeds the capacity " +
                         llvm::Twine(pool->capacity) + " of pool '" +
                         pool->name + "' that slot '" + slot->name +
                         "' is bound to");
  }

  std::string pools = pathKey(path, "pools");
  for (auto [i, request] : llvm::enumerate(cls.pools)) {
    std::string at = pathIndex(pools, i);
    const PoolInfo *pool = model.getPool(request.pool);
    if (!pool)
      return fieldError(pathKey(at, "pool"),
                        "unknown pool " + llvm::Twine(request.pool));
    for (size_t j = 0; j != i; ++j)
      if (cls.pools[j].pool == request.pool)
        return fieldError(pathKey(at, "pool"), "pool '" + pool->name +
                                                     "' already requested in " +
                                                     pathIndex("pools", j));
    if (request.amount == 0)
      return fieldError(pathKey(at, "amount"), "must be at least 1");
    // More than the capacity could never be placed at any II; say so here
    // rather than as an unexplained scheduling failure.
    if (request.amount > pool->capacity)
      return fieldError(pathKey(at, "amount"),
                        llvm::Twine(request.amount) + " exceeds the capacity " +
                            llvm::Twine(pool->capacity) + " of pool '" +
                            pool->name + "'");
  }
  return Error::success();
}

Error checkCaps(const GlobalCaps &caps, StringRef path) {
  const std::pair<StringRef, int64_t> fields[] = {
      {"smem_bytes", caps.smemBytes},
      {"tmem_columns", caps.tmemColumns},
      {"tmem_lanes", caps.tmemLanes},
      {"registers_per_sm", caps.registersPerSM}};
  for (auto [field, value] : fields)
    if (value < 0)
      return fieldError(pathKey(path, field), "must not be negative (got " +
                                                    llvm::Twine(value) + ")");
  if (caps.reservedNamedBarriers > caps.namedBarriers)
    return fieldError(pathKey(path, "reserved_named_barriers"),
                      llvm::Twine(caps.reservedNamedBarriers) +
                          " exceeds named_barriers (" +
                          llvm::Twine(caps.namedBarriers) + ")");
  return Error::success();
}

Error checkChip(const ChipInfo &chip, StringRef path) {
  const std::pair<StringRef, unsigned> fields[] = {
      {"sm_count", chip.smCount},
      {"clock_mhz", chip.clockMHz},
      {"default_l2_reuse", chip.defaultL2Reuse}};
  for (auto [field, value] : fields)
    if (value < 1)
      return fieldError(pathKey(path, field), "must be at least 1 (got " +
                                                    llvm::Twine(value) + ")");
  return Error::success();
}

} // namespace tilepipe::target::detail

using namespace tilepipe::target::detail;

Error TargetModel::validate() const {
  if (name.empty())
    return fieldError("name", "must not be empty");

  if (slots.size() > kNumSlotIds)
    return fieldError("slots", llvm::Twine(slots.size()) + " slots; at most " +
                                   llvm::Twine(kNumSlotIds) +
                                   " (one RRT bit per slot id)");
  llvm::StringMap<unsigned> slotNames;
  for (auto [i, slot] : llvm::enumerate(slots)) {
    std::string at = pathIndex("slots", i);
    if (slot.id != i + 1)
      return fieldError(pathKey(at, "id"),
                        "slot at position " + llvm::Twine(i) +
                            " must have id " + llvm::Twine(i + 1) + " (got " +
                            llvm::Twine(slot.id) +
                            "; slots are indexed by id - 1)");
    if (slot.name.empty())
      return fieldError(pathKey(at, "name"), "must not be empty");
    auto [it, fresh] = slotNames.try_emplace(slot.name, slot.id);
    if (!fresh)
      return fieldError(pathKey(at, "name"),
                        "duplicate slot name '" + slot.name + "' (also id " +
                            llvm::Twine(it->second) + ")");
    if (slot.pool && *slot.pool >= pools.size())
      return fieldError(pathKey(at, "pool"),
                        "unknown pool " + llvm::Twine(*slot.pool));
  }

  llvm::StringSet<> poolNames;
  for (auto [i, pool] : llvm::enumerate(pools)) {
    std::string at = pathIndex("pools", i);
    if (pool.index != i)
      return fieldError(pathKey(at, "index"),
                        "pool at position " + llvm::Twine(i) +
                            " must have index " + llvm::Twine(i) + " (got " +
                            llvm::Twine(pool.index) + ")");
    if (pool.name.empty())
      return fieldError(pathKey(at, "name"), "must not be empty");
    if (!poolNames.insert(pool.name).second)
      return fieldError(pathKey(at, "name"),
                        "duplicate pool name '" + pool.name + "'");
    if (pool.capacity == 0)
      return fieldError(pathKey(at, "capacity"), "must be at least 1");
  }

  if (Error err = checkCaps(caps, "caps"))
    return err;
  if (Error err = checkChip(chip, "chip"))
    return err;

  llvm::StringSet<> classNames;
  for (const OpClassInfo &cls : opClasses) {
    std::string at = pathKey("op_classes", cls.name);
    if (!classNames.insert(cls.name).second)
      return fieldError(at, "duplicate op class name '" + cls.name + "'");
    if (Error err = checkOpClass(*this, cls, at))
      return err;
  }
  return Error::success();
}
