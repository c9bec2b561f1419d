//===- Expected.cpp - the relaxation's expected terms and gradients -------===//
//
// Every loop runs over nodes, and each writes only its own node's entries:
// terms that couple two nodes (an edge) are split into a pass over sources
// and a pass over destinations, and sums over nodes go through a fixed
// number of chunks added in order. The result is the same for any number
// of threads, which keeps the optimiser deterministic.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/Expected.h"
#include "scheduler/gaus/Parallel.h"

#include <algorithm>
#include <cassert>
#include <cmath>

using namespace tilepipe::gaus;

namespace {
/// Sums over nodes are split into this many fixed chunks.
constexpr unsigned kChunks = 16;

unsigned chunkBegin(unsigned c, unsigned n) {
  return unsigned(uint64_t(n) * c / kChunks);
}

/// Adds per-chunk partial vectors in chunk order.
void mergeChunks(const std::vector<std::vector<double>> &parts,
                 std::vector<double> &out) {
  std::fill(out.begin(), out.end(), 0.0);
  for (const std::vector<double> &part : parts)
    for (size_t x = 0; x < out.size(); ++x)
      out[x] += part[x];
}

int64_t floorMod(int64_t a, int64_t m) { return ((a % m) + m) % m; }
} // namespace

Windows::Windows(const Frames &frames) : lo(frames.asap), hi(frames.alap) {
  offset.resize(lo.size() + 1, 0);
  for (size_t i = 0; i < lo.size(); ++i)
    offset[i + 1] = offset[i] + size_t(hi[i] - lo[i] + 1);
}

ExpectedModel::ExpectedModel(const Instance &instance, const Frames &frames,
                             TermOptions options)
    : instance(instance), windows(frames), options(options) {
  // Below this much work per pass, threads cost more than they save.
  parallel = windows.size() + instance.edges.size() >= kParallelWork;
  unsigned n = instance.nodes.size();
  unsigned m = instance.edges.size();
  int64_t ii = instance.ii;
  outBegin.assign(n + 1, 0);
  inBegin.assign(n + 1, 0);
  for (const Edge &e : instance.edges) {
    ++outBegin[e.src + 1];
    ++inBegin[e.dst + 1];
  }
  for (unsigned i = 0; i < n; ++i) {
    outBegin[i + 1] += outBegin[i];
    inBegin[i + 1] += inBegin[i];
  }
  outEdge.resize(m);
  inEdge.resize(m);
  std::vector<unsigned> outFill(outBegin.begin(), outBegin.end() - 1),
      inFill(inBegin.begin(), inBegin.end() - 1);
  delta.resize(m);
  for (unsigned e = 0; e < m; ++e) {
    const Edge &edge = instance.edges[e];
    outEdge[outFill[edge.src]++] = e;
    inEdge[inFill[edge.dst]++] = e;
    int64_t latency = options.printedDeps ? 0 : edge.latency;
    delta[e] = latency - int64_t(edge.distance) * ii - 1;
  }

  // Consumers of each value: the latest use decides the lifetime, so a
  // consumer named twice keeps its largest shift.
  bool live = instance.formulation != Formulation::A;
  succBegin.assign(n + 1, 0);
  selfShift.assign(n, 0);
  hasLive.assign(n, 0);
  usageLen = instance.depth;
  if (live) {
    std::vector<Succ> local;
    for (unsigned i = 0; i < n; ++i) {
      local.clear();
      for (unsigned k = outBegin[i]; k < outBegin[i + 1]; ++k) {
        const Edge &edge = instance.edges[outEdge[k]];
        local.push_back({edge.dst, int64_t(edge.distance) * ii});
      }
      std::sort(local.begin(), local.end(), [](const Succ &a, const Succ &b) {
        return a.node != b.node ? a.node < b.node : a.shift > b.shift;
      });
      for (size_t k = 0; k < local.size(); ++k) {
        if (local[k].node == i) {
          // A value its own op reads again k iterations later (an
          // accumulator): live until then, independently of the others.
          selfShift[i] = std::max(selfShift[i], local[k].shift);
          if (local[k].shift > 0)
            hasLive[i] = 1;
          continue;
        }
        if (k == 0 || local[k].node != local[k - 1].node) {
          hasLive[i] = 1;
          succs.push_back(local[k]);
          usageLen = std::max(usageLen,
                              windows.hi[local[k].node] + local[k].shift + 1);
        }
      }
      usageLen = std::max(usageLen, windows.hi[i] + selfShift[i] + 1);
      succBegin[i + 1] = succs.size();
    }
    pairOffset.assign(succs.size() + 1, 0);
    for (size_t p = 0; p < succs.size(); ++p)
      pairOffset[p + 1] = pairOffset[p] + windows.width(succs[p].node);
    pairGrad.assign(pairOffset.back(), 0.0);
    // Reverse index: the pairs naming each node as consumer, by producer.
    predPairBegin.assign(n + 1, 0);
    for (const Succ &s : succs)
      ++predPairBegin[s.node + 1];
    for (unsigned i = 0; i < n; ++i)
      predPairBegin[i + 1] += predPairBegin[i];
    predPair.resize(succs.size());
    std::vector<unsigned> fill(predPairBegin.begin(), predPairBegin.end() - 1);
    for (size_t p = 0; p < succs.size(); ++p)
      predPair[fill[succs[p].node]++] = p;
  }
  usage.assign(usageLen, 0.0);
  norm = std::max<double>(1, m);
  double demand = 0;
  for (const Node &node : instance.nodes)
    for (const Use &use : node.uses)
      demand += use.amount * double(use.duration);
  mresNorm = std::max(1.0, demand);
  if (instance.formulation == Formulation::C)
    mresUse.assign(instance.capacity.size() * size_t(std::max(1u, instance.ii)),
                   0.0);
}

