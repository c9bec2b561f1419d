//===- Relaxation.h - one forward/backward of GauS, CPU or CUDA -*- C++ -*-===//
//
// The optimiser's view of the relaxation: from the parameters (mu, log
// sigma) to the term values, and from the loss coefficients back to the
// parameters' gradients. The CPU implementation composes Gaussian.h and
// Expected.h; the CUDA one (scheduler/gaus/cuda, built when the toolkit is
// found) runs the same formulas on the device.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_RELAXATION_H
#define TILEPIPE_SCHEDULER_GAUS_RELAXATION_H

#include "scheduler/gaus/Expected.h"

#include <memory>

namespace tilepipe::gaus {

class Relaxation {
public:
  virtual ~Relaxation() = default;
  /// Term values at (mu, logSigma); keeps what backward() needs.
  virtual TermValues forward(const std::vector<double> &mu,
                             const std::vector<double> &logSigma) = 0;
  /// Gradients of L = cf f + cDep dep + cMres mres at the last forward().
  virtual void backward(double cf, double cDep, double cMres,
                        std::vector<double> &gMu,
                        std::vector<double> &gLogSigma) = 0;
  /// The CDFs of the last forward(), on the host (for tests).
  virtual std::vector<double> cdfs() = 0;
};

std::unique_ptr<Relaxation> makeCpuRelaxation(const Instance &instance,
                                              const Frames &frames,
                                              TermOptions options);

/// Whether this build has the CUDA relaxation and a device to run it.
bool cudaAvailable(std::string *why = nullptr);
/// The CUDA relaxation, or null with `why` when unavailable.
std::unique_ptr<Relaxation> makeCudaRelaxation(const Instance &instance,
                                               const Frames &frames,
                                               TermOptions options,
                                               std::string *why = nullptr);

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_RELAXATION_H
