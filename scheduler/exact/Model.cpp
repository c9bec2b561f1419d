//===- Model.cpp - the exact check's cheap verdicts and model inputs ------===//

#include "scheduler/exact/Model.h"

#include "support/Adjacency.h"
#include "support/SCC.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

ExactResult exact::unknownResult(std::string reason) {
  ExactResult r;
  r.verdict = Verdict::Unknown;
  r.reason = std::move(reason);
  return r;
}

ExactResult exact::infeasibleResult(std::string reason) {
  ExactResult r;
  r.verdict = Verdict::Infeasible;
  r.reason = std::move(reason);
  return r;
}

__int128 exact::floorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

ExactResult exact::acceptWitness(const Problem &problem, Schedule witness) {
  DiagnosticList diags;
  if (!problem.verify(witness, diags)) {
    std::string msg = diags.all().empty() ? std::string("(no message)")
                                          : diags.all().front().message;
    return unknownResult("internal: the model's witness fails verify(): " +
                         msg);
  }
  ExactResult result;
  result.verdict = Verdict::Feasible;
  result.witness = std::move(witness);
  return result;
}

std::optional<Schedule> exact::settleOnRows(const Problem &problem, unsigned ii,
                                            const std::vector<int64_t> &row) {
  const unsigned n = problem.getNumOps();
  if (ii == 0 || row.size() != n)
    return std::nullopt;
  const int64_t wide = ii;
  Schedule out;
  out.ii = ii;
  out.start.assign(n, 0);
  for (unsigned i = 0; i < n; ++i)
    if (row[i] >= 0)
      out.start[i] = row[i];
  llvm::ArrayRef<Dependence> deps = problem.getDependences();
  // The budget only guards against a bug in the caller's rows.
  const uint64_t budget = 16 * (uint64_t(n) + 2);
  for (uint64_t pass = 0; pass < budget; ++pass) {
    bool changed = false;
    for (const Dependence &d : deps) {
      __int128 need =
          __int128(out.start[d.src]) + d.latency - __int128(d.distance) * wide;
      if (need <= out.start[d.dst])
        continue;
      if (need > (__int128(1) << 62))
        return std::nullopt;
      int64_t value = int64_t(need);
      if (row[d.dst] >= 0) {
        int64_t over = value - row[d.dst];
        value = row[d.dst] + ((over + wide - 1) / wide) * wide;
      }
      out.start[d.dst] = value;
      changed = true;
    }
    if (!changed)
      return out;
  }
  return std::nullopt;
}

unsigned exact::recurrences(const Problem &problem,
                            std::vector<unsigned> &comp) {
  const unsigned n = problem.getNumOps();
  tilepipe::support::Adjacency succ(n, [&](auto add) {
    for (const Dependence &d : problem.getDependences())
      add(d.src, d.dst);
  });
  return tilepipe::support::stronglyConnectedComponents(
      n, [&](unsigned v) { return succ[v]; }, comp);
}

/// Inputs that would make fold() or verify() read out of bounds: the model
/// is only defined for a well-formed problem.
std::optional<std::string> exact::malformed(const Problem &problem) {
  const unsigned n = problem.getNumOps();
  const rrt::ResourceLayout &layout = problem.getLayout();
  if (layout.poolCaps.size() != layout.numPools() ||
      layout.poolBinding.size() != layout.numPools())
    return std::string("resource layout has inconsistent pool tables");
  for (const Dependence &d : problem.getDependences())
    if (d.src >= n || d.dst >= n)
      return "a dependence names op " + std::to_string(std::max(d.src, d.dst)) +
             " of " + std::to_string(n);
  llvm::ArrayRef<rrt::Footprint> fps = problem.getFootprints();
  for (unsigned i = 0; i < n && i < fps.size(); ++i)
    for (const rrt::Use &u : fps[i].getUses())
      if (u.kind == rrt::Use::Kind::Bit ? u.index >= layout.numBits()
                                        : u.index >= layout.numPools())
        return "op " + std::to_string(i) +
               " claims a resource the layout lacks";
  for (int32_t root : problem.getGroups().roots())
    for (OpId m : problem.getGroups().members(root))
      if (m >= n)
        return "constraint group " + std::to_string(root) + " names op " +
               std::to_string(m);
  return std::nullopt;
}