//===- Usage per step --------------------------------------------------===//

void ExpectedModel::liveRange(unsigned i, int64_t &lo, int64_t &gapLo,
                              int64_t &gapHi, int64_t &end) const {
  // t(d) = b (F_i(d) - F_i(d - s0) prod_j F_j(d - shift_j)), s0 the self
  // shift (0 without one): P(made by d, not every use done by d). It is 0
  // before lo_i and from end = max(hi_i + s0, max_j (hi_j + shift_j)) on,
  // and the constant b from hi_i + 1 until the product can be non-zero.
  int64_t s0 = selfShift[i];
  lo = windows.lo[i];
  int64_t l2 = INT64_MIN;
  end = windows.hi[i] + s0;
  for (unsigned k = succBegin[i]; k < succBegin[i + 1]; ++k) {
    l2 = std::max(l2, windows.lo[succs[k].node] + succs[k].shift);
    end = std::max(end, windows.hi[succs[k].node] + succs[k].shift);
  }
  gapLo = windows.hi[i] + 1;
  gapHi = std::min(std::max(l2, lo + s0), end); // exclusive
}

double ExpectedModel::liveAt(const std::vector<double> &F, unsigned i,
                             int64_t d) const {
  return cdf(F, i, d) - cdf(F, i, d - selfShift[i]) * consumed(F, i, d);
}

void ExpectedModel::forwardUsage(const std::vector<double> &F) {
  unsigned n = instance.nodes.size();
  // Per chunk: the values, then a difference array for the constant gaps
  // (a value made long before its consumers can start would otherwise cost
  // its whole gap in adds).
  std::vector<std::vector<double>> parts(
      kChunks, std::vector<double>(2 * (usageLen + 1)));
  bool isA = instance.formulation == Formulation::A;
  parallelFor(kChunks, 1, parallel, [&](size_t begin, size_t end) {
    for (unsigned c = unsigned(begin); c < end; ++c) {
      double *acc = parts[c].data();
      double *diff = acc + (usageLen + 1);
      for (unsigned i = chunkBegin(c, n); i < chunkBegin(c + 1, n); ++i) {
        if (isA) {
          double w = instance.nodes[i].weight;
          if (w == 0)
            continue;
          for (int64_t d = windows.lo[i]; d <= windows.hi[i]; ++d)
            acc[d] += w * prob(F, i, d);
          continue;
        }
        if (!hasLive[i])
          continue;
        double b = instance.nodes[i].bytes;
        int64_t lo, gapLo, gapHi, end;
        liveRange(i, lo, gapLo, gapHi, end);
        for (int64_t d = lo; d < std::min(gapLo, end); ++d)
          acc[d] += b * liveAt(F, i, d);
        if (gapLo < gapHi) {
          diff[gapLo] += b;
          diff[gapHi] -= b;
        }
        for (int64_t d = std::max(gapLo, gapHi); d < end; ++d)
          acc[d] += b * liveAt(F, i, d);
      }
    }
  });
  std::vector<double> merged(2 * (usageLen + 1));
  mergeChunks(parts, merged);
  double run = 0;
  for (int64_t d = 0; d < usageLen; ++d) {
    run += merged[usageLen + 1 + d];
    usage[d] = merged[d] + run;
  }
}

