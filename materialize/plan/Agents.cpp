//===- Agents.cpp - the role table ----------------------------------------===//

#include "materialize/plan/Agents.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace tilepipe;
using namespace tilepipe::materialize;

namespace {

// clang-format off
/// One row per unit kind. Peeled code has no row: its one agent runs all.
constexpr UnitRole kRoles[] = {
  // unit            role        warps  per group  epilogue  TMEM result
  {Unit::TMA,       Role::Load,  1,     false,     false,    false},
  {Unit::CpAsync,   Role::Load,  1,     false,     false,    false},
  {Unit::UMMA,      Role::Mma,   1,     false,     false,    true},
  {Unit::SIMT,      Role::Simt,  4,     true,      true,     false},
  {Unit::TMAStore,  Role::Simt,  4,     true,      true,     false},
};
// clang-format on

/// The one agent of peeled stage code: it runs every unit's ops.
constexpr UnitRole kPeeled = {Unit::SIMT, Role::All, 4, false, true, false};

} // namespace

llvm::StringRef materialize::stringifyRole(Role role) {
  switch (role) {
  case Role::Load:
    return "load";
  case Role::Mma:
    return "mma";
  case Role::Simt:
    return "simt";
  case Role::All:
    return "all";
  }
  llvm_unreachable("unknown role");
}

const UnitRole &materialize::unitRole(Unit unit) {
  const UnitRole *row =
      llvm::find_if(kRoles, [&](const UnitRole &r) { return r.unit == unit; });
  assert(row != std::end(kRoles) && "a unit kind without a role");
  return *row;
}

const UnitRole &materialize::roleRow(Role role) {
  if (role == Role::All)
    return kPeeled;
  const UnitRole *row =
      llvm::find_if(kRoles, [&](const UnitRole &r) { return r.role == role; });
  assert(row != std::end(kRoles) && "a role without a row");
  return *row;
}

AgentKey materialize::agentOf(Unit unit, std::optional<unsigned> warpGroup) {
  const UnitRole &row = unitRole(unit);
  return {row.role, row.perWarpGroup ? warpGroup.value_or(0) : 0u};
}
