//===- Gaussian.cpp - truncated Gaussians over each node's frame ----------===//

#include "scheduler/gaus/Gaussian.h"
#include "scheduler/gaus/Parallel.h"
#include "scheduler/gaus/Phi.h"

using namespace tilepipe::gaus;

void tilepipe::gaus::gaussianCdf(const Windows &windows,
                                 const std::vector<double> &mu,
                                 const std::vector<double> &logSigma,
                                 std::vector<double> &F) {
  unsigned n = windows.lo.size();
  F.resize(windows.size());
  parallelFor(
      n, 64, windows.size() >= kParallelWork, [&](size_t begin, size_t end) {
        for (unsigned i = unsigned(begin); i < end; ++i) {
          int64_t lo = windows.lo[i], hi = windows.hi[i];
          double *f = F.data() + windows.offset[i];
          if (lo == hi) {
            f[0] = 1;
            continue;
          }
          double inv = std::exp(-logSigma[i]);
          double low = normalCdf((double(lo) - 0.5 - mu[i]) * inv);
          double z = normalCdf((double(hi) + 0.5 - mu[i]) * inv) - low;
          for (int64_t d = lo; d < hi; ++d)
            f[d - lo] = (normalCdf((double(d) + 0.5 - mu[i]) * inv) - low) / z;
          f[hi - lo] = 1;
        }
      });
}

void tilepipe::gaus::gaussianBackward(const Windows &windows,
                                      const std::vector<double> &mu,
                                      const std::vector<double> &logSigma,
                                      const std::vector<double> &F,
                                      const std::vector<double> &dF,
                                      std::vector<double> &gMu,
                                      std::vector<double> &gLogSigma) {
  unsigned n = windows.lo.size();
  gMu.assign(n, 0.0);
  gLogSigma.assign(n, 0.0);
  parallelFor(
      n, 64, windows.size() >= kParallelWork, [&](size_t begin, size_t end) {
        for (unsigned i = unsigned(begin); i < end; ++i) {
          int64_t lo = windows.lo[i], hi = windows.hi[i];
          if (lo == hi)
            continue;
          double inv = std::exp(-logSigma[i]);
          double aLo = (double(lo) - 0.5 - mu[i]) * inv;
          double aHi = (double(hi) + 0.5 - mu[i]) * inv;
          double pLo = normalPdf(aLo), pHi = normalPdf(aHi);
          double z = normalCdf(aHi) - normalCdf(aLo);
          const double *cdf = F.data() + windows.offset[i];
          // With A(d) = Phi(a_d) - Phi(a_lo) and F = A / Z:
          // dF = (dA - F dZ) / Z; d Phi(a)/d mu = -phi(a)/sigma,
          // d Phi(a)/d log sigma = -a phi(a).
          double dZmu = (-pHi + pLo) * inv, dZls = -aHi * pHi + aLo * pLo;
          const double *g = dF.data() + windows.offset[i];
          double sumMu = 0, sumLs = 0;
          for (int64_t d = lo; d < hi; ++d) {
            double a = (double(d) + 0.5 - mu[i]) * inv;
            double p = normalPdf(a);
            double f = cdf[d - lo];
            double dAmu = (-p + pLo) * inv, dAls = -a * p + aLo * pLo;
            sumMu += g[d - lo] * (dAmu - f * dZmu) / z;
            sumLs += g[d - lo] * (dAls - f * dZls) / z;
          }
          gMu[i] = sumMu;
          gLogSigma[i] = sumLs;
        }
      });
}
