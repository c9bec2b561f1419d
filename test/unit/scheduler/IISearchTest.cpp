//===- IISearchTest.cpp - the candidate-II search, budgets, the cap -------===//
//
// The stride search's attempts grow with the distance from the bound to the
// II found, not with the II's size; a per-loop attempt budget returns the
// best schedule so far; a cap of UINT_MAX neither wraps nor walks past the
// serial length; the driver adopts an oracle's smaller schedule.
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"

#include "scheduler/Driver.h"
#include "scheduler/FeasibilityOracle.h"
#include "scheduler/modulo/Engine.h"
#include "scheduler/modulo/PathLengths.h"

#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <map>

using namespace tilepipe;
using namespace tilepipe::sched;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

/// Two loads of latency `latency` share the "mem" slot for `gap` cycles
/// each; a consumer with max_depth 0 must start within the first II cycles.
/// The dependency bound is latency + 1, but the loads cannot both start at
/// cycle 0, so the smallest feasible II is latency + gap + 1: the search
/// must climb `gap` IIs above the bound whatever the latency.
Problem climbingProblem(int64_t latency, unsigned gap) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", latency, {rrt::Use::bit(1, gap)}));
  p.addOp(makeOp("b", latency, {rrt::Use::bit(1, gap)}));
  Operation c = makeOp("c", 1, {rrt::Use::bit(0, 1)});
  c.constraints.maxDepth = 0;
  p.addOp(c);
  p.addDependence({0, 2, latency, 0});
  p.addDependence({1, 2, latency, 0});
  p.finalize();
  return p;
}

ModuloOptions searchOptions(IISearch search) {
  ModuloOptions o;
  o.search = search;
  return o;
}

struct SearchRun {
  std::optional<ScheduleAnalysis> analysis;
  IISearchStats stats;
};

SearchRun runSearch(const Problem &p, const ModuloOptions &options) {
  SearchRun run;
  DiagnosticList diags;
  run.analysis =
      generateModuloSchedule(p, p.computeBounds(), options, diags, &run.stats);
  return run;
}

TEST(IISearch, StrideFindsTheLinearIIWithLogarithmicAttempts) {
  const unsigned gap = 40;
  Problem p = climbingProblem(1000, gap);
  rrt::Bounds bounds = p.computeBounds();
  ASSERT_EQ(bounds.mii, 1001u);

  SearchRun linear = runSearch(p, searchOptions(IISearch::Linear));
  SearchRun stride = runSearch(p, searchOptions(IISearch::Stride));
  ASSERT_TRUE(linear.analysis);
  ASSERT_TRUE(stride.analysis);
  EXPECT_EQ(linear.analysis->ii, 1000u + gap + 1);
  EXPECT_EQ(stride.analysis->ii, linear.analysis->ii);
  EXPECT_EQ(stride.stats.lastFailure, stride.analysis->ii - 1);
  // Linear tries every II in [MII, II]; stride about 2 log2(gap) of them,
  // each with at most five ladder rungs.
  EXPECT_GT(linear.stats.attempts, uint64_t(gap));
  EXPECT_LE(stride.stats.attempts, uint64_t(5 * (2 * 6 + 2)));
  EXPECT_LT(stride.stats.attempts * 3, linear.stats.attempts);
}

TEST(IISearch, StrideAttemptsDoNotGrowWithTheIIsMagnitude) {
  // The same climb of 40 IIs above a bound of 101 and of 20001.
  SearchRun small =
      runSearch(climbingProblem(100, 40), searchOptions(IISearch::Stride));
  SearchRun large =
      runSearch(climbingProblem(20000, 40), searchOptions(IISearch::Stride));
  ASSERT_TRUE(small.analysis);
  ASSERT_TRUE(large.analysis);
  EXPECT_EQ(small.analysis->ii, 141u);
  EXPECT_EQ(large.analysis->ii, 20041u);
  EXPECT_EQ(small.stats.attempts, large.stats.attempts);
}

