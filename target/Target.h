//===- Target.h - Blackwell-style resource model ---------------*- C++ -*-===//
//
// The machine description the scheduler reads: the slot table (24 ids, RRT
// bit = id - 1), the per-modulo-cycle capacity pools, the whole-schedule
// (tier-2) caps, and per op class a latency and an RRT footprint. Everything
// is data: the built-in sm_100a and a JSON target file load into the same
// structure (TargetReader.cpp), so nothing downstream switches on op names.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TARGET_TARGET_H
#define TILEPIPE_TARGET_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilepipe::target {

enum class SlotKind : uint8_t { Coarse, Fine, Test };

llvm::StringRef stringifySlotKind(SlotKind kind);
std::optional<SlotKind> symbolizeSlotKind(llvm::StringRef name);

/// One RRT slot. A slot bound to a pool is counted against that pool's
/// per-cycle capacity; an unbound slot is a singleton bit (one holder per
/// modulo cycle).
struct SlotInfo {
  unsigned id = 0; ///< One-based; the RRT bit is id - 1.
  std::string name;
  SlotKind kind = SlotKind::Fine;
  bool primary = false; ///< One of the 15 primary fine slots.
  std::optional<unsigned> pool;
  std::string meaning;
};

/// One per-modulo-cycle capacity pool.
struct PoolInfo {
  unsigned index = 0;
  std::string name;
  unsigned capacity = 1;
  /// Pools whose role is a table width (0 and 3 on sm_100a) are kept for
  /// fidelity but never refuse a placement.
  bool binding = true;
  std::string role;
};

/// What an op does, in the units the target's formulas consume. Reported by
/// the IR through TileAS_SchedulableOpInterface.
struct OpWork {
  int64_t bytes = 0;    ///< Bytes moved (loads, stores, copies).
  int64_t flops = 0;    ///< Floating-point operations (MMA: 2*M*N*K).
  int64_t elements = 0; ///< Elements touched (elementwise SIMT ops).
  /// Where a load's bytes come from (tileas.tma_load's l2_reuse and
  /// multicast; 0 = not stated). `multicast` CTAs of a cluster share one
  /// fetch, so this CTA fetches bytes / multicast of them; of the fetched
  /// bytes, 1 / l2Reuse come from HBM and the rest hit in L2 (l2Reuse CTAs
  /// or clusters read the same tile while it is resident). TargetModel::
  /// resolve() replaces an unstated l2Reuse by the target's default.
  int64_t l2Reuse = 0;
  int64_t multicast = 0;

  /// ceil(bytes / multicast): what this CTA pulls through L2.
  int64_t fetchedBytes() const;
  /// ceil(fetchedBytes() / l2Reuse): what of it comes from HBM (an unstated
  /// l2Reuse counts as 1 here: everything from HBM).
  int64_t hbmBytes() const;
};

/// A cycle count as data: base + ceil(bytes / bytesPerCycle)
/// + ceil(flops / flopsPerCycle) + ceil(elements / elementsPerCycle), or, when
/// `bytesTable` is present, a piecewise-linear interpolation over
/// (bytes, cycles) points plus base. Rates of 0 mean "not used".
///
/// The table takes the place of the bytes term (the two are exclusive; the
/// flops and elements terms still add). Interpolated values round up. Below
/// the first point the table clamps to the first point's cycles, because a
/// smaller transfer is still dominated by the fixed overhead the smallest
/// measurement shows; beyond the last point it extends the last segment's
/// slope, because large transfers grow at the bandwidth rate. Negative work
/// counts as zero. evaluate() never returns less than 0.
struct Quantity {
  int64_t base = 0;
  int64_t bytesPerCycle = 0;
  int64_t flopsPerCycle = 0;
  int64_t elementsPerCycle = 0;
  /// ceil(OpWork::hbmBytes() / rate): bytes that come from HBM.
  int64_t hbmBytesPerCycle = 0;
  /// ceil(OpWork::fetchedBytes() / rate): bytes pulled from L2 to the SM.
  int64_t fetchedBytesPerCycle = 0;
  std::vector<std::pair<int64_t, int64_t>> bytesTable;

  static Quantity constant(int64_t cycles) {
    Quantity q;
    q.base = cycles;
    return q;
  }
  int64_t evaluate(const OpWork &work) const;
  bool isConstant() const {
    return !bytesPerCycle && !flopsPerCycle && !elementsPerCycle &&
           !hbmBytesPerCycle && !fetchedBytesPerCycle && bytesTable.empty();
  }
  /// Writes the formula, e.g. "136 + flops/8192" (divisions round up).
  void print(llvm::raw_ostream &os) const;
};

bool operator==(const Quantity &a, const Quantity &b);
inline bool operator!=(const Quantity &a, const Quantity &b) {
  return !(a == b);
}

/// One (slot, duration, occupancy) triple of an op class's footprint.
struct FootprintTriple {
  unsigned slot = 0;
  Quantity duration;
  unsigned occupancy = 1;
};

struct PoolRequest {
  unsigned pool = 0;
  unsigned amount = 0;
};

bool operator==(const SlotInfo &a, const SlotInfo &b);
bool operator==(const PoolInfo &a, const PoolInfo &b);
bool operator==(const FootprintTriple &a, const FootprintTriple &b);
bool operator==(const PoolRequest &a, const PoolRequest &b);

