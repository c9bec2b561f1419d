//===- Phi.h - the standard normal density and distribution ----*- C++ -*-===//
//
// One definition for the CPU relaxation and its tests; the CUDA kernels
// use the same formulas (erfc and exp), so the two agree to rounding.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_PHI_H
#define TILEPIPE_SCHEDULER_GAUS_PHI_H

#include <cmath>

namespace tilepipe::gaus {

/// Phi(x) = P(N(0,1) <= x), through erfc so that the lower tail keeps its
/// relative precision (the truncation's normaliser subtracts two of them).
inline double normalCdf(double x) { return 0.5 * std::erfc(-x * M_SQRT1_2); }

/// phi(x), the density.
inline double normalPdf(double x) {
  return 0.3989422804014327 * std::exp(-0.5 * x * x);
}

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_PHI_H
