//===- CudaAgreementTest.cpp - the CUDA relaxation against the CPU one ----===//
//
// The CUDA relaxation (scheduler/gaus/cuda) must compute what the CPU one
// computes: term values, CDFs and gradients, on random instances of the
// three formulations (self edges, repeated consumers, modulo uses that wrap)
// and on layered DAGs with real frames.
//
// GausCudaHost.* run everywhere: the CUDA code's item functions and launch
// plan, run as host loops (makeCudaRelaxationOnHost), against the CPU.
// GausCuda.* need a device and skip without one; GausCuda.Timing prints the
// milliseconds per forward + backward on a 50k-node DAG.
//
// Tolerances. Device: values within 1e-9 relative (absolute below 1), CDFs
// within 1e-11 absolute, each gradient entry within 1e-7 relative (with a
// floor of 1e-3 of the largest entry, for entries that cancel to ~0). The
// device's erfc, exp and log differ from glibc's by a few ulps and its sums
// run in another order; it does not contract a * b + c (--fmad=false).
// Host emulation: the same libm, so only the summation order differs:
// values 1e-12, CDFs exact to 1e-15, gradients 1e-10.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Graph.h"
#include "scheduler/gaus/Relaxation.h"
#ifdef TILEPIPE_HAVE_GAUS_CUDA
#include "scheduler/gaus/cuda/CudaRelaxation.h"
#endif

#include "gtest/gtest.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

using namespace tilepipe::gaus;

namespace {

struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t range(int64_t lo, int64_t hi) {
    return lo + int64_t(next() % uint64_t(hi - lo + 1));
  }
  double unit() { return double(next() >> 11) / double(1ull << 53); }
};

struct Case {
  Instance instance;
  Frames frames;
};

void randomUses(Instance &inst, Node &node, Rng &rng) {
  for (int64_t k = rng.range(0, 2); k > 0; --k)
    node.uses.push_back(
        {unsigned(rng.range(0, int64_t(inst.capacity.size()) - 1)),
         rng.range(0, 3), rng.range(1, 2 * int64_t(inst.ii) + 1),
         0.5 + rng.unit()});
}

void randomResources(Instance &inst, Rng &rng) {
  unsigned numRes = unsigned(rng.range(1, 3));
  for (unsigned t = 0; t < numRes; ++t) {
    inst.capacity.push_back(0.5 + 2 * rng.unit());
    inst.resourceNames.push_back("r" + std::to_string(t));
  }
}

/// Arbitrary frames (the terms hold for any), random edges: in C also back
/// edges, self edges and repeated (node, consumer) pairs.
Case randomCase(Formulation form, unsigned n, int64_t maxWidth, Rng &rng) {
  Case c;
  Instance &inst = c.instance;
  inst.name = "random";
  inst.formulation = form;
  inst.alpha = 0.5 + rng.unit();
  inst.ii = form == Formulation::C ? unsigned(rng.range(1, 6)) : 0;
  if (form == Formulation::C)
    randomResources(inst, rng);
  int64_t span = std::max<int64_t>(2, int64_t(n) / 2);
  int64_t last = 0;
  for (unsigned i = 0; i < n; ++i) {
    Node node;
    node.name = "n" + std::to_string(i);
    node.weight = double(rng.range(0, 4));
    node.bytes = 0.5 + 3 * rng.unit();
    if (form == Formulation::C)
      randomUses(inst, node, rng);
    inst.nodes.push_back(node);
    int64_t lo = rng.range(0, span);
    int64_t hi = lo + rng.range(0, maxWidth - 1);
    c.frames.asap.push_back(lo);
    c.frames.alap.push_back(hi);
    last = std::max(last, hi);
  }
  inst.depth = last + 1 + rng.range(0, 3);
  for (unsigned u = 0; u < n; ++u)
    for (int64_t k = rng.range(0, 3); k > 0; --k) {
      Edge e;
      e.src = u;
      e.dst = unsigned(rng.range(0, n - 1));
      if (form != Formulation::C && e.dst <= u)
        continue;
      e.latency = form == Formulation::A ? rng.range(0, 1) : rng.range(0, 2);
      if (form == Formulation::C)
        e.distance = unsigned(e.dst <= u ? rng.range(1, 2) : rng.range(0, 1));
      e.comm = form == Formulation::A ? double(rng.range(0, 1)) : 0;
      inst.edges.push_back(e);
      if (form == Formulation::C && rng.range(0, 4) == 0) {
        e.distance += unsigned(rng.range(0, 2)); // the same pair again
        inst.edges.push_back(e);
      }
    }
  if (form == Formulation::C)
    for (unsigned k = 0; k < std::max(1u, n / 8); ++k) {
      Edge e; // an accumulator: the op reads its own value later
      e.src = e.dst = unsigned(rng.range(0, n - 1));
      e.latency = rng.range(0, 2);
      e.distance = unsigned(rng.range(0, 2));
      inst.edges.push_back(e);
    }
  return c;
}