/// Everything the scheduler knows about one op class.
struct OpClassInfo {
  std::string name;
  Quantity latency;
  /// Latency of a dependence whose consumer is an in-order accumulator of the
  /// same unit (UMMA -> UMMA on one TMEM accumulator): the in-order queue makes
  /// the issue interval, not the full latency, the binding distance.
  std::optional<Quantity> chainLatency;
  std::vector<FootprintTriple> footprint;
  std::vector<PoolRequest> pools;
  bool async = false; ///< Completes asynchronously (TMA, UMMA, cp.async).
  bool tma = false;
  bool mma = false;
  std::string source; ///< Where the numbers come from.
};

bool operator==(const OpClassInfo &a, const OpClassInfo &b);

/// A footprint triple with its duration evaluated for one op.
struct ResolvedTriple {
  unsigned slot = 0;
  unsigned duration = 1;
  unsigned occupancy = 1;
};

/// An op class evaluated for one op's work.
struct ResolvedOp {
  int64_t latency = 0;
  int64_t chainLatency = 0;
  std::vector<ResolvedTriple> triples;
  std::vector<PoolRequest> pools; ///< Held for the op's longest triple.

  /// Cycles the pool requests are held: the longest triple duration, and 1
  /// for an op without triples (a request is held for at least its issue
  /// cycle).
  unsigned poolHoldCycles() const {
    unsigned hold = 1;
    for (const ResolvedTriple &t : triples)
      hold = std::max(hold, t.duration);
    return hold;
  }
};

/// Whole-schedule caps (tier 2): hard limits on the materialized loop.
struct GlobalCaps {
  int64_t smemBytes = 232448;
  int64_t tmemColumns = 512;
  int64_t tmemLanes = 128;
  unsigned namedBarriers = 16;
  unsigned reservedNamedBarriers = 8; ///< Ids [0, reserved) are not handed out.
  int64_t registersPerSM = 65536;
};

bool operator==(const GlobalCaps &a, const GlobalCaps &b);

/// The chip around one SM: what turns cycles per iteration into a throughput
/// (`print-schedule`'s TFLOP/s) and the L2 reuse a load has when its IR does
/// not say. docs/target.md gives each number's source.
struct ChipInfo {
  unsigned smCount = 148;  ///< SMs that run the loop concurrently.
  unsigned clockMHz = 1965; ///< SM clock the cycle counts are measured at.
  /// l2_reuse of a load that does not state one (OpWork::l2Reuse).
  unsigned defaultL2Reuse = 4;
  std::string source;
};

bool operator==(const ChipInfo &a, const ChipInfo &b);

class TargetModel {
public:
  static constexpr unsigned kNumSlotIds = 24;

  /// The built-in Blackwell sm_100a description (SM100a.cpp).
  static const TargetModel &sm100a();
  /// The built-in Hopper sm_90a description: target/sm_90a.json, compiled in
  /// (SM90a.cpp).
  static const TargetModel &sm90a();
  /// The built-in model called `name` ("sm_100a", "sm_90a"), or null.
  static const TargetModel *builtin(llvm::StringRef name);
  static llvm::ArrayRef<llvm::StringLiteral> builtinNames();
  /// "sm_100a, sm_90a": for diagnostics that list the names.
  static std::string builtinNameList();

  /// Loads a JSON target file. Errors name the offending field as a JSON
  /// path, e.g. "op_classes.umma.footprint[1].slot: unknown slot 'tpmma'".
  static llvm::Expected<TargetModel> fromJSON(llvm::StringRef text,
                                              llvm::StringRef fileName);
  static llvm::Expected<TargetModel> fromFile(llvm::StringRef path);

  llvm::json::Value toJSON() const;
  /// Human-readable dump (`tilepipe target --dump`).
  void print(llvm::raw_ostream &os) const;

  /// Checks cross-references (slot ids, pool indices, duplicate names) and
  /// returns an error naming the field that is wrong.
  llvm::Error validate() const;

  const std::string &getName() const { return name; }
  llvm::ArrayRef<SlotInfo> getSlots() const { return slots; }
  llvm::ArrayRef<PoolInfo> getPools() const { return pools; }
  llvm::ArrayRef<OpClassInfo> getOpClasses() const { return opClasses; }
  const GlobalCaps &getCaps() const { return caps; }
  const ChipInfo &getChip() const { return chip; }

  const SlotInfo *getSlot(unsigned id) const;
  const SlotInfo *lookupSlot(llvm::StringRef name) const;
  const OpClassInfo *lookupOpClass(llvm::StringRef name) const;
  const PoolInfo *getPool(unsigned index) const;
  const PoolInfo *lookupPool(llvm::StringRef name) const;

  /// Evaluates an op class for one op's work (durations are at least 1).
  ResolvedOp resolve(const OpClassInfo &cls, const OpWork &work) const;

  // Builders (used by SM100a.cpp, the JSON loader and tests).
  std::string name;
  std::string description;
  std::vector<SlotInfo> slots; ///< Indexed by id - 1.
  std::vector<PoolInfo> pools; ///< Indexed by pool index.
  std::vector<OpClassInfo> opClasses;
  GlobalCaps caps;
  ChipInfo chip;

  /// Recomputes the name lookups; call after editing slots or opClasses.
  void rebuildIndex();

  /// Same data (op classes compared by name, whatever their order).
  bool operator==(const TargetModel &other) const;
  bool operator!=(const TargetModel &other) const { return !(*this == other); }

private:
  llvm::StringMap<unsigned> opClassIndex;
  llvm::StringMap<unsigned> slotIndex;
};

} // namespace tilepipe::target

#endif // TILEPIPE_TARGET_TARGET_H
