//===- ModuloScheduler.cpp - the candidate-II search ----------------------===//
//
// For each candidate II from the lower bound upward: reject the II outright
// when it is provably infeasible (a positive cycle), otherwise run the
// strategy ladder of placement attempts (modulo/Engine.h) until one seats
// every op. Ties always break by program order.
//
//===----------------------------------------------------------------------===//

#include "scheduler/ModuloScheduler.h"

#include "scheduler/modulo/Engine.h"
#include "scheduler/modulo/FailureReport.h"

#include "rrt/RRT.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <queue>

using namespace tilepipe;
using namespace tilepipe::sched;

std::optional<ScheduleAnalysis> tilepipe::sched::generateModuloSchedule(
    const Problem &problem, const rrt::Bounds &bounds,
    const ModuloOptions &options, DiagnosticList &diags) {
  if (bounds.recurrenceInfeasible || bounds.resourceInfeasible) {
    diags.error("no II can be scheduled: " +
                llvm::Twine(bounds.recurrenceInfeasible
                                ? "a dependence cycle within one iteration "
                                  "has positive latency"
                                : "an op collides with itself at every II"));
    return std::nullopt;
  }
  const int64_t serial = problem.serialLength();
  const unsigned cap = options.iiCap
                           ? options.iiCap
                           : unsigned(std::min<int64_t>(serial, UINT_MAX - 1));
  const unsigned lo = std::max(1u, bounds.mii);
  if (cap < lo) {
    diags
        .error("the II cap " + llvm::Twine(cap) + " is below the lower bound " +
               llvm::Twine(lo) +
               ": no schedule exists at any II allowed "
               "(proven)")
        .attachNote("MII " + llvm::Twine(bounds.mii) + " = max(resource " +
                    llvm::Twine(bounds.resMII) + ", fine-density " +
                    llvm::Twine(bounds.fineMII) + ", recurrence " +
                    llvm::Twine(bounds.recMII) + ", dependency " +
                    llvm::Twine(bounds.depMII) + ")");
    return std::nullopt;
  }
  std::vector<rrt::DepEdge> edges = problem.getDepEdges();

  modulo::AttemptFailure failure;
  auto attempt = [&](unsigned ii) -> std::optional<std::vector<int64_t>> {
    if (rrt::hasPositiveCycle(problem.getNumOps(), edges, ii)) {
      failure = {};
      failure.ii = ii;
      failure.reason = "a dependence cycle is longer than II times its "
                       "distance";
      failure.proven = true;
      return std::nullopt;
    }
    // The strategy ladder, each rung a fresh attempt (intermediate state is
    // cleared between them): height priority with cost-ranked forced seats,
    // height priority with Rau's forced seats, program order.
    static constexpr modulo::Strategy ladder[] = {
        {modulo::Priority::Height, false},
        {modulo::Priority::Height, true},
        {modulo::Priority::Slack, false},
        {modulo::Priority::Slack, true},
        {modulo::Priority::ProgramOrder, false}};
    // Past a few thousand ops a failing rung costs as much as a success;
    // the first two rungs carry nearly all the wins there.
    size_t rungs = problem.getNumOps() > 2000 ? 2 : std::size(ladder);
    modulo::PathLengths paths = modulo::PathLengths::compute(problem, ii);
    for (const modulo::Strategy &strategy : llvm::ArrayRef(ladder, rungs)) {
      modulo::Engine engine(problem, ii, options, strategy, paths);
      modulo::AttemptFailure f;
      if (std::optional<std::vector<int64_t>> starts = engine.run(f))
        return starts;
      if (&strategy == &ladder[0] || f.proven)
        failure = f;
      if (f.proven)
        break;
    }
    return std::nullopt;
  };
  auto finish = [&](unsigned ii, std::vector<int64_t> starts) {
    Schedule s;
    s.ii = ii;
    s.start = std::move(starts);
    return ScheduleAnalysis::fromSchedule(problem, s, GeneratorKind::CostBased);
  };

  if (options.search == IISearch::Linear || lo >= cap) {
    for (unsigned ii = lo; ii <= cap; ++ii)
      if (std::optional<std::vector<int64_t>> starts = attempt(ii))
        return finish(ii, std::move(*starts));
  } else {
    // Galloping then binary search: fast over wide ranges, but heuristic
    // placement is not monotone in II, so it can miss a smaller II.
    unsigned hi = lo;
    std::optional<std::vector<int64_t>> best = attempt(hi);
    while (!best && hi < cap) {
      hi = unsigned(std::min<uint64_t>(uint64_t(hi) * 2, cap));
      best = attempt(hi);
    }
    if (best) {
      unsigned bestII = hi, left = lo, right = hi;
      while (left < right) {
        unsigned mid = left + (right - left) / 2;
        if (mid == bestII)
          break;
        if (std::optional<std::vector<int64_t>> s = attempt(mid)) {
          best = std::move(s);
          bestII = right = mid;
        } else {
          left = mid + 1;
        }
      }
      return finish(bestII, std::move(*best));
    }
  }
  modulo::reportFailure(problem, bounds, cap, failure, options.oracle, diags);
  return std::nullopt;
}
