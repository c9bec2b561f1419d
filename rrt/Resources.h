//===- Resources.h - resource layout and per-op footprints -----*- C++ -*-===//
//
// The RRT knows two kinds of resource: singleton bits (one holder per modulo
// cycle, the Blackwell slot ids) and counted pools (a per-cycle capacity).
// A Footprint is what one op holds, cycle by cycle, relative to its start.
// A FoldedFootprint is that footprint wrapped modulo a candidate II; folding
// is how footprints longer than II land on themselves.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RRT_RESOURCES_H
#define TILEPIPE_RRT_RESOURCES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilepipe::rrt {

/// The resources one RRT row holds.
struct ResourceLayout {
  std::vector<std::string> bitNames;  ///< Singleton resources (RRT bits).
  std::vector<std::string> poolNames; ///< Counted resources.
  std::vector<unsigned> poolCaps;     ///< Per-cycle capacity of each pool.
  std::vector<bool> poolBinding;      ///< false: kept, never refuses.

  unsigned numBits() const { return bitNames.size(); }
  unsigned numPools() const { return poolNames.size(); }
  unsigned numWords() const { return (numBits() + 63) / 64; }
  unsigned addBit(std::string name);
  unsigned addPool(std::string name, unsigned cap, bool binding = true);
};

/// One resource claim of an op, relative to its start cycle.
struct Use {
  enum class Kind : uint8_t { Bit, Pool };
  Kind kind = Kind::Bit;
  unsigned index = 0;    ///< Bit index or pool index.
  unsigned duration = 1; ///< Cycles held, from `offset`.
  unsigned amount = 1;   ///< Pool units per cycle (1 for bits).
  unsigned offset = 0;   ///< First cycle held, relative to the start.

  static Use bit(unsigned index, unsigned duration, unsigned offset = 0) {
    return {Kind::Bit, index, duration, 1, offset};
  }
  static Use pool(unsigned index, unsigned duration, unsigned amount,
                  unsigned offset = 0) {
    return {Kind::Pool, index, duration, amount, offset};
  }
};

/// A pool claim in one row: `amount` units of pool `pool`.
struct PoolClaim {
  unsigned pool;
  unsigned amount;
};

/// An op's footprint wrapped modulo one II: at most II rows.
struct FoldedFootprint {
  unsigned ii = 0;
  unsigned numRows = 0; ///< min(length, ii).
  unsigned numWords = 0;
  // Inline room for the few rows of a short footprint: a million-op loop
  // folds a million of them per candidate II.
  llvm::SmallVector<uint64_t, 4> bits; ///< numRows * numWords.
  llvm::SmallVector<unsigned, 5>
      claimBegin; ///< numRows + 1 offsets into claims.
  llvm::SmallVector<PoolClaim, 4> claims;
  /// Set when the op collides with itself after folding (a bit held twice
  /// in one modulo row, or a pool request over capacity in one row).
  bool selfConflict = false;
  /// Where the first self-collision was found (meaningful only when
  /// selfConflict is set), so a refused probe can name the resource.
  Use::Kind selfKind = Use::Kind::Bit;
  unsigned selfRow = 0;      ///< Folded row of the collision.
  unsigned selfResource = 0; ///< Bit or pool index.
  uint64_t selfDemand = 0;   ///< Pool units the op claims in that row.
  bool empty() const { return numRows == 0; }
  const uint64_t *rowBits(unsigned row) const {
    return bits.data() + size_t(row) * numWords;
  }
  llvm::ArrayRef<PoolClaim> rowClaims(unsigned row) const {
    return llvm::ArrayRef<PoolClaim>(claims).slice(
        claimBegin[row], claimBegin[row + 1] - claimBegin[row]);
  }
};

/// What one op holds, cycle by cycle, relative to its start.
class Footprint {
public:
  Footprint() = default;
  Footprint(const ResourceLayout &layout, llvm::ArrayRef<Use> uses);

  llvm::ArrayRef<Use> getUses() const { return uses; }
  /// Cycles from the start to the end of the last claim (0: holds nothing).
  unsigned length() const { return len; }
  bool empty() const { return uses.empty(); }

  /// Total bit-cycles on bit `b` and unit-cycles on pool `p`.
  uint64_t bitDemand(unsigned b) const;
  uint64_t poolDemand(unsigned p) const;

  /// Wraps the footprint modulo `ii` against `layout`'s capacities.
  FoldedFootprint fold(const ResourceLayout &layout, unsigned ii) const;

private:
  llvm::SmallVector<Use, 2> uses;
  unsigned len = 0;
};

} // namespace tilepipe::rrt

#endif // TILEPIPE_RRT_RESOURCES_H
