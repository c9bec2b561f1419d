//===- ForceDirected.cpp - the force-directed scheduling baseline ---------===//
//
// Force-directed scheduling (Paulin and Knight, 1989): each op is uniform
// over its frame; the distribution graph DG is the expected usage per step
// (A: weight; B: live bytes; C: use per resource and modulo slot, over the
// capacity). The force of fixing op i at d is sum_x DG(x) dp(x) over the
// op's own change and over each neighbour whose frame the fix narrows.
// Every force is a few closed forms over prefix sums of DG (Fenwick trees
// for A and C, whose DG changes by a constant over a frame; blocks of
// prefix sums of DG and x * DG for B, whose DG changes by ramps), so one
// (op, step) costs O(degree) and one op's best step O(width * degree).
//
// Globally least force, lazily: a heap holds each op's best force from
// when it was last computed. The top is recomputed if a fix happened since
// (stale); if it is still no worse than the next key it is fixed, else it
// goes back with the fresh key. Forces move little per fix, so about two
// ops are recomputed per fix instead of all of them, which is what makes a
// 57k-node graph take a second instead of hours.
//
// Out of time, the ops still free go by the list rule (ListScheduler.cpp,
// through BaselineSupport.h).
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/BaselineSupport.h"
#include "scheduler/gaus/Baselines.h"
#include "scheduler/gaus/Legalize.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <queue>

using namespace tilepipe::gaus;
using namespace tilepipe::gaus::detail;

