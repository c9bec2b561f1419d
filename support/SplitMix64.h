//===- SplitMix64.h - a random stream fixed by its seed --------*- C++ -*-===//
//
// splitmix64 (Steele, Lea and Flood, 2014), written out: sampled orders,
// generated recurrences and GauS's samples must not depend on the standard
// library, and the library engines' distributions are not specified
// exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SUPPORT_SPLITMIX64_H
#define TILEPIPE_SUPPORT_SPLITMIX64_H

#include <cstdint>

namespace tilepipe {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1), from the top 53 bits.
  double unit() { return double(next() >> 11) / double(uint64_t(1) << 53); }

private:
  uint64_t state;
};

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_SPLITMIX64_H
