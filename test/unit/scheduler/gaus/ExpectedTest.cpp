//===- ExpectedTest.cpp - the relaxation against brute force
//---------------===//
//
// Each expected term is checked against the exact expectation over every
// joint assignment of tiny random instances (independent nodes, arbitrary
// step distributions), and each gradient against central differences.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Expected.h"
#include "scheduler/gaus/Gaussian.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <functional>

using namespace tilepipe::gaus;

namespace {

struct ExpectedRng {
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
  std::vector<double> F;
};

/// A random instance of `form` with 3-4 nodes and frames of 1-3 steps,
/// and a random distribution per node (not Gaussian: the terms must hold
/// for any distribution).
Case randomCase(Formulation form, ExpectedRng &rng) {
  Case c;
  Instance &inst = c.instance;
  inst.formulation = form;
  unsigned n = unsigned(rng.range(3, 4));
  inst.depth = 7;
  inst.ii = form == Formulation::C ? unsigned(rng.range(2, 3)) : 0;
  inst.alpha = 0.5 + rng.unit();
  if (form == Formulation::C) {
    inst.capacity = {0.5 + rng.unit(), 1.0 + rng.unit()};
    inst.resourceNames = {"r0", "r1"};
  }
  for (unsigned i = 0; i < n; ++i) {
    Node node;
    node.name = "n" + std::to_string(i);
    node.weight = double(rng.range(0, 4));
    node.bytes = double(rng.range(1, 3));
    if (form == Formulation::C)
      for (int64_t k = rng.range(0, 2); k > 0; --k)
        node.uses.push_back({unsigned(rng.range(0, 1)), rng.range(0, 2),
                             rng.range(1, 5), 0.5 + rng.unit()});
    inst.nodes.push_back(node);
    int64_t lo = rng.range(0, 3);
    c.frames.asap.push_back(lo);
    c.frames.alap.push_back(lo + rng.range(0, 2));
  }
  for (unsigned u = 0; u < n; ++u)
    for (unsigned v = 0; v < n; ++v) {
      bool back = v <= u;
      if (back && form != Formulation::C)
        continue;
      if (rng.range(0, 2) != 0)
        continue;
      Edge e;
      e.src = u;
      e.dst = v;
      e.latency = form == Formulation::A ? 0 : rng.range(0, 2);
      e.distance = back ? unsigned(rng.range(1, 2)) : unsigned(rng.range(0, 0));
      e.comm = double(rng.range(0, 1));
      inst.edges.push_back(e);
    }
  Windows windows(c.frames);
  c.F.resize(windows.size());
  for (unsigned i = 0; i < n; ++i) {
    std::vector<double> p(windows.width(i));
    double sum = 0;
    for (double &x : p)
      sum += (x = 0.05 + rng.unit());
    double run = 0;
    for (size_t k = 0; k < p.size(); ++k)
      c.F[windows.offset[i] + k] = (run += p[k] / sum);
    c.F[windows.offset[i] + p.size() - 1] = 1;
  }
  return c;
}

/// The exact expectations, by enumerating every joint assignment.
struct Exact {
  std::vector<double> usage; ///< Unfolded, long enough for any lifetime.
  std::vector<double> mres;  ///< resource * II + slot.
  double dep = 0, comm = 0;
};

Exact bruteForce(const Case &c, bool printed, int64_t usageLen) {
  const Instance &inst = c.instance;
  Windows w(c.frames);
  unsigned n = inst.nodes.size();
  int64_t ii = std::max(1u, inst.ii);
  Exact ex;
  ex.usage.assign(usageLen, 0.0);
  ex.mres.assign(inst.capacity.size() * ii, 0.0);
  std::vector<int64_t> s(n);
  std::function<void(unsigned, double)> walk = [&](unsigned i, double p) {
    if (i < n) {
      for (int64_t d = w.lo[i]; d <= w.hi[i]; ++d) {
        size_t at = w.offset[i] + (d - w.lo[i]);
        double pd = c.F[at] - (d > w.lo[i] ? c.F[at - 1] : 0.0);
        s[i] = d;
        walk(i + 1, p * pd);
      }
      return;
    }
    for (const Edge &e : inst.edges) {
      int64_t lat = printed ? 0 : e.latency;
      if (s[e.dst] + int64_t(e.distance) * inst.ii < s[e.src] + lat)
        ex.dep += p;
      if (e.comm > 0)
        ex.comm += p * double(std::max<int64_t>(0, s[e.dst] - s[e.src]));
    }
    for (unsigned v = 0; v < n; ++v) {
      if (inst.formulation == Formulation::A) {
        ex.usage[s[v]] += p * inst.nodes[v].weight;
        continue;
      }
      int64_t last = INT64_MIN;
      for (const Edge &e : inst.edges)
        if (e.src == v)
          last = std::max(last, s[e.dst] + int64_t(e.distance) * inst.ii);
      for (int64_t d = s[v]; d < last; ++d)
        ex.usage[d] += p * inst.nodes[v].bytes;
      for (const Use &use : inst.nodes[v].uses)
        for (int64_t t = 0; t < use.duration; ++t)
          ex.mres[use.resource * ii + (s[v] + use.offset + t) % ii] +=
              p * use.amount;
    }
  };
  walk(0, 1.0);
  ex.dep /= std::max<double>(1, inst.edges.size());
  return ex;
}

constexpr Formulation kAll[] = {Formulation::A, Formulation::B, Formulation::C};

TEST(GausExpected, TermsEqualBruteForceExpectation) {
  ExpectedRng rng{42};
  unsigned checked = 0;
  for (Formulation form : kAll)
    for (bool printed : {false, true})
      for (int round = 0; round < 60; ++round) {
        Case c = randomCase(form, rng);
        ExpectedModel model(c.instance, c.frames, {printed, 0.05});
        TermValues t = model.forward(c.F);
        const std::vector<double> &usage = model.getUsage();
        Exact ex = bruteForce(c, printed, int64_t(usage.size()) + 8);
        EXPECT_NEAR(t.dep, ex.dep, 1e-12);
        for (size_t d = 0; d < ex.usage.size(); ++d) {
          EXPECT_NEAR(d < usage.size() ? usage[d] : 0.0, ex.usage[d], 1e-12)
              << "step " << d;
        }
        if (form == Formulation::A) {
          EXPECT_NEAR(t.comm, ex.comm, 1e-12);
        }
        if (form == Formulation::C) {
          const std::vector<double> &mres = model.getModuloUse();
          ASSERT_EQ(mres.size(), ex.mres.size());
          double over = 0, demand = 0;
          for (size_t k = 0; k < mres.size(); ++k) {
            EXPECT_NEAR(mres[k], ex.mres[k], 1e-12);
            over += std::max(0.0, ex.mres[k] -
                                      c.instance.capacity[k / c.instance.ii]);
          }
          for (const Node &node : c.instance.nodes)
            for (const Use &use : node.uses)
              demand += use.amount * double(use.duration);
          EXPECT_NEAR(t.mres, over / std::max(1.0, demand), 1e-12);
        }
        ++checked;
      }
  EXPECT_EQ(checked, 360u);
}

/// L = 0.7 f + 1.3 dep + 0.9 mres, from a fresh forward pass.
double loss(ExpectedModel &model, const std::vector<double> &F) {
  TermValues t = model.forward(F);
  return 0.7 * t.f + 1.3 * t.dep + 0.9 * t.mres;
}

TEST(GausExpected, GradientMatchesCentralDifferences) {
  ExpectedRng rng{7};
  for (Formulation form : kAll)
    for (int round = 0; round < 40; ++round) {
      Case c = randomCase(form, rng);
      ExpectedModel model(c.instance, c.frames, {false, 0.3});
      model.forward(c.F);
      std::vector<double> dF;
      model.backward(c.F, 0.7, 1.3, 0.9, dF);
      const Windows &w = model.getWindows();
      for (unsigned i = 0; i < c.instance.nodes.size(); ++i)
        for (int64_t d = w.lo[i]; d < w.hi[i]; ++d) {
          size_t at = w.offset[i] + (d - w.lo[i]);
          std::vector<double> up = c.F, down = c.F;
          up[at] += 1e-6;
          down[at] -= 1e-6;
          double numeric = (loss(model, up) - loss(model, down)) / 2e-6;
          // The hinge of mres has kinks; skip entries that sit on one.
          EXPECT_NEAR(dF[at], numeric, 1e-5 * std::max(1.0, std::abs(numeric)))
              << "formulation " << int(form) << " round " << round << " node "
              << i << " step " << d;
        }
    }
}

TEST(GausExpected, GaussianChainMatchesCentralDifferences) {
  ExpectedRng rng{99};
  for (Formulation form : kAll)
    for (int round = 0; round < 20; ++round) {
      Case c = randomCase(form, rng);
      ExpectedModel model(c.instance, c.frames, {false, 0.3});
      const Windows &w = model.getWindows();
      unsigned n = c.instance.nodes.size();
      std::vector<double> mu(n), ls(n);
      for (unsigned i = 0; i < n; ++i) {
        mu[i] = double(w.lo[i]) - 0.4 +
                (double(w.hi[i] - w.lo[i]) + 0.8) * rng.unit();
        ls[i] = std::log(0.4 + 1.5 * rng.unit());
      }
      std::vector<double> F, dF, gMu, gLs;
      auto total = [&](const std::vector<double> &m,
                       const std::vector<double> &l) {
        std::vector<double> f;
        gaussianCdf(w, m, l, f);
        return loss(model, f);
      };
      gaussianCdf(w, mu, ls, F);
      model.forward(F);
      model.backward(F, 0.7, 1.3, 0.9, dF);
      gaussianBackward(w, mu, ls, F, dF, gMu, gLs);
      for (unsigned i = 0; i < n; ++i) {
        if (w.lo[i] == w.hi[i]) {
          EXPECT_EQ(gMu[i], 0.0);
          continue;
        }
        std::vector<double> a = mu, b = mu;
        a[i] += 1e-6;
        b[i] -= 1e-6;
        double numeric = (total(a, ls) - total(b, ls)) / 2e-6;
        EXPECT_NEAR(gMu[i], numeric, 1e-5 * std::max(1.0, std::abs(numeric)));
        a = ls;
        b = ls;
        a[i] += 1e-6;
        b[i] -= 1e-6;
        numeric = (total(mu, a) - total(mu, b)) / 2e-6;
        EXPECT_NEAR(gLs[i], numeric, 1e-5 * std::max(1.0, std::abs(numeric)));
      }
    }
}

TEST(GausExpected, GaussianBinsSumToOneInsideTheFrame) {
  Frames frames{{0, 3, 5}, {4, 3, 9}};
  Windows w(frames);
  std::vector<double> F;
  gaussianCdf(w, {2.0, 3.0, 20.0}, {std::log(0.7), 0.0, std::log(3.0)}, F);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(F[w.offset[i + 1] - 1], 1.0);
    for (size_t k = w.offset[i] + 1; k < w.offset[i + 1]; ++k)
      EXPECT_GE(F[k], F[k - 1]);
  }
  // A mean at the centre of a symmetric frame splits the mass evenly.
  EXPECT_NEAR(F[w.offset[0] + 1], 1 - F[w.offset[0] + 2], 1e-12);
}

} // namespace
