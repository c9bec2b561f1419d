//===- FailureReportTest.cpp - what a failed II search says ---------------===//

#include "TestProblems.h"

#include "scheduler/Driver.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

/// An oracle with a fixed answer, to see each verdict in the report.
struct FixedOracle : FeasibilityOracle {
  explicit FixedOracle(std::optional<bool> answer) : answer(answer) {}
  std::optional<bool> feasibleAt(const Problem &, unsigned ii) override {
    asked.push_back(ii);
    return answer;
  }
  std::optional<bool> answer;
  std::vector<unsigned> asked;
};

// MII 3 but no schedule at 3 (see HeuristicAgreementTest); capped at 3.
Problem tight() {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 1, {rrt::Use::bit(0, 2)}));
  p.addOp(makeOp("b", 2, {rrt::Use::bit(0, 1)}));
  p.addDependence({0, 1, 1, 0});
  p.addDependence({1, 0, 2, 1});
  p.finalize();
  return p;
}

std::vector<std::string> report(std::optional<bool> answer,
                                std::vector<unsigned> *asked = nullptr) {
  Problem p = tight();
  FixedOracle oracle(answer);
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.iiCap = 3;
  options.modulo.oracle = &oracle;
  DiagnosticList diags;
  EXPECT_FALSE(runScheduler(p, options, diags));
  std::vector<std::string> lines;
  for (const Diagnostic &d : diags.all()) {
    lines.push_back(d.message);
    for (const Diagnostic &n : d.notes)
      lines.push_back("note: " + n.message);
  }
  if (asked)
    *asked = oracle.asked;
  return lines;
}

bool has(const std::vector<std::string> &lines, llvm::StringRef text) {
  for (const std::string &l : lines)
    if (llvm::StringRef(l).contains(text))
      return true;
  return false;
}

TEST(FailureReport, ProvenByTheOracle) {
  std::vector<unsigned> asked;
  auto lines = report(false, &asked);
  EXPECT_EQ(asked, std::vector<unsigned>{3});
  EXPECT_TRUE(has(lines, "found no schedule for II in [3, 3] (proven: no "
                         "schedule exists at II 3)"));
  EXPECT_TRUE(has(lines, "note: the exact check proves that no schedule "
                         "exists at II 3"));
  EXPECT_TRUE(has(lines, "note: candidate II 3: "));
  EXPECT_TRUE(has(lines, "claims slot alu for 2 cycles"));
  EXPECT_TRUE(has(lines, "note: dependence window ["));
  EXPECT_TRUE(has(lines, "that RRT row holds slot alu"));
  EXPECT_TRUE(has(lines, "failed to find a schedule"));
}

TEST(FailureReport, HeuristicWhenTheOracleFindsASchedule) {
  auto lines = report(true);
  EXPECT_TRUE(has(lines, "(heuristic: a schedule may exist)"));
  EXPECT_TRUE(has(lines, "the exact check finds a schedule at II 3: the "
                         "heuristic missed it"));
}

TEST(FailureReport, HeuristicWhenTheOracleCannotDecide) {
  auto lines = report(std::nullopt);
  EXPECT_TRUE(has(lines, "(heuristic: a schedule may exist)"));
  EXPECT_TRUE(has(lines, "the exact check could not decide II 3"));
}

TEST(FailureReport, HeuristicWithoutAnOracle) {
  Problem p = tight();
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.iiCap = 3;
  DiagnosticList diags;
  EXPECT_FALSE(runScheduler(p, options, diags));
  ASSERT_FALSE(diags.all().empty());
  EXPECT_NE(diags.all()[0].message.find("(heuristic"), std::string::npos);
}

TEST(FailureReport, CapBelowTheBoundIsProven) {
  Problem p = tight();
  DriverOptions options;
  options.selection.request = GeneratorRequest::CostBased;
  options.modulo.iiCap = 2;
  DiagnosticList diags;
  EXPECT_FALSE(runScheduler(p, options, diags));
  ASSERT_FALSE(diags.all().empty());
  EXPECT_EQ(diags.all()[0].message,
            "the II cap 2 is below the lower bound 3: no schedule exists at "
            "any II allowed (proven)");
}

} // namespace