TEST(IISearch, AttemptBudgetKeepsTheBestScheduleSoFar) {
  Problem p = climbingProblem(1000, 40);
  ModuloOptions options = searchOptions(IISearch::Stride);
  // One attempt: II 1001 fails on its first rung, nothing is seated, and
  // the serial schedule is the answer at the serial length.
  options.maxAttempts = 1;
  SearchRun one = runSearch(p, options);
  ASSERT_TRUE(one.analysis);
  EXPECT_TRUE(one.stats.exhausted);
  EXPECT_TRUE(one.stats.serialFallback);
  EXPECT_EQ(one.stats.attempts, 1u);
  EXPECT_EQ(int64_t(one.analysis->ii), p.serialLength());
  EXPECT_EQ(one.analysis->generator, GeneratorKind::Serial);

  // Enough attempts to seat an II but not to refine it: the result is a
  // verified cost-based schedule between the optimum and the serial length.
  SearchRun full = runSearch(p, searchOptions(IISearch::Stride));
  ASSERT_TRUE(full.analysis);
  options.maxAttempts = full.stats.attempts - 1;
  SearchRun part = runSearch(p, options);
  ASSERT_TRUE(part.analysis);
  EXPECT_TRUE(part.stats.exhausted);
  EXPECT_FALSE(part.stats.serialFallback);
  EXPECT_EQ(part.analysis->generator, GeneratorKind::CostBased);
  EXPECT_GT(part.analysis->ii, full.analysis->ii);
  DiagnosticList violations;
  EXPECT_TRUE(p.verify(part.analysis->toSchedule(), violations));

  // The same budget gives the same answer: attempts, unlike milliseconds,
  // do not depend on the machine.
  SearchRun again = runSearch(p, options);
  ASSERT_TRUE(again.analysis);
  EXPECT_EQ(again.analysis->ii, part.analysis->ii);
  EXPECT_EQ(again.analysis->toSchedule().start,
            part.analysis->toSchedule().start);
}

TEST(IISearch, DriverReportsAnExhaustedBudget) {
  Problem p = climbingProblem(1000, 40);
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.maxAttempts = 1;
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = runScheduler(p, options, diags);
  ASSERT_TRUE(s);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.all()[0].severity, Severity::Warning);
  EXPECT_NE(diags.all()[0].message.find(
                "II search budget exhausted after 1 attempts / "),
            std::string::npos)
      << diags.all()[0].message;
  EXPECT_NE(diags.all()[0].message.find("best II " +
                                        std::to_string(p.serialLength()) +
                                        " (the serial schedule), bound 1001"),
            std::string::npos)
      << diags.all()[0].message;
}

// A raised floor (DriverOptions::minII, the pass's register budget): the
// search starts there, the schedule still verifies, and the analysis keeps
// the true bound and claims no optimality.
TEST(IISearch, DriverSearchesFromARaisedFloor) {
  Problem p = climbingProblem(10, 4);
  rrt::Bounds bounds = p.computeBounds();
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> base = runScheduler(p, options, diags);
  ASSERT_TRUE(base);
  options.minII = base->ii + 3;
  ASSERT_LT(int64_t(options.minII), p.serialLength());
  std::optional<ScheduleAnalysis> raised = runScheduler(p, options, diags);
  ASSERT_TRUE(raised);
  EXPECT_GE(raised->ii, options.minII);
  EXPECT_EQ(raised->bounds.mii, bounds.mii);
  EXPECT_FALSE(raised->optimal.has_value());
  DiagnosticList violations;
  EXPECT_TRUE(p.verify(raised->toSchedule(), violations));
  EXPECT_FALSE(diags.hasErrors());
}

// Linear and gallop (ModuloSchedulerTest covers their results) with the
// largest cap: the cap is lowered to the serial length, where the serial
// schedule answers when the heuristic seats nothing (one placement step per
// attempt here). Before, the linear loop ran its unsigned II up to UINT_MAX
// and wrapped it to 0.
TEST(IISearch, MaximalCapStopsAtTheSerialLength) {
  Problem p = climbingProblem(10, 4);
  for (IISearch search :
       {IISearch::Linear, IISearch::Gallop, IISearch::Stride}) {
    ModuloOptions options = searchOptions(search);
    options.iiCap = UINT_MAX;
    options.budget = 1; // Every attempt runs out of placement steps.
    DiagnosticList diags;
    std::optional<ScheduleAnalysis> s =
        generateModuloSchedule(p, p.computeBounds(), options, diags);
    ASSERT_TRUE(s) << int(search);
    EXPECT_EQ(int64_t(s->ii), p.serialLength());
    EXPECT_EQ(s->generator, GeneratorKind::Serial);
    EXPECT_FALSE(diags.hasErrors());
  }
}