double ExpectedModel::consumed(const std::vector<double> &F, unsigned i,
                               int64_t d) const {
  double g = 1;
  for (unsigned k = succBegin[i]; k < succBegin[i + 1] && g != 0; ++k)
    g *= cdf(F, succs[k].node, d - succs[k].shift);
  return g;
}

//===- Smooth peak -----------------------------------------------------===//

double ExpectedModel::logSumExp(const std::vector<double> &x,
                                std::vector<double> &weights) const {
  double top = *std::max_element(x.begin(), x.end());
  double sum = 0;
  weights.resize(x.size());
  for (size_t k = 0; k < x.size(); ++k) {
    weights[k] = std::exp((x[k] - top) / tau);
    sum += weights[k];
  }
  for (double &w : weights)
    w /= sum;
  return top + tau * std::log(sum);
}

//===- Dependences and communication ----------------------------------===//

double ExpectedModel::forwardDeps(const std::vector<double> &F) {
  unsigned n = instance.nodes.size();
  std::vector<double> perNode(n, 0.0);
  parallelFor(n, 64, parallel, [&](size_t begin, size_t end) {
    for (unsigned u = unsigned(begin); u < end; ++u) {
      double sum = 0;
      for (unsigned k = outBegin[u]; k < outBegin[u + 1]; ++k) {
        unsigned e = outEdge[k];
        unsigned v = instance.edges[e].dst;
        if (v == u) { // s <= s + delta: decided by the edge alone.
          sum += delta[e] >= 0 ? 1 : 0;
          continue;
        }
        // Violated iff s_v <= s_u + delta: sum_d P_u(d) F_v(d + delta).
        for (int64_t d = std::max(windows.lo[u], windows.lo[v] - delta[e]);
             d <= windows.hi[u]; ++d)
          sum += prob(F, u, d) * cdf(F, v, d + delta[e]);
      }
      perNode[u] = sum;
    }
  });
  double total = 0;
  for (double x : perNode)
    total += x;
  return total / norm;
}

double ExpectedModel::forwardComm(const std::vector<double> &F) {
  unsigned n = instance.nodes.size();
  std::vector<double> perNode(n, 0.0);
  parallelFor(n, 64, parallel, [&](size_t begin, size_t end) {
    for (unsigned u = unsigned(begin); u < end; ++u) {
      double sum = 0;
      for (unsigned k = outBegin[u]; k < outBegin[u + 1]; ++k) {
        const Edge &edge = instance.edges[outEdge[k]];
        if (edge.comm <= 0)
          continue;
        // E[max(0, s_v - s_u)] = sum_k F_u(k) (1 - F_v(k)); between the two
        // windows every term is 1.
        unsigned v = edge.dst;
        int64_t hiU = windows.hi[u], loV = windows.lo[v], hiV = windows.hi[v];
        for (int64_t x = windows.lo[u]; x <= std::min(hiU, hiV - 1); ++x)
          sum += cdf(F, u, x) * (1 - cdf(F, v, x));
        sum += double(std::max<int64_t>(0, std::min(loV, hiV) - hiU - 1));
        for (int64_t x = std::max(hiU + 1, loV); x < hiV; ++x)
          sum += 1 - cdf(F, v, x);
      }
      perNode[u] = sum;
    }
  });
  double total = 0;
  for (double x : perNode)
    total += x;
  return total;
}

//===- Modulo resources ------------------------------------------------===//

