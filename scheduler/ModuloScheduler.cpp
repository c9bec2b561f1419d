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

#include "rrt/RRT.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <queue>

using namespace tilepipe;
using namespace tilepipe::sched;

static void reportFailure(const Problem &problem, const rrt::Bounds &bounds,
                          unsigned cap, modulo::AttemptFailure f,
                          FeasibilityOracle *oracle, DiagnosticList &diags) {
  // The exact check turns a heuristic failure into a proven one, or shows
  // that a schedule exists after all.
  std::string exactNote;
  if (!f.proven && oracle) {
    std::optional<bool> feasible = oracle->feasibleAt(problem, f.ii);
    if (feasible && !*feasible) {
      f.proven = true;
      exactNote = "the exact check proves that no schedule exists at II " +
                  std::to_string(f.ii);
    } else if (feasible) {
      exactNote = "the exact check finds a schedule at II " +
                  std::to_string(f.ii) + ": the heuristic missed it";
    } else {
      exactNote = "the exact check could not decide II " +
                  std::to_string(f.ii);
    }
  }
  Diagnostic &d = diags.error(
      "cost-based generator found no schedule for II in [" +
          llvm::Twine(bounds.mii) + ", " + llvm::Twine(cap) + "]" +
          (f.proven ? " (proven: no schedule exists at the last II tried)"
                    : " (heuristic: a schedule may still exist)"),
      f.op);
  d.attachNote("candidate II " + llvm::Twine(f.ii) + ": " + f.reason, f.op);
  if (!exactNote.empty())
    d.attachNote(exactNote, f.op);
  if (f.op) {
    const Operation &op = problem.getOp(*f.op);
    std::string uses;
    for (const rrt::Use &u : op.uses) {
      const rrt::ResourceLayout &l = problem.getLayout();
      uses += (uses.empty() ? "" : ", ") +
              (u.kind == rrt::Use::Kind::Bit ? l.bitNames[u.index]
                                             : l.poolNames[u.index]) +
              " x" + std::to_string(u.amount) + " for " +
              std::to_string(u.duration) + " cycles";
    }
    d.attachNote("'" + op.name + "' lasts " +
                     llvm::Twine(problem.getFootprints()[*f.op].length()) +
                     " cycles and claims " + (uses.empty() ? "nothing" : uses),
                 f.op);
    d.attachNote("dependence window [" + llvm::Twine(f.windowLo) + ", " +
                     llvm::Twine(f.windowHi) + "]",
                 f.op);
    if (std::optional<int32_t> g = problem.getGroups().groupOf(*f.op))
      d.attachNote("constraint group " + llvm::Twine(*g), f.op);
  }
  if (f.conflict) {
    const rrt::ResourceLayout &l = problem.getLayout();
    switch (f.conflict->kind) {
    case rrt::Conflict::Kind::Bit:
      d.attachNote("slot '" + l.bitNames[f.conflict->resource] +
                       "' is held in modulo cycle " +
                       llvm::Twine(f.conflict->row),
                   f.op);
      break;
    case rrt::Conflict::Kind::Pool:
      d.attachNote("pool '" + l.poolNames[f.conflict->resource] +
                       "' refused: " + llvm::Twine(f.conflict->used) + " of " +
                       llvm::Twine(f.conflict->capacity) +
                       " units held in modulo cycle " +
                       llvm::Twine(f.conflict->row) + ", " +
                       llvm::Twine(f.conflict->requested) + " requested",
                   f.op);
      break;
    case rrt::Conflict::Kind::Self:
      d.attachNote("the footprint collides with itself modulo II", f.op);
      break;
    }
  }
}

std::optional<ScheduleAnalysis>
tilepipe::sched::generateModuloSchedule(const Problem &problem,
                                        const rrt::Bounds &bounds,
                                        const ModuloOptions &options,
                                        DiagnosticList &diags) {
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
    for (const modulo::Strategy &strategy : llvm::ArrayRef(ladder, rungs)) {
      modulo::Engine engine(problem, ii, options, strategy);
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
  reportFailure(problem, bounds, cap, failure, options.oracle, diags);
  return std::nullopt;
}
