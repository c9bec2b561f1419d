//===- ExactCheck.cpp - exact II feasibility by SMT (Z3) ------------------===//
//
// This is the only translation unit built with -fexceptions (see
// CMakeLists.txt): z3++.h reports errors by throwing z3::exception. Every
// call into Z3 sits inside one try block, and checkII() guards the whole
// computation once more, so nothing is thrown across the API.
// docs/exact-check.md states the model and proves it exact.
//
//===----------------------------------------------------------------------===//

#include "scheduler/exact/ExactCheck.h"

#include "rrt/Resources.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <z3++.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

const char *exact::toString(Verdict verdict) {
  switch (verdict) {
  case Verdict::Feasible:
    return "feasible";
  case Verdict::Infeasible:
    return "infeasible";
  case Verdict::Unknown:
    return "unknown";
  }
  return "unknown";
}

namespace {

ExactResult unknown(std::string reason) {
  ExactResult r;
  r.verdict = Verdict::Unknown;
  r.reason = std::move(reason);
  return r;
}

ExactResult infeasible(std::string reason) {
  ExactResult r;
  r.verdict = Verdict::Infeasible;
  r.reason = std::move(reason);
  return r;
}

/// floor(a / b) for b > 0.
__int128 floorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/// Inputs that would make fold() or verify() read out of bounds: the model
/// is only defined for a well-formed problem.
std::optional<std::string> malformed(const Problem &problem) {
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

/// One (op, folded row, weight) entry of a resource's claims.
struct Claim {
  unsigned op;
  unsigned row; ///< Folded row, relative to the op's start row.
  uint64_t amount;
};

/// Row booleans (ops that hold something, times II) past which the model is
/// not built: the verdict is Unknown.
constexpr size_t kMaxRowLiterals = size_t(1) << 20;

} // namespace

static ExactResult checkIIUnguarded(const Problem &problem, unsigned ii,
                                    const ExactOptions &opts) {
  if (ii == 0)
    return infeasible("II 0: verify() rejects every schedule");
  const unsigned n = problem.getNumOps();
  if (n > opts.maxOps)
    return unknown("too many ops: " + std::to_string(n) + " > maxOps " +
                   std::to_string(opts.maxOps));
  if (std::optional<std::string> why = malformed(problem))
    return unknown("malformed problem: " + *why);

  const rrt::ResourceLayout &layout = problem.getLayout();
  llvm::ArrayRef<rrt::Footprint> fps = problem.getFootprints();

  // Fold exactly as verify() does: an op without a footprint (or past the
  // footprint table) holds nothing. A self-colliding fold is refused by the
  // RRT at any start, so such an II has no schedule.
  std::vector<rrt::FoldedFootprint> folded(n);
  for (unsigned i = 0; i < n; ++i) {
    if (i >= fps.size() || fps[i].empty())
      continue;
    folded[i] = fps[i].fold(layout, ii);
    if (folded[i].selfConflict)
      return infeasible("'" + problem.getOp(i).name +
                        "' collides with itself when folded at II " +
                        std::to_string(ii));
  }

  // Stage horizon K (docs/exact-check.md, "The stage horizon"): with the
  // rows fixed, the least stage vector is a longest path over simple paths of
  // the difference-constraint graph, each dependence edge weighing at most
  // ceil((II - 1 + latency) / II) - distance. Saturates to "no bound".
  std::optional<int64_t> horizon;
  {
    __int128 k = 0;
    bool ok = true;
    for (const Dependence &d : problem.getDependences()) {
      __int128 w =
          floorDiv(__int128(d.latency) + 2 * __int128(ii) - 2, ii) - d.distance;
      if (w > 0)
        k += w;
      if (k > (__int128(1) << 40)) {
        ok = false;
        break;
      }
    }
    if (ok)
      horizon = int64_t(k);
  }

  // Claims per resource: bits first (index b), then binding pools
  // (numBits + p); non-binding pools never refuse and are left out.
  const unsigned numBits = layout.numBits(), numPools = layout.numPools();
  std::vector<std::vector<Claim>> claims(numBits + numPools);
  size_t numRowLiterals = 0;
  for (unsigned i = 0; i < n; ++i) {
    const rrt::FoldedFootprint &fp = folded[i];
    if (!fp.empty())
      numRowLiterals += ii;
    for (unsigned c = 0; c < fp.numRows; ++c) {
      const uint64_t *bits = fp.rowBits(c);
      for (unsigned w = 0; w < fp.numWords; ++w)
        for (uint64_t word = bits[w]; word; word &= word - 1) {
          unsigned b = w * 64 + llvm::countr_zero(word);
          if (b < numBits)
            claims[b].push_back({i, c, 1});
        }
      for (const rrt::PoolClaim &pc : fp.rowClaims(c))
        if (layout.poolBinding[pc.pool])
          claims[numBits + pc.pool].push_back({i, c, pc.amount});
    }
  }

  // Counting: whatever the rows, resource res receives the sum of its claims
  // spread over II rows, so a sum above II * capacity fails some row. This is
  // implied by the row constraints below; stating it up front spares the
  // solver a pigeonhole argument, which CDCL search proves only slowly.
  for (unsigned res = 0; res < numBits + numPools; ++res) {
    const bool isBit = res < numBits;
    const uint64_t cap = isBit ? 1 : layout.poolCaps[res - numBits];
    __int128 total = 0;
    for (const Claim &cl : claims[res])
      total += cl.amount;
    if (total > __int128(cap) * ii)
      return infeasible(
          std::string(isBit ? "slot '" : "pool '") +
          (isBit ? layout.bitNames[res] : layout.poolNames[res - numBits]) +
          "' is claimed " + std::to_string(uint64_t(total)) +
          " unit-rows, more than II " + std::to_string(ii) + " rows of " +
          std::to_string(cap) + " hold");
  }
  if (numRowLiterals > kMaxRowLiterals)
    return unknown("model too large: " + std::to_string(numRowLiterals) +
                   " row literals at II " + std::to_string(ii) + " (limit " +
                   std::to_string(kMaxRowLiterals) + ")");

  const bool serial = problem.isForceSerial();

  try {
    z3::context ctx;
    // The plain SMT kernel: the default combined solver spends ~3.5 ms of
    // setup per check, which dominates these small models.
    z3::solver solver(ctx, z3::solver::simple());
    {
      z3::params params(ctx);
      if (opts.timeoutMs)
        params.set("timeout", opts.timeoutMs);
      // The classic simplex-based arithmetic solver: on these models (pure
      // difference constraints plus pseudo-booleans) it measured about twice
      // as fast as the default LRA solver of Z3 4.8.12.
      params.set("arith.solver", 2u);
      solver.set(params);
    }

    z3::expr iiVal = ctx.int_val(int64_t(ii));
    std::vector<z3::expr> stage, row;
    stage.reserve(n);
    row.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
      std::string id = std::to_string(i);
      stage.push_back(ctx.int_const(("k" + id).c_str()));
      row.push_back(ctx.int_const(("r" + id).c_str()));
      solver.add(row[i] >= 0 && row[i] < iiVal);
      solver.add(stage[i] >= 0);
      if (horizon)
        solver.add(stage[i] <= ctx.int_val(*horizon));
      if (std::optional<unsigned> d = problem.getOp(i).constraints.maxDepth)
        solver.add(stage[i] <= ctx.int_val(int64_t(*d)));
    }

    // Precedence, II*k_dst + r_dst + distance*II >= II*k_src + r_src + lat,
    // is k_dst - k_src >= ceil((r_src - r_dst + lat) / II) - distance for
    // integer stages. With lat = a*II + b (0 <= b < II) and
    // x = r_src - r_dst + b in (-II, 2*II - 1), the ceiling is
    // a + [x > 0] + [x > II]: one bound and two implications between
    // difference atoms.
    // The model stays in difference logic (no coefficient II), whose LP
    // relaxation is integral; the direct linear form is far slower.
    for (const Dependence &d : problem.getDependences()) {
      const int64_t a = int64_t(floorDiv(d.latency, ii));
      const int64_t b = d.latency - a * int64_t(ii);
      const int64_t c = a - int64_t(d.distance);
      z3::expr diffK = stage[d.dst] - stage[d.src];
      z3::expr diffR = row[d.src] - row[d.dst];
      solver.add(diffK >= ctx.int_val(c));
      // r_src - r_dst never exceeds II - 1: skip implications that cannot
      // fire.
      if (1 - b <= int64_t(ii) - 1)
        solver.add(z3::implies(diffR >= ctx.int_val(1 - b),
                               diffK >= ctx.int_val(c + 1)));
      if (int64_t(ii) + 1 - b <= int64_t(ii) - 1)
        solver.add(z3::implies(diffR >= ctx.int_val(int64_t(ii) + 1 - b),
                               diffK >= ctx.int_val(c + 2)));
    }

    const ConstraintGroups &groups = problem.getGroups();
    for (int32_t root : groups.roots()) {
      llvm::ArrayRef<OpId> members = groups.members(root);
      for (OpId m : members.drop_front())
        solver.add(stage[m] == stage[members.front()]);
    }

    if (serial) {
      // verify(): in start order each op begins after the previous one's
      // stepLength, and the last one ends by II. Equivalently every op lies
      // in [0, II] and no two overlap.
      for (unsigned i = 0; i < n; ++i) {
        solver.add(stage[i] == 0);
        solver.add(row[i] + ctx.int_val(problem.stepLength(i)) <= iiVal);
      }
      for (unsigned i = 0; i < n; ++i)
        for (unsigned j = i + 1; j < n; ++j)
          solver.add(row[i] + ctx.int_val(problem.stepLength(i)) <= row[j] ||
                     row[j] + ctx.int_val(problem.stepLength(j)) <= row[i]);
    }

    // One-hot row booleans, only for ops that hold something, in the order
    // encoding: row_i_q <=> (r_i >= q) && !(r_i >= q + 1). Exactly one is
    // true by construction. (row_i_q <=> r_i == q plus an explicit
    // exactly-one measured ~25% slower.)
    std::vector<std::vector<z3::expr>> onRow(n);
    for (unsigned i = 0; i < n; ++i) {
      if (folded[i].empty())
        continue;
      std::vector<z3::expr> atLeast; // atLeast[q] <=> r_i >= q, q in [0, II].
      atLeast.reserve(ii + 1);
      for (unsigned q = 0; q <= ii; ++q)
        atLeast.push_back(q == 0    ? ctx.bool_val(true)
                          : q == ii ? ctx.bool_val(false)
                                    : row[i] >= ctx.int_val(int64_t(q)));
      onRow[i].reserve(ii);
      for (unsigned q = 0; q < ii; ++q) {
        z3::expr b = ctx.bool_const(
            ("row" + std::to_string(i) + "_" + std::to_string(q)).c_str());
        solver.add(b == (atLeast[q] && !atLeast[q + 1]));
        onRow[i].push_back(b);
      }
    }

    // Row q of resource res: op i at row r holds its folded row (q - r) mod
    // II, so it claims at q exactly through the literal onRow[i][(q - c) mod
    // II] for each folded row c it claims the resource in. The one-hot rows
    // make that at most one literal per op and row q.
    for (unsigned res = 0; res < numBits + numPools; ++res) {
      const std::vector<Claim> &list = claims[res];
      const bool isBit = res < numBits;
      const uint64_t cap = isBit ? 1 : layout.poolCaps[res - numBits];
      // No row can hold more than the grand total of the claims: when that
      // fits, every row constraint of this resource is vacuous.
      uint64_t total = 0;
      for (const Claim &cl : list)
        total += cl.amount;
      if (total <= cap)
        continue;
      const bool small =
          cap <= uint64_t(INT_MAX) && llvm::all_of(list, [](const Claim &cl) {
            return cl.amount <= uint64_t(INT_MAX);
          });
      for (unsigned q = 0; q < ii; ++q) {
        z3::expr_vector lits(ctx);
        std::vector<int> coeffs;
        z3::expr sum = ctx.int_val(0);
        for (const Claim &cl : list) {
          const z3::expr &lit = onRow[cl.op][(q + ii - cl.row) % ii];
          lits.push_back(lit);
          coeffs.push_back(int(std::min<uint64_t>(cl.amount, INT_MAX)));
          if (!small)
            sum = sum + z3::ite(lit, ctx.int_val(cl.amount), ctx.int_val(0));
        }
        if (isBit)
          solver.add(z3::atmost(lits, 1));
        else if (small)
          solver.add(z3::pble(lits, coeffs.data(), int(cap)));
        else
          solver.add(sum <= ctx.int_val(cap));
      }
    }

    switch (solver.check()) {
    case z3::unsat:
      return infeasible("no schedule at II " + std::to_string(ii) +
                        " (proved by Z3)");
    case z3::unknown: {
      std::string why = solver.reason_unknown();
      if (why.find("timeout") != std::string::npos ||
          why.find("canceled") != std::string::npos)
        return unknown("timeout after " + std::to_string(opts.timeoutMs) +
                       " ms at II " + std::to_string(ii) + " (z3: " + why +
                       ")");
      return unknown("solver gave up at II " + std::to_string(ii) +
                     " (z3: " + why + ")");
    }
    case z3::sat:
      break;
    }

    z3::model model = solver.get_model();
    Schedule witness;
    witness.ii = ii;
    witness.start.resize(n);
    for (unsigned i = 0; i < n; ++i) {
      int64_t k = 0, r = 0;
      if (!model.eval(stage[i], true).is_numeral_i64(k) ||
          !model.eval(row[i], true).is_numeral_i64(r))
        return unknown("internal: model value of op " + std::to_string(i) +
                       " is not a 64-bit integer");
      witness.start[i] = k * int64_t(ii) + r;
    }
    DiagnosticList diags;
    if (!problem.verify(witness, diags)) {
      std::string msg = diags.all().empty() ? std::string("(no message)")
                                            : diags.all().front().message;
      return unknown("internal: the model's witness fails verify(): " + msg);
    }
    ExactResult result;
    result.verdict = Verdict::Feasible;
    result.witness = std::move(witness);
    return result;
  } catch (const z3::exception &e) {
    return unknown(std::string("z3 error: ") + e.msg());
  } catch (const std::exception &e) {
    return unknown(std::string("error: ") + e.what());
  } catch (...) {
    return unknown("unknown error inside the solver");
  }
}

ExactResult exact::checkII(const Problem &problem, unsigned ii,
                           const ExactOptions &opts) {
  // Z3 errors are caught where they arise; this catches the rest (an
  // allocation failure while building the model), so that no exception
  // leaves this file.
  try {
    return checkIIUnguarded(problem, ii, opts);
  } catch (const std::exception &e) {
    return unknown(std::string("error: ") + e.what());
  } catch (...) {
    return unknown("unknown error");
  }
}

std::optional<bool> exact::proveOptimal(const Problem &problem, unsigned ii,
                                        unsigned lowerBound,
                                        const ExactOptions &opts) {
  const unsigned lo = std::max(lowerBound, 1u);
  bool sawUnknown = false;
  // Downwards: feasible IIs cluster near `ii`, so a counterexample is found
  // early; a single Feasible answers false whatever else is Unknown.
  for (unsigned cand = ii; cand-- > lo;) {
    ExactResult r = checkII(problem, cand, opts);
    if (r.verdict == Verdict::Feasible)
      return false;
    if (r.verdict == Verdict::Unknown)
      sawUnknown = true;
  }
  if (sawUnknown)
    return std::nullopt;
  return true;
}
