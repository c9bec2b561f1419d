//===- GeneratorSelectionTest.cpp -----------------------------------------===//

#include "TestProblems.h"

#include "scheduler/GeneratorSelection.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::sched;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

Problem withOps(unsigned n, bool tma) {
  Problem p(smallLayout());
  for (unsigned i = 0; i < n; ++i) {
    Operation op = makeOp("op", 1);
    op.isTMA = tma && i == 0;
    op.isAsync = op.isTMA;
    p.addOp(op);
  }
  p.finalize();
  return p;
}

TEST(GeneratorSelection, RulesInOrder) {
  SelectionOptions opts;
  Problem big = withOps(10, true);
  EXPECT_EQ(selectGenerator(big, opts).kind, GeneratorKind::CostBased);

  big.setForceSerial(true);
  GeneratorSelection forced = selectGenerator(big, opts);
  EXPECT_EQ(forced.kind, GeneratorKind::Serial);
  EXPECT_NE(forced.reason.find("force_serial_execution"), std::string::npos);

  GeneratorSelection small = selectGenerator(withOps(7, true), opts);
  EXPECT_EQ(small.kind, GeneratorKind::Serial);
  EXPECT_NE(small.reason.find("below serial_threshold 8"), std::string::npos);

  GeneratorSelection simt = selectGenerator(withOps(12, false), opts);
  EXPECT_EQ(simt.kind, GeneratorKind::Serial);
  EXPECT_NE(simt.reason.find("no TMA"), std::string::npos);
}

TEST(GeneratorSelection, ThresholdAndRequest) {
  SelectionOptions opts;
  opts.serialThreshold = 4;
  EXPECT_EQ(selectGenerator(withOps(7, true), opts).kind,
            GeneratorKind::CostBased);
  opts.request = GeneratorRequest::Serial;
  EXPECT_EQ(selectGenerator(withOps(7, true), opts).kind,
            GeneratorKind::Serial);
  opts.request = GeneratorRequest::CostBased;
  EXPECT_EQ(selectGenerator(withOps(2, false), opts).kind,
            GeneratorKind::CostBased);
}

} // namespace
