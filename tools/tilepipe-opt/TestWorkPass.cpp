//===- TestWorkPass.cpp - Prints what ops report to the scheduler ---------===//
//
// `-tileas-test-work` emits one remark per schedulable op with its op class,
// its work and its accumulator operands, so lit tests can pin down the
// SchedulableOpInterface contract without a scheduler.
//
//===----------------------------------------------------------------------===//

#include "ir/TileASDialect.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct TestWorkPass : PassWrapper<TestWorkPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestWorkPass)

  StringRef getArgument() const final { return "tileas-test-work"; }
  StringRef getDescription() const final {
    return "Emit a remark with each schedulable op's class and work";
  }

  void runOnOperation() override {
    getOperation()->walk([](tileas::SchedulableOpInterface op) {
      tilepipe::target::OpWork work = op.getWork();
      InFlightDiagnostic remark = op->emitRemark();
      remark << "class " << op.getOpClass() << " bytes " << work.bytes
             << " flops " << work.flops << " elements " << work.elements;
      for (unsigned i = 0, e = op->getNumOperands(); i != e; ++i)
        if (op.isAccumulatorOperand(i))
          remark << " accumulator " << i;
    });
  }
};
} // namespace

namespace tilepipe {
void registerTestWorkPass() { PassRegistration<TestWorkPass>(); }
} // namespace tilepipe