/// A layered DAG with real frames: every node lies on a path through all
/// layers, so each frame has `window` steps. C adds recurrences that the
/// II satisfies.
Case dagCase(Formulation form, unsigned layers, unsigned perLayer,
             int64_t window, Rng &rng) {
  Case c;
  Instance &inst = c.instance;
  inst.name = "dag";
  inst.formulation = form;
  inst.alpha = 0.25 + rng.unit();
  inst.depth = int64_t(layers) + window - 1;
  inst.ii = form == Formulation::C ? unsigned(window + 8) : 0;
  if (form == Formulation::C)
    randomResources(inst, rng);
  unsigned n = layers * perLayer;
  auto at = [&](unsigned layer) {
    return layer * perLayer + unsigned(rng.range(0, perLayer - 1));
  };
  for (unsigned i = 0; i < n; ++i) {
    Node node;
    node.weight = double(rng.range(0, 3));
    node.bytes = double(rng.range(1, 64));
    if (form == Formulation::C)
      randomUses(inst, node, rng);
    inst.nodes.push_back(node);
  }
  auto add = [&](unsigned u, unsigned v, unsigned distance) {
    Edge e;
    e.src = u;
    e.dst = v;
    e.latency = 1;
    e.distance = distance;
    e.comm = form == Formulation::A ? double(rng.range(0, 1)) : 0;
    inst.edges.push_back(e);
  };
  for (unsigned i = 0; i < n; ++i) {
    unsigned layer = i / perLayer;
    if (layer > 0)
      add(at(layer - 1), i, 0);
    if (layer + 1 < layers)
      add(i, at(layer + 1), 0);
    for (int64_t k = rng.range(0, 1); k > 0; --k) {
      unsigned to = layer + unsigned(rng.range(1, 3));
      if (to < layers)
        add(i, at(to), 0);
    }
    if (form == Formulation::C && layer >= 2 && rng.range(0, 3) == 0)
      add(i, at(layer - unsigned(rng.range(0, 2))), 1);
  }
  std::string reason;
  std::optional<Frames> frames = computeFrames(inst, reason);
  EXPECT_TRUE(frames.has_value()) << reason;
  if (frames)
    c.frames = *frames;
  return c;
}

void randomParams(const Frames &frames, Rng &rng, std::vector<double> &mu,
                  std::vector<double> &logSigma) {
  size_t n = frames.asap.size();
  mu.resize(n);
  logSigma.resize(n);
  for (size_t i = 0; i < n; ++i) {
    double width = double(frames.alap[i] - frames.asap[i]);
    mu[i] = double(frames.asap[i]) - 0.4 + (width + 0.8) * rng.unit();
    logSigma[i] = std::log(0.3 + (0.5 + width / 4) * rng.unit());
  }
}

struct Tolerance {
  double value, cdf, grad;
};
constexpr Tolerance kDevice{1e-9, 1e-11, 1e-7};
constexpr Tolerance kHost{1e-12, 1e-15, 1e-10};

using Factory = std::function<std::unique_ptr<Relaxation>(
    const Instance &, const Frames &, TermOptions, std::string *)>;

/// The largest error over a comparison, in units of its tolerance.
struct Worst {
  double value = 0, cdf = 0, grad = 0;
};

void expectValue(const char *what, double cpu, double other, double tol,
                 double &worst, const std::string &label) {
  double err = std::abs(cpu - other) / std::max(1.0, std::abs(cpu));
  worst = std::max(worst, err);
  EXPECT_LE(err, tol) << label << ": " << what << " cpu " << cpu << " other "
                      << other;
}

void expectGradient(const char *what, const std::vector<double> &cpu,
                    const std::vector<double> &other, double tol, double &worst,
                    const std::string &label) {
  ASSERT_EQ(cpu.size(), other.size()) << label << ": " << what;
  double top = 0;
  for (double x : cpu)
    top = std::max(top, std::abs(x));
  unsigned reported = 0;
  for (size_t i = 0; i < cpu.size(); ++i) {
    double scale = std::max(std::abs(cpu[i]), 1e-3 * top);
    double err =
        scale > 0 ? std::abs(cpu[i] - other[i]) / scale : std::abs(other[i]);
    worst = std::max(worst, err);
    if (err > tol && reported++ < 5)
      ADD_FAILURE() << label << ": " << what << "[" << i << "] cpu " << cpu[i]
                    << " other " << other[i] << " (largest " << top << ")";
  }
}