TEST(IISearch, FailureAtTheDefaultCapFallsBackToSerial) {
  Problem p = climbingProblem(10, 4);
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.budget = 1;
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = runScheduler(p, options, diags);
  ASSERT_TRUE(s);
  EXPECT_EQ(int64_t(s->ii), p.serialLength());
  EXPECT_EQ(s->generator, GeneratorKind::Serial);
  EXPECT_NE(s->selectionReason.find("the serial schedule"), std::string::npos)
      << s->selectionReason;
}

TEST(IISearch, CapBelowTheSerialLengthStillFails) {
  // No fallback below the serial length: the cap is honoured.
  Problem p = climbingProblem(10, 4);
  ModuloOptions options = searchOptions(IISearch::Stride);
  options.iiCap = unsigned(p.serialLength() - 1);
  options.budget = 1;
  DiagnosticList diags;
  EXPECT_FALSE(generateModuloSchedule(p, p.computeBounds(), options, diags));
  EXPECT_TRUE(diags.hasErrors());
}

/// Answers from a table: nullopt (undecided), false, or true with a witness.
class TableOracle : public FeasibilityOracle {
public:
  std::map<unsigned, std::optional<bool>> answers;
  std::map<unsigned, Schedule> witnesses;
  unsigned calls = 0;
  std::chrono::milliseconds delay{0};
  std::optional<bool> feasibleAt(const Problem &, unsigned ii) override {
    ++calls;
    // The prove pass's limit counts this thread's CPU time (a sleeping
    // oracle would spend none): the answer burns `delay` of it.
    const ThreadCpuClock::time_point end = ThreadCpuClock::now() + delay;
    while (ThreadCpuClock::now() < end) {
    }
    last = ii;
    auto it = answers.find(ii);
    return it == answers.end() ? std::optional<bool>(false) : it->second;
  }
  bool lastWitness(Schedule &out) const override {
    auto it = witnesses.find(last);
    if (it == witnesses.end())
      return false;
    out = it->second;
    return true;
  }

private:
  unsigned last = 0;
};

TEST(IISearch, ProveOptimalAdoptsASmallerWitness) {
  Problem p = climbingProblem(1000, 40);
  // The linear search's schedule at II 1041 is the oracle's witness; the
  // driver's own search gets one attempt, so it only has the serial one.
  SearchRun base = runSearch(p, searchOptions(IISearch::Linear));
  ASSERT_TRUE(base.analysis);
  Schedule witness = base.analysis->toSchedule();
  ASSERT_EQ(witness.ii, 1041u);

  TableOracle oracle;
  for (unsigned ii = 1001; ii < 1041; ++ii)
    oracle.answers[ii] = false;
  oracle.answers[1041] = true;
  oracle.witnesses[1041] = witness;

  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.oracle = &oracle;
  options.proveOptimal = true;
  // One attempt: the search keeps the serial schedule, far above 1041.
  options.modulo.maxAttempts = 1;
  DiagnosticList diags;
  DriverStats stats;
  std::optional<ScheduleAnalysis> s =
      runScheduler(p, options, diags, nullptr, &stats);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->ii, 1041u);
  ASSERT_TRUE(s->optimal);
  EXPECT_TRUE(*s->optimal);
  ASSERT_TRUE(stats.heuristicII);
  EXPECT_EQ(int64_t(*stats.heuristicII), p.serialLength());

  // One II below it undecided: the witness is still adopted, but not
  // reported optimal.
  oracle.answers[1020] = std::nullopt;
  diags.clear();
  s = runScheduler(p, options, diags, nullptr, &stats);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->ii, 1041u);
  EXPECT_FALSE(s->optimal.has_value());
}

