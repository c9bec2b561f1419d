//===- Constraints.cpp - constraint groups --------------------------------===//

#include "scheduler/Constraints.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace tilepipe::sched;

std::optional<int32_t> ConstraintGroups::setLeader(int32_t gid,
                                                   int32_t leader) {
  addGroup(gid);
  addGroup(leader);
  auto [it, inserted] = leaderOf.try_emplace(gid, leader);
  if (!inserted && it->second != leader)
    return it->second;
  return std::nullopt;
}

void ConstraintGroups::addGroup(int32_t gid) {
  if (!llvm::is_contained(gidOrder, gid))
    gidOrder.push_back(gid);
}

void ConstraintGroups::addMember(int32_t gid, OpId op) {
  addGroup(gid);
  memberGid[op] = gid;
  memberOrder.push_back(op);
}

// Each gid names at most one leader, so the leader links form a functional
// graph: following them from any gid ends at a gid without a leader (the
// root) or runs into a cycle, whose smallest gid is taken as root. Neither
// depends on visit order.
int32_t ConstraintGroups::find(int32_t gid) const {
  llvm::SmallVector<int32_t, 8> path;
  int32_t cur = gid;
  while (true) {
    auto it = leaderOf.find(cur);
    if (it == leaderOf.end() || it->second == cur)
      return cur;
    if (llvm::is_contained(path, cur)) {
      auto cycleBegin = llvm::find(path, cur);
      return *std::min_element(cycleBegin, path.end());
    }
    path.push_back(cur);
    cur = it->second;
  }
}

void ConstraintGroups::freeze() {
  rootOf.clear();
  membersOf.clear();
  pending.clear();
  for (int32_t gid : gidOrder)
    rootOf[gid] = find(gid);
  for (OpId op : memberOrder)
    membersOf[rootOf[memberGid[op]]].push_back(op);
  // The leader op of a group is the first member whose own gid is the root;
  // members seen before it wait for it (gate G1).
  for (auto &entry : membersOf) {
    // Named, not structured bindings: a lambda may not capture those (C++17).
    const int32_t rootGid = entry.first;
    auto &ops = entry.second;
    auto leaderIt =
        llvm::find_if(ops, [&](OpId op) { return memberGid[op] == rootGid; });
    for (auto it = ops.begin(); it != leaderIt && leaderIt != ops.end(); ++it)
      pending.insert(*it);
  }
}

int32_t ConstraintGroups::root(int32_t gid) const {
  auto it = rootOf.find(gid);
  return it == rootOf.end() ? find(gid) : it->second;
}

std::optional<int32_t> ConstraintGroups::groupOf(OpId op) const {
  auto it = memberGid.find(op);
  if (it == memberGid.end())
    return std::nullopt;
  return root(it->second);
}

std::optional<OpId> ConstraintGroups::leaderOp(OpId op) const {
  std::optional<int32_t> group = groupOf(op);
  if (!group)
    return std::nullopt;
  auto it = membersOf.find(*group);
  if (it == membersOf.end())
    return std::nullopt;
  for (OpId member : it->second)
    if (memberGid.lookup(member) == *group)
      return member;
  return std::nullopt;
}

llvm::ArrayRef<OpId> ConstraintGroups::members(int32_t rootGid) const {
  auto it = membersOf.find(rootGid);
  if (it == membersOf.end())
    return {};
  return it->second;
}

llvm::SmallVector<int32_t> ConstraintGroups::roots() const {
  llvm::SmallVector<int32_t> result;
  for (int32_t gid : gidOrder) {
    int32_t r = root(gid);
    if (!llvm::is_contained(result, r))
      result.push_back(r);
  }
  return result;
}