namespace {
/// Sum of q over the circular interval of `len` slots starting at `from`.
double circularSum(const std::vector<double> &prefix2, int64_t ii, int64_t from,
                   int64_t len) {
  int64_t a = floorMod(from, ii);
  return prefix2[a + len] - prefix2[a];
}

void circularPrefix(const double *q, int64_t ii, std::vector<double> &prefix2) {
  prefix2.assign(2 * ii + 1, 0.0);
  for (int64_t x = 0; x < 2 * ii; ++x)
    prefix2[x + 1] = prefix2[x] + q[x % ii];
}
} // namespace

double ExpectedModel::forwardModuloUse(const std::vector<double> &F) {
  unsigned n = instance.nodes.size();
  int64_t ii = instance.ii;
  size_t numRes = instance.capacity.size();
  std::vector<std::vector<double>> parts(kChunks,
                                         std::vector<double>(numRes * ii));
  parallelFor(kChunks, 1, parallel, [&](size_t begin, size_t end) {
    for (unsigned c = unsigned(begin); c < end; ++c) {
      std::vector<double> q(ii), prefix2;
      for (unsigned i = chunkBegin(c, n); i < chunkBegin(c + 1, n); ++i) {
        const Node &node = instance.nodes[i];
        if (node.uses.empty())
          continue;
        std::fill(q.begin(), q.end(), 0.0);
        for (int64_t d = windows.lo[i]; d <= windows.hi[i]; ++d)
          q[floorMod(d, ii)] += prob(F, i, d);
        circularPrefix(q.data(), ii, prefix2);
        for (const Use &use : node.uses) {
          int64_t wraps = use.duration / ii, rem = use.duration % ii;
          double *row = parts[c].data() + use.resource * ii;
          for (int64_t r = 0; r < ii; ++r) {
            double held = double(wraps);
            if (rem)
              held += circularSum(prefix2, ii, r - use.offset - rem + 1, rem);
            row[r] += use.amount * held;
          }
        }
      }
    }
  });
  mergeChunks(parts, mresUse);
  double over = 0;
  for (size_t t = 0; t < numRes; ++t)
    for (int64_t r = 0; r < ii; ++r)
      over += std::max(0.0, mresUse[t * ii + r] - instance.capacity[t]);
  return over / mresNorm;
}

//===- Forward and backward --------------------------------------------===//

TermValues ExpectedModel::forward(const std::vector<double> &F) {
  assert(F.size() == windows.size() && "F does not match the windows");
  TermValues values;
  forwardUsage(F);
  const std::vector<double> *peakOver = &usage;
  if (instance.formulation == Formulation::C) {
    int64_t ii = instance.ii;
    folded.assign(ii, 0.0);
    for (int64_t d = 0; d < usageLen; ++d)
      folded[d % ii] += usage[d];
    peakOver = &folded;
  }
  if (tau <= 0) {
    double mean = 0;
    for (double x : *peakOver)
      mean += x;
    mean /= double(std::max<size_t>(1, peakOver->size()));
    tau = options.tauRel * std::max(mean, 1e-9);
  }
  values.peak = logSumExp(*peakOver, softmax);
  values.f = values.peak;
  if (instance.formulation == Formulation::A) {
    values.comm = forwardComm(F);
    values.f += instance.alpha * values.comm;
  }
  values.dep = forwardDeps(F);
  if (instance.formulation == Formulation::C)
    values.mres = forwardModuloUse(F);
  return values;
}

void ExpectedModel::backward(const std::vector<double> &F, double cf,
                             double cDep, double cMres,
                             std::vector<double> &dF) {
  unsigned n = instance.nodes.size();
  dF.assign(windows.size(), 0.0);
  std::vector<double> g = usageGradient(cf);
  if (instance.formulation != Formulation::A)
    parallelFor(n, 64, parallel, [&](size_t begin, size_t end) {
      for (unsigned i = unsigned(begin); i < end; ++i)
        liveProducerGradient(F, g, i, dF);
    });
  NodeGradient grad{F, g, {}, {}, cf, cDep / norm, dF};
  moduloSlopes(cMres, grad.h, grad.hTotal);
  // Everything else, one node at a time, each writing only its own entries.
  parallelFor(n, 64, parallel, [&](size_t begin, size_t end) {
    for (unsigned x = unsigned(begin); x < end; ++x)
      nodeGradient(grad, x);
  });
}

