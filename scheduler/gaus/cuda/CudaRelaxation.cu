//===- CudaRelaxation.cu - GauS's relaxation on a CUDA device -------------===//
//
// The formulas of Gaussian.cpp and Expected.cpp, in double precision, with
// the instance uploaded once; a call copies (mu, log sigma) in and the term
// values or the gradients out.
//
// Every kernel runs one __host__ __device__ function per item, so the same
// code also runs as host loops (makeCudaRelaxationOnHost, for tests without
// a device). No two threads write one address and every sum is taken in an
// order fixed by the instance, so the device's results do not change from
// run to run:
//   - F, and dL/dF: one thread per window entry (node i, step d).
//   - usage per step: one thread per "explicit" entry (i, d) of a node's
//     live range (A: its window, when it has a weight); a step-major index
//     sums them per step in chunks (a block per chunk), then per step in
//     chunk order. A live range's constant gap (Expected.cpp's difference
//     array) does not depend on F and is summed once, on the host.
//   - the smooth peak: fold (C), mean (the first call fixes tau), max,
//     exponentials, their sum and the softmax, each an item loop or a
//     two-stage block reduction.
//   - dep and comm: one warp per edge, then a two-stage reduction.
//   - modulo use (C): per (node, slot) the folded step mass, per node its
//     circular prefix, per (chunk of one resource's uses, slot) a partial,
//     per slot the chunks in order.
//   - live bytes, backward: one thread per explicit entry writes its cells
//     of the (producer, consumer) gradient buffers, as Expected.cpp does per
//     producer; each consumer's window entry adds its buffers up.
//   - the Gaussian chain: one warp per node.
// Compiled with --fmad=false, the device rounds + - * / as the host does;
// erfc, exp and log differ from glibc's by a few ulps, and sums are taken
// in another order than on the CPU.
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/cuda/CudaRelaxation.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tilepipe::gaus;