namespace {

//===- Distribution graphs --------------------------------------------===//

/// A step profile with its prefix sums P0(x) = sum_{y<x} g(y) and
/// P1(x) = sum_{y<x} y g(y). Blocks keep an update to the blocks it touches
/// plus one pass over the block totals, not the whole profile.
class Profile {
public:
  void reset(int64_t length) {
    len = length;
    blocks = (len + kBlock - 1) / kBlock;
    val.assign(len, 0.0);
    in0.assign(len, 0.0);
    in1.assign(len, 0.0);
    tot0.assign(blocks, 0.0);
    tot1.assign(blocks, 0.0);
    blk0.assign(blocks + 1, 0.0);
    blk1.assign(blocks + 1, 0.0);
    dirty.assign(blocks, 1);
    dirtyList.clear();
    for (int64_t b = 0; b < blocks; ++b)
      dirtyList.push_back(b);
  }
  void add(int64_t x, double v) {
    val[x] += v;
    int64_t b = x / kBlock;
    if (!dirty[b]) {
      dirty[b] = 1;
      dirtyList.push_back(b);
    }
  }
  void refresh() {
    if (dirtyList.empty())
      return;
    int64_t first = blocks;
    for (int64_t b : dirtyList) {
      dirty[b] = 0;
      first = std::min(first, b);
      double s0 = 0, s1 = 0;
      for (int64_t x = b * kBlock, e = std::min(len, x + kBlock); x < e; ++x) {
        in0[x] = s0;
        in1[x] = s1;
        s0 += val[x];
        s1 += double(x) * val[x];
      }
      tot0[b] = s0;
      tot1[b] = s1;
    }
    dirtyList.clear();
    for (int64_t b = first; b < blocks; ++b) {
      blk0[b + 1] = blk0[b] + tot0[b];
      blk1[b + 1] = blk1[b] + tot1[b];
    }
  }
  double p0(int64_t x) const {
    return x >= len ? blk0[blocks] : blk0[x / kBlock] + in0[x];
  }
  double p1(int64_t x) const {
    return x >= len ? blk1[blocks] : blk1[x / kBlock] + in1[x];
  }

private:
  static constexpr int64_t kBlock = 64;
  int64_t len = 0, blocks = 0;
  std::vector<double> val, in0, in1, tot0, tot1, blk0, blk1;
  std::vector<uint8_t> dirty;
  std::vector<int64_t> dirtyList;
};

/// Range add and prefix sum in O(log n) each (two Fenwick trees over the
/// differences): A's and C's distribution graphs change by a constant over
/// a whole frame at a time, and frames can be thousands of steps wide.
class RangeSum {
public:
  void reset(int64_t length) {
    len = length;
    b1.assign(len + 1, 0.0);
    b2.assign(len + 1, 0.0);
  }
  /// Adds v to every entry of [l, r).
  void add(int64_t l, int64_t r, double v) {
    if (l >= r)
      return;
    update(l, v);
    update(r, -v);
  }
  /// The sum of the entries of [0, x).
  double prefix(int64_t x) const {
    double s1 = 0, s2 = 0;
    for (int64_t i = std::min(x, len); i > 0; i -= i & -i) {
      s1 += b1[i];
      s2 += b2[i];
    }
    return double(std::min(x, len)) * s1 - s2;
  }

private:
  void update(int64_t x, double v) {
    for (int64_t i = x + 1; i <= len; i += i & -i) {
      b1[i] += v;
      b2[i] += v * double(x);
    }
  }
  int64_t len = 0;
  std::vector<double> b1, b2;
};

/// P(X <= x) for X uniform on [a, b].
double uniformCdf(int64_t a, int64_t b, int64_t x) {
  if (x < a)
    return 0;
  if (x >= b)
    return 1;
  return double(x - a + 1) / double(b - a + 1);
}

struct Best {
  double force;
  int64_t step;
};

/// The least force over an op's frame. Steps within rounding of each other
/// tie, and a tie goes to the step nearest the frame's middle: an op with
/// nothing to choose between (weightless, far from the peak) would
/// otherwise pin itself and, through the edges, its whole cone of
/// predecessors or successors to one end of the frame, which no force sees.
struct Chooser {
  Best best{std::numeric_limits<double>::infinity(), 0};
  double mid;
  double bestSecond = 0, bestDistance = 0;
  bool any = false;
  Chooser(int64_t lo, int64_t hi) : mid(0.5 * double(lo + hi)) {}
  /// `second` decides among tied forces before the distance to the middle.
  void offer(double force, int64_t d, double second = 0) {
    double distance = std::abs(double(d) - mid);
    double tol = 1e-9 * (1 + std::abs(best.force));
    bool better = !any || force < best.force - tol;
    if (!better && force <= best.force + tol)
      better =
          second != bestSecond ? second < bestSecond : distance < bestDistance;
    if (better) {
      best = {force, d};
      bestSecond = second;
      bestDistance = distance;
      any = true;
    }
  }
};

class ForceDirected {
public:
  ForceDirected(const Instance &instance, const Adjacency &adj,
                const Frames &frames);
  /// Fixes ops by least force; false when the deadline stopped it first.
  bool run(std::chrono::steady_clock::time_point deadline);
  const std::vector<int64_t> &getLo() const { return lo; }
  const std::vector<int64_t> &getHi() const { return hi; }
  bool isBroken() const { return broken; }

private:
  Best bestStep(unsigned i);
  Best bestStepA(unsigned i);
  Best bestStepB(unsigned i);
  Best bestStepC(unsigned i);
  void fix(unsigned i, int64_t d);
  void narrow(unsigned x, int64_t newLo, int64_t newHi);

  // A: w / target * mean DG over the frame.
  double costA(unsigned j, int64_t l, int64_t h) const;
  // B: sum_x DG(x) CDF_[a,b](x), less a constant that cancels in forces.
  double rampSum(int64_t a, int64_t b) const;
  void addRamp(int64_t a, int64_t b, int64_t na, int64_t nb, double scale);
  void endOf(unsigned v, int64_t &c, int64_t &e) const;
  // C: sum over uses of amount / capacity * mean folded DG.
  double costC(unsigned j, int64_t l, int64_t h) const;
  void addUses(unsigned x, int64_t l, int64_t h, double sign);
  void cyclicAdd(unsigned r, int64_t start, int64_t length, double v);
  double cyclicSum(unsigned r, int64_t start, int64_t length) const;
  bool seatFits(unsigned i, int64_t d) const;
  void seat(unsigned x);

  const Instance &instance;
  const Adjacency &adj;
  Formulation form;
  unsigned n;
  std::vector<int64_t> lo, hi;
  std::vector<uint8_t> fixed;
  bool broken = false;