namespace {

/// Row booleans (ops that hold something, times II) past which the model is
/// not built: the verdict is Unknown.
constexpr size_t kMaxRowLiterals = size_t(1) << 20;

} // namespace

bool exact::hasPlacementConstraints(const Problem &problem) {
  return problem.isForceSerial() || !problem.getGroups().roots().empty() ||
         llvm::any_of(problem.getOps(), [](const Operation &op) {
           return op.constraints.hasPlacementConstraint();
         });
}

std::optional<std::vector<std::vector<unsigned>>>
exact::claimedResources(const Problem &problem, unsigned ii) {
  const unsigned n = problem.getNumOps();
  const rrt::ResourceLayout &layout = problem.getLayout();
  llvm::ArrayRef<rrt::Footprint> fps = problem.getFootprints();
  std::vector<std::vector<unsigned>> claimed(n);
  for (unsigned i = 0; i < n && i < fps.size(); ++i) {
    if (fps[i].empty())
      continue;
    rrt::FoldedFootprint fp = fps[i].fold(layout, ii);
    if (fp.selfConflict)
      return std::nullopt;
    forEachRefusingClaim(fp, layout, [&](unsigned res, unsigned, uint64_t) {
      claimed[i].push_back(res);
    });
    llvm::sort(claimed[i]);
    claimed[i].erase(std::unique(claimed[i].begin(), claimed[i].end()),
                     claimed[i].end());
  }
  return claimed;
}

/// Fold exactly as verify() does: an op without a footprint (or past the
/// footprint table) holds nothing. A self-colliding fold is refused by the
/// RRT at any start, so such an II has no schedule: the reason, if so.
static std::optional<std::string>
foldFootprints(const Problem &problem, unsigned ii,
               std::vector<rrt::FoldedFootprint> &folded) {
  const unsigned n = problem.getNumOps();
  llvm::ArrayRef<rrt::Footprint> fps = problem.getFootprints();
  folded.assign(n, {});
  for (unsigned i = 0; i < n; ++i) {
    if (i >= fps.size() || fps[i].empty())
      continue;
    folded[i] = fps[i].fold(problem.getLayout(), ii);
    if (folded[i].selfConflict)
      return "'" + problem.getOp(i).name +
             "' collides with itself when folded at II " + std::to_string(ii);
  }
  return std::nullopt;
}

/// Stage horizon K (docs/exact-check.md, "The stage horizon"): with the
/// rows fixed, the least stage vector is a longest path over simple paths of
/// the difference-constraint graph, each dependence edge weighing at most
/// ceil((II - 1 + latency) / II) - distance. Saturates to "no bound".
static std::optional<int64_t> stageHorizon(const Problem &problem,
                                           unsigned ii) {
  __int128 k = 0;
  for (const Dependence &d : problem.getDependences()) {
    __int128 w =
        floorDiv(__int128(d.latency) + 2 * __int128(ii) - 2, ii) - d.distance;
    if (w > 0)
      k += w;
    if (k > (__int128(1) << 40))
      return std::nullopt;
  }
  return int64_t(k);
}

/// Claims per resource: bits first (index b), then binding pools
/// (numBits + p); non-binding pools never refuse and are left out.
static std::vector<std::vector<Claim>>
collectClaims(const rrt::ResourceLayout &layout,
              llvm::ArrayRef<rrt::FoldedFootprint> folded) {
  std::vector<std::vector<Claim>> claims(layout.numBits() + layout.numPools());
  for (unsigned i = 0; i < folded.size(); ++i)
    forEachRefusingClaim(folded[i], layout,
                         [&](unsigned res, unsigned row, uint64_t amount) {
                           claims[res].push_back({i, row, amount});
                         });
  return claims;
}