TEST(IISearch, ProveOptimalRejectsAWitnessThatFailsVerify) {
  Problem p = climbingProblem(1000, 40);
  TableOracle oracle;
  oracle.answers[1001] = true;
  Schedule bogus;
  bogus.ii = 1001;
  bogus.start = {0, 0, 0}; // Both loads on "mem" at once.
  oracle.witnesses[1001] = bogus;

  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.oracle = &oracle;
  options.proveOptimal = true;
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = runScheduler(p, options, diags);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->ii, 1041u);
  ASSERT_TRUE(s->optimal);
  EXPECT_FALSE(*s->optimal);
  EXPECT_EQ(s->smallerFeasibleII, 1001u);
}

TEST(IISearch, ProveTimeLimitStopsThePass) {
  // Each answer takes 5 ms and the pass may take 1: the first II is asked,
  // the rest are left undecided, and so is optimality.
  Problem p = climbingProblem(1000, 40);
  TableOracle oracle;
  oracle.delay = std::chrono::milliseconds(5);
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.oracle = &oracle;
  options.proveOptimal = true;
  options.proveTimeLimitMs = 1;
  DiagnosticList diags;
  std::optional<ScheduleAnalysis> s = runScheduler(p, options, diags);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->ii, 1041u);
  EXPECT_FALSE(s->optimal.has_value());
  EXPECT_EQ(oracle.calls, 1u);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags.all()[0].message,
            "prove-optimal left II 1002-1040 undecided, so II 1041 is not "
            "proven optimal: the --prove-optimal time limit of 1 ms ran out "
            "[limit: prove-timeout-ms]");
  EXPECT_EQ(diags.all()[0].severity, Severity::Warning);
}

} // namespace

// The time limit reaches into a running placement attempt: one attempt on a
// 10k-op loop can take a minute, far past the user's limit. A deadline that
// has passed stops the attempt at its next clock check (every 256 steps);
// without one the same attempt seats every op.
TEST(IISearch, DeadlineStopsARunningAttempt) {
  Problem p(smallLayout());
  const unsigned n = 600;
  for (unsigned i = 0; i < n; ++i)
    p.addOp(makeOp("op" + std::to_string(i), 1));
  for (unsigned i = 1; i < n; ++i)
    p.addDependence({i - 1, i, 1, 0});
  p.finalize();
  const unsigned ii = 4;
  modulo::PathLengths paths = modulo::PathLengths::compute(p, ii);
  modulo::Strategy strategy{modulo::Priority::Height, false};

  ModuloOptions free;
  modulo::Engine unbounded(p, ii, free, strategy, paths);
  modulo::AttemptFailure none;
  EXPECT_TRUE(unbounded.run(none).has_value());

  ModuloOptions late;
  late.deadline = ThreadCpuClock::now() - std::chrono::seconds(1);
  modulo::Engine bounded(p, ii, late, strategy, paths);
  modulo::AttemptFailure f;
  EXPECT_FALSE(bounded.run(f).has_value());
  EXPECT_EQ(f.reason, "the time limit ran out during this attempt");
}

TEST(IISearch, ClosedDepthWindowSendsTheProbeWhereItOpens) {
  // At the bound (1001) c's window is closed by max_depth 0: the attempt
  // seats the loads so that c's earliest start is past 1040, and no II
  // below that start + 1 opens the window with those seats. The search
  // probes there directly instead of striding 1002, 1004, ... 1513, then
  // bisects down to the smallest II (1041) as before.
  Problem p = climbingProblem(1000, 40);
  SearchRun stride = runSearch(p, searchOptions(IISearch::Stride));
  ASSERT_TRUE(stride.analysis);
  EXPECT_EQ(stride.analysis->ii, 1041u);
  EXPECT_EQ(stride.stats.jumps, 1u);
  EXPECT_EQ(stride.stats.lastFailure, 1040u);
  // Measured: 33 ladder rungs with the jump, 47 when the stride walked.
  EXPECT_LE(stride.stats.attempts, 40u);
}
