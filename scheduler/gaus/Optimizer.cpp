//===- Optimizer.cpp - GauS: augmented Lagrangian, Adam, anytime ----------===//

#include "scheduler/gaus/Optimizer.h"
#include "scheduler/gaus/Legalize.h"
#include "scheduler/gaus/Parallel.h"
#include "scheduler/gaus/Relaxation.h"
#include "support/SplitMix64.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace tilepipe::gaus;

namespace {

struct Adam {
  std::vector<double> m, v;
  unsigned t = 0;
  void reset(size_t n) {
    m.assign(n, 0.0);
    v.assign(n, 0.0);
    t = 0;
  }
};

/// One Adam step on `x` with gradient `g`; entries with frozen[i] stay.
void adamStep(Adam &state, std::vector<double> &x, const std::vector<double> &g,
              double lr, const std::vector<double> *scale,
              const std::vector<char> &frozen) {
  constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  ++state.t;
  double c1 = 1 - std::pow(b1, state.t), c2 = 1 - std::pow(b2, state.t);
  size_t n = x.size();
  parallelFor(n, 64, n >= kParallelWork, [&](size_t begin, size_t end) {
    for (size_t i = size_t(begin); i < end; ++i) {
      if (frozen[i])
        continue;
      state.m[i] = b1 * state.m[i] + (1 - b1) * g[i];
      state.v[i] = b2 * state.v[i] + (1 - b2) * g[i] * g[i];
      double rate = scale ? lr * (*scale)[i] : lr;
      x[i] -= rate * (state.m[i] / c1) / (std::sqrt(state.v[i] / c2) + eps);
    }
  });
}

Steps roundMeans(const std::vector<double> &mu, const Frames &frames) {
  Steps steps(mu.size());
  for (size_t i = 0; i < mu.size(); ++i)
    steps[i] = std::clamp<int64_t>(int64_t(std::floor(mu[i] + 0.5)),
                                   frames.asap[i], frames.alap[i]);
  return steps;
}

/// One run of GauS: the relaxation, the parameters (a mean and a log-sigma
/// per op), the augmented Lagrangian's multipliers and the incumbent. The
/// steps (run()): initial parameters, the first incumbents, then outer
/// iterations of Adam steps, a multiplier update, rounding and sampling,
/// and an optional reseed at the incumbent.
class GausRun {
public:
  GausRun(const Instance &instance, const Frames &frames,
          const GausOptions &options)
      : instance(instance), frames(frames), options(options),
        n(instance.nodes.size()), start(std::chrono::steady_clock::now()),
        windows(frames), rng(0x9e3779b97f4a7c15ull) {}

  GausResult run();

private:
  void chooseRelaxation();
  void initParameters();
  const Frames &initialFrames(std::optional<Frames> &levelFrames) const;
  void considerStartingPoints(const Frames &initFrames);
  void consider(const Steps &wanted, unsigned at);
  Steps sample(const std::vector<double> &F);
  bool outOfTime() const {
    return options.timeLimitMs && elapsedMs() > double(options.timeLimitMs);
  }
  TermValues adamSteps();
  void updateMultipliers(const TermValues &terms);
  void considerRoundings(unsigned outer);
  void reseedAtIncumbent(unsigned outer);
  void resetSigma(double sigma);
  double elapsedMs() const {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
        .count();
  }

  const Instance &instance;
  const Frames &frames;
  const GausOptions &options;
  const unsigned n;
  const std::chrono::steady_clock::time_point start;
  GausResult result;
  std::unique_ptr<Relaxation> relaxation;
  // Parameters. Frozen: one-step frames, nothing to learn.
  std::vector<double> mu, logSigma, sigmaCap;
  std::vector<char> frozen;
  std::vector<double> lrScale;
  double sigmaFloor = 1e-3;
  Windows windows;
  /// Samples drawn from the step distributions, the same with every
  /// standard library.
  tilepipe::SplitMix64 rng;
  // The augmented Lagrangian.
  std::vector<double> gMu, gLs;
  double fScale = 1.0;
  bool modulo = false;
  double lamDep = 0, lamMres = 0, rho = 0;
  double lastViolation = 0;
  Adam adamMu, adamLs;
};

} // namespace

