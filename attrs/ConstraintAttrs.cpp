//===- ConstraintAttrs.cpp ------------------------------------------------===//

#include "attrs/ConstraintAttrs.h"
#include "attrs/AttrNames.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"

#include <map>

using namespace mlir;
using namespace tilepipe;

// The inherent (properties) dictionary wins over the discardable one.
static Attribute lookup(Operation *op, StringRef name) {
  if (std::optional<Attribute> inherent = op->getInherentAttr(name))
    if (*inherent)
      return *inherent;
  return op->getDiscardableAttr(name);
}

static LogicalResult readInt(Operation *op, StringRef name,
                             std::optional<int32_t> &out) {
  Attribute attr = lookup(op, name);
  if (!attr)
    return success();
  auto intAttr = dyn_cast<IntegerAttr>(attr);
  if (!intAttr)
    return op->emitError() << "'" << name
                           << "' must be an integer attribute, got " << attr;
  int64_t value = intAttr.getValue().getSExtValue();
  if (value < INT32_MIN || value > INT32_MAX)
    return op->emitError() << "'" << name << "' value " << value
                           << " does not fit in 32 bits";
  out = int32_t(value);
  return success();
}

static bool readFlag(Operation *op, StringRef name) {
  return bool(lookup(op, name));
}

bool attrs::hasForceSerial(Operation *op) { return readFlag(op, kForceSerial); }

FailureOr<sched::OpConstraints> attrs::readConstraints(Operation *op) {
  sched::OpConstraints c;
  std::optional<int32_t> maxDepth;
  if (failed(readInt(op, kGid, c.gid)) ||
      failed(readInt(op, kLeaderGid, c.leaderGid)) ||
      failed(readInt(op, kMaxDepth, maxDepth)) ||
      failed(readInt(op, kPreferredAtomSize, c.preferredAtomSize)) ||
      failed(readInt(op, kMaxNumSlices, c.maxNumSlicesForNonReduceAxis)) ||
      failed(readInt(op, kMaxNumRecomputations, c.maxNumOfRecomputations)))
    return failure();
  if (maxDepth) {
    if (*maxDepth < 0)
      return op->emitError()
             << "'" << kMaxDepth << "' must be non-negative, got " << *maxDepth;
    c.maxDepth = unsigned(*maxDepth);
  }
  if (c.leaderGid && !c.gid)
    return op->emitError() << "'" << kLeaderGid << "' given without '" << kGid
                           << "'";
  c.forceSerial = readFlag(op, kForceSerial);
  c.recomputable = readFlag(op, kRecomputable);
  c.enableDefusionIfFusionExtendingLiveness = readFlag(op, kEnableDefusion);
  return c;
}

LogicalResult
attrs::seedConstraints(ArrayRef<Operation *> ops,
                       std::vector<sched::OpConstraints> &constraints,
                       sched::ConstraintGroups &groups) {
  constraints.clear();
  constraints.reserve(ops.size());
  // gid -> the op that first named its leader, for the contradiction report.
  std::map<int32_t, Operation *> leaderSource; // Any int32_t is a gid.
  bool ok = true;
  for (auto [index, op] : llvm::enumerate(ops)) {
    FailureOr<sched::OpConstraints> c = readConstraints(op);
    if (failed(c)) {
      ok = false;
      constraints.emplace_back();
      continue;
    }
    constraints.push_back(*c);
    if (!c->gid)
      continue;
    groups.addMember(*c->gid, sched::OpId(index));
    // An op without leader_gid leads its own group (decision 8): it is not
    // grafted onto group 0.
    if (!c->leaderGid || *c->leaderGid == *c->gid)
      continue;
    if (std::optional<int32_t> previous =
            groups.setLeader(*c->gid, *c->leaderGid)) {
      InFlightDiagnostic diag = op->emitError()
                                << "constraint group " << *c->gid
                                << " is given two leaders: " << *c->leaderGid
                                << " here and " << *previous << " earlier";
      diag.attachNote(leaderSource[*c->gid]->getLoc())
          << "leader " << *previous << " named here";
      ok = false;
      continue;
    }
    leaderSource.try_emplace(*c->gid, op);
  }
  groups.freeze();
  return success(ok);
}