/// Three forward/backward rounds (tau fixed by the first) on both.
void compare(const Case &c, TermOptions options, const Factory &make,
             const Tolerance &tol, Rng &rng, const std::string &label,
             Worst &worst) {
  std::unique_ptr<Relaxation> cpu =
      makeCpuRelaxation(c.instance, c.frames, options);
  std::string why;
  std::unique_ptr<Relaxation> other = make(c.instance, c.frames, options, &why);
  ASSERT_TRUE(other) << label << ": " << why;
  const double coefficients[3][3] = {
      {0.7, 1.3, 0.9}, {1.0, 0.0, 0.0}, {0.2 + rng.unit(), rng.unit(), 2.0}};
  for (int round = 0; round < 3; ++round) {
    std::vector<double> mu, logSigma;
    randomParams(c.frames, rng, mu, logSigma);
    std::string at = label + " round " + std::to_string(round);
    TermValues a = cpu->forward(mu, logSigma);
    TermValues b = other->forward(mu, logSigma);
    expectValue("f", a.f, b.f, tol.value, worst.value, at);
    expectValue("peak", a.peak, b.peak, tol.value, worst.value, at);
    expectValue("comm", a.comm, b.comm, tol.value, worst.value, at);
    expectValue("dep", a.dep, b.dep, tol.value, worst.value, at);
    expectValue("mres", a.mres, b.mres, tol.value, worst.value, at);
    std::vector<double> fa = cpu->cdfs(), fb = other->cdfs();
    ASSERT_EQ(fa.size(), fb.size()) << at;
    for (size_t k = 0; k < fa.size(); ++k) {
      double err = std::abs(fa[k] - fb[k]);
      worst.cdf = std::max(worst.cdf, err);
      if (err > tol.cdf) {
        ADD_FAILURE() << at << ": F[" << k << "] cpu " << fa[k] << " other "
                      << fb[k];
        break;
      }
    }
    const double *co = coefficients[round];
    std::vector<double> gMuA, gLsA, gMuB, gLsB;
    cpu->backward(co[0], co[1], co[2], gMuA, gLsA);
    other->backward(co[0], co[1], co[2], gMuB, gLsB);
    expectGradient("gMu", gMuA, gMuB, tol.grad, worst.grad, at);
    expectGradient("gLogSigma", gLsA, gLsB, tol.grad, worst.grad, at);
  }
}

constexpr Formulation kAll[] = {Formulation::A, Formulation::B, Formulation::C};
const char *const kNames[] = {"A", "B", "C"};

/// Small and medium random instances of every formulation.
void compareRandom(const Factory &make, const Tolerance &tol,
                   unsigned mediumN) {
  Rng rng{2024};
  Worst worst;
  for (Formulation form : kAll)
    for (bool printed : {false, true})
      for (int round = 0; round < 24; ++round) {
        unsigned n = round < 16 ? unsigned(rng.range(2, 8))
                                : unsigned(rng.range(20, mediumN));
        int64_t width = round < 16 ? rng.range(1, 5) : rng.range(3, 40);
        Case c = randomCase(form, n, width, rng);
        TermOptions options{printed, round % 3 == 0 ? 0.3 : 0.05};
        compare(c, options, make, tol, rng,
                std::string(kNames[int(form)]) + " random " +
                    std::to_string(round) + (printed ? " printed" : ""),
                worst);
      }
  std::printf("worst relative errors: values %.3g, cdfs %.3g, gradients %.3g\n",
              worst.value, worst.cdf, worst.grad);
}

/// Layered DAGs of a few thousand nodes.
void compareDags(const Factory &make, const Tolerance &tol) {
  Rng rng{77};
  Worst worst;
  for (Formulation form : kAll) {
    Case c = dagCase(form, 40, 60, 24, rng);
    ASSERT_FALSE(c.frames.asap.empty());
    compare(c, {}, make, tol, rng, std::string(kNames[int(form)]) + " dag 2400",
            worst);
  }
  std::printf("worst relative errors: values %.3g, cdfs %.3g, gradients %.3g\n",
              worst.value, worst.cdf, worst.grad);
}

Factory onDevice() {
  return [](const Instance &instance, const Frames &frames, TermOptions options,
            std::string *why) {
    return makeCudaRelaxation(instance, frames, options, why);
  };
}

#define REQUIRE_DEVICE()                                                       \
  do {                                                                         \
    std::string why;                                                           \
    if (!cudaAvailable(&why))                                                  \
      GTEST_SKIP() << why;                                                     \
  } while (0)

//===- The CUDA code on the host ----------------------------------------===//