  // A.
  RangeSum weights;
  double weightScale = 1;
  // B.
  Profile dg;
  // B: the frame of each value's last read (max over consumers of their
  // lo, and of their hi), standing in for the distribution of that max.
  std::vector<int64_t> endLo, endHi;
  // C.
  int64_t ii = 1;
  unsigned numRes = 0;
  std::vector<RangeSum> modUse;
  std::vector<double> resScale;
  /// The reservation table of the ops already fixed (resource * II + row):
  /// FDS only offers an op the steps where it still fits, so the legaliser
  /// usually gets a legal schedule and has nothing to repair.
  std::vector<double> table;

  // Frames changed by the current fix, with what they were.
  std::vector<unsigned> changed;
  std::vector<int64_t> oldLo, oldHi;
  std::vector<uint8_t> isChanged;
};

ForceDirected::ForceDirected(const Instance &instance, const Adjacency &adj,
                             const Frames &frames)
    : instance(instance), adj(adj), form(instance.formulation),
      n(instance.nodes.size()), lo(frames.asap), hi(frames.alap) {
  fixed.assign(n, 0);
  for (unsigned i = 0; i < n; ++i)
    fixed[i] = lo[i] == hi[i];
  oldLo.assign(n, 0);
  oldHi.assign(n, 0);
  isChanged.assign(n, 0);
  if (form == Formulation::A) {
    double total = 0, heaviest = 0;
    for (const Node &node : instance.nodes) {
      total += node.weight;
      heaviest = std::max(heaviest, node.weight);
    }
    double target = std::max(heaviest, total / double(instance.depth));
    // P&K's force is in weight squared; over the balanced target it is in
    // weight, the unit of the peak it stands in for.
    weightScale = target > 0 ? 1 / target : 1;
    weights.reset(instance.depth);
    for (unsigned i = 0; i < n; ++i)
      weights.add(lo[i], hi[i] + 1,
                  instance.nodes[i].weight / double(hi[i] - lo[i] + 1));
  } else if (form == Formulation::B) {
    dg.reset(instance.depth);
    endLo.assign(n, kNone);
    endHi.assign(n, kNone);
    for (unsigned v = 0; v < n; ++v) {
      if (adj.out[v].empty())
        continue;
      endOf(v, endLo[v], endHi[v]);
      double b = instance.nodes[v].bytes;
      for (int64_t x = lo[v]; x < endHi[v]; ++x)
        dg.add(x, b * (uniformCdf(lo[v], hi[v], x) -
                       uniformCdf(endLo[v], endHi[v], x)));
    }
  } else {
    ii = std::max<int64_t>(1, instance.ii);
    numRes = instance.capacity.size();
    modUse.resize(numRes);
    for (RangeSum &use : modUse)
      use.reset(ii);
    resScale.assign(numRes, 1.0);
    for (unsigned r = 0; r < numRes; ++r)
      if (instance.capacity[r] > 0)
        resScale[r] = 1 / instance.capacity[r];
    table.assign(numRes * ii, 0.0);
    for (unsigned i = 0; i < n; ++i) {
      addUses(i, lo[i], hi[i], 1);
      if (fixed[i])
        seat(i);
    }
  }
}

//===- A ---------------------------------------------------------------===//

double ForceDirected::costA(unsigned j, int64_t l, int64_t h) const {
  double w = instance.nodes[j].weight;
  if (w == 0)
    return 0;
  return w * weightScale * (weights.prefix(h + 1) - weights.prefix(l)) /
         double(h - l + 1);
}

Best ForceDirected::bestStepA(unsigned i) {
  double base = costA(i, lo[i], hi[i]);
  std::vector<double> outBase, inBase;
  for (const Arc &a : adj.out[i])
    outBase.push_back(costA(a.node, lo[a.node], hi[a.node]));
  for (const Arc &a : adj.in[i])
    inBase.push_back(costA(a.node, lo[a.node], hi[a.node]));
  // A's crossings are left out of the force: being linear in the means,
  // they always pull to an end of the frame and drag the op's whole cone
  // of predecessors or successors there, which the weight forces of the
  // immediate neighbours do not see (it doubled to quintupled the peak on
  // the dense GS-Schedule graphs). Among tied forces the crossings with
  // the neighbours already fixed decide.
  std::vector<std::pair<int64_t, unsigned>> fixedComm;
  for (const std::vector<Arc> *arcs : {&adj.out[i], &adj.in[i]})
    for (const Arc &a : *arcs)
      if (a.comm && fixed[a.node])
        fixedComm.push_back({lo[a.node], a.comm});
  Chooser choose(lo[i], hi[i]);
  for (int64_t d = lo[i]; d <= hi[i]; ++d) {
    double f = costA(i, d, d) - base;
    for (size_t k = 0; k < adj.out[i].size(); ++k) {
      const Arc &a = adj.out[i][k];
      int64_t nl = d + a.off;
      if (nl > lo[a.node])
        f += costA(a.node, nl, hi[a.node]) - outBase[k];
    }
    for (size_t k = 0; k < adj.in[i].size(); ++k) {
      const Arc &a = adj.in[i][k];
      int64_t nh = d - a.off;
      if (nh < hi[a.node])
        f += costA(a.node, lo[a.node], nh) - inBase[k];
    }
    double crossings = 0;
    for (const auto &[step, count] : fixedComm)
      crossings += double(count) * double(std::abs(d - step));
    choose.offer(f, d, crossings);
  }
  return choose.best;
}

//===- B ---------------------------------------------------------------===//
//
// A value v is live at x iff s_v <= x < E_v, E_v the latest consumer's
// start. E_v > s_v always, so {E_v <= x} lies inside {s_v <= x} and
// P(live at x) = F_v(x) - G_v(x) exactly, F and G the CDFs of s_v and E_v,
// whatever their joint law. The one approximation is G: E_v is taken
// uniform over [max_j lo_j, max_j hi_j] instead of the law of a maximum.
// Both CDFs are ramps, so sum_x DG(x) CDF(x) is a closed form in P0, P1.

double ForceDirected::rampSum(int64_t a, int64_t b) const {
  double width = double(b - a + 1);
  double ramp = (dg.p1(b) - dg.p1(a)) - double(a - 1) * (dg.p0(b) - dg.p0(a));
  return ramp / width - dg.p0(b);
}

void ForceDirected::endOf(unsigned v, int64_t &c, int64_t &e) const {
  c = e = kNone;
  for (const Arc &a : adj.out[v]) {
    c = std::max(c, lo[a.node] + a.shift);
    e = std::max(e, hi[a.node] + a.shift);
  }
}

/// DG += scale * (CDF_[na,nb] - CDF_[a,b]), a frame that only narrowed, so
/// the difference lives on [a, b).
void ForceDirected::addRamp(int64_t a, int64_t b, int64_t na, int64_t nb,
                            double scale) {
  for (int64_t x = a; x < b; ++x)
    dg.add(x, scale * (uniformCdf(na, nb, x) - uniformCdf(a, b, x)));
}

Best ForceDirected::bestStepB(unsigned i) {
  const std::vector<Node> &nodes = instance.nodes;
  // Own value: fixing i moves its start; the consumers it pushes raise the
  // earliest last read to at least d + the largest gap.
  bool own = !adj.out[i].empty();
  double ownOld = 0;
  int64_t maxOff = kNone;
  if (own) {
    ownOld = rampSum(lo[i], hi[i]) - rampSum(endLo[i], endHi[i]);
    for (const Arc &a : adj.out[i])
      maxOff = std::max(maxOff, a.off + a.shift);
  }
  // Inputs: i becomes a fixed reader (moving their last read), and their
  // producers' frames may narrow (moving their start).
  struct Input {
    int64_t excLo, excHi;
    double old;
  };
  std::vector<Input> inputs;
  for (const Arc &a : adj.in[i]) {
    unsigned u = a.node;
    Input in{kNone, kNone, 0};
    for (const Arc &c : adj.out[u])
      if (c.node != i) {
        in.excLo = std::max(in.excLo, lo[c.node] + c.shift);
        in.excHi = std::max(in.excHi, hi[c.node] + c.shift);
      }
    in.old = rampSum(lo[u], hi[u]) - rampSum(endLo[u], endHi[u]);
    inputs.push_back(in);
  }
  // Successors: their own values start later when their frames narrow.
  // The second hop is left out: the last reads of what a narrowed
  // successor or input itself reads move too.
  std::vector<double> succOld;
  for (const Arc &a : adj.out[i])
    succOld.push_back(
        adj.out[a.node].empty() ? 0.0 : rampSum(lo[a.node], hi[a.node]));

  Chooser choose(lo[i], hi[i]);
  for (int64_t d = lo[i]; d <= hi[i]; ++d) {
    double f = 0;
    if (own) {
      int64_t c = std::max(endLo[i], d + maxOff);
      f += nodes[i].bytes * (rampSum(d, d) - rampSum(c, endHi[i]) - ownOld);
    }
    for (size_t k = 0; k < adj.in[i].size(); ++k) {
      const Arc &a = adj.in[i][k];
      unsigned u = a.node;
      int64_t h = std::min(hi[u], d - a.off);
      int64_t read = d + a.shift;
      int64_t c = std::max(inputs[k].excLo, read);
      int64_t e = std::max(inputs[k].excHi, read);
      f += nodes[u].bytes * (rampSum(lo[u], h) - rampSum(c, e) - inputs[k].old);
    }
    for (size_t k = 0; k < adj.out[i].size(); ++k) {
      const Arc &a = adj.out[i][k];
      unsigned j = a.node;
      int64_t l = d + a.off;
      if (l > lo[j] && !adj.out[j].empty())
        f += nodes[j].bytes * (rampSum(l, hi[j]) - succOld[k]);
    }
    choose.offer(f, d);
  }
  return choose.best;
}

//===- C ---------------------------------------------------------------===//

void ForceDirected::cyclicAdd(unsigned r, int64_t start, int64_t length,
                              double v) {
  RangeSum &use = modUse[r];
  if (length >= ii)
    use.add(0, ii, v * double(length / ii));
  int64_t rest = length % ii, s = floorMod(start, ii);
  use.add(s, std::min(ii, s + rest), v);
  use.add(0, s + rest - ii, v);
}

double ForceDirected::cyclicSum(unsigned r, int64_t start,
                                int64_t length) const {
  const RangeSum &use = modUse[r];
  double sum = double(length / ii) * use.prefix(ii);
  int64_t rest = length % ii, s = floorMod(start, ii);
  sum += use.prefix(std::min(ii, s + rest)) - use.prefix(s);
  if (s + rest > ii)
    sum += use.prefix(s + rest - ii);
  return sum;
}

bool ForceDirected::seatFits(unsigned i, int64_t d) const {
  for (const Use &use : instance.nodes[i].uses) {
    if (use.resource >= numRes || use.duration <= 0)
      continue;
    int64_t turns = use.duration / ii, rest = use.duration % ii;
    for (int64_t t = 0, e = std::min(use.duration, ii); t < e; ++t) {
      double need = use.amount * double(turns + (t < rest ? 1 : 0));
      if (!fits(table[use.resource * ii + floorMod(d + use.offset + t, ii)] +
                    need,
                instance.capacity[use.resource]))
        return false;
    }
  }
  return true;
}

void ForceDirected::seat(unsigned x) {
  for (const Use &use : instance.nodes[x].uses) {
    if (use.resource >= numRes || use.duration <= 0)
      continue;
    int64_t turns = use.duration / ii, rest = use.duration % ii;
    for (int64_t t = 0, e = std::min(use.duration, ii); t < e; ++t)
      table[use.resource * ii + floorMod(lo[x] + use.offset + t, ii)] +=
          use.amount * double(turns + (t < rest ? 1 : 0));
  }
}

double ForceDirected::costC(unsigned j, int64_t l, int64_t h) const {
  double c = 0;
  int64_t width = h - l + 1;
  for (const Use &use : instance.nodes[j].uses) {
    if (use.resource >= numRes || use.duration <= 0)
      continue;
    double scale = resScale[use.resource] * use.amount / double(width);
    int64_t turns = use.duration / ii, rest = use.duration % ii;
    for (int64_t t = 0, e = std::min(use.duration, ii); t < e; ++t)
      c += scale * double(turns + (t < rest ? 1 : 0)) *
           cyclicSum(use.resource, l + use.offset + t, width);
  }
  return c;
}

void ForceDirected::addUses(unsigned x, int64_t l, int64_t h, double sign) {
  int64_t width = h - l + 1;
  for (const Use &use : instance.nodes[x].uses) {
    if (use.resource >= numRes || use.duration <= 0)
      continue;
    double a = sign * use.amount / double(width);
    int64_t turns = use.duration / ii, rest = use.duration % ii;
    for (int64_t t = 0, e = std::min(use.duration, ii); t < e; ++t)
      cyclicAdd(use.resource, l + use.offset + t, width,
                a * double(turns + (t < rest ? 1 : 0)));
  }
}

Best ForceDirected::bestStepC(unsigned i) {
  double base = costC(i, lo[i], hi[i]);
  std::vector<double> outBase, inBase;
  for (const Arc &a : adj.out[i])
    outBase.push_back(costC(a.node, lo[a.node], hi[a.node]));
  for (const Arc &a : adj.in[i])
    inBase.push_back(costC(a.node, lo[a.node], hi[a.node]));
  Chooser choose(lo[i], hi[i]), seated(lo[i], hi[i]);
  for (int64_t d = lo[i]; d <= hi[i]; ++d) {
    double f = costC(i, d, d) - base;
    for (size_t k = 0; k < adj.out[i].size(); ++k) {
      const Arc &a = adj.out[i][k];
      int64_t nl = d + a.off;
      if (nl > lo[a.node])
        f += costC(a.node, nl, hi[a.node]) - outBase[k];
    }
    for (size_t k = 0; k < adj.in[i].size(); ++k) {
      const Arc &a = adj.in[i][k];
      int64_t nh = d - a.off;
      if (nh < hi[a.node])
        f += costC(a.node, lo[a.node], nh) - inBase[k];
    }
    choose.offer(f, d);
    if (seatFits(i, d))
      seated.offer(f, d);
  }
  // No step with room: the legaliser will have to move something.
  return seated.any ? seated.best : choose.best;
}

//===- The loop ----------------------------------------------------------===//

Best ForceDirected::bestStep(unsigned i) {
  if (form == Formulation::B)
    dg.refresh();
  switch (form) {
  case Formulation::A:
    return bestStepA(i);
  case Formulation::B:
    return bestStepB(i);
  case Formulation::C:
    return bestStepC(i);
  }
  return {0, lo[i]};
}

void ForceDirected::narrow(unsigned x, int64_t newLo, int64_t newHi) {
  if (!isChanged[x]) {
    isChanged[x] = 1;
    oldLo[x] = lo[x];
    oldHi[x] = hi[x];
    changed.push_back(x);
  }
  lo[x] = newLo;
  hi[x] = newHi;
}

void ForceDirected::fix(unsigned i, int64_t d) {
  changed.clear();
  narrow(i, d, d);
  // Bounds propagation over difference constraints reaches the exact
  // frames again (the longest paths from the fixed starts), so the frames
  // stay those of some legal schedule.
  std::vector<unsigned> work{i};
  while (!work.empty() && !broken) {
    unsigned x = work.back();
    work.pop_back();
    for (const Arc &a : adj.out[x])
      if (lo[x] + a.off > lo[a.node]) {
        narrow(a.node, lo[x] + a.off, hi[a.node]);
        work.push_back(a.node);
      }
    for (const Arc &a : adj.in[x])
      if (hi[x] - a.off < hi[a.node]) {
        narrow(a.node, lo[a.node], hi[x] - a.off);
        work.push_back(a.node);
      }
    broken |= lo[x] > hi[x];
  }
  for (unsigned x : changed)
    broken |= lo[x] > hi[x];
  if (broken)
    return;

  if (form == Formulation::B) {
    std::vector<unsigned> ends;
    for (unsigned x : changed) {
      if (!adj.out[x].empty())
        addRamp(oldLo[x], oldHi[x], lo[x], hi[x], instance.nodes[x].bytes);
      for (const Arc &a : adj.in[x])
        ends.push_back(a.node);
    }
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    for (unsigned v : ends) {
      int64_t c, e;
      endOf(v, c, e);
      if (c == endLo[v] && e == endHi[v])
        continue;
      addRamp(endLo[v], endHi[v], c, e, -instance.nodes[v].bytes);
      endLo[v] = c;
      endHi[v] = e;
    }
  }
  for (unsigned x : changed) {
    isChanged[x] = 0;
    fixed[x] = lo[x] == hi[x];
    if (form == Formulation::A) {
      double w = instance.nodes[x].weight;
      weights.add(oldLo[x], oldHi[x] + 1, -w / double(oldHi[x] - oldLo[x] + 1));
      weights.add(lo[x], hi[x] + 1, w / double(hi[x] - lo[x] + 1));
    } else if (form == Formulation::C) {
      addUses(x, oldLo[x], oldHi[x], -1);
      addUses(x, lo[x], hi[x], 1);
      if (fixed[x])
        seat(x);
    }
  }
}

struct Entry {
  double force;
  unsigned node;
  int64_t step;
  uint64_t stamp;
  bool operator>(const Entry &o) const {
    return force != o.force ? force > o.force : node > o.node;
  }
};

bool ForceDirected::run(std::chrono::steady_clock::time_point deadline) {
  using Clock = std::chrono::steady_clock;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  unsigned tick = 0;
  auto late = [&] { return (++tick & 31) == 0 && Clock::now() >= deadline; };
  if (Clock::now() >= deadline)
    return false;
  for (unsigned i = 0; i < n; ++i) {
    if (fixed[i])
      continue;
    if (late())
      return false;
    Best b = bestStep(i);
    heap.push({b.force, i, b.step, 0});
  }
  uint64_t fixes = 0;
  while (!heap.empty() && !broken) {
    if (late())
      return false;
    Entry e = heap.top();
    heap.pop();
    if (fixed[e.node])
      continue;
    if (e.stamp != fixes) {
      Best b = bestStep(e.node);
      e = {b.force, e.node, b.step, fixes};
      while (!heap.empty() && fixed[heap.top().node])
        heap.pop();
      if (!heap.empty() && e > heap.top()) {
        heap.push(e);
        continue;
      }
    }
    fix(e.node, e.step);
    ++fixes;
  }
  return true;
}

} // namespace

