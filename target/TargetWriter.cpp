//===- TargetWriter.cpp - target files: TargetModel::toJSON ---------------===//
//
// Writes a model as the file the loader reads back to the same model
// (TargetJSONTest's round trip): every field, references by name.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "llvm/Support/JSON.h"

using namespace tilepipe::target;
namespace json = llvm::json;

namespace {

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
