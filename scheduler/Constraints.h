//===- Constraints.h - per-op schedule constraints and groups --*- C++ -*-===//
//
// The constraint slot of one op (what the nine tileas.schedule.constraint.*
// and remat attributes said) and the constraint groups: a union-find over
// group ids plus the pending set, both seeded in one walk by attrs/ and then
// frozen for the rest of the schedule.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SCHEDULER_CONSTRAINTS_H
#define TILEPIPE_SCHEDULER_CONSTRAINTS_H

#include "scheduler/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <map>
#include <optional>

namespace tilepipe::sched {

/// What the constraint attributes of one op say. Absent is distinguishable
/// from an explicit 0 (unlike the book's zero-filled slot): design.md
/// decision 9 needs "absent max_depth = unbounded".
struct OpConstraints {
  std::optional<int32_t> gid;
  std::optional<int32_t> leaderGid;
  std::optional<unsigned> maxDepth;
  bool forceSerial = false;
  // Remat attributes: parsed and preserved, not read by placement.
  std::optional<int32_t> preferredAtomSize;
  std::optional<int32_t> maxNumSlicesForNonReduceAxis;
  std::optional<int32_t> maxNumOfRecomputations;
  bool enableDefusionIfFusionExtendingLiveness = false;
  bool recomputable = false;

  bool hasPlacementConstraint() const {
    return gid || leaderGid || maxDepth || forceSerial;
  }
};

/// Constraint groups over gids. A gid without a leader leads its own group;
/// a gid names at most one leader (contradictions are rejected while seeding,
/// design.md decision 8), so every group has one root that does not depend on
/// the order ops were visited in.
class ConstraintGroups {
public:
  /// Records that group `gid` follows `leader`. Returns the leader recorded
  /// earlier when it differs (a contradiction); the caller reports it.
  std::optional<int32_t> setLeader(int32_t gid, int32_t leader);
  void addGroup(int32_t gid);
  /// Adds `op` as a member of `gid` (program order: call in op order).
  void addMember(int32_t gid, OpId op);
  /// Freezes the structure: resolves every root, the leader op of each root
  /// group, and the pending set.
  void freeze();

  /// The root gid of `gid`'s group (the group leader's gid).
  int32_t root(int32_t gid) const;
  /// The group of an op: its root gid, or nullopt for an ungrouped op.
  std::optional<int32_t> groupOf(OpId op) const;
  /// The first member (in program order) of the root gid of the op's group.
  std::optional<OpId> leaderOp(OpId op) const;
  /// Ops held over until their group leader op is seated (gate G1): grouped
  /// ops that come before their leader op in program order.
  bool isPending(OpId op) const { return pending.contains(op); }
  const llvm::DenseSet<OpId> &getPending() const { return pending; }
  /// Members of the group rooted at `rootGid`, in program order.
  llvm::ArrayRef<OpId> members(int32_t rootGid) const;
  llvm::SmallVector<int32_t> roots() const;
  bool empty() const { return memberGid.empty(); }

private:
  int32_t find(int32_t gid) const;

  // std::map, not DenseMap: every int32_t is a valid gid, and DenseMap
  // reserves two of them (INT32_MAX and INT32_MIN) as its empty and
  // tombstone keys.
  std::map<int32_t, int32_t> leaderOf;     ///< gid -> leader gid.
  llvm::SmallVector<int32_t> gidOrder;     ///< gids in first-seen order.
  llvm::DenseMap<OpId, int32_t> memberGid; ///< op -> its own gid.
  llvm::SmallVector<OpId> memberOrder;     ///< ops in program order.
  // Frozen state.
  std::map<int32_t, int32_t> rootOf;
  std::map<int32_t, llvm::SmallVector<OpId, 4>> membersOf;
  llvm::DenseSet<OpId> pending;
};

} // namespace tilepipe::sched

#endif // TILEPIPE_SCHEDULER_CONSTRAINTS_H
