//===- Optimizer.cpp - GauS: augmented Lagrangian, Adam, anytime ----------===//

#include "scheduler/gaus/Optimizer.h"
#include "scheduler/gaus/Gaussian.h"
#include "scheduler/gaus/Legalize.h"

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
              double lr, const std::vector<char> &frozen) {
  constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  ++state.t;
  double c1 = 1 - std::pow(b1, state.t), c2 = 1 - std::pow(b2, state.t);
  size_t n = x.size();
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    if (frozen[i])
      continue;
    state.m[i] = b1 * state.m[i] + (1 - b1) * g[i];
    state.v[i] = b2 * state.v[i] + (1 - b2) * g[i] * g[i];
    x[i] -= lr * (state.m[i] / c1) / (std::sqrt(state.v[i] / c2) + eps);
  }
}

Steps roundMeans(const std::vector<double> &mu, const Frames &frames) {
  Steps steps(mu.size());
  for (size_t i = 0; i < mu.size(); ++i)
    steps[i] = std::clamp<int64_t>(int64_t(std::floor(mu[i] + 0.5)),
                                   frames.asap[i], frames.alap[i]);
  return steps;
}

} // namespace

GausResult tilepipe::gaus::runGaus(const Instance &instance,
                                   const Frames &frames,
                                   const GausOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto elapsedMs = [&] {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
        .count();
  };
  GausResult result;
  unsigned n = instance.nodes.size();
  ExpectedModel model(instance, frames, options.terms);
  const Windows &windows = model.getWindows();

  // Parameters. Frozen: one-step frames, nothing to learn.
  std::vector<double> mu(n), logSigma(n), sigmaCap(n);
  std::vector<char> frozen(n);
  double floor = options.sigmaFloor ? options.sigmaMin : 1e-3;
  auto resetSigma = [&](double sigma) {
    for (unsigned i = 0; i < n; ++i)
      logSigma[i] = std::log(std::clamp(sigma, 1e-3, sigmaCap[i]));
  };
  for (unsigned i = 0; i < n; ++i) {
    double width = double(frames.alap[i] - frames.asap[i]);
    frozen[i] = width == 0;
    // A sigma far past the frame only flattens the truncated bins, and
    // keeps the normaliser Z away from cancellation.
    sigmaCap[i] = std::max(1.0, width + 1);
    mu[i] = options.init ? double((*options.init)[i])
                         : 0.5 * double(frames.asap[i] + frames.alap[i]);
    logSigma[i] = std::log(std::clamp(std::max(options.kappa * width, floor),
                                      1e-3, sigmaCap[i]));
  }

  auto consider = [&](const std::vector<double> &means, unsigned at) {
    std::optional<Steps> legal =
        legalize(instance, frames, roundMeans(means, frames));
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
  };
  consider(mu, 0);

  std::vector<double> F, dF, gMu, gLs;
  gaussianCdf(windows, mu, logSigma, F);
  TermValues first = model.forward(F);
  double fScale = 1.0 / std::max(std::abs(first.f), 1e-9);
  bool modulo = instance.formulation == Formulation::C;
  double lamDep = 0, lamMres = 0, rho = options.rho0;
  double lastViolation = first.dep + first.mres;
  Adam adamMu, adamLs;
  adamMu.reset(n);
  adamLs.reset(n);

  for (unsigned outer = 1; outer <= options.outerIterations; ++outer) {
    if (options.timeLimitMs && elapsedMs() > double(options.timeLimitMs)) {
      result.exhausted = true;
      break;
    }
    TermValues terms;
    for (unsigned step = 0; step < options.innerSteps; ++step) {
      gaussianCdf(windows, mu, logSigma, F);
      terms = model.forward(F);
      double cDep = lamDep + rho * terms.dep;
      double cMres = modulo ? lamMres + rho * terms.mres : 0;
      model.backward(F, fScale, cDep, cMres, dF);
      gaussianBackward(windows, mu, logSigma, dF, gMu, gLs);
      adamStep(adamMu, mu, gMu, options.lrMu, frozen);
      adamStep(adamLs, logSigma, gLs, options.lrLogSigma, frozen);
      // Keep each mean within half a step of its frame and sigma within
      // [floor, cap]: outside, the truncated mass is all at one edge and
      // the gradient vanishes.
      for (unsigned i = 0; i < n; ++i) {
        mu[i] = std::clamp(mu[i], double(frames.asap[i]) - 0.5,
                           double(frames.alap[i]) + 0.5);
        logSigma[i] = std::clamp(logSigma[i], std::log(floor),
                                 std::log(sigmaCap[i]));
      }
      ++result.adamSteps;
    }
    result.lastTerms = terms;
    result.outerIterations = outer;
    // The multiplier update; rho grows while the violation falls slowly.
    lamDep += rho * terms.dep;
    if (modulo)
      lamMres += rho * terms.mres;
    double violation = terms.dep + terms.mres;
    if (violation > 0.25 * lastViolation)
      rho = std::min(rho * options.rhoGrowth, options.rhoMax);
    lastViolation = violation;
    consider(mu, outer);
    if (options.reseedEvery && outer % options.reseedEvery == 0 &&
        result.best) {
      for (unsigned i = 0; i < n; ++i)
        mu[i] = double((*result.best)[i]);
      resetSigma(options.sigmaReset);
      adamMu.reset(n);
      adamLs.reset(n);
    }
  }
  result.seconds = elapsedMs() / 1000.0;
  return result;
}