/// dL/d usage(d): the softmax of the smooth peak.
std::vector<double> ExpectedModel::usageGradient(double cf) const {
  const int64_t ii = std::max(1u, instance.ii);
  std::vector<double> g(usageLen, 0.0);
  for (int64_t d = 0; d < usageLen; ++d)
    g[d] = cf * (instance.formulation == Formulation::C ? softmax[d % ii]
                                                        : softmax[d]);
  return g;
}

/// Live bytes, producer side: producer i fills the gradient buffers of its
/// (producer, consumer) pairs; the consumers add them up (nodeGradient).
void ExpectedModel::liveProducerGradient(const std::vector<double> &F,
                                         const std::vector<double> &g,
                                         unsigned i, std::vector<double> &dF) {
  unsigned first = succBegin[i], last = succBegin[i + 1];
  if (!hasLive[i])
    return;
  for (unsigned p = first; p < last; ++p)
    std::fill(pairGrad.begin() + pairOffset[p],
              pairGrad.begin() + pairOffset[p + 1], 0.0);
  double b = instance.nodes[i].bytes;
  int64_t s0 = selfShift[i];
  int64_t lo = windows.lo[i], hi = windows.hi[i];
  int64_t from, gapLo, gapHi, end;
  liveRange(i, from, gapLo, gapHi, end);
  double *own = dF.data() + windows.offset[i];
  // The gap has no gradient: a factor there is a constant 0 or 1.
  unsigned m = last - first;
  std::vector<double> pre(m + 1), suf(m + 1);
  auto visit = [&](int64_t d) {
    if (d < hi)
      own[d - lo] += g[d] * b;
    // d/dF of -F_i(d - s0) prod_j F_j: prefix and suffix products.
    pre[0] = 1;
    for (unsigned k = 0; k < m; ++k)
      pre[k + 1] =
          pre[k] * cdf(F, succs[first + k].node, d - succs[first + k].shift);
    if (d - s0 >= lo && d - s0 < hi)
      own[d - s0 - lo] -= g[d] * b * pre[m];
    double scale = -g[d] * b * cdf(F, i, d - s0);
    if (scale == 0 || m == 0)
      return;
    suf[m] = 1;
    for (unsigned k = m; k-- > 0;)
      suf[k] = suf[k + 1] *
               cdf(F, succs[first + k].node, d - succs[first + k].shift);
    for (unsigned k = 0; k < m; ++k) {
      const Succ &s = succs[first + k];
      int64_t x = d - s.shift;
      if (x < windows.lo[s.node] || x >= windows.hi[s.node])
        continue;
      pairGrad[pairOffset[first + k] + (x - windows.lo[s.node])] +=
          scale * pre[k] * suf[k + 1];
    }
  };
  for (int64_t d = from; d < std::min(gapLo, end); ++d)
    visit(d);
  for (int64_t d = std::max(gapLo, gapHi); d < end; ++d)
    visit(d);
}

/// Modulo use: dL/dU_t(r) is the hinge's slope (C only, when weighted).
void ExpectedModel::moduloSlopes(double cMres, std::vector<double> &h,
                                 std::vector<double> &hTotal) const {
  if (instance.formulation != Formulation::C || cMres == 0)
    return;
  const int64_t ii = std::max(1u, instance.ii);
  size_t numRes = instance.capacity.size();
  h.assign(numRes * ii, 0.0);
  hTotal.assign(numRes, 0.0);
  for (size_t t = 0; t < numRes; ++t)
    for (int64_t r = 0; r < ii; ++r)
      if (mresUse[t * ii + r] > instance.capacity[t]) {
        h[t * ii + r] = cMres / mresNorm;
        hTotal[t] += cMres / mresNorm;
      }
}

