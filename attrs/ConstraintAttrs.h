//===- ConstraintAttrs.h - constraint attributes in ------------*- C++ -*-===//
//
// Reads the nine tileas.schedule.constraint.* / remat attributes of each op
// (inherent dictionary first, then discardable) and, in the same walk, seeds
// the constraint-group union-find and the pending set.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_ATTRS_CONSTRAINTATTRS_H
#define TILEPIPE_ATTRS_CONSTRAINTATTRS_H

#include "scheduler/Constraints.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

#include <vector>

namespace tilepipe::attrs {

/// Reads one op's constraint slot; emits an error at the op and fails on an
/// attribute of the wrong type or a negative max_depth.
mlir::FailureOr<sched::OpConstraints> readConstraints(mlir::Operation *op);

/// One walk over `ops` (program order): reads each op's constraints into
/// `constraints` and seeds `groups`. Two ops that name different leaders for
/// one gid are an error naming both locations (design.md decision 8).
mlir::LogicalResult
seedConstraints(llvm::ArrayRef<mlir::Operation *> ops,
                std::vector<sched::OpConstraints> &constraints,
                sched::ConstraintGroups &groups);

/// True when the loop op itself carries force_serial_execution.
bool hasForceSerial(mlir::Operation *op);

} // namespace tilepipe::attrs

#endif // TILEPIPE_ATTRS_CONSTRAINTATTRS_H
