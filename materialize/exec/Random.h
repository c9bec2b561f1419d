//===- Random.h - the checker's own PRNG ------------------------*- C++ -*-===//
//
// splitmix64: tiny, fast and fully specified, so a seed replays the same
// interleaving on every platform and standard library (std:: distributions
// are implementation-defined, so they are never used).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_MATERIALIZE_EXEC_RANDOM_H
#define TILEPIPE_MATERIALIZE_EXEC_RANDOM_H

#include <cstdint>

namespace tilepipe::exec {

/// One splitmix64 finalizer round; also the mixing step of term hashes.
inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class Random {
public:
  explicit Random(uint64_t seed) : state(mix64(seed ^ 0x5eed5eed5eed5eedull)) {}

  uint64_t next() {
    state += 0x9e3779b97f4a7c15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  /// A value in [0, bound); bound 0 gives 0. The modulo bias is irrelevant
  /// for picking among a handful of threads.
  uint64_t below(uint64_t bound) { return bound ? next() % bound : 0; }

private:
  uint64_t state;
};

} // namespace tilepipe::exec

#endif // TILEPIPE_MATERIALIZE_EXEC_RANDOM_H
