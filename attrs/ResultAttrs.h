//===- ResultAttrs.h - schedule results out --------------------*- C++ -*-===//
//
// Prints a ScheduleAnalysis as attributes: tileas.schedule.stage / .order /
// .cycle on each op, tileas.schedule.ii / .stages / .mii / .generator on the
// loop, so FileCheck tests and other compilers can read the schedule.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_ATTRS_RESULTATTRS_H
#define TILEPIPE_ATTRS_RESULTATTRS_H

#include "scheduler/ScheduleAnalysis.h"

#include "mlir/IR/Operation.h"

namespace tilepipe::attrs {

void writeScheduleAttrs(mlir::Operation *loop,
                        llvm::ArrayRef<mlir::Operation *> ops,
                        const sched::ScheduleAnalysis &analysis);

/// Removes every result attribute (a loop that could not be scheduled must
/// not keep a stale schedule).
void clearScheduleAttrs(mlir::Operation *loop,
                        llvm::ArrayRef<mlir::Operation *> ops);

} // namespace tilepipe::attrs

#endif // TILEPIPE_ATTRS_RESULTATTRS_H
