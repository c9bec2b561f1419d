//===- TestUtil.h - helpers shared by the RRT unit tests --------*- C++ -*-===//
//
// A deliberately naive reservation table (counts per row and resource, no
// folding, no bit tricks) that the brute-force tests use as the reference the
// real RRT and the bounds are checked against, and a portable random source
// so fixed seeds give the same instances with every standard library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TEST_UNIT_RRT_TESTUTIL_H
#define TILEPIPE_TEST_UNIT_RRT_TESTUTIL_H

#include "rrt/Resources.h"

#include <cstdint>
#include <vector>

namespace tilepipe::rrt::test {

/// SplitMix64: tiny, portable, and good enough for instance generation.
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    return lo + int64_t(next() % uint64_t(hi - lo + 1));
  }
  bool chance(unsigned percent) { return next() % 100 < percent; }

private:
  uint64_t state;
};

/// Occupancy of every (row, resource), cycle by cycle from the raw uses.
class NaiveTable {
public:
  NaiveTable(const ResourceLayout &layout, unsigned ii)
      : layout(layout), ii(ii), bitCount(size_t(ii) * layout.numBits(), 0),
        poolCount(size_t(ii) * layout.numPools(), 0) {}

  static unsigned row(int64_t cycle, unsigned ii) {
    int64_t r = cycle % int64_t(ii);
    return unsigned(r < 0 ? r + ii : r);
  }

  void add(const Footprint &fp, int64_t start, int sign = 1) {
    for (const Use &u : fp.getUses())
      for (unsigned k = 0; k < u.duration; ++k) {
        unsigned r = row(start + u.offset + k, ii);
        if (u.kind == Use::Kind::Bit)
          bitCount[size_t(r) * layout.numBits() + u.index] += sign;
        else
          poolCount[size_t(r) * layout.numPools() + u.index] +=
              sign * int64_t(u.amount);
      }
  }

  /// Every bit held at most once per row, every binding pool within its cap.
  bool legal() const {
    for (unsigned r = 0; r < ii; ++r) {
      for (unsigned b = 0; b < layout.numBits(); ++b)
        if (bitCount[size_t(r) * layout.numBits() + b] > 1)
          return false;
      for (unsigned p = 0; p < layout.numPools(); ++p)
        if (layout.poolBinding[p] &&
            poolCount[size_t(r) * layout.numPools() + p] >
                int64_t(layout.poolCaps[p]))
          return false;
    }
    return true;
  }

  /// Whether adding `fp` at `start` keeps the table legal (table unchanged).
  bool fits(const Footprint &fp, int64_t start) {
    add(fp, start);
    bool ok = legal();
    add(fp, start, -1);
    return ok;
  }

  int64_t bits(unsigned r, unsigned b) const {
    return bitCount[size_t(r) * layout.numBits() + b];
  }
  int64_t pool(unsigned r, unsigned p) const {
    return poolCount[size_t(r) * layout.numPools() + p];
  }

private:
  const ResourceLayout &layout;
  unsigned ii;
  std::vector<int64_t> bitCount, poolCount;
};

} // namespace tilepipe::rrt::test

#endif // TILEPIPE_TEST_UNIT_RRT_TESTUTIL_H
