//===- ResolveHelpers.h - resolving op classes in target tests -*- C++ -*-===//

#ifndef TILEPIPE_TEST_UNIT_TARGET_RESOLVEHELPERS_H
#define TILEPIPE_TEST_UNIT_TARGET_RESOLVEHELPERS_H

#include "target/Target.h"

#include "gtest/gtest.h"

#include <string>
#include <tuple>
#include <vector>

namespace tilepipe::target::test {

inline const TargetModel &sm100a() { return TargetModel::sm100a(); }

/// The built-in model's resolution of `cls` for `work` (a failed
/// expectation when the class is missing).
inline ResolvedOp resolve(llvm::StringRef cls, const OpWork &work) {
  const OpClassInfo *info = sm100a().lookupOpClass(cls);
  EXPECT_NE(info, nullptr) << cls.str();
  if (!info)
    return {};
  return sm100a().resolve(*info, work);
}

/// (slot name, duration, occupancy) of every triple, in order.
using Triples = std::vector<std::tuple<std::string, unsigned, unsigned>>;
inline Triples triples(const ResolvedOp &op) {
  Triples out;
  for (const ResolvedTriple &t : op.triples)
    out.emplace_back(sm100a().getSlot(t.slot)->name, t.duration, t.occupancy);
  return out;
}

} // namespace tilepipe::target::test

#endif // TILEPIPE_TEST_UNIT_TARGET_RESOLVEHELPERS_H
