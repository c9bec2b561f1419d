//===- PathLengths.cpp ----------------------------------------------------===//

#include "scheduler/modulo/PathLengths.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::modulo;

namespace {

enum class Direction { Forward, Backward };

// Bellman-Ford style relaxation of `value` along every dependence: forward,
// value[dst] >= value[src] + w; backward, value[src] <= value[dst] - w.
// INT64_MAX marks "unbounded" on the backward side and is never relaxed from.
void relax(const Problem &problem, unsigned ii, Direction dir,
           std::vector<int64_t> &value) {
  auto deps = problem.getDependences();
  const unsigned n = problem.getNumOps();
  for (unsigned pass = 0; pass < std::min(n + 1, 64u); ++pass) {
    bool changed = false;
    for (size_t i = 0; i < deps.size(); ++i) {
      // Forward in dependence order, backward in reverse order: each
      // converges in few passes on the usual topologically ordered lists.
      const Dependence &d =
          deps[dir == Direction::Forward ? i : deps.size() - 1 - i];
      if (d.src == d.dst)
        continue;
      int64_t w = d.latency - int64_t(d.distance) * ii;
      if (dir == Direction::Forward) {
        if (value[d.src] + w > value[d.dst]) {
          value[d.dst] = value[d.src] + w;
          changed = true;
        }
      } else if (value[d.dst] != INT64_MAX && value[d.dst] - w < value[d.src]) {
        value[d.src] = value[d.dst] - w;
        changed = true;
      }
    }
    if (!changed)
      break;
  }
}

} // namespace

PathLengths PathLengths::compute(const Problem &problem, unsigned ii) {
  const unsigned n = problem.getNumOps();
  PathLengths p;
  // Height is the longest path to a sink: a backward relaxation of the
  // negated values, kept positive.
  std::vector<int64_t> negHeight(n, 0);
  relax(problem, ii, Direction::Backward, negHeight);
  p.height.resize(n);
  for (OpId op = 0; op < n; ++op)
    p.height[op] = -negHeight[op];

  p.asap.assign(n, 0);
  relax(problem, ii, Direction::Forward, p.asap);

  p.deadline.assign(n, INT64_MAX);
  bool capped = false;
  for (OpId op = 0; op < n; ++op)
    if (std::optional<unsigned> d = problem.getOp(op).constraints.maxDepth) {
      p.deadline[op] = int64_t(*d + 1) * ii - 1;
      capped = true;
    }
  if (capped)
    relax(problem, ii, Direction::Backward, p.deadline);

  int64_t length = n ? *std::max_element(p.asap.begin(), p.asap.end()) : 0;
  p.alap.assign(n, length);
  for (OpId op = 0; op < n; ++op)
    p.alap[op] = std::min(p.alap[op], p.deadline[op]);
  relax(problem, ii, Direction::Backward, p.alap);
  return p;
}