namespace {

#define HD __host__ __device__

constexpr unsigned kThreads = 256;   ///< Threads per block, every kernel.
constexpr unsigned kWarp = 32;       ///< Lanes per warp item.
constexpr size_t kChunk = 2048;      ///< Usage entries per chunk.
constexpr size_t kUseChunk = 64;     ///< Modulo uses per chunk.
constexpr size_t kReduceParts = 256; ///< First-stage parts of a reduction.

enum FormCode : int { kFormA = 0, kFormB = 1, kFormC = 2 };

/// Device scalars.
enum Slot : int {
  kTau,
  kMean,
  kTop,
  kSum,
  kPeak,
  kDep,
  kComm,
  kOver,
  kNumSlots
};

//===- Math, as Phi.h and Expected.cpp ----------------------------------===//

HD inline double normalCdfD(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
HD inline double normalPdfD(double x) {
  return 0.3989422804014327 * exp(-0.5 * x * x);
}
HD inline int64_t floorModD(int64_t a, int64_t m) { return ((a % m) + m) % m; }
HD inline int64_t imax(int64_t a, int64_t b) { return a < b ? b : a; }
HD inline int64_t imin(int64_t a, int64_t b) { return b < a ? b : a; }
/// std::max(a, b) on doubles: (a < b) ? b : a.
HD inline double dmax(double a, double b) { return a < b ? b : a; }
/// Sum of q over `len` circular slots from `from` (Expected.cpp).
HD inline double circularSum(const double *prefix2, int64_t ii, int64_t from,
                             int64_t len) {
  int64_t a = floorModD(from, ii);
  return prefix2[a + len] - prefix2[a];
}

//===- The instance and the state, as seen by the item functions --------===//

struct Params {
  unsigned n = 0;
  int form = kFormB;
  int64_t ii = 1; ///< max(1, II).
  int64_t usageLen = 0;
  double alpha = 0;
  // Windows: entry offset[i] + (d - lo[i]); entryNode per entry.
  const int64_t *lo = nullptr, *hi = nullptr;
  const size_t *offset = nullptr;
  const unsigned *entryNode = nullptr;
  // Nodes.
  const double *weight = nullptr, *bytes = nullptr;
  // Edges, with CSR by source and by destination.
  const unsigned *src = nullptr, *dst = nullptr;
  const int64_t *delta = nullptr;
  const double *comm = nullptr;
  const unsigned *outBegin = nullptr, *outEdge = nullptr;
  const unsigned *inBegin = nullptr, *inEdge = nullptr;
  // B, C: deduplicated consumers, self shifts, (producer, consumer) pairs.
  const unsigned *succBegin = nullptr, *succNode = nullptr;
  const int64_t *succShift = nullptr, *selfShift = nullptr;
  const unsigned char *hasLive = nullptr;
  const size_t *pairOffset = nullptr;
  const unsigned *predPairBegin = nullptr, *predPair = nullptr;
  // Explicit usage entries: node i owns [entBegin[i], entBegin[i + 1]),
  // the steps [lo, seg1Hi) then [seg2Lo, seg2Hi).
  const size_t *entBegin = nullptr;
  const int64_t *seg1Hi = nullptr, *seg2Lo = nullptr, *seg2Hi = nullptr;
  const unsigned *entNode = nullptr;
  const int64_t *entStep = nullptr;
  // Step-major index into the entries, cut in chunks within one step.
  const size_t *stepEnt = nullptr, *chunkBegin = nullptr;
  const size_t *stepChunkBegin = nullptr;
  const double *gapUsage = nullptr;
  // C: uses (flattened in node order) and resources.
  const double *capacity = nullptr;
  const unsigned *useBegin = nullptr, *useNode = nullptr, *useRes = nullptr;
  const int64_t *useOffset = nullptr, *useWraps = nullptr, *useRem = nullptr;
  const double *useAmount = nullptr;
  const unsigned *resUse = nullptr;      ///< Uses sorted by resource.
  const size_t *useChunkBegin = nullptr; ///< Chunks of resUse.
  const size_t *resChunkBegin = nullptr; ///< Chunks per resource.
  const unsigned *qNodes = nullptr;      ///< Nodes with uses.
  const unsigned *qIndex = nullptr;      ///< Node -> its row in q.
  // State.
  double *mu = nullptr, *logSigma = nullptr;
  double *inv = nullptr, *low = nullptr, *z = nullptr, *aLo = nullptr,
         *pLo = nullptr, *dZmu = nullptr, *dZls = nullptr;
  double *F = nullptr, *dF = nullptr;
  double *val = nullptr, *cons = nullptr, *partial = nullptr;
  double *usage = nullptr, *folded = nullptr, *softmax = nullptr, *g = nullptr;
  double *pairGrad = nullptr;
  double *edgeDep = nullptr, *edgeComm = nullptr;
  double *q = nullptr, *qPrefix = nullptr, *usePartial = nullptr;
  double *mresUse = nullptr, *over = nullptr;
  double *h = nullptr, *hTotal = nullptr, *hPrefix = nullptr;
  double *gMu = nullptr, *gLogSigma = nullptr;
  double *scal = nullptr;
};

HD inline double cdfAt(const Params &p, unsigned i, int64_t d) {
  int64_t lo = p.lo[i];
  if (d < lo)
    return 0;
  if (d >= p.hi[i])
    return 1;
  return p.F[p.offset[i] + size_t(d - lo)];
}

HD inline double probAt(const Params &p, unsigned i, int64_t d) {
  return cdfAt(p, i, d) - cdfAt(p, i, d - 1);
}

/// The explicit entry of (i, d), or -1.
HD inline long long entryIndex(const Params &p, unsigned i, int64_t d) {
  int64_t lo = p.lo[i], h1 = p.seg1Hi[i];
  if (d >= lo && d < h1)
    return (long long)(p.entBegin[i] + size_t(d - lo));
  int64_t l2 = p.seg2Lo[i], h2 = p.seg2Hi[i];
  if (d >= l2 && d < h2)
    return (long long)(p.entBegin[i] + size_t(h1 - lo) + size_t(d - l2));
  return -1;
}

/// Two sums a warp item accumulates.
struct Lanes {
  double a = 0, b = 0;
};

//===- Forward items ----------------------------------------------------===//

/// Per node: the truncation's constants (Gaussian.cpp, both passes).
struct NodeConst {
  Params p;
  HD void operator()(size_t idx) const {
    unsigned i = unsigned(idx);
    int64_t lo = p.lo[i], hi = p.hi[i];
    if (lo == hi)
      return;
    double mu = p.mu[i];
    double inv = exp(-p.logSigma[i]);
    double aLo = (double(lo) - 0.5 - mu) * inv;
    double aHi = (double(hi) + 0.5 - mu) * inv;
    double low = normalCdfD(aLo);
    double z = normalCdfD(aHi) - low;
    double pLo = normalPdfD(aLo), pHi = normalPdfD(aHi);
    p.inv[i] = inv;
    p.low[i] = low;
    p.z[i] = z;
    p.aLo[i] = aLo;
    p.pLo[i] = pLo;
    p.dZmu[i] = (-pHi + pLo) * inv;
    p.dZls[i] = -aHi * pHi + aLo * pLo;
  }
};

/// Per window entry: F.
struct Cdf {
  Params p;
  HD void operator()(size_t e) const {
    unsigned i = p.entryNode[e];
    int64_t lo = p.lo[i], hi = p.hi[i];
    int64_t d = lo + int64_t(e - p.offset[i]);
    if (d == hi) {
      p.F[e] = 1;
      return;
    }
    p.F[e] = (normalCdfD((double(d) + 0.5 - p.mu[i]) * p.inv[i]) - p.low[i]) /
             p.z[i];
  }
};

/// Per explicit entry: its usage (A: weight * P; B, C: bytes * live), and
/// for B, C the product over the consumers, which backward reuses.
struct EntryValue {
  Params p;
  HD void operator()(size_t e) const {
    unsigned i = p.entNode[e];
    int64_t d = p.entStep[e];
    if (p.form == kFormA) {
      p.val[e] = p.weight[i] * probAt(p, i, d);
      return;
    }
    double c = 1;
    for (unsigned k = p.succBegin[i]; k < p.succBegin[i + 1] && c != 0; ++k)
      c *= cdfAt(p, p.succNode[k], d - p.succShift[k]);
    p.cons[e] = c;
    p.val[e] =
        p.bytes[i] * (cdfAt(p, i, d) - cdfAt(p, i, d - p.selfShift[i]) * c);
  }
};

struct SumOp {
  static HD double identity() { return 0; }
  static HD double combine(double a, double b) { return a + b; }
};
struct MaxOp {
  static HD double identity() { return -HUGE_VAL; }
  static HD double combine(double a, double b) { return a < b ? b : a; }
};

/// Segment c: the explicit entries of one chunk.
struct ChunkSum : SumOp {
  Params p;
  HD void bounds(size_t c, size_t &a, size_t &b) const {
    a = p.chunkBegin[c];
    b = p.chunkBegin[c + 1];
  }
  HD double value(size_t k) const { return p.val[p.stepEnt[k]]; }
  HD void finish(size_t c, double s) const { p.partial[c] = s; }
};

/// Per step: its chunks in order, plus the constant gaps.
struct StepSum {
  Params p;
  HD void operator()(size_t d) const {
    double s = 0;
    for (size_t c = p.stepChunkBegin[d]; c < p.stepChunkBegin[d + 1]; ++c)
      s += p.partial[c];
    p.usage[d] = s + p.gapUsage[d];
  }
};

/// C: usage folded modulo II, steps in increasing order (as the CPU).
struct Fold {
  Params p;
  HD void operator()(size_t r) const {
    double s = 0;
    for (int64_t d = int64_t(r); d < p.usageLen; d += p.ii)
      s += p.usage[d];
    p.folded[r] = s;
  }
};

/// Segment c of a reduction over x in `parts` equal pieces.
template <typename Op> struct Range : Op {
  const double *x = nullptr;
  size_t count = 0, parts = 1;
  double *out = nullptr;
  HD void bounds(size_t c, size_t &a, size_t &b) const {
    a = count * c / parts;
    b = count * (c + 1) / parts;
  }
  HD double value(size_t k) const { return x[k]; }
  HD void finish(size_t c, double s) const { out[c] = s; }
};

struct SetTau {
  Params p;
  double tauRel;
  size_t len;
  HD void operator()(size_t) const {
    double mean = p.scal[kMean] / double(len > 0 ? len : 1);
    p.scal[kTau] = tauRel * dmax(mean, 1e-9);
  }
};

struct Exp {
  Params p;
  const double *x;
  HD void operator()(size_t k) const {
    p.softmax[k] = exp((x[k] - p.scal[kTop]) / p.scal[kTau]);
  }
};

struct Normalize {
  Params p;
  HD void operator()(size_t k) const { p.softmax[k] /= p.scal[kSum]; }
};

struct Peak {
  Params p;
  HD void operator()(size_t) const {
    p.scal[kPeak] = p.scal[kTop] + p.scal[kTau] * log(p.scal[kSum]);
  }
};

/// Per edge: P(violated) (a) and, A, the expected crossings (b).
struct Edges {
  Params p;
  HD Lanes partial(size_t e, unsigned lane, unsigned lanes) const {
    Lanes acc;
    unsigned u = p.src[e], v = p.dst[e];
    int64_t dl = p.delta[e];
    if (u == v) { // s <= s + delta: decided by the edge alone.
      if (lane == 0)
        acc.a = dl >= 0 ? 1 : 0;
    } else {
      int64_t from = imax(p.lo[u], p.lo[v] - dl), hiU = p.hi[u];
      for (int64_t d = from + lane; d <= hiU; d += lanes)
        acc.a += probAt(p, u, d) * cdfAt(p, v, d + dl);
    }
    if (p.form == kFormA && p.comm[e] > 0) {
      int64_t hiU = p.hi[u], loV = p.lo[v], hiV = p.hi[v];
      for (int64_t x = p.lo[u] + lane; x <= imin(hiU, hiV - 1); x += lanes)
        acc.b += cdfAt(p, u, x) * (1 - cdfAt(p, v, x));
      if (lane == 0)
        acc.b += double(imax(0, imin(loV, hiV) - hiU - 1));
      for (int64_t x = imax(hiU + 1, loV) + lane; x < hiV; x += lanes)
        acc.b += 1 - cdfAt(p, v, x);
    }
    return acc;
  }
  HD void finish(size_t e, Lanes s) const {
    p.edgeDep[e] = s.a;
    p.edgeComm[e] = s.b;
  }
};

/// C, per (node with uses, slot): the step mass folded modulo II.
struct ModQ {
  Params p;
  HD void operator()(size_t idx) const {
    size_t qi = idx / size_t(p.ii);
    int64_t r = int64_t(idx % size_t(p.ii));
    unsigned i = p.qNodes[qi];
    int64_t lo = p.lo[i], hi = p.hi[i];
    double s = 0;
    for (int64_t d = lo + floorModD(r - lo, p.ii); d <= hi; d += p.ii)
      s += probAt(p, i, d);
    p.q[idx] = s;
  }
};

/// C, per node with uses: the circular prefix of its folded mass.
struct ModPrefix {
  Params p;
  HD void operator()(size_t qi) const {
    int64_t ii = p.ii;
    const double *q = p.q + qi * size_t(ii);
    double *pre = p.qPrefix + qi * size_t(2 * ii + 1);
    pre[0] = 0;
    for (int64_t x = 0; x < 2 * ii; ++x)
      pre[x + 1] = pre[x] + q[x % ii];
  }
};

/// C, per (chunk of one resource's uses, slot): the uses' expected hold.
struct ModUse {
  Params p;
  HD void operator()(size_t idx) const {
    int64_t ii = p.ii;
    size_t c = idx / size_t(ii);
    int64_t r = int64_t(idx % size_t(ii));
    double s = 0;
    for (size_t k = p.useChunkBegin[c]; k < p.useChunkBegin[c + 1]; ++k) {
      unsigned u = p.resUse[k];
      const double *pre =
          p.qPrefix + size_t(p.qIndex[p.useNode[u]]) * size_t(2 * ii + 1);
      int64_t rem = p.useRem[u];
      double held = double(p.useWraps[u]);
      if (rem)
        held += circularSum(pre, ii, r - p.useOffset[u] - rem + 1, rem);
      s += p.useAmount[u] * held;
    }
    p.usePartial[idx] = s;
  }
};

/// C, per (resource, slot): the chunks in order, and the overuse.
struct ModSum {
  Params p;
  HD void operator()(size_t slot) const {
    int64_t ii = p.ii;
    size_t t = slot / size_t(ii), r = slot % size_t(ii);
    double s = 0;
    for (size_t c = p.resChunkBegin[t]; c < p.resChunkBegin[t + 1]; ++c)
      s += p.usePartial[c * size_t(ii) + r];
    p.mresUse[slot] = s;
    p.over[slot] = dmax(0.0, s - p.capacity[t]);
  }
};

//===- Backward items ---------------------------------------------------===//

/// Per step: dL/dusage, the peak's softmax.
struct Grad {
  Params p;
  double cf;
  HD void operator()(size_t d) const {
    p.g[d] =
        cf * (p.form == kFormC ? p.softmax[int64_t(d) % p.ii] : p.softmax[d]);
  }
};

/// C, per slot: the hinge's slope.
struct Hinge {
  Params p;
  double slope;
  HD void operator()(size_t slot) const {
    size_t t = slot / size_t(p.ii);
    p.h[slot] = p.mresUse[slot] > p.capacity[t] ? slope : 0;
  }
};

/// C, per resource: the slopes' total and circular prefix.
struct HingeRows {
  Params p;
  double slope;
  HD void operator()(size_t t) const {
    int64_t ii = p.ii;
    const double *row = p.h + t * size_t(ii);
    const double *use = p.mresUse + t * size_t(ii);
    double total = 0;
    for (int64_t r = 0; r < ii; ++r)
      if (use[r] > p.capacity[t])
        total += slope;
    p.hTotal[t] = total;
    double *pre = p.hPrefix + t * size_t(2 * ii + 1);
    pre[0] = 0;
    for (int64_t x = 0; x < 2 * ii; ++x)
      pre[x + 1] = pre[x] + row[x % ii];
  }
};

/// B, C, per explicit entry (i, d): d/dF_j of -b F_i(d - s0) prod_j F_j,
/// into the pair buffers (prefix products stored, then suffixes applied).
struct Pairs {
  Params p;
  HD void operator()(size_t e) const {
    unsigned i = p.entNode[e];
    int64_t d = p.entStep[e];
    unsigned first = p.succBegin[i], last = p.succBegin[i + 1];
    if (first == last)
      return;
    double scale = -p.g[d] * p.bytes[i] * cdfAt(p, i, d - p.selfShift[i]);
    if (scale == 0)
      return;
    double pre = 1;
    for (unsigned k = first; k < last; ++k) {
      unsigned j = p.succNode[k];
      int64_t x = d - p.succShift[k];
      if (x >= p.lo[j] && x < p.hi[j])
        p.pairGrad[p.pairOffset[k] + size_t(x - p.lo[j])] = pre;
      pre = pre * cdfAt(p, j, x);
    }
    double suf = 1;
    for (unsigned k = last; k-- > first;) {
      unsigned j = p.succNode[k];
      int64_t x = d - p.succShift[k];
      if (x >= p.lo[j] && x < p.hi[j]) {
        double *cell = p.pairGrad + p.pairOffset[k] + size_t(x - p.lo[j]);
        *cell = scale * *cell * suf;
      }
      suf = suf * cdfAt(p, j, x);
    }
  }
};

/// Per window entry: dL/dF (Expected.cpp's node loop, for one entry).
struct DF {
  Params p;
  double cf, depScale;
  bool hinge;

  /// dL/dP_x(d), d in [lo, hi].
  HD double dP(unsigned x, int64_t d) const {
    double r = 0;
    if (p.form == kFormA)
      r += p.weight[x] * p.g[d];
    if (depScale != 0)
      for (unsigned k = p.outBegin[x]; k < p.outBegin[x + 1]; ++k) {
        unsigned e = p.outEdge[k], v = p.dst[e];
        if (v == x)
          continue;
        int64_t dl = p.delta[e];
        if (d >= imax(p.lo[x], p.lo[v] - dl))
          r += depScale * cdfAt(p, v, d + dl);
      }
    if (hinge && p.useBegin[x] < p.useBegin[x + 1]) {
      int64_t ii = p.ii, slot = floorModD(d, ii);
      double dq = 0;
      for (unsigned u = p.useBegin[x]; u < p.useBegin[x + 1]; ++u) {
        unsigned t = p.useRes[u];
        double slope = double(p.useWraps[u]) * p.hTotal[t];
        if (p.useRem[u])
          slope += circularSum(p.hPrefix + size_t(t) * size_t(2 * ii + 1), ii,
                               slot + p.useOffset[u], p.useRem[u]);
        dq += p.useAmount[u] * slope;
      }
      r += dq;
    }
    return r;
  }

  HD void operator()(size_t e) const {
    unsigned x = p.entryNode[e];
    int64_t lo = p.lo[x], hi = p.hi[x];
    int64_t d = lo + int64_t(e - p.offset[x]);
    if (d == hi) { // F(hi) is fixed at 1.
      p.dF[e] = 0;
      return;
    }
    double acc = 0;
    if (p.form != kFormA) {
      // As a producer: b F_x(d) and -b F_x(d' - s0) prod_j F_j(d').
      if (p.hasLive[x]) {
        double b = p.bytes[x];
        if (d < p.seg1Hi[x])
          acc += p.g[d] * b;
        int64_t later = d + p.selfShift[x];
        long long k = entryIndex(p, x, later);
        if (k >= 0)
          acc -= p.g[later] * b * p.cons[k];
      }
      // As a consumer: the producers' pair buffers.
      for (unsigned k = p.predPairBegin[x]; k < p.predPairBegin[x + 1]; ++k)
        acc += p.pairGrad[p.pairOffset[p.predPair[k]] + size_t(d - lo)];
    }
    if (p.form == kFormA)
      for (unsigned k = p.outBegin[x]; k < p.outBegin[x + 1]; ++k) {
        unsigned ed = p.outEdge[k], v = p.dst[ed];
        if (v == x)
          continue;
        if (p.comm[ed] > 0)
          acc += cf * p.alpha * (1 - cdfAt(p, v, d));
      }
    for (unsigned k = p.inBegin[x]; k < p.inBegin[x + 1]; ++k) {
      unsigned ed = p.inEdge[k], u = p.src[ed];
      if (u == x)
        continue;
      int64_t dl = p.delta[ed];
      if (depScale != 0 && d >= imax(lo, p.lo[u] + dl) &&
          d < imin(hi, p.hi[u] + dl + 1))
        acc += depScale * probAt(p, u, d - dl);
      if (p.form == kFormA && p.comm[ed] > 0)
        acc -= cf * p.alpha * cdfAt(p, u, d);
    }
    acc += dP(x, d) - dP(x, d + 1);
    p.dF[e] = acc;
  }
};

/// Per node: dL/dmu and dL/dlog sigma (Gaussian.cpp).
struct GaussBack {
  Params p;
  HD Lanes partial(size_t idx, unsigned lane, unsigned lanes) const {
    Lanes acc;
    unsigned i = unsigned(idx);
    int64_t lo = p.lo[i], hi = p.hi[i];
    if (lo == hi)
      return acc;
    double mu = p.mu[i], inv = p.inv[i], z = p.z[i];
    double aLo = p.aLo[i], pLo = p.pLo[i], dZmu = p.dZmu[i], dZls = p.dZls[i];
    size_t base = p.offset[i];
    for (int64_t d = lo + lane; d < hi; d += lanes) {
      size_t e = base + size_t(d - lo);
      double g = p.dF[e];
      double a = (double(d) + 0.5 - mu) * inv;
      double pdf = normalPdfD(a);
      double f = p.F[e];
      double dAmu = (-pdf + pLo) * inv, dAls = -a * pdf + aLo * pLo;
      acc.a += g * (dAmu - f * dZmu) / z;
      acc.b += g * (dAls - f * dZls) / z;
    }
    return acc;
  }
  HD void finish(size_t i, Lanes s) const {
    p.gMu[i] = s.a;
    p.gLogSigma[i] = s.b;
  }
};

//===- Kernels and their host emulation ---------------------------------===//

template <typename Op> __global__ void eachKernel(Op op, size_t count) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count)
    op(i);
}