/// Node x's entries of dF: through its step probabilities dP (usage,
/// dependences, modulo use) and directly (live pairs, communication).
void ExpectedModel::nodeGradient(NodeGradient &grad, unsigned x) const {
  int64_t lo = windows.lo[x], hi = windows.hi[x];
  if (lo == hi)
    return;
  std::vector<double> &dF = grad.dF;
  size_t base = windows.offset[x];
  std::vector<double> dP(hi - lo + 2, 0.0);
  if (instance.formulation == Formulation::A) {
    double w = instance.nodes[x].weight;
    for (int64_t d = lo; d <= hi; ++d)
      dP[d - lo] += w * grad.g[d];
  } else {
    for (unsigned k = predPairBegin[x]; k < predPairBegin[x + 1]; ++k) {
      size_t p = predPair[k];
      for (int64_t d = lo; d < hi; ++d)
        dF[base + (d - lo)] += pairGrad[pairOffset[p] + (d - lo)];
    }
  }
  sourceEdgesGradient(grad, x, dP);
  destinationEdgesGradient(grad, x);
  if (!grad.h.empty() && !instance.nodes[x].uses.empty())
    moduloUseGradient(grad, x, dP);
  // P(d) = F(d) - F(d - 1), and F(hi) is fixed at 1.
  for (int64_t d = lo; d < hi; ++d)
    dF[base + (d - lo)] += dP[d - lo] - dP[d - lo + 1];
}

/// Node x as the source of its edges.
void ExpectedModel::sourceEdgesGradient(NodeGradient &grad, unsigned x,
                                        std::vector<double> &dP) const {
  const std::vector<double> &F = grad.F;
  int64_t lo = windows.lo[x], hi = windows.hi[x];
  size_t base = windows.offset[x];
  for (unsigned k = outBegin[x]; k < outBegin[x + 1]; ++k) {
    unsigned e = outEdge[k];
    const Edge &edge = instance.edges[e];
    unsigned v = edge.dst;
    if (v == x)
      continue; // constant in s (see forwardDeps); A has no self edges
    if (grad.depScale != 0)
      for (int64_t d = std::max(lo, windows.lo[v] - delta[e]); d <= hi; ++d)
        dP[d - lo] += grad.depScale * cdf(F, v, d + delta[e]);
    if (instance.formulation == Formulation::A && edge.comm > 0)
      for (int64_t d = lo; d < hi; ++d)
        grad.dF[base + (d - lo)] +=
            grad.cf * instance.alpha * (1 - cdf(F, v, d));
  }
}

/// Node x as the destination of its edges.
void ExpectedModel::destinationEdgesGradient(NodeGradient &grad,
                                             unsigned x) const {
  const std::vector<double> &F = grad.F;
  int64_t lo = windows.lo[x], hi = windows.hi[x];
  size_t base = windows.offset[x];
  for (unsigned k = inBegin[x]; k < inBegin[x + 1]; ++k) {
    unsigned e = inEdge[k];
    const Edge &edge = instance.edges[e];
    unsigned u = edge.src;
    if (u == x)
      continue;
    if (grad.depScale != 0)
      for (int64_t d = std::max(lo, windows.lo[u] + delta[e]);
           d < std::min(hi, windows.hi[u] + delta[e] + 1); ++d)
        grad.dF[base + (d - lo)] += grad.depScale * prob(F, u, d - delta[e]);
    if (instance.formulation == Formulation::A && edge.comm > 0)
      for (int64_t d = lo; d < hi; ++d)
        grad.dF[base + (d - lo)] -= grad.cf * instance.alpha * cdf(F, u, d);
  }
}

/// Node x's modulo use: the hinge slopes of the rows its uses land on.
void ExpectedModel::moduloUseGradient(NodeGradient &grad, unsigned x,
                                      std::vector<double> &dP) const {
  const int64_t ii = std::max(1u, instance.ii);
  int64_t lo = windows.lo[x], hi = windows.hi[x];
  std::vector<double> dQ(ii, 0.0), prefix2;
  for (const Use &use : instance.nodes[x].uses) {
    const double *row = grad.h.data() + use.resource * ii;
    circularPrefix(row, ii, prefix2);
    int64_t wraps = use.duration / ii, rem = use.duration % ii;
    for (int64_t r = 0; r < ii; ++r) {
      double slope = double(wraps) * grad.hTotal[use.resource];
      if (rem)
        slope += circularSum(prefix2, ii, r + use.offset, rem);
      dQ[r] += use.amount * slope;
    }
  }
  for (int64_t d = lo; d <= hi; ++d)
    dP[d - lo] += dQ[floorMod(d, ii)];
}