std::optional<Steps> tilepipe::gaus::forceDirectedSchedule(
    const Instance &instance, const Frames &frames,
    std::chrono::steady_clock::time_point deadline, bool &exhausted) {
  exhausted = false;
  if (!wellFormed(instance, frames))
    return std::nullopt;
  Adjacency adj(instance);
  ForceDirected fds(instance, adj, frames);
  exhausted = !fds.run(deadline);
  if (fds.isBroken())
    return std::nullopt;
  if (instance.formulation == Formulation::C) {
    // The legaliser takes the starts as lower bounds and only moves ops
    // later, so a table FDS filled too early for the ops with the least
    // room may not seat; pulling the starts toward ASAP by quarters gives
    // it the room back (the last is the list scheduler's seed).
    constexpr int64_t kPulls = 4;
    const std::vector<int64_t> &starts = fds.getLo();
    std::optional<Steps> steps = legalize(instance, frames, starts);
    for (int64_t k = 1; k <= kPulls && !steps; ++k) {
      Steps wanted(starts.size());
      for (size_t i = 0; i < wanted.size(); ++i)
        wanted[i] = starts[i] - (starts[i] - frames.asap[i]) * k / kPulls;
      steps = legalize(instance, frames, wanted);
    }
    return checked(instance, std::move(steps));
  }
  if (!exhausted)
    return checked(instance, fds.getLo());
  // Out of time: the ops still free go by the list rule inside the frames
  // the fixed ones left them.
  return checked(instance, listAcyclic(instance, adj, fds.getLo(), fds.getHi(),
                                       peakFloor(instance, adj)));
}