GausResult GausRun::run() {
  chooseRelaxation();
  initParameters();
  TermValues first = relaxation->forward(mu, logSigma);
  fScale = 1.0 / std::max(std::abs(first.f), 1e-9);
  modulo = instance.formulation == Formulation::C;
  rho = options.rho0;
  lastViolation = first.dep + first.mres;
  adamMu.reset(n);
  adamLs.reset(n);
  for (unsigned outer = 1; outer <= options.outerIterations; ++outer) {
    if (outOfTime()) {
      result.exhausted = true;
      break;
    }
    if (options.patience && result.best &&
        outer > result.bestAt + options.patience)
      break; // Converged: no better schedule for `patience` iterations.
    TermValues terms = adamSteps();
    result.lastTerms = terms;
    result.outerIterations = outer;
    updateMultipliers(terms);
    considerRoundings(outer);
    reseedAtIncumbent(outer);
  }
  result.rounded = roundMeans(mu, frames);
  result.seconds = elapsedMs() / 1000.0;
  return std::move(result);
}

void GausRun::chooseRelaxation() {
  if (options.cuda)
    relaxation = makeCudaRelaxation(instance, frames, options.terms);
  result.ranOnCuda = relaxation != nullptr;
  if (!relaxation)
    relaxation = makeCpuRelaxation(instance, frames, options.terms);
}

/// Means, sigmas and their caps, the per-op learning-rate scale, and the
/// first incumbents.
void GausRun::initParameters() {
  mu.assign(n, 0);
  logSigma.assign(n, 0);
  sigmaCap.assign(n, 0);
  frozen.assign(n, 0);
  // A mean crosses a wide frame in as many Adam steps as a narrow one:
  // Adam's step is lr whatever the gradient's scale, so it grows with the
  // frame (options.lrFrameScale).
  lrScale.assign(n, 1.0);
  for (unsigned i = 0; i < n; ++i)
    lrScale[i] = std::max(
        1.0, options.lrFrameScale *
                 std::sqrt(double(frames.alap[i] - frames.asap[i] + 1)));
  sigmaFloor = options.sigmaFloor ? options.sigmaMin : 1e-3;
  std::optional<Frames> levelFrames;
  const Frames &initFrames = initialFrames(levelFrames);
  for (unsigned i = 0; i < n; ++i) {
    double width = double(frames.alap[i] - frames.asap[i]);
    double initWidth = double(initFrames.alap[i] - initFrames.asap[i]);
    frozen[i] = width == 0;
    // A sigma far past the frame only flattens the truncated bins, and
    // keeps the normaliser Z away from cancellation.
    sigmaCap[i] = std::max(1.0, width + 1);
    mu[i] = options.init
                ? double((*options.init)[i])
                : 0.5 * double(initFrames.asap[i] + initFrames.alap[i]);
    logSigma[i] = std::log(std::clamp(
        std::max(options.kappa * initWidth, sigmaFloor), 1e-3, sigmaCap[i]));
  }
  considerStartingPoints(initFrames);
}

/// Where every dependence is non-strict (formulation A), every frame is the
/// whole depth and (ASAP + ALAP) / 2 puts every op in the middle step: a
/// symmetric point the gradient cannot leave (all ops alike, the peak term
/// balanced). The means start instead from the frames the same graph has
/// with unit latencies (its levels, into `levelFrames`), which fit the
/// depth when it is the longest path in nodes, as it is by default.
const Frames &GausRun::initialFrames(std::optional<Frames> &levelFrames) const {
  if (options.init || instance.edges.empty() ||
      !llvm::all_of(instance.edges, [](const Edge &e) {
        return e.latency == 0 && e.distance == 0;
      }))
    return frames;
  Instance levels = instance;
  for (Edge &e : levels.edges)
    e.latency = 1;
  std::string reason;
  levelFrames = computeFrames(levels, reason);
  return levelFrames ? *levelFrames : frames;
}

/// The rounded initial means; with level frames, also the frames' own
/// midpoint (every op in the middle step), a legal schedule too and on
/// unit-weight graphs with heavy communication often the better start: it
/// competes as an incumbent.
void GausRun::considerStartingPoints(const Frames &initFrames) {
  consider(roundMeans(mu, frames), 0);
  if (&initFrames == &frames)
    return;
  std::vector<double> middle(n);
  for (unsigned i = 0; i < n; ++i)
    middle[i] = 0.5 * double(frames.asap[i] + frames.alap[i]);
  consider(roundMeans(middle, frames), 0);
}

