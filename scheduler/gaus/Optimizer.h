//===- Optimizer.h - GauS: augmented Lagrangian, Adam, anytime --*- C++ -*-===//
//
// Seed 000's loop: means from (ASAP + ALAP) / 2 (or a given schedule),
// sigma proportional to the frame with a floor; per outer iteration K Adam
// steps on (mu, log sigma) of L = f / f0 + sum_c lambda_c g_c + rho/2 g_c^2,
// then the multiplier update, then round the means, legalise, and keep the
// best legal schedule by the exact objective (anytime). Every few outer
// iterations the means restart from the best legal schedule with sigma
// reset (the paper's re-seeding). The iteration counts decide the result;
// the time limit only stops early, and says so.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_OPTIMIZER_H
#define TILEPIPE_SCHEDULER_GAUS_OPTIMIZER_H

#include "scheduler/gaus/Expected.h"
#include "scheduler/gaus/Objective.h"
#include "scheduler/gaus/Parallel.h"

namespace tilepipe::gaus {

struct GausOptions {
  TermOptions terms;
  unsigned outerIterations = 30;
  unsigned innerSteps = 40;
  double lrMu = 0.2, lrLogSigma = 0.05;
  /// Each mean's step size is lrMu * max(1, lrFrameScale * sqrt(frame
  /// width)) (0: lrMu everywhere).
  double lrFrameScale = 0.5;
  /// sigma_i = max(kappa * (ALAP - ASAP), sigmaMin), at most the frame.
  double kappa = 0.25;
  double sigmaMin = 0.5;
  bool sigmaFloor = true;
  /// Per outer iteration, sigma's cap shrinks by this factor towards the
  /// floor (1: no decay); a re-seed restores it.
  double sigmaDecay = 0.8;
  double rho0 = 10, rhoGrowth = 2, rhoMax = 1e6;
  /// Re-seed from the best legal schedule every this many outer iterations
  /// (0: never), with sigma reset to sigmaReset.
  unsigned reseedEvery = 6;
  double sigmaReset = 1.0;
  /// Schedules drawn from the step distributions after each outer
  /// iteration, each legalised and judged beside the rounded means.
  unsigned samples = 4;
  /// Stop after this many outer iterations without a better legal
  /// schedule (0: run them all).
  unsigned patience = 12;
  /// Wall-clock cap in ms (0: none).
  uint64_t timeLimitMs = 0;
  /// Initial means instead of (ASAP + ALAP) / 2.
  std::optional<Steps> init;
  /// Run the relaxation on the GPU (Relaxation.h); the caller checks
  /// cudaAvailable() first, runGaus falls back to the CPU otherwise.
  bool cuda = false;
};

struct GausResult {
  std::optional<Steps> best;
  Evaluation evaluation; ///< Of `best`.
  /// The means at the end, rounded into the frames (not necessarily legal).
  Steps rounded;
  TermValues lastTerms; ///< The relaxation at the last step.
  unsigned outerIterations = 0, adamSteps = 0;
  unsigned legalRounds = 0; ///< Roundings the legaliser accepted.
  /// Outer iteration at which `best` was found (0: the initial rounding).
  unsigned bestAt = 0;
  double seconds = 0;
  bool exhausted = false; ///< The time limit stopped it.
  bool ranOnCuda = false;
};

GausResult runGaus(const Instance &instance, const Frames &frames,
                   const GausOptions &options);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_OPTIMIZER_H
