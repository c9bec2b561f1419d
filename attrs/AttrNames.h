//===- AttrNames.h - the tileas.schedule.* attribute names -----*- C++ -*-===//

#ifndef TILEPIPE_ATTRS_ATTRNAMES_H
#define TILEPIPE_ATTRS_ATTRNAMES_H

#include "llvm/ADT/StringRef.h"

namespace tilepipe::attrs {

// Constraints in (docs/tileiras-facts.md section 7.1).
constexpr llvm::StringLiteral kGid = "tileas.schedule.constraint.gid";
constexpr llvm::StringLiteral kLeaderGid =
    "tileas.schedule.constraint.leader_gid";
constexpr llvm::StringLiteral kMaxDepth =
    "tileas.schedule.constraint.max_depth";
constexpr llvm::StringLiteral kForceSerial =
    "tileas.schedule.constraint.force_serial_execution";
constexpr llvm::StringLiteral kPreferredAtomSize = "tileas.preferred_atom_size";
constexpr llvm::StringLiteral kMaxNumSlices =
    "tileas.max_num_slices_for_non_reduce_axis";
constexpr llvm::StringLiteral kMaxNumRecomputations =
    "tileas.max_num_of_recomputations";
constexpr llvm::StringLiteral kEnableDefusion =
    "tileas.enable_defusion_if_fusion_extending_liveness";
constexpr llvm::StringLiteral kRecomputable = "tileas.recomputable";

// Results out.
constexpr llvm::StringLiteral kStage = "tileas.schedule.stage";
constexpr llvm::StringLiteral kOrder = "tileas.schedule.order";
constexpr llvm::StringLiteral kCycle = "tileas.schedule.cycle";
constexpr llvm::StringLiteral kII = "tileas.schedule.ii";
constexpr llvm::StringLiteral kStages = "tileas.schedule.stages";
constexpr llvm::StringLiteral kMII = "tileas.schedule.mii";
constexpr llvm::StringLiteral kGenerator = "tileas.schedule.generator";

} // namespace tilepipe::attrs

#endif // TILEPIPE_ATTRS_ATTRNAMES_H