/// Legalizes `wanted`; the result replaces the incumbent when it is legal
/// and better.
void GausRun::consider(const Steps &wanted, unsigned at) {
  std::optional<Steps> legal = legalize(instance, frames, wanted);
  if (!legal)
    return;
  ++result.legalRounds;
  Evaluation eval = evaluate(instance, *legal);
  if (!eval.legal)
    return;
  if (!result.best || eval.objective < result.evaluation.objective) {
    result.best = std::move(legal);
    result.evaluation = eval;
    result.bestAt = at;
  }
}

/// A step per op drawn from the CDFs `F`.
Steps GausRun::sample(const std::vector<double> &F) {
  Steps steps(n);
  for (unsigned i = 0; i < n; ++i) {
    const double *f = F.data() + windows.offset[i];
    size_t width = windows.width(i);
    double u = rng.unit();
    size_t k = std::lower_bound(f, f + width, u) - f;
    steps[i] = windows.lo[i] + int64_t(std::min(k, width - 1));
  }
  return steps;
}

/// The inner steps of one outer iteration; the relaxation's terms at the
/// last.
TermValues GausRun::adamSteps() {
  TermValues terms;
  for (unsigned step = 0; step < options.innerSteps; ++step) {
    // Also checked per step: one outer iteration on a large instance can
    // take a second.
    if (step > 0 && outOfTime()) {
      result.exhausted = true;
      break;
    }
    terms = relaxation->forward(mu, logSigma);
    double cDep = lamDep + rho * terms.dep;
    double cMres = modulo ? lamMres + rho * terms.mres : 0;
    relaxation->backward(fScale, cDep, cMres, gMu, gLs);
    adamStep(adamMu, mu, gMu, options.lrMu, &lrScale, frozen);
    adamStep(adamLs, logSigma, gLs, options.lrLogSigma, nullptr, frozen);
    // Keep each mean within half a step of its frame and sigma within
    // [floor, cap]: outside, the truncated mass is all at one edge and the
    // gradient vanishes.
    for (unsigned i = 0; i < n; ++i) {
      mu[i] = std::clamp(mu[i], double(frames.asap[i]) - 0.5,
                         double(frames.alap[i]) + 0.5);
      logSigma[i] =
          std::clamp(logSigma[i], std::log(sigmaFloor), std::log(sigmaCap[i]));
    }
    ++result.adamSteps;
  }
  return terms;
}

/// The expected peak is lowest with every distribution spread out (a max of
/// expectations, not an expected max), so sigma would not shrink on its
/// own; its cap decays towards the floor instead, which hardens the
/// schedule the rounding reads. Then the multiplier update; rho grows while
/// the violation falls slowly.
void GausRun::updateMultipliers(const TermValues &terms) {
  if (options.sigmaDecay < 1)
    for (unsigned i = 0; i < n; ++i)
      sigmaCap[i] = std::max(sigmaFloor, sigmaCap[i] * options.sigmaDecay);
  lamDep += rho * terms.dep;
  if (modulo)
    lamMres += rho * terms.mres;
  double violation = terms.dep + terms.mres;
  if (violation > 0.25 * lastViolation)
    rho = std::min(rho * options.rhoGrowth, options.rhoMax);
  lastViolation = violation;
}

/// The rounded means and `options.samples` samples compete as incumbents.
void GausRun::considerRoundings(unsigned outer) {
  consider(roundMeans(mu, frames), outer);
  if (!options.samples)
    return;
  std::vector<double> F = relaxation->cdfs();
  for (unsigned k = 0; k < options.samples; ++k)
    consider(sample(F), outer);
}

/// Every `reseedEvery` outer iterations the means restart at the
/// incumbent, with fresh sigmas and Adam state.
void GausRun::reseedAtIncumbent(unsigned outer) {
  if (!options.reseedEvery || outer % options.reseedEvery != 0 || !result.best)
    return;
  for (unsigned i = 0; i < n; ++i)
    mu[i] = double((*result.best)[i]);
  for (unsigned i = 0; i < n; ++i)
    sigmaCap[i] = std::max(1.0, double(frames.alap[i] - frames.asap[i]) + 1);
  resetSigma(options.sigmaReset);
  adamMu.reset(n);
  adamLs.reset(n);
}

void GausRun::resetSigma(double sigma) {
  for (unsigned i = 0; i < n; ++i)
    logSigma[i] = std::log(std::clamp(sigma, 1e-3, sigmaCap[i]));
}

GausResult tilepipe::gaus::runGaus(const Instance &instance,
                                   const Frames &frames,
                                   const GausOptions &options) {
  return GausRun(instance, frames, options).run();
}
