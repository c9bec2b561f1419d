//===- emulator/policy.h - how adversarially a run is scheduled -*- C++ -*-===//
//
// The knobs the seed turns: when asynchronous operations complete (at once,
// after a random delay, or only once every thread waits), how often an atom
// gives up the processor, how often the scheduler keeps running the same
// thread, and how often an mbarrier.try_wait of a phase not yet complete
// gives up at once with false instead of waiting (PTX allows a
// time-limited try_wait to return false before the phase completes).
//
// Every setting is fair: an operation that is not due yet still completes
// when no thread can run, so a kernel that only relies on what PTX promises
// always terminates.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_POLICY_H
#define TILEPIPE_EMULATOR_POLICY_H

#include <cstdint>

#include "tilepipe/emulator/rng.h"

namespace tp::cpu {

enum class Policy : int {
  Adversarial = 0, // the seed picks one of the others or a mixture
  Eager = 1,       // every async op completes right after its issue
  Lazy = 2,        // async ops complete only when every thread waits
  Random = 3       // each async op after a random delay
};

inline const char *policyName(Policy p) {
  switch (p) {
  case Policy::Adversarial:
    return "adversarial";
  case Policy::Eager:
    return "eager";
  case Policy::Lazy:
    return "lazy";
  case Policy::Random:
    return "random";
  }
  return "?";
}

} // namespace tp::cpu

namespace tp::cpu::rt {

struct Tuning {
  uint32_t eagerPct = 0;    // async ops completed right after issue
  uint32_t lazyPct = 0;     // async ops completed only when the CTA is idle
  uint32_t maxDelay = 64;   // otherwise due 1..maxDelay scheduling steps on
  uint32_t yieldPct = 0;    // atoms that yield although they need not
  uint32_t stickPct = 0;    // switches that resume the same thread again
  uint32_t spuriousPct = 0; // try_waits that give up instead of waiting
};

inline Tuning tuningFor(Policy policy, Rng &rng) {
  static constexpr uint32_t kDelays[] = {4, 32, 256, 2048};
  static constexpr uint32_t kYields[] = {0, 5, 20, 50};
  static constexpr uint32_t kSticks[] = {0, 50, 90};
  static constexpr uint32_t kSpurious[] = {0, 0, 10};
  Tuning t;
  t.maxDelay = kDelays[rng.below(4)];
  t.yieldPct = kYields[rng.below(4)];
  t.stickPct = kSticks[rng.below(3)];
  t.spuriousPct = kSpurious[rng.below(3)];
  switch (policy) {
  case Policy::Eager:
    t.eagerPct = 100;
    break;
  case Policy::Lazy:
    t.lazyPct = 100;
    break;
  case Policy::Random:
    break;
  case Policy::Adversarial: {
    static constexpr uint32_t kMix[][2] = {
        {100, 0}, {0, 100}, {30, 30}, {10, 70}, {0, 0}};
    uint32_t m = rng.below(5);
    t.eagerPct = kMix[m][0];
    t.lazyPct = kMix[m][1];
    break;
  }
  }
  return t;
}

} // namespace tp::cpu::rt

#endif // TILEPIPE_EMULATOR_POLICY_H
