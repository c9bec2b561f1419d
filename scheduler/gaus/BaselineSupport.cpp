//===- BaselineSupport.cpp - what the list and FDS baselines share --------===//
//
// The merged adjacency both baselines walk (parallel edges folded into one
// arc, self edges left to the legaliser and the evaluator), and the checks
// of their inputs and results (BaselineSupport.h).
//
//===----------------------------------------------------------------------===//

#include "scheduler/gaus/BaselineSupport.h"
#include "scheduler/gaus/Objective.h"

#include <algorithm>

namespace tilepipe::gaus::detail {

Adjacency::Adjacency(const Instance &instance) {
  unsigned n = instance.nodes.size();
  int64_t ii = instance.ii;
  out.resize(n);
  in.resize(n);
  commIn.assign(n, 0);
  commOut.assign(n, 0);
  struct Raw {
    unsigned src, dst;
    int64_t off, shift;
    unsigned comm;
  };
  std::vector<Raw> raw;
  raw.reserve(instance.edges.size());
  for (const Edge &e : instance.edges) {
    // A self edge bounds nothing a frame can express; the legaliser and the
    // evaluator see it.
    if (e.src == e.dst)
      continue;
    if (e.comm > 0) {
      ++commOut[e.src];
      ++commIn[e.dst];
    }
    int64_t shift = int64_t(e.distance) * ii;
    raw.push_back({e.src, e.dst, e.latency - shift, shift, e.comm > 0});
  }
  std::sort(raw.begin(), raw.end(), [](const Raw &a, const Raw &b) {
    return a.src != b.src ? a.src < b.src : a.dst < b.dst;
  });
  for (size_t k = 0; k < raw.size();) {
    Raw merged = raw[k];
    for (++k;
         k < raw.size() && raw[k].src == merged.src && raw[k].dst == merged.dst;
         ++k) {
      merged.off = std::max(merged.off, raw[k].off);
      merged.shift = std::max(merged.shift, raw[k].shift);
      merged.comm += raw[k].comm;
    }
    out[merged.src].push_back(
        {merged.dst, merged.off, merged.shift, merged.comm});
    in[merged.dst].push_back(
        {merged.src, merged.off, merged.shift, merged.comm});
  }
}

bool wellFormed(const Instance &instance, const Frames &frames) {
  size_t n = instance.nodes.size();
  if (instance.depth < 1 || frames.asap.size() != n || frames.alap.size() != n)
    return false;
  if (instance.formulation == Formulation::C && instance.ii == 0)
    return false;
  for (size_t i = 0; i < n; ++i)
    if (frames.asap[i] < 0 || frames.asap[i] > frames.alap[i] ||
        frames.alap[i] >= instance.depth)
      return false;
  for (const Edge &e : instance.edges)
    if (e.src >= n || e.dst >= n)
      return false;
  return true;
}

std::optional<Steps> checked(const Instance &instance,
                             std::optional<Steps> steps) {
  if (!steps || !evaluate(instance, *steps).legal)
    return std::nullopt;
  return steps;
}

} // namespace tilepipe::gaus::detail
