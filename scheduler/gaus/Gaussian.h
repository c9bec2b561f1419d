//===- Gaussian.h - truncated Gaussians over each node's frame -*- C++ -*-===//
//
// GauS's parameters: per node a mean and a log standard deviation. The step
// probabilities are the Gaussian's mass over unit bins [d - 1/2, d + 1/2),
// truncated to the node's frame and renormalised (seed 000, section 3.1;
// the frame instead of [0, depth) is our choice, docs/gaus.md):
//   F_i(d) = (Phi(a(d + 1/2)) - Phi(a(lo - 1/2))) / Z,
//   Z = Phi(a(hi + 1/2)) - Phi(a(lo - 1/2)),  a(x) = (x - mu) / sigma.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_GAUSSIAN_H
#define TILEPIPE_SCHEDULER_GAUS_GAUSSIAN_H

#include "scheduler/gaus/Expected.h"

namespace tilepipe::gaus {

/// F over every window. Nodes with a one-step frame get F = 1.
void gaussianCdf(const Windows &windows, const std::vector<double> &mu,
                 const std::vector<double> &logSigma, std::vector<double> &F);

/// Chains dL/dF to dL/dmu and dL/dlogSigma; F is gaussianCdf's result.
void gaussianBackward(const Windows &windows, const std::vector<double> &mu,
                      const std::vector<double> &logSigma,
                      const std::vector<double> &F,
                      const std::vector<double> &dF, std::vector<double> &gMu,
                      std::vector<double> &gLogSigma);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_GAUSSIAN_H
