//===- RRT.h - the resource reservation table ------------------*- C++ -*-===//
//
// One row per cycle modulo II: a bitset of singleton resources plus a counter
// per pool. Probe never mutates; commit and release are exact inverses, so a
// caller probes, then commits only what the probe accepted.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RRT_RRT_H
#define TILEPIPE_RRT_RRT_H

#include "rrt/Resources.h"

#include <optional>

namespace tilepipe::rrt {

/// Why a probe refused: the first conflicting row, in footprint order.
struct Conflict {
  enum class Kind : uint8_t { Bit, Pool, Self };
  Kind kind = Kind::Bit;
  unsigned row = 0;       ///< Modulo cycle (start + offset) % II.
  unsigned offset = 0;    ///< Footprint cycle that collided.
  unsigned resource = 0;  ///< Bit index or pool index.
  unsigned requested = 0; ///< Pool units requested in that row.
  unsigned used = 0;      ///< Pool units already held in that row.
  unsigned capacity = 0;
  /// Whether `resource` indexes bits or pools; for Kind::Self it says which
  /// kind of resource the op collides with itself on.
  Use::Kind resourceKind = Use::Kind::Bit;
};

class RRT {
public:
  RRT(const ResourceLayout &layout, unsigned ii);

  /// Clears every row and resizes the table for a new candidate II.
  void reset(unsigned ii);
  unsigned getII() const { return ii; }
  const ResourceLayout &getLayout() const { return *layout; }

  /// True when `fp` (folded at this II) fits with its start at `start`.
  bool probe(const FoldedFootprint &fp, int64_t start) const {
    return !findConflict(fp, start);
  }
  std::optional<Conflict> findConflict(const FoldedFootprint &fp,
                                       int64_t start) const;
  void commit(const FoldedFootprint &fp, int64_t start);
  void release(const FoldedFootprint &fp, int64_t start);

  const uint64_t *rowBits(unsigned row) const {
    return bits.data() + size_t(row) * words;
  }
  bool testBit(unsigned row, unsigned bit) const {
    return (rowBits(row)[bit / 64] >> (bit % 64)) & 1;
  }
  unsigned poolUsage(unsigned row, unsigned pool) const {
    return usage[size_t(row) * numPools + pool];
  }

private:
  unsigned rowOf(int64_t start, unsigned k) const;

  const ResourceLayout *layout;
  unsigned ii = 0;
  unsigned words = 0;
  unsigned numPools = 0;
  std::vector<uint64_t> bits;
  std::vector<unsigned> usage;
  /// Per pool, the most units a row may hold: the cap, or UINT64_MAX for a
  /// non-binding pool, so the probe needs no branch on poolBinding.
  std::vector<uint64_t> limits;
};

} // namespace tilepipe::rrt

#endif // TILEPIPE_RRT_RRT_H