/// Counting: whatever the rows, resource res receives the sum of its claims
/// spread over II rows, so a sum above II * capacity fails some row. This is
/// implied by the row constraints; stating it up front spares the solver a
/// pigeonhole argument, which CDCL search proves only slowly. Fills
/// `contended` (the claims exceed one row's capacity); the reason when some
/// resource is over-claimed.
static std::optional<std::string>
countClaims(const rrt::ResourceLayout &layout,
            const std::vector<std::vector<Claim>> &claims, unsigned ii,
            std::vector<bool> &contended) {
  const unsigned numBits = layout.numBits();
  contended.assign(claims.size(), false);
  for (unsigned res = 0; res < claims.size(); ++res) {
    const bool isBit = res < numBits;
    const uint64_t cap = isBit ? 1 : layout.poolCaps[res - numBits];
    __int128 total = 0;
    for (const Claim &cl : claims[res])
      total += cl.amount;
    contended[res] = total > cap;
    if (total > __int128(cap) * ii)
      return std::string(isBit ? "slot '" : "pool '") +
             (isBit ? layout.bitNames[res] : layout.poolNames[res - numBits]) +
             "' is claimed " + std::to_string(uint64_t(total)) +
             " unit-rows, more than II " + std::to_string(ii) + " rows of " +
             std::to_string(cap) + " hold";
  }
  return std::nullopt;
}

/// The op whose start may be fixed: the first that holds something, when
/// no placement constraint stops the schedule from rotating.
static std::optional<unsigned>
pinnedOp(const Problem &problem, llvm::ArrayRef<rrt::FoldedFootprint> folded) {
  if (hasPlacementConstraints(problem))
    return std::nullopt;
  for (unsigned i = 0; i < folded.size(); ++i)
    if (!folded[i].empty())
      return i;
  return std::nullopt;
}

Prepared exact::prepareModel(const Problem &problem, unsigned ii,
                             const ExactOptions &opts) {
  Prepared out;
  auto unknown = [&](std::string reason) {
    out.verdict = unknownResult(std::move(reason));
    return std::move(out);
  };
  auto infeasible = [&](std::string reason) {
    out.verdict = infeasibleResult(std::move(reason));
    return std::move(out);
  };
  if (ii == 0)
    return infeasible("II 0: verify() rejects every schedule");
  const unsigned n = problem.getNumOps();
  if (n > opts.maxOps)
    return unknown("too many ops: " + std::to_string(n) + " > maxOps " +
                   std::to_string(opts.maxOps));
  if (std::optional<std::string> why = malformed(problem))
    return unknown("malformed problem: " + *why);
  const rrt::ResourceLayout &layout = problem.getLayout();
  std::vector<rrt::FoldedFootprint> folded;
  if (std::optional<std::string> why = foldFootprints(problem, ii, folded))
    return infeasible(std::move(*why));
  std::optional<int64_t> horizon = stageHorizon(problem, ii);
  std::vector<std::vector<Claim>> claims = collectClaims(layout, folded);
  std::vector<bool> contended;
  if (std::optional<std::string> why =
          countClaims(layout, claims, ii, contended))
    return infeasible(std::move(*why));
  size_t numRowLiterals =
      size_t(ii) * llvm::count_if(folded, [](const rrt::FoldedFootprint &fp) {
        return !fp.empty();
      });
  if (numRowLiterals > kMaxRowLiterals)
    return unknown("model too large: " + std::to_string(numRowLiterals) +
                   " row literals at II " + std::to_string(ii) + " (limit " +
                   std::to_string(kMaxRowLiterals) + ")");
  out.input.pinned = pinnedOp(problem, folded);
  out.input.ii = ii;
  out.input.folded = std::move(folded);
  out.input.horizon = horizon;
  out.input.claims = std::move(claims);
  out.input.numBits = layout.numBits();
  out.input.contended = std::move(contended);
  return out;
}
