//===- emulator/launcher.h - running a kernel on the CPU --------*- C++ -*-===//
//
// launch() runs a kernel body for every thread of every CTA of a grid. The
// CTAs are independent (no clusters) and run one after another, each with
// fresh shared memory (poisoned with 0xFF bytes, so an uninitialised read of
// a float is a NaN), fresh TMEM and fresh barriers. The threads of a CTA run
// interleaved as the seed decides; the first CTA that faults, deadlocks or
// exceeds the step bound ends the launch with a report.
//
//   tp::cpu::LaunchResult r = tp::cpu::launch(grid, block, smemBytes,
//       tp::cpu::options_from_env(), [&] { my_kernel(args...); });
//   if (!r.ok) std::fputs(r.report.c_str(), stderr);
//
// The body is called concurrently (interleaved) by all threads of a CTA:
// it must not keep per-call state in the callable itself.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_LAUNCHER_H
#define TILEPIPE_EMULATOR_LAUNCHER_H

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tilepipe/emulator/async.h"
#include "tilepipe/emulator/barrier.h"
#include "tilepipe/emulator/builtins.h"
#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/exit_checks.h"
#include "tilepipe/emulator/mbarrier_model.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/policy.h"
#include "tilepipe/emulator/report.h"
#include "tilepipe/emulator/tcgen05.h"
#include "tilepipe/emulator/warp.h"

namespace tp::cpu {

struct LaunchOptions {
  uint64_t seed = 1;
  Policy policy = Policy::Adversarial;
  /// Scheduling steps (thread resumptions and async completions) a CTA may
  /// take; a livelocked kernel ends with a report instead of spinning.
  uint64_t maxSteps = 20'000'000;
  /// Stack of each emulated thread (plus a guard page).
  size_t stackBytes = 256 * 1024;
};

struct LaunchResult {
  bool ok = true;
  std::string report; // empty when ok
};

TP_EMU_OUTLINE Policy parsePolicy(const char *s);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE Policy parsePolicy(const char *s) {
  static const Policy all[] = {Policy::Adversarial, Policy::Eager, Policy::Lazy,
                               Policy::Random};
  for (Policy p : all)
    if (std::strcmp(s, policyName(p)) == 0 ||
        std::strcmp(s, std::to_string(int(p)).c_str()) == 0)
      return p;
  throw std::invalid_argument(
      std::string("tp::cpu: TP_CPU_POLICY=") + s +
      " is none of adversarial, eager, lazy, random (or 0..3)");
}
#endif // !TILEPIPE_EMULATOR_EXTERN

/// `base` with what the environment overrides: TP_CPU_SEED (a number),
/// TP_CPU_POLICY (adversarial|eager|lazy|random or 0..3) and
/// TP_CPU_MAX_STEPS.
inline LaunchOptions options_from_env(LaunchOptions base = {}) {
  if (const char *s = std::getenv("TP_CPU_SEED"); s && *s)
    base.seed = std::strtoull(s, nullptr, 0);
  if (const char *s = std::getenv("TP_CPU_POLICY"); s && *s)
    base.policy = parsePolicy(s);
  if (const char *s = std::getenv("TP_CPU_MAX_STEPS"); s && *s)
    base.maxSteps = std::strtoull(s, nullptr, 0);
  return base;
}

TP_EMU_OUTLINE LaunchResult launch(dim3 grid, dim3 block, size_t dynamicSmem,
                           const LaunchOptions &options,
                           std::function<void()> kernelBody)
#if !defined(TILEPIPE_EMULATOR_EXTERN)
{
  LaunchResult result;
  auto refuse = [&](const std::string &why) {
    result.ok = false;
    result.report = "tilepipe cpu emulator: launch refused: " + why;
    return result;
  };
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (rt::tCurrent)
    return refuse("launch() was called from inside an emulated kernel");
  if (threads == 0 || threads > 1024)
    return refuse("a CTA has " + std::to_string(threads) +
                  " threads; CUDA allows 1..1024");
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return refuse("the grid is empty");
  if (dynamicSmem > kMaxDynamicSmem)
    return refuse(std::to_string(dynamicSmem) +
                  " bytes of dynamic shared memory; sm_100 allows at most " +
                  std::to_string(kMaxDynamicSmem));
  if (!kernelBody)
    return refuse("no kernel body");

  std::vector<std::unique_ptr<rt::FiberStack>> stacks;
  for (uint64_t i = 0; i < threads; ++i)
    stacks.push_back(std::make_unique<rt::FiberStack>(options.stackBytes));
  uint64_t linear = 0;
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x, ++linear) {
        rt::CtaSetup s;
        s.ctaIdx = uint3{x, y, z};
        s.grid = grid;
        s.block = block;
        s.smemBytes = uint32_t(dynamicSmem);
        s.launchSeed = options.seed;
        s.seed = rt::Rng(options.seed * 0x9E3779B97F4A7C15ull + linear).next();
        s.policy = options.policy;
        s.maxSteps = options.maxSteps;
        s.body = &kernelBody;
        s.stacks = &stacks;
        auto cta = std::make_unique<rt::Cta>(s);
        cta->run();
        if (cta->outcome != rt::Outcome::Finished) {
          result.ok = false;
          result.report = cta->report;
          return result;
        }
      }
  return result;
}
#else
;
#endif

/// launch() with options_from_env().
inline LaunchResult launch(dim3 grid, dim3 block, size_t dynamicSmem,
                           std::function<void()> kernelBody) {
  return launch(grid, block, dynamicSmem, options_from_env(),
                std::move(kernelBody));
}

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_LAUNCHER_H
