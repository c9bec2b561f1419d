//===- ExactCheck.cpp - exact II feasibility by SMT (Z3) ------------------===//
//
// This is the only translation unit built with -fexceptions (see
// CMakeLists.txt): z3++.h reports errors by throwing z3::exception, and every
// call into Z3 sits inside one try block in checkII(), so nothing is thrown
// across the API. docs/exact-check.md states the model and proves it exact.
//
//===----------------------------------------------------------------------===//

#include "scheduler/exact/ExactCheck.h"

#include "rrt/Resources.h"

#include <z3++.h>

#include <algorithm>
#include <climits>
#include <cstdint>
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
        return "op " + std::to_string(i) + " claims a resource the layout lacks";
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

} // namespace

ExactResult exact::checkII(const Problem &problem, unsigned ii,
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
      __int128 w = floorDiv(__int128(d.latency) + 2 * __int128(ii) - 2, ii) -
                   d.distance;
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

  const bool serial = problem.isForceSerial();

  try {
    z3::context ctx;
    // The plain SMT kernel: the default combined solver spends ~3.5 ms of
    // setup per check, which dominates these small models.
    z3::solver solver(ctx, z3::solver::simple());
    if (opts.timeoutMs) {
      z3::params params(ctx);
      params.set("timeout", opts.timeoutMs);
      solver.set(params);
    }

    z3::expr iiVal = ctx.int_val(int64_t(ii));
    std::vector<z3::expr> stage, row, start;
    stage.reserve(n);
    row.reserve(n);
    start.reserve(n);
    for (unsigned i = 0; i < n; ++i) {
      std::string id = std::to_string(i);
      stage.push_back(ctx.int_const(("k" + id).c_str()));
      row.push_back(ctx.int_const(("r" + id).c_str()));
      start.push_back(iiVal * stage[i] + row[i]);
      solver.add(row[i] >= 0 && row[i] < iiVal);
      solver.add(stage[i] >= 0);
      if (horizon)
        solver.add(stage[i] <= ctx.int_val(*horizon));
      if (std::optional<unsigned> d = problem.getOp(i).constraints.maxDepth)
        solver.add(stage[i] <= ctx.int_val(int64_t(*d)));
    }

    for (const Dependence &d : problem.getDependences())
      solver.add(start[d.dst] + ctx.int_val(int64_t(d.distance) * ii) >=
                 start[d.src] + ctx.int_val(d.latency));

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

    // One-hot row booleans, only for ops that hold something.
    std::vector<std::vector<z3::expr>> onRow(n);
    for (unsigned i = 0; i < n; ++i) {
      if (folded[i].empty())
        continue;
      z3::expr_vector all(ctx);
      std::vector<int> ones(ii, 1);
      onRow[i].reserve(ii);
      for (unsigned q = 0; q < ii; ++q) {
        z3::expr b = ctx.bool_const(
            ("row" + std::to_string(i) + "_" + std::to_string(q)).c_str());
        solver.add(b == (row[i] == ctx.int_val(int64_t(q))));
        onRow[i].push_back(b);
        all.push_back(b);
      }
      solver.add(z3::pbeq(all, ones.data(), 1));
    }

    // Claims per resource: bits first (index b), then pools (numBits + p).
    const unsigned numBits = layout.numBits(), numPools = layout.numPools();
    std::vector<std::vector<Claim>> claims(numBits + numPools);
    for (unsigned i = 0; i < n; ++i) {
      const rrt::FoldedFootprint &fp = folded[i];
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
      const bool small = cap <= uint64_t(INT_MAX) &&
                         llvm::all_of(list, [](const Claim &cl) {
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
