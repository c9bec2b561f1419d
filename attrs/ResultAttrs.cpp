//===- ResultAttrs.cpp ----------------------------------------------------===//

#include "attrs/ResultAttrs.h"
#include "attrs/AttrNames.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tilepipe;

void attrs::writeScheduleAttrs(Operation *loop, ArrayRef<Operation *> ops,
                               const sched::ScheduleAnalysis &analysis) {
  Builder b(loop->getContext());
  for (auto [index, op] : llvm::enumerate(ops)) {
    const sched::ScheduleSlot &slot = analysis.slots[index];
    op->setAttr(kStage, b.getI32IntegerAttr(slot.stage));
    op->setAttr(kOrder, b.getI32IntegerAttr(slot.order));
    op->setAttr(kCycle, b.getI64IntegerAttr(slot.cycle));
  }
  loop->setAttr(kII, b.getI32IntegerAttr(analysis.ii));
  loop->setAttr(kStages, b.getI32IntegerAttr(analysis.numStages));
  loop->setAttr(kMII, b.getI32IntegerAttr(analysis.bounds.mii));
  loop->setAttr(kGenerator,
                b.getStringAttr(sched::stringifyGenerator(analysis.generator)));
}

void attrs::clearScheduleAttrs(Operation *loop, ArrayRef<Operation *> ops) {
  for (Operation *op : ops)
    for (StringRef name : {kStage, kOrder, kCycle})
      op->removeAttr(name);
  for (StringRef name : {kII, kStages, kMII, kGenerator})
    loop->removeAttr(name);
}