template <typename Op> __global__ void warpKernel(Op op, size_t count) {
  size_t item = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
  unsigned lane = threadIdx.x % kWarp;
  if (item >= count) // uniform over the warp
    return;
  Lanes s = op.partial(item, lane, kWarp);
  for (unsigned o = kWarp / 2; o > 0; o >>= 1) {
    s.a += __shfl_down_sync(0xffffffffu, s.a, o);
    s.b += __shfl_down_sync(0xffffffffu, s.b, o);
  }
  if (lane == 0)
    op.finish(item, s);
}

/// One block per segment; a fixed tree over the block's threads.
template <typename Op> __global__ void segmentKernel(Op op) {
  __shared__ double sh[kThreads];
  size_t c = blockIdx.x, a, b;
  op.bounds(c, a, b);
  double s = Op::identity();
  for (size_t k = a + threadIdx.x; k < b; k += kThreads)
    s = Op::combine(s, op.value(k));
  sh[threadIdx.x] = s;
  __syncthreads();
  for (unsigned w = kThreads / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w)
      sh[threadIdx.x] = Op::combine(sh[threadIdx.x], sh[threadIdx.x + w]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    op.finish(c, sh[0]);
}

unsigned blocksFor(size_t threads) {
  return unsigned((threads + kThreads - 1) / kThreads);
}

/// Device or host: memory, copies and launches.
class Exec {
public:
  explicit Exec(bool host) : host(host) {
    if (!host)
      note(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
           "cudaStreamCreate");
  }
  ~Exec() {
    for (void *block : blocks) {
      if (host)
        std::free(block);
      else
        cudaFree(block);
    }
    if (stream)
      cudaStreamDestroy(stream);
  }
  Exec(const Exec &) = delete;
  Exec &operator=(const Exec &) = delete;

  bool failed() const { return !error.empty(); }
  const std::string &getError() const { return error; }

  /// Zeroed storage for `count` Ts; null when count is 0 or on failure.
  template <typename T> T *alloc(size_t count) {
    if (count == 0 || failed())
      return nullptr;
    void *ptr = nullptr;
    if (host) {
      ptr = std::calloc(count, sizeof(T));
      if (!ptr)
        error = "out of host memory";
    } else if (note(cudaMalloc(&ptr, count * sizeof(T)), "cudaMalloc")) {
      note(cudaMemsetAsync(ptr, 0, count * sizeof(T), stream),
           "cudaMemsetAsync");
    } else {
      ptr = nullptr;
    }
    if (ptr)
      blocks.push_back(ptr);
    return static_cast<T *>(ptr);
  }
  template <typename T> T *upload(const std::vector<T> &values) {
    T *ptr = alloc<T>(values.size());
    if (ptr)
      copyIn(ptr, values.data(), values.size());
    return ptr;
  }
  template <typename T> void copyIn(T *dst, const T *src, size_t count) {
    if (!count)
      return;
    if (host)
      std::memcpy(dst, src, count * sizeof(T));
    else
      note(cudaMemcpyAsync(dst, src, count * sizeof(T), cudaMemcpyHostToDevice,
                           stream),
           "cudaMemcpyAsync");
  }
  template <typename T> void copyOut(T *dst, const T *src, size_t count) {
    if (!count)
      return;
    if (host)
      std::memcpy(dst, src, count * sizeof(T));
    else
      note(cudaMemcpyAsync(dst, src, count * sizeof(T), cudaMemcpyDeviceToHost,
                           stream),
           "cudaMemcpyAsync");
  }
  template <typename T> void zero(T *ptr, size_t count) {
    if (!count)
      return;
    if (host)
      std::memset(ptr, 0, count * sizeof(T));
    else
      note(cudaMemsetAsync(ptr, 0, count * sizeof(T), stream),
           "cudaMemsetAsync");
  }
  /// Waits for the device; false (with getError()) on any failure so far.
  bool sync() {
    if (!host) {
      note(cudaGetLastError(), "a kernel launch");
      note(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }
    return !failed();
  }

  /// op(i) for i in [0, count).
  template <typename Op> void each(size_t count, const Op &op) {
    if (!count)
      return;
    if (host) {
      for (size_t i = 0; i < count; ++i)
        op(i);
      return;
    }
    eachKernel<<<blocksFor(count), kThreads, 0, stream>>>(op, count);
  }
  /// op.finish(item, sum over lanes of op.partial(item, lane, 32)).
  template <typename Op> void warps(size_t count, const Op &op) {
    if (!count)
      return;
    if (host) {
      for (size_t item = 0; item < count; ++item) {
        Lanes total;
        for (unsigned lane = 0; lane < kWarp; ++lane) {
          Lanes s = op.partial(item, lane, kWarp);
          total.a += s.a;
          total.b += s.b;
        }
        op.finish(item, total);
      }
      return;
    }
    warpKernel<<<blocksFor(count * kWarp), kThreads, 0, stream>>>(op, count);
  }
  /// op.finish(c, combine over op.bounds(c) of op.value(k)).
  template <typename Op> void segments(size_t count, const Op &op) {
    if (!count)
      return;
    if (host) {
      for (size_t c = 0; c < count; ++c) {
        size_t a, b;
        op.bounds(c, a, b);
        double s = Op::identity();
        for (size_t k = a; k < b; ++k)
          s = Op::combine(s, op.value(k));
        op.finish(c, s);
      }
      return;
    }
    segmentKernel<<<unsigned(count), kThreads, 0, stream>>>(op);
  }
  /// *dst = the sum (or max) of x[0, count), in a fixed order.
  template <typename Op>
  void reduce(const double *x, size_t count, double *dst, double *scratch) {
    size_t parts = std::min(
        kReduceParts, std::max<size_t>(1, (count + kThreads - 1) / kThreads));
    Range<Op> first;
    first.x = x;
    first.count = count;
    first.parts = parts;
    first.out = scratch;
    segments(parts, first);
    Range<Op> second;
    second.x = scratch;
    second.count = parts;
    second.parts = 1;
    second.out = dst;
    segments(1, second);
  }

private:
  bool note(cudaError_t err, const char *what) {
    if (err == cudaSuccess)
      return true;
    if (error.empty())
      error = std::string(what) + ": " + cudaGetErrorString(err);
    return false;
  }

  bool host;
  cudaStream_t stream = nullptr;
  std::vector<void *> blocks;
  std::string error;
};

//===- The relaxation ---------------------------------------------------===//

class CudaRelaxation final : public Relaxation {
public:
  CudaRelaxation(const Instance &instance, const Frames &frames,
                 TermOptions options, bool host);
  /// Whether the constructor succeeded; else the reason.
  bool ready(std::string *why) const {
    const std::string &reason = failure.empty() ? exec.getError() : failure;
    if (reason.empty())
      return true;
    if (why)
      *why = reason;
    return false;
  }
  TermValues forward(const std::vector<double> &mu,
                     const std::vector<double> &logSigma) override;
  void backward(double cf, double cDep, double cMres, std::vector<double> &gMu,
                std::vector<double> &gLogSigma) override;
  std::vector<double> cdfs() override;

private:
  void build(const Instance &instance, const Frames &frames);
  void finish(const char *what) {
    if (exec.sync())
      return;
    std::fprintf(stderr, "tilepipe: GauS CUDA relaxation, %s: %s\n", what,
                 exec.getError().c_str());
    std::abort();
  }

  Exec exec;
  Params p;
  std::string failure;
  TermOptions options;
  Formulation form;
  double alpha;
  unsigned n = 0, m = 0;
  size_t W = 0, E = 0, numChunks = 0, numUseChunks = 0, numQ = 0, numRes = 0,
         numPairCells = 0;
  int64_t ii = 1, usageLen = 0;
  double norm = 1, mresNorm = 1;
  bool tauSet = false;
  double *scratch = nullptr;
};

CudaRelaxation::CudaRelaxation(const Instance &instance, const Frames &frames,
                               TermOptions options, bool host)
    : exec(host), options(options), form(instance.formulation),
      alpha(instance.alpha) {
  if (!exec.failed())
    build(instance, frames);
}

void CudaRelaxation::build(const Instance &instance, const Frames &frames) {
  n = unsigned(instance.nodes.size());
  m = unsigned(instance.edges.size());
  bool live = form != Formulation::A;
  ii = std::max<int64_t>(1, instance.ii);
  if (frames.asap.size() != n || frames.alap.size() != n) {
    failure = "the frames do not match the nodes";
    return;
  }
  for (unsigned i = 0; i < n; ++i)
    if (frames.asap[i] < 0 || frames.alap[i] < frames.asap[i]) {
      failure = "node " + std::to_string(i) + " has the frame [" +
                std::to_string(frames.asap[i]) + ", " +
                std::to_string(frames.alap[i]) + "]";
      return;
    }
  for (const Edge &edge : instance.edges)
    if (edge.src >= n || edge.dst >= n) {
      failure = "an edge names a node out of range";
      return;
    }

  // Windows (Expected.h).
  Windows windows(frames);
  const std::vector<int64_t> &lo = windows.lo, &hi = windows.hi;
  W = windows.size();
  std::vector<unsigned> entryNode(W);
  for (unsigned i = 0; i < n; ++i)
    std::fill(entryNode.begin() + windows.offset[i],
              entryNode.begin() + windows.offset[i + 1], i);

  // Edges, as ExpectedModel's constructor.
  std::vector<unsigned> outBegin(n + 1, 0), inBegin(n + 1, 0), outEdge(m),
      inEdge(m), src(m), dst(m);
  std::vector<int64_t> delta(m);
  std::vector<double> comm(m);
  for (const Edge &e : instance.edges) {
    ++outBegin[e.src + 1];
    ++inBegin[e.dst + 1];
  }
  for (unsigned i = 0; i < n; ++i) {
    outBegin[i + 1] += outBegin[i];
    inBegin[i + 1] += inBegin[i];
  }
  {
    std::vector<unsigned> outFill(outBegin.begin(), outBegin.end() - 1),
        inFill(inBegin.begin(), inBegin.end() - 1);
    for (unsigned e = 0; e < m; ++e) {
      const Edge &edge = instance.edges[e];
      outEdge[outFill[edge.src]++] = e;
      inEdge[inFill[edge.dst]++] = e;
      int64_t latency = options.printedDeps ? 0 : edge.latency;
      delta[e] = latency - int64_t(edge.distance) * int64_t(instance.ii) - 1;
      src[e] = edge.src;
      dst[e] = edge.dst;
      comm[e] = edge.comm;
    }
  }

  // Consumers, deduplicated with the largest shift (as the CPU).
  std::vector<unsigned> succBegin(n + 1, 0), succNode;
  std::vector<int64_t> succShift, selfShift(n, 0);
  std::vector<unsigned char> hasLive(n, 0);
  usageLen = instance.depth;
  if (live) {
    struct Succ {
      unsigned node;
      int64_t shift;
    };
    std::vector<Succ> local;
    for (unsigned i = 0; i < n; ++i) {
      local.clear();
      for (unsigned k = outBegin[i]; k < outBegin[i + 1]; ++k) {
        const Edge &edge = instance.edges[outEdge[k]];
        local.push_back(
            {edge.dst, int64_t(edge.distance) * int64_t(instance.ii)});
      }
      std::sort(local.begin(), local.end(), [](const Succ &a, const Succ &b) {
        return a.node != b.node ? a.node < b.node : a.shift > b.shift;
      });
      for (size_t k = 0; k < local.size(); ++k) {
        if (local[k].node == i) {
          selfShift[i] = std::max(selfShift[i], local[k].shift);
          if (local[k].shift > 0)
            hasLive[i] = 1;
          continue;
        }
        if (k == 0 || local[k].node != local[k - 1].node) {
          hasLive[i] = 1;
          succNode.push_back(local[k].node);
          succShift.push_back(local[k].shift);
          usageLen = std::max(usageLen, hi[local[k].node] + local[k].shift + 1);
        }
      }
      usageLen = std::max(usageLen, hi[i] + selfShift[i] + 1);
      succBegin[i + 1] = unsigned(succNode.size());
    }
  }
  size_t numPairs = succNode.size();
  std::vector<size_t> pairOffset(numPairs + 1, 0);
  for (size_t k = 0; k < numPairs; ++k)
    pairOffset[k + 1] = pairOffset[k] + windows.width(succNode[k]);
  numPairCells = pairOffset.back();
  std::vector<unsigned> predPairBegin(n + 1, 0), predPair(numPairs);
  for (unsigned node : succNode)
    ++predPairBegin[node + 1];
  for (unsigned i = 0; i < n; ++i)
    predPairBegin[i + 1] += predPairBegin[i];
  {
    std::vector<unsigned> fill(predPairBegin.begin(), predPairBegin.end() - 1);
    for (size_t k = 0; k < numPairs; ++k)
      predPair[fill[succNode[k]]++] = unsigned(k);
  }

  // Explicit entries and the constant gaps (Expected.cpp's liveRange).
  std::vector<int64_t> seg1Hi(n), seg2Lo(n), seg2Hi(n);
  std::vector<size_t> entBegin(n + 1, 0);
  std::vector<double> diff(size_t(usageLen) + 1, 0.0);
  for (unsigned i = 0; i < n; ++i) {
    seg1Hi[i] = lo[i];
    seg2Lo[i] = seg2Hi[i] = hi[i] + 1;
    if (!live) {
      if (instance.nodes[i].weight != 0)
        seg1Hi[i] = hi[i] + 1;
    } else if (hasLive[i]) {
      int64_t s0 = selfShift[i];
      int64_t l2 = INT64_MIN, end = hi[i] + s0;
      for (unsigned k = succBegin[i]; k < succBegin[i + 1]; ++k) {
        l2 = std::max(l2, lo[succNode[k]] + succShift[k]);
        end = std::max(end, hi[succNode[k]] + succShift[k]);
      }
      int64_t gapLo = hi[i] + 1;
      int64_t gapHi = std::min(std::max(l2, lo[i] + s0), end);
      seg1Hi[i] = std::max(lo[i], std::min(gapLo, end));
      seg2Lo[i] = std::max(gapLo, gapHi);
      seg2Hi[i] = std::max(seg2Lo[i], end);
      if (gapLo < gapHi) {
        diff[gapLo] += instance.nodes[i].bytes;
        diff[gapHi] -= instance.nodes[i].bytes;
      }
    }
    int64_t count = (seg1Hi[i] - lo[i]) + (seg2Hi[i] - seg2Lo[i]);
    int64_t last = seg2Hi[i] > seg2Lo[i] ? seg2Hi[i] : seg1Hi[i];
    if (count > 0 && last > usageLen) { // the CPU would write past usage
      failure = "node " + std::to_string(i) + "'s frame ends past the depth";
      return;
    }
    entBegin[i + 1] = entBegin[i] + size_t(count);
  }
  E = entBegin[n];
  std::vector<double> gapUsage(usageLen, 0.0);
  {
    double run = 0;
    for (int64_t d = 0; d < usageLen; ++d)
      gapUsage[d] = (run += diff[d]);
  }
  std::vector<unsigned> entNode(E);
  std::vector<int64_t> entStep(E);
  std::vector<size_t> stepStart(size_t(usageLen) + 1, 0);
  for (unsigned i = 0; i < n; ++i) {
    size_t e = entBegin[i];
    for (int64_t d = lo[i]; d < seg1Hi[i]; ++d, ++e) {
      entNode[e] = i;
      entStep[e] = d;
      ++stepStart[d + 1];
    }
    for (int64_t d = seg2Lo[i]; d < seg2Hi[i]; ++d, ++e) {
      entNode[e] = i;
      entStep[e] = d;
      ++stepStart[d + 1];
    }
  }
  for (int64_t d = 0; d < usageLen; ++d)
    stepStart[d + 1] += stepStart[d];
  std::vector<size_t> stepEnt(E);
  {
    std::vector<size_t> fill(stepStart.begin(), stepStart.end() - 1);
    for (size_t e = 0; e < E; ++e)
      stepEnt[fill[entStep[e]]++] = e;
  }
  std::vector<size_t> chunkBegin, stepChunkBegin(size_t(usageLen) + 1, 0);
  for (int64_t d = 0; d < usageLen; ++d) {
    stepChunkBegin[d] = chunkBegin.size();
    for (size_t at = stepStart[d]; at < stepStart[d + 1]; at += kChunk)
      chunkBegin.push_back(at);
  }
  numChunks = chunkBegin.size();
  stepChunkBegin[usageLen] = numChunks;
  chunkBegin.push_back(E);

  // Normalisers.
  norm = std::max<double>(1, m);
  double demand = 0;
  for (const Node &node : instance.nodes)
    for (const Use &use : node.uses)
      demand += use.amount * double(use.duration);
  mresNorm = std::max(1.0, demand);

  // Modulo uses (C).
  std::vector<unsigned> useBegin(n + 1, 0), useNode, useRes, resUse, qNodes,
      qIndex(n, 0);
  std::vector<int64_t> useOffset, useWraps, useRem;
  std::vector<double> useAmount;
  std::vector<size_t> useChunkBegin, resChunkBegin;
  numRes = instance.capacity.size();
  bool modulo = form == Formulation::C;
  if (modulo) {
    for (unsigned i = 0; i < n; ++i) {
      const std::vector<Use> &uses = instance.nodes[i].uses;
      if (!uses.empty()) {
        qIndex[i] = unsigned(qNodes.size());
        qNodes.push_back(i);
      }
      for (const Use &use : uses) {
        if (use.resource >= numRes) {
          failure = "node " + std::to_string(i) + " uses resource " +
                    std::to_string(use.resource) + " of " +
                    std::to_string(numRes);
          return;
        }
        useNode.push_back(i);
        useRes.push_back(use.resource);
        useOffset.push_back(use.offset);
        useWraps.push_back(use.duration / ii);
        useRem.push_back(use.duration % ii);
        useAmount.push_back(use.amount);
      }
      useBegin[i + 1] = unsigned(useNode.size());
    }
    numQ = qNodes.size();
    // Uses by resource, node order kept; chunks never span two resources.
    std::vector<size_t> resStart(numRes + 1, 0);
    for (unsigned t : useRes)
      ++resStart[t + 1];
    for (size_t t = 0; t < numRes; ++t)
      resStart[t + 1] += resStart[t];
    resUse.resize(useRes.size());
    std::vector<size_t> fill(resStart.begin(), resStart.end() - 1);
    for (size_t u = 0; u < useRes.size(); ++u)
      resUse[fill[useRes[u]]++] = unsigned(u);
    resChunkBegin.assign(numRes + 1, 0);
    for (size_t t = 0; t < numRes; ++t) {
      resChunkBegin[t] = useChunkBegin.size();
      for (size_t at = resStart[t]; at < resStart[t + 1]; at += kUseChunk)
        useChunkBegin.push_back(at);
    }
    numUseChunks = useChunkBegin.size();
    resChunkBegin[numRes] = numUseChunks;
    useChunkBegin.push_back(resUse.size());
  } else {
    for (unsigned i = 0; i < n; ++i)
      useBegin[i + 1] = 0;
    numRes = 0;
  }

  // Upload.
  std::vector<double> weight(n), bytes(n);
  for (unsigned i = 0; i < n; ++i) {
    weight[i] = instance.nodes[i].weight;
    bytes[i] = instance.nodes[i].bytes;
  }
  p.n = n;
  p.form = form == Formulation::A   ? kFormA
           : form == Formulation::B ? kFormB
                                    : kFormC;
  p.ii = ii;
  p.usageLen = usageLen;
  p.alpha = alpha;
  p.lo = exec.upload(lo);
  p.hi = exec.upload(hi);
  p.offset = exec.upload(windows.offset);
  p.entryNode = exec.upload(entryNode);
  p.weight = exec.upload(weight);
  p.bytes = exec.upload(bytes);
  p.src = exec.upload(src);
  p.dst = exec.upload(dst);
  p.delta = exec.upload(delta);
  p.comm = exec.upload(comm);
  p.outBegin = exec.upload(outBegin);
  p.outEdge = exec.upload(outEdge);
  p.inBegin = exec.upload(inBegin);
  p.inEdge = exec.upload(inEdge);
  p.succBegin = exec.upload(succBegin);
  p.succNode = exec.upload(succNode);
  p.succShift = exec.upload(succShift);
  p.selfShift = exec.upload(selfShift);
  p.hasLive = exec.upload(hasLive);
  p.pairOffset = exec.upload(pairOffset);
  p.predPairBegin = exec.upload(predPairBegin);
  p.predPair = exec.upload(predPair);
  p.entBegin = exec.upload(entBegin);
  p.seg1Hi = exec.upload(seg1Hi);
  p.seg2Lo = exec.upload(seg2Lo);
  p.seg2Hi = exec.upload(seg2Hi);
  p.entNode = exec.upload(entNode);
  p.entStep = exec.upload(entStep);
  p.stepEnt = exec.upload(stepEnt);
  p.chunkBegin = exec.upload(chunkBegin);
  p.stepChunkBegin = exec.upload(stepChunkBegin);
  p.gapUsage = exec.upload(gapUsage);
  p.capacity = exec.upload(instance.capacity);
  p.useBegin = exec.upload(useBegin);
  p.useNode = exec.upload(useNode);
  p.useRes = exec.upload(useRes);
  p.useOffset = exec.upload(useOffset);
  p.useWraps = exec.upload(useWraps);
  p.useRem = exec.upload(useRem);
  p.useAmount = exec.upload(useAmount);
  p.resUse = exec.upload(resUse);
  p.useChunkBegin = exec.upload(useChunkBegin);
  p.resChunkBegin = exec.upload(resChunkBegin);
  p.qNodes = exec.upload(qNodes);
  p.qIndex = exec.upload(qIndex);

  size_t slots = numRes * size_t(ii);
  p.mu = exec.alloc<double>(n);
  p.logSigma = exec.alloc<double>(n);
  p.inv = exec.alloc<double>(n);
  p.low = exec.alloc<double>(n);
  p.z = exec.alloc<double>(n);
  p.aLo = exec.alloc<double>(n);
  p.pLo = exec.alloc<double>(n);
  p.dZmu = exec.alloc<double>(n);
  p.dZls = exec.alloc<double>(n);
  p.F = exec.alloc<double>(W);
  p.dF = exec.alloc<double>(W);
  p.val = exec.alloc<double>(E);
  p.cons = live ? exec.alloc<double>(E) : nullptr;
  p.partial = exec.alloc<double>(numChunks);
  p.usage = exec.alloc<double>(usageLen);
  p.folded = modulo ? exec.alloc<double>(ii) : nullptr;
  p.softmax = exec.alloc<double>(modulo ? ii : usageLen);
  p.g = exec.alloc<double>(usageLen);
  p.pairGrad = exec.alloc<double>(numPairCells);
  p.edgeDep = exec.alloc<double>(m);
  p.edgeComm = exec.alloc<double>(m);
  p.q = exec.alloc<double>(numQ * size_t(ii));
  p.qPrefix = exec.alloc<double>(numQ * size_t(2 * ii + 1));
  p.usePartial = exec.alloc<double>(numUseChunks * size_t(ii));
  p.mresUse = exec.alloc<double>(slots);
  p.over = exec.alloc<double>(slots);
  p.h = exec.alloc<double>(slots);
  p.hTotal = exec.alloc<double>(numRes);
  p.hPrefix = exec.alloc<double>(numRes * size_t(2 * ii + 1));
  p.gMu = exec.alloc<double>(n);
  p.gLogSigma = exec.alloc<double>(n);
  p.scal = exec.alloc<double>(kNumSlots);
  scratch = exec.alloc<double>(kReduceParts);
  exec.sync();
}

TermValues CudaRelaxation::forward(const std::vector<double> &mu,
                                   const std::vector<double> &logSigma) {
  exec.copyIn(p.mu, mu.data(), n);
  exec.copyIn(p.logSigma, logSigma.data(), n);
  exec.each(n, NodeConst{p});
  exec.each(W, Cdf{p});
  exec.each(E, EntryValue{p});
  exec.segments(numChunks, ChunkSum{{}, p});
  exec.each(size_t(usageLen), StepSum{p});
  const double *x = p.usage;
  size_t len = size_t(usageLen);
  if (form == Formulation::C) {
    exec.each(size_t(ii), Fold{p});
    x = p.folded;
    len = size_t(ii);
  }
  if (!tauSet) { // tau is fixed by the first evaluation's mean.
    exec.reduce<SumOp>(x, len, p.scal + kMean, scratch);
    exec.each(1, SetTau{p, options.tauRel, len});
    tauSet = true;
  }
  exec.reduce<MaxOp>(x, len, p.scal + kTop, scratch);
  exec.each(len, Exp{p, x});
  exec.reduce<SumOp>(p.softmax, len, p.scal + kSum, scratch);
  exec.each(len, Normalize{p});
  exec.each(1, Peak{p});
  exec.warps(m, Edges{p});
  exec.reduce<SumOp>(p.edgeDep, m, p.scal + kDep, scratch);
  if (form == Formulation::A)
    exec.reduce<SumOp>(p.edgeComm, m, p.scal + kComm, scratch);
  size_t slots = numRes * size_t(ii);
  if (form == Formulation::C) {
    exec.each(numQ * size_t(ii), ModQ{p});
    exec.each(numQ, ModPrefix{p});
    exec.each(numUseChunks * size_t(ii), ModUse{p});
    exec.each(slots, ModSum{p});
    exec.reduce<SumOp>(p.over, slots, p.scal + kOver, scratch);
  }
  double scal[kNumSlots];
  exec.copyOut(scal, p.scal, kNumSlots);
  finish("forward");

  TermValues values;
  values.peak = scal[kPeak];
  values.f = values.peak;
  if (form == Formulation::A) {
    values.comm = scal[kComm];
    values.f += alpha * values.comm;
  }
  values.dep = scal[kDep] / norm;
  if (form == Formulation::C)
    values.mres = scal[kOver] / mresNorm;
  return values;
}

void CudaRelaxation::backward(double cf, double cDep, double cMres,
                              std::vector<double> &gMu,
                              std::vector<double> &gLogSigma) {
  exec.each(size_t(usageLen), Grad{p, cf});
  bool hinge = form == Formulation::C && cMres != 0 && numRes > 0;
  if (hinge) {
    double slope = cMres / mresNorm;
    exec.each(numRes * size_t(ii), Hinge{p, slope});
    exec.each(numRes, HingeRows{p, slope});
  }
  if (form != Formulation::A && numPairCells) {
    exec.zero(p.pairGrad, numPairCells);
    exec.each(E, Pairs{p});
  }
  exec.each(W, DF{p, cf, cDep / norm, hinge});
  exec.warps(n, GaussBack{p});
  gMu.assign(n, 0.0);
  gLogSigma.assign(n, 0.0);
  exec.copyOut(gMu.data(), p.gMu, n);
  exec.copyOut(gLogSigma.data(), p.gLogSigma, n);
  finish("backward");
}

std::vector<double> CudaRelaxation::cdfs() {
  std::vector<double> F(W);
  exec.copyOut(F.data(), p.F, W);
  finish("cdfs");
  return F;
}

std::unique_ptr<Relaxation> make(const Instance &instance, const Frames &frames,
                                 TermOptions options, bool host,
                                 std::string *why) {
  auto relaxation =
      std::make_unique<CudaRelaxation>(instance, frames, options, host);
  if (!relaxation->ready(why))
    return nullptr;
  return relaxation;
}

} // namespace

bool tilepipe::gaus::cudaAvailable(std::string *why) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();
    if (why)
      *why = err != cudaSuccess ? std::string("no usable CUDA device (") +
                                      cudaGetErrorString(err) + ")"
                                : std::string("no CUDA device");
    return false;
  }
  // A kernel image for this device: built for sm_90 and sm_100 (plus PTX).
  cudaFuncAttributes attributes;
  err = cudaFuncGetAttributes(&attributes, eachKernel<Cdf>);
  if (err != cudaSuccess) {
    cudaGetLastError();
    int device = 0, major = 0, minor = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    if (why)
      *why = "the CUDA relaxation has no code for this device (compute "
             "capability " +
             std::to_string(major) + "." + std::to_string(minor) +
             "): " + cudaGetErrorString(err);
    return false;
  }
  return true;
}

std::unique_ptr<Relaxation>
tilepipe::gaus::makeCudaRelaxation(const Instance &instance,
                                   const Frames &frames, TermOptions options,
                                   std::string *why) {
  if (!cudaAvailable(why))
    return nullptr;
  return make(instance, frames, options, /*host=*/false, why);
}

std::unique_ptr<Relaxation> tilepipe::gaus::makeCudaRelaxationOnHost(
    const Instance &instance, const Frames &frames, TermOptions options,
    std::string *why) {
  return make(instance, frames, options, /*host=*/true, why);
}