// Only where the CUDA relaxation was compiled (a toolkit without a working
// nvcc leaves the no-CUDA fallbacks, and the device tests skip).
#ifdef TILEPIPE_HAVE_GAUS_CUDA
Factory onHost() {
  return [](const Instance &instance, const Frames &frames, TermOptions options,
            std::string *why) {
    return makeCudaRelaxationOnHost(instance, frames, options, why);
  };
}

TEST(GausCudaHost, RandomInstancesAgreeWithCpu) {
  compareRandom(onHost(), kHost, 60);
}

TEST(GausCudaHost, DagsAgreeWithCpu) { compareDags(onHost(), kHost); }

TEST(GausCudaHost, EmptyAndTinyInstances) {
  Rng rng{5};
  Worst worst;
  for (Formulation form : kAll) {
    Case empty;
    empty.instance.formulation = form;
    empty.instance.ii = form == Formulation::C ? 3 : 0;
    empty.instance.depth = 4;
    compare(empty, {}, onHost(), kHost, rng, "empty", worst);
    Case one = randomCase(form, 1, 1, rng); // a single one-step frame
    compare(one, {}, onHost(), kHost, rng, "one", worst);
  }
}

TEST(GausCudaHost, RejectsFramesPastTheDepth) {
  Case c;
  c.instance.formulation = Formulation::A;
  c.instance.depth = 3;
  c.instance.nodes.resize(1);
  c.instance.nodes[0].weight = 1;
  c.frames = {{1}, {5}};
  std::string why;
  EXPECT_FALSE(makeCudaRelaxationOnHost(c.instance, c.frames, {}, &why));
  EXPECT_NE(why.find("past the depth"), std::string::npos) << why;
}
#endif // TILEPIPE_HAVE_GAUS_CUDA

//===- The CUDA code on a device ----------------------------------------===//

TEST(GausCuda, WithoutDeviceSaysWhy) {
  std::string why;
  if (cudaAvailable(&why))
    GTEST_SKIP() << "a device is available";
  EXPECT_FALSE(why.empty());
  Case c = [] {
    Rng rng{1};
    return randomCase(Formulation::B, 4, 3, rng);
  }();
  std::string reason;
  EXPECT_EQ(makeCudaRelaxation(c.instance, c.frames, {}, &reason), nullptr);
  EXPECT_FALSE(reason.empty());
}

TEST(GausCuda, RandomInstancesAgreeWithCpu) {
  REQUIRE_DEVICE();
  compareRandom(onDevice(), kDevice, 400);
}

TEST(GausCuda, DagsAgreeWithCpu) {
  REQUIRE_DEVICE();
  compareDags(onDevice(), kDevice);
}

TEST(GausCuda, Timing) {
  REQUIRE_DEVICE();
  Rng rng{50000};
  Worst worst;
  for (Formulation form : {Formulation::B, Formulation::A}) {
    // 50k nodes, 500 layers of 100, frames of 80 steps.
    Case c = dagCase(form, 500, 100, 80, rng);
    ASSERT_FALSE(c.frames.asap.empty());
    std::unique_ptr<Relaxation> cpu =
        makeCpuRelaxation(c.instance, c.frames, {});
    std::string why;
    std::unique_ptr<Relaxation> gpu =
        makeCudaRelaxation(c.instance, c.frames, {}, &why);
    ASSERT_TRUE(gpu) << why;
    std::vector<double> mu, logSigma, gMu, gLs;
    randomParams(c.frames, rng, mu, logSigma);
    auto time = [&](Relaxation &relaxation, int iterations) {
      relaxation.forward(mu, logSigma); // warm up; fixes tau
      relaxation.backward(1, 1, 0, gMu, gLs);
      auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < iterations; ++k) {
        relaxation.forward(mu, logSigma);
        relaxation.backward(1, 1, 0, gMu, gLs);
      }
      return std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - start)
                 .count() /
             iterations;
    };
    double cpuMs = time(*cpu, 5), gpuMs = time(*gpu, 50);
    size_t entries = 0;
    for (size_t i = 0; i < c.frames.asap.size(); ++i)
      entries += size_t(c.frames.alap[i] - c.frames.asap[i] + 1);
    std::printf("formulation %s: %zu nodes, %zu edges, %zu window entries: "
                "forward+backward CPU %.2f ms, CUDA %.3f ms (%.1fx)\n",
                kNames[int(form)], c.instance.nodes.size(),
                c.instance.edges.size(), entries, cpuMs, gpuMs, cpuMs / gpuMs);
    compare(c, {}, onDevice(), kDevice, rng,
            std::string(kNames[int(form)]) + " dag 50k", worst);
  }
  std::printf("worst relative errors: values %.3g, cdfs %.3g, gradients %.3g\n",
              worst.value, worst.cdf, worst.grad);
}

} // namespace
