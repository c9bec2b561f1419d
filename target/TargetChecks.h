//===- TargetChecks.h - checks shared by validate() and loader --*- C++ -*-===//
//
// Internal to TilePipeTarget. The JSON loader and TargetModel::validate()
// report the same problems with the same wording, so the checks live once
// here and both call them with the JSON path of the thing they check.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TARGET_TARGETCHECKS_H
#define TILEPIPE_TARGET_TARGETCHECKS_H

#include "support/json/Fields.h"
#include "target/Target.h"

#include "llvm/ADT/Twine.h"

#include <string>

namespace tilepipe::target::detail {

// Paths and errors are the strict-JSON kit's (support/json/): an error
// reads "<path>: <message>".
using support::json::fieldError;
using support::json::pathIndex;
using support::json::pathKey;

/// Non-negative terms; a non-empty, strictly increasing, non-negative bytes
/// table; no bytes rate beside a table.
llvm::Error checkQuantity(const Quantity &q, llvm::StringRef path);

/// Quantities, slot and pool references, occupancies and amounts of one op
/// class against the model's slot and pool tables.
llvm::Error checkOpClass(const TargetModel &model, const OpClassInfo &cls,
                         llvm::StringRef path);

/// Non-negative caps, reserved barriers within the barrier count.
llvm::Error checkCaps(const GlobalCaps &caps, llvm::StringRef path);
/// SM count, clock and default L2 reuse are at least 1.
llvm::Error checkChip(const ChipInfo &chip, llvm::StringRef path);

} // namespace tilepipe::target::detail

#endif // TILEPIPE_TARGET_TARGETCHECKS_H
