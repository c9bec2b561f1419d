//===- Expected.h - the relaxation's expected terms and gradients -*- C++ -*-=//
//
// Every term of seed 000 as a function of the per-node CDFs F_i(d) =
// P(s_i <= d), so that one forward pass and one backward pass serve any
// distribution (the Gaussians of GauS, the uniform frames of FDS) and the
// chain to (mu, log sigma) lives in one place (Gaussian.h).
//
// Node i's support is its frame [lo_i, hi_i] (ASAP and ALAP): no legal
// schedule starts it elsewhere, so mass outside is pure violation, and the
// model's memory is the sum of the frame widths, not |V| * depth.
//
// Terms (docs/gaus.md has the derivations):
//   dep   sum over edges of P(s_v + k II < s_u + l): the latency-correct
//         form; `printedDeps` uses l = 0 (the paper's printed Eq. 8b/24).
//   mres  sum over resources and modulo slots of max(0, E[use] - capacity).
//   f     A: LSE over steps of E[weight] + alpha * E[crossings];
//         B: LSE over steps of E[live bytes]; C: the same folded mod II.
// The forward pass keeps what the backward pass needs; backward() returns
// dL/dF for L = cf * f + cDep * dep + cMres * mres.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_GAUS_EXPECTED_H
#define TILEPIPE_SCHEDULER_GAUS_EXPECTED_H

#include "scheduler/gaus/Graph.h"

namespace tilepipe::gaus {

/// Per-node windows into flat arrays: entry offset[i] + (d - lo[i]).
struct Windows {
  std::vector<int64_t> lo, hi;
  std::vector<size_t> offset; ///< numNodes + 1 entries.
  explicit Windows(const Frames &frames);
  size_t size() const { return offset.back(); }
  size_t width(unsigned i) const { return offset[i + 1] - offset[i]; }
};

/// Passes over less work than this run on one thread.
constexpr size_t kParallelWork = 1 << 15;

struct TermOptions {
  bool printedDeps = false;
  /// LSE temperature relative to the mean usage of the first evaluation.
  double tauRel = 0.05;
};

struct TermValues {
  double f = 0;    ///< The smooth objective (LSE peak, plus alpha * comm).
  double peak = 0; ///< The LSE peak alone (A: weight; B, C: live bytes).
  double comm = 0; ///< A: expected crossings.
  double dep = 0;  ///< Expected violated edges.
  double mres = 0; ///< Expected modulo overuse, summed over slots.
};

class ExpectedModel {
public:
  ExpectedModel(const Instance &instance, const Frames &frames,
                TermOptions options = {});

  const Windows &getWindows() const { return windows; }
  /// After forward(): the expected usage per step (A: weight, B and C:
  /// live bytes, C unfolded), C's folded live bytes, and C's expected use
  /// per resource and slot (resource * II + slot).
  const std::vector<double> &getUsage() const { return usage; }
  const std::vector<double> &getFolded() const { return folded; }
  const std::vector<double> &getModuloUse() const { return mresUse; }
  double getTau() const { return tau; }

  /// F: numbers of getWindows().size(); F at each hi must be 1.
  TermValues forward(const std::vector<double> &F);
  /// dL/dF after forward(F) on the same F.
  void backward(const std::vector<double> &F, double cf, double cDep,
                double cMres, std::vector<double> &dF);

private:
  struct Succ {
    unsigned node;
    int64_t shift; ///< distance * II.
  };
  double cdf(const std::vector<double> &F, unsigned i, int64_t d) const {
    if (d < windows.lo[i])
      return 0;
    if (d >= windows.hi[i])
      return 1;
    return F[windows.offset[i] + (d - windows.lo[i])];
  }
  double prob(const std::vector<double> &F, unsigned i, int64_t d) const {
    return cdf(F, i, d) - cdf(F, i, d - 1);
  }
  void forwardUsage(const std::vector<double> &F);
  double forwardDeps(const std::vector<double> &F);
  double forwardComm(const std::vector<double> &F);
  double forwardModuloUse(const std::vector<double> &F);
  /// P(every consumer of i has started by d), shifts applied.
  double consumed(const std::vector<double> &F, unsigned i, int64_t d) const;
  /// Node i's live indicator's expectation at d, bytes excluded.
  double liveAt(const std::vector<double> &F, unsigned i, int64_t d) const;
  double logSumExp(const std::vector<double> &x,
                   std::vector<double> &weights) const;
  /// Node i's value: explicit on [lo, gapLo) and [max(gapLo, gapHi), end),
  /// the constant bytes on [gapLo, gapHi), zero elsewhere.
  void liveRange(unsigned i, int64_t &lo, int64_t &gapLo, int64_t &gapHi,
                 int64_t &end) const;

  // The steps of backward().
  /// What every node's share of backward() reads, and dF it writes.
  struct NodeGradient {
    const std::vector<double> &F;
    const std::vector<double> &g;  ///< dL/d usage.
    std::vector<double> h, hTotal; ///< C's hinge slopes per row, per resource.
    double cf, depScale;
    std::vector<double> &dF;
  };
  std::vector<double> usageGradient(double cf) const;
  void liveProducerGradient(const std::vector<double> &F,
                            const std::vector<double> &g, unsigned i,
                            std::vector<double> &dF);
  void moduloSlopes(double cMres, std::vector<double> &h,
                    std::vector<double> &hTotal) const;
  void nodeGradient(NodeGradient &grad, unsigned x) const;
  void sourceEdgesGradient(NodeGradient &grad, unsigned x,
                           std::vector<double> &dP) const;
  void destinationEdgesGradient(NodeGradient &grad, unsigned x) const;
  void moduloUseGradient(NodeGradient &grad, unsigned x,
                         std::vector<double> &dP) const;

  const Instance &instance;
  Windows windows;
  TermOptions options;
  /// CSR adjacency over the edges (out by source, in by destination).
  std::vector<unsigned> outBegin, outEdge, inBegin, inEdge;
  std::vector<int64_t> delta; ///< Per edge: violation iff s_v <= s_u+delta.
  /// Per node: its consumers, deduplicated, largest shift kept.
  std::vector<unsigned> succBegin;
  std::vector<Succ> succs;
  std::vector<int64_t> selfShift; ///< Largest shift of a self edge, or 0.
  std::vector<char> hasLive;      ///< The value has a consumer.
  /// Per (node, consumer) pair: gradient buffer over the consumer's window.
  std::vector<size_t> pairOffset;
  std::vector<double> pairGrad;
  std::vector<unsigned> predPairBegin, predPair;
  /// Usage per step (A weight, B/C live bytes; C: unfolded length) and the
  /// LSE's softmax weights over it (C: over the folded slots).
  int64_t usageLen = 0;
  std::vector<double> usage, folded, softmax;
  std::vector<double> mresUse; ///< C: per resource * II.
  double tau = 0;
  double norm = 1, mresNorm = 1;
  bool parallel = false;
};

} // namespace tilepipe::gaus

#endif // TILEPIPE_SCHEDULER_GAUS_EXPECTED_H
