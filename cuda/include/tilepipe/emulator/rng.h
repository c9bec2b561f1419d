//===- emulator/rng.h - the seeded scheduling choices -----------*- C++ -*-===//
//
// One generator per CTA drives thread choice, yields, completion times and
// elected lanes, so that a seed replays a run exactly. SplitMix64: small,
// fast, and good enough for picking among a few hundred threads.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_RNG_H
#define TILEPIPE_EMULATOR_RNG_H

#include <cstdint>

namespace tp::cpu::rt {

/// SplitMix64's output function: a well-mixed 64-bit hash of x.
inline uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

class Rng {
public:
  explicit Rng(uint64_t seed = 0) : state(seed) {}

  uint64_t next() { return mix64(state += 0x9E3779B97F4A7C15ull); }

  /// Uniform in [0, n); n > 0. The modulo bias is irrelevant at these n.
  uint32_t below(uint32_t n) { return uint32_t(next() % n); }

  /// True with probability percent / 100.
  bool chance(uint32_t percent) { return percent && below(100) < percent; }

private:
  uint64_t state;
};

} // namespace tp::cpu::rt

#endif // TILEPIPE_EMULATOR_RNG_H
