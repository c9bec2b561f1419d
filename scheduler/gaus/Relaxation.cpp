//===- Relaxation.cpp - the CPU relaxation --------------------------------===//

#include "scheduler/gaus/Relaxation.h"
#include "scheduler/gaus/Gaussian.h"

using namespace tilepipe::gaus;

namespace {
class CpuRelaxation : public Relaxation {
public:
  CpuRelaxation(const Instance &instance, const Frames &frames,
                TermOptions options)
      : model(instance, frames, options) {}
  TermValues forward(const std::vector<double> &mu,
                     const std::vector<double> &logSigma) override {
    this->mu = mu;
    this->logSigma = logSigma;
    gaussianCdf(model.getWindows(), mu, logSigma, F);
    return model.forward(F);
  }
  void backward(double cf, double cDep, double cMres, std::vector<double> &gMu,
                std::vector<double> &gLogSigma) override {
    model.backward(F, cf, cDep, cMres, dF);
    gaussianBackward(model.getWindows(), mu, logSigma, F, dF, gMu, gLogSigma);
  }
  std::vector<double> cdfs() override { return F; }

private:
  ExpectedModel model;
  std::vector<double> mu, logSigma, F, dF;
};
} // namespace

std::unique_ptr<Relaxation>
tilepipe::gaus::makeCpuRelaxation(const Instance &instance,
                                  const Frames &frames, TermOptions options) {
  return std::make_unique<CpuRelaxation>(instance, frames, options);
}

#ifndef TILEPIPE_HAVE_GAUS_CUDA
bool tilepipe::gaus::cudaAvailable(std::string *why) {
  if (why)
    *why = "this build has no CUDA relaxation (no CUDA toolkit was found)";
  return false;
}

std::unique_ptr<Relaxation>
tilepipe::gaus::makeCudaRelaxation(const Instance &, const Frames &,
                                   TermOptions, std::string *why) {
  cudaAvailable(why);
  return nullptr;
}
#endif
