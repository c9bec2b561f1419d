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
#include "scheduler/exact/Model.h"
#include "scheduler/exact/Probe.h"
#include "scheduler/exact/Projection.h"
#include "scheduler/exact/SatCheck.h"

#include "rrt/Resources.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <exception>
#include <map>
#include <set>
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
  return unknownResult(std::move(reason));
}

ExactResult infeasible(std::string reason) {
  return infeasibleResult(std::move(reason));
}

} // namespace

namespace {

/// Auto keeps the row model up to this II.
constexpr unsigned kRowsUpToII = 256;

/// A maximal stretch of an op's folded rows holding one amount of a
/// resource: rows [offset, offset + length) mod II after the op's start.
struct Run {
  unsigned op;
  int64_t offset, length;
  uint64_t amount;
};

std::vector<Run> claimRuns(const std::vector<Claim> &claims, unsigned ii) {
  std::map<unsigned, std::map<int64_t, uint64_t>> byOp;
  for (const Claim &cl : claims)
    byOp[cl.op][cl.row] += cl.amount;
  std::vector<Run> runs;
  for (auto &[op, rows] : byOp) {
    size_t first = runs.size();
    for (auto [c, amount] : rows) {
      if (runs.size() > first && runs.back().amount == amount &&
          runs.back().offset + runs.back().length == c)
        ++runs.back().length;
      else
        runs.push_back({op, c, 1, amount});
    }
    // A run through the last row continues at row 0.
    if (runs.size() - first >= 2 && runs[first].offset == 0 &&
        runs.back().offset + runs.back().length == int64_t(ii) &&
        runs.back().amount == runs[first].amount) {
      runs.back().length += runs[first].length;
      runs.erase(runs.begin() + first);
    }
  }
  return runs;
}

/// Every row's load is at most the capacity iff it is at every run's first
/// row (the load only rises where a run starts): run p's start row is
/// covered by run q when (r_p - r_q + offset_p - offset_q) mod II lies in
/// [0, length_q), a disjunction of difference bounds on r_p - r_q.
void addRunConstraints(z3::context &ctx, z3::solver &solver,
                       const std::vector<z3::expr> &row,
                       const std::vector<std::vector<Run>> &runs,
                       const std::vector<bool> &contended,
                       const rrt::ResourceLayout &layout, unsigned numBits,
                       unsigned ii) {
  const int64_t iiWide = ii;
  for (unsigned res = 0; res < runs.size(); ++res) {
    if (!contended[res])
      continue;
    const bool isBit = res < numBits;
    const uint64_t cap = isBit ? 1 : layout.poolCaps[res - numBits];
    const std::vector<Run> &list = runs[res];
    for (const Run &p : list) {
      z3::expr load = ctx.int_val(int64_t(p.amount));
      for (const Run &q : list) {
        if (q.op == p.op)
          continue;
        z3::expr diff = row[p.op] - row[q.op];
        const int64_t shift = p.offset - q.offset;
        z3::expr cover = ctx.bool_val(false);
        for (int64_t m = -2; m <= 1; ++m) {
          int64_t lo = m * iiWide - shift, hi = lo + q.length - 1;
          lo = std::max(lo, 1 - iiWide);
          hi = std::min(hi, iiWide - 1);
          if (lo <= hi)
            cover =
                cover || (diff >= ctx.int_val(lo) && diff <= ctx.int_val(hi));
        }
        if (isBit)
          solver.add(!cover);
        else
          load = load +
                 z3::ite(cover, ctx.int_val(int64_t(q.amount)), ctx.int_val(0));
      }
      if (!isBit)
        solver.add(load <= ctx.int_val(int64_t(cap)));
    }
  }
}

ExactResult decideZ3(const Problem &problem, z3::solver &solver,
                     const std::vector<z3::expr> &stage,
                     const std::vector<z3::expr> &row, unsigned ii,
                     const ExactOptions &opts) {
  const unsigned n = problem.getNumOps();
  z3::check_result status = solver.check();
  // Z3's resource count is deterministic: the exact check's work clock.
  z3::stats stats = solver.statistics();
  for (unsigned i = 0; i < stats.size(); ++i)
    if (stats.key(i) == "rlimit count")
      exactWorkSpent() +=
          uint64_t(stats.is_uint(i) ? double(stats.uint_value(i))
                                    : stats.double_value(i)) /
          kZ3RlimitPerUnit;
  switch (status) {
  case z3::unsat:
    return infeasible("no schedule at II " + std::to_string(ii) +
                      " (proved by Z3)");
  case z3::unknown: {
    std::string why = solver.reason_unknown();
    if (why.find("resource") != std::string::npos ||
        why.find("rlimit") != std::string::npos)
      return unknown(limitReason(false, opts, ii, "(z3: " + why + ")"));
    if (why.find("timeout") != std::string::npos ||
        why.find("canceled") != std::string::npos)
      return unknown(limitReason(true, opts, ii, "(z3: " + why + ")"));
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
  return acceptWitness(problem, std::move(witness));
}

} // namespace

namespace {

/// The exact model in Z3 (docs/exact-check.md): a start is II * k + r with
/// integer stage k and row r. The steps (decide()): the solver's settings,
/// the starts, the pinned row, dependences, groups, force-serial, and the
/// resources as runs or as one-hot rows.
class Z3Model {
public:
  Z3Model(const Problem &problem, const ModelInput &in,
          const ExactOptions &opts)
      : problem(problem), in(in), opts(opts), ii(in.ii), n(problem.getNumOps()),
        layout(problem.getLayout()),
        // The plain SMT kernel: the default combined solver spends ~3.5 ms
        // of setup per check, which dominates these small models.
        solver(ctx, z3::solver::simple()), iiVal(ctx.int_val(int64_t(ii))) {}

  ExactResult decide();

private:
  void configure();
  void declareStarts();
  void addDependences();
  void tieGroups();
  void serializeOps();
  bool useIntervals(std::vector<std::vector<Run>> &runs) const;
  void encodeOneHotRows();
  void addRowCapacity(unsigned res);

  const Problem &problem;
  const ModelInput &in;
  const ExactOptions &opts;
  const unsigned ii;
  const unsigned n;
  const rrt::ResourceLayout &layout;
  z3::context ctx;
  z3::solver solver;
  z3::expr iiVal;
  std::vector<z3::expr> stage, row;
  /// "Starts in row q" per op (ops that hold something).
  std::vector<std::vector<z3::expr>> onRow;
};

} // namespace

ExactResult Z3Model::decide() {
  configure();
  declareStarts();
  if (in.pinned)
    solver.add(row[*in.pinned] == 0);
  addDependences();
  tieGroups();
  if (problem.isForceSerial())
    serializeOps();
  std::vector<std::vector<Run>> runs;
  if (useIntervals(runs)) {
    addRunConstraints(ctx, solver, row, runs, in.contended, layout, in.numBits,
                      ii);
    return decideZ3(problem, solver, stage, row, ii, opts);
  }
  encodeOneHotRows();
  for (unsigned res = 0; res < in.numBits + layout.numPools(); ++res)
    addRowCapacity(res);
  return decideZ3(problem, solver, stage, row, ii, opts);
}

void Z3Model::configure() {
  z3::params params(ctx);
  // The work budget as Z3's deterministic resource count; the wall-clock
  // safety net only when the user set one.
  if (opts.work)
    params.set("rlimit", unsigned(std::min<uint64_t>(
                             opts.work * kZ3RlimitPerUnit, UINT_MAX)));
  if (opts.timeoutMs)
    params.set("timeout", opts.timeoutMs);
  // The classic simplex-based arithmetic solver: on these models (pure
  // difference constraints plus pseudo-booleans) it measured about twice
  // as fast as the default LRA solver of Z3 4.8.12.
  params.set("arith.solver", 2u);
  solver.set(params);
}

/// k_i and r_i with r_i in [0, II), k_i in [0, horizon], k_i <= max_depth.
void Z3Model::declareStarts() {
  stage.reserve(n);
  row.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    std::string id = std::to_string(i);
    stage.push_back(ctx.int_const(("k" + id).c_str()));
    row.push_back(ctx.int_const(("r" + id).c_str()));
    solver.add(row[i] >= 0 && row[i] < iiVal);
    solver.add(stage[i] >= 0);
    if (in.horizon)
      solver.add(stage[i] <= ctx.int_val(*in.horizon));
    if (std::optional<unsigned> d = problem.getOp(i).constraints.maxDepth)
      solver.add(stage[i] <= ctx.int_val(int64_t(*d)));
  }
}

/// Precedence, II*k_dst + r_dst + distance*II >= II*k_src + r_src + lat, is
/// k_dst - k_src >= ceil((r_src - r_dst + lat) / II) - distance for integer
/// stages. With lat = a*II + b (0 <= b < II) and x = r_src - r_dst + b in
/// (-II, 2*II - 1), the ceiling is a + [x > 0] + [x > II]: one bound and two
/// implications between difference atoms. The model stays in difference
/// logic (no coefficient II), whose LP relaxation is integral; the direct
/// linear form is far slower.
void Z3Model::addDependences() {
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
}

/// A group's members share their leader's stage.
void Z3Model::tieGroups() {
  const ConstraintGroups &groups = problem.getGroups();
  for (int32_t root : groups.roots()) {
    llvm::ArrayRef<OpId> members = groups.members(root);
    for (OpId m : members.drop_front())
      solver.add(stage[m] == stage[members.front()]);
  }
}

/// verify(): in start order each op begins after the previous one's
/// stepLength, and the last one ends by II. Equivalently every op lies in
/// [0, II] and no two overlap.
void Z3Model::serializeOps() {
  for (unsigned i = 0; i < n; ++i) {
    solver.add(stage[i] == 0);
    solver.add(row[i] + ctx.int_val(problem.stepLength(i)) <= iiVal);
  }
  for (unsigned i = 0; i < n; ++i)
    for (unsigned j = i + 1; j < n; ++j)
      solver.add(row[i] + ctx.int_val(problem.stepLength(i)) <= row[j] ||
                 row[j] + ctx.int_val(problem.stepLength(j)) <= row[i]);
}

/// Resources as runs when that is the smaller model (long-latency tile
/// loops at IIs in the thousands): see "Intervals" in the docs. Auto: rows
/// up to II 256 (every HLS instance; there they decide md_grid/graph7 in
/// 1.4 s where the runs time out), runs above when they are the smaller
/// model (tile loops: a max_depth GEMM at II 1221-1267 in 0.4 s where rows
/// decided nothing in 2 min).
bool Z3Model::useIntervals(std::vector<std::vector<Run>> &runs) const {
  const std::vector<std::vector<Claim>> &claims = in.claims;
  runs.assign(claims.size(), {});
  uint64_t rowSize = 0, runSize = 0;
  for (unsigned res = 0; res < claims.size(); ++res) {
    runs[res] = claimRuns(claims[res], ii);
    rowSize += uint64_t(ii) * claims[res].size();
    runSize += uint64_t(runs[res].size()) * runs[res].size();
  }
  return opts.resources == ResourceEncoding::Intervals ||
         (opts.resources == ResourceEncoding::Auto && ii > kRowsUpToII &&
          runSize < rowSize);
}

/// One-hot row booleans, only for ops that hold something, in the order
/// encoding: row_i_q <=> (r_i >= q) && !(r_i >= q + 1). Exactly one is true
/// by construction. (row_i_q <=> r_i == q plus an explicit exactly-one
/// measured ~25% slower.)
void Z3Model::encodeOneHotRows() {
  onRow.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    if (in.folded[i].empty())
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
}

/// Row q of resource res: op i at row r holds its folded row (q - r) mod
/// II, so it claims at q exactly through the literal onRow[i][(q - c) mod
/// II] for each folded row c it claims the resource in. The one-hot rows
/// make that at most one literal per op and row q.
void Z3Model::addRowCapacity(unsigned res) {
  const unsigned numBits = in.numBits;
  const std::vector<Claim> &list = in.claims[res];
  // No row can hold more than the grand total of the claims: when that
  // fits, every row constraint of this resource is vacuous.
  if (!in.contended[res])
    return;
  const bool isBit = res < numBits;
  const uint64_t cap = isBit ? 1 : layout.poolCaps[res - numBits];
  const bool small =
      cap <= uint64_t(INT_MAX) && llvm::all_of(list, [](const Claim &cl) {
        return cl.amount <= uint64_t(INT_MAX);
      });
  // Saturated (the claims fill every row): each row holds exactly `cap`,
  // which lets a row that loses its last candidates fail at once
  // (SatWindows.cpp).
  uint64_t demand = 0;
  for (const Claim &cl : list)
    demand += cl.amount;
  const bool saturated = small && demand == cap * uint64_t(ii);
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
    if (saturated && isBit)
      solver.add(z3::atleast(lits, 1));
    else if (saturated)
      solver.add(z3::pbge(lits, coeffs.data(), int(cap)));
  }
}

static ExactResult solveZ3(const Problem &problem, const ModelInput &in,
                           const ExactOptions &opts) {
  try {
    return Z3Model(problem, in, opts).decide();
  } catch (const z3::exception &e) {
    return unknown(std::string("z3 error: ") + e.msg());
  } catch (const std::exception &e) {
    return unknown(std::string("error: ") + e.what());
  } catch (...) {
    return unknown("unknown error inside the solver");
  }
}

namespace {

/// The model of `problem` itself, decided by the chosen solver(s).
ExactResult decide(const Problem &problem, unsigned ii,
                   const ExactOptions &opts) {
  Prepared prepared = prepareModel(problem, ii, opts);
  if (prepared.verdict)
    return *prepared.verdict;
  switch (opts.solver) {
  case Solver::Z3:
    return solveZ3(problem, prepared.input, opts);
  case Solver::Sat:
    return solveSat(problem, prepared.input, opts);
  case Solver::Portfolio: {
    // Where the start windows apply (no placement constraint pins an op's
    // stage: SatWindows.cpp), CaDiCaL first, for a quarter of the limit:
    // with the recurrences apart (Projection.cpp) its windows decide most
    // loops in milliseconds, and where they do Z3 often needs the whole
    // limit (a 287-op projection at its recurrence bound: 0.34 s against
    // 2.4 s). Then Z3 with the whole limit (it finds the schedules CaDiCaL
    // misses across many recurrences, and decides the tile loops whose
    // max_depth leaves CaDiCaL the stage model), then CaDiCaL with the
    // whole limit. Without a limit: Z3, then CaDiCaL.
    std::string why;
    if (opts.work && prepared.input.pinned) {
      ExactOptions probe = opts;
      probe.work = std::max<uint64_t>(1, opts.work / 4);
      ExactResult r = solveSat(problem, prepared.input, probe);
      if (r.verdict != Verdict::Unknown)
        return r;
      why = r.reason + "; ";
    }
    ExactResult z = solveZ3(problem, prepared.input, opts);
    if (z.verdict != Verdict::Unknown)
      return z;
    ExactResult r = solveSat(problem, prepared.input, opts);
    if (r.verdict == Verdict::Unknown)
      r.reason = why + z.reason + "; " + r.reason;
    return r;
  }
  }
  return unknown("unknown solver");
}

/// A relaxation: the original ops it keeps, and its size.
struct Relaxation {
  std::vector<bool> keep;
  size_t size = 0;
};

/// Whether every op of `problem` lies on a cycle with every other: a
/// relaxation onto one recurrence, where CaDiCaL's start windows prove.
bool oneRecurrence(const Problem &problem) {
  std::vector<unsigned> comp;
  return recurrences(problem, comp) == 1;
}

/// The relaxations tried before the whole projection, as masks over the
/// original ops: the claimants of one resource; the kept ops of one
/// recurrence (a strongly connected component of the projection `p`); and
/// the claimants of one resource inside one recurrence. Each drops
/// constraints of the whole (the other ops' claims; the paths through ops
/// of other components are acyclic, so with nothing to hold those ops fit
/// any schedule of it), so a relaxation with no schedule proves the whole
/// has none. Inside one recurrence every op lies on a cycle with every
/// other, which is where the start-window model and the twin order decide
/// in milliseconds what the whole leaves open: aes2/graph4's twenty memory
/// writes in a loop joined with other bodies (docs/exact-check.md).
///
/// Smallest first: the cheapest, and the most likely to be tight. One that
/// keeps more than half of the projection is left out: it is about as hard
/// as the whole, which is decided next with the whole limit, and when it
/// has a schedule (the usual case) its time is lost. Candidates are built
/// from member lists, so the cost follows the kept ops, not components x
/// resources x ops.
std::vector<Relaxation>
relaxationMasks(const Problem &problem, const Projection &p,
                const std::vector<std::vector<unsigned>> &claimed) {
  const unsigned n = p.reduced.getNumOps();
  std::vector<unsigned> comp;
  const unsigned numComps = recurrences(p.reduced, comp);
  const rrt::ResourceLayout &layout = problem.getLayout();
  const unsigned numResources = layout.numBits() + layout.numPools();
  // Members (reduced ids, ascending) per resource and per component.
  std::vector<std::vector<unsigned>> ofResource(numResources),
      ofComponent(numComps);
  for (unsigned i = 0; i < n; ++i) {
    ofComponent[comp[i]].push_back(i);
    for (unsigned res : claimed[p.kept[i]])
      ofResource[res].push_back(i);
  }
  std::vector<std::vector<unsigned>> chosen;
  std::set<std::vector<unsigned>> seen;
  auto add = [&](std::vector<unsigned> members) {
    if (members.size() >= 2 && 2 * members.size() <= n &&
        seen.insert(members).second)
      chosen.push_back(std::move(members));
  };
  for (const std::vector<unsigned> &members : ofResource)
    add(members);
  for (const std::vector<unsigned> &members : ofComponent) {
    if (members.size() < 2)
      continue;
    add(members);
    std::map<unsigned, std::vector<unsigned>> byResource;
    for (unsigned i : members)
      for (unsigned res : claimed[p.kept[i]])
        byResource[res].push_back(i);
    for (auto &[res, inside] : byResource)
      add(std::move(inside));
  }
  llvm::stable_sort(chosen, [](const std::vector<unsigned> &x,
                               const std::vector<unsigned> &y) {
    return x.size() < y.size();
  });
  std::vector<Relaxation> masks;
  for (const std::vector<unsigned> &members : chosen) {
    Relaxation r{std::vector<bool>(problem.getNumOps(), false), members.size()};
    for (unsigned i : members)
      r.keep[p.kept[i]] = true;
    masks.push_back(std::move(r));
  }
  return masks;
}

/// Outside one recurrence CaDiCaL gets at most this much of a relaxation's
/// share before Z3.
constexpr unsigned kSatProbeMs = 50;

/// One relaxation decided within `timeoutMs` (0: none): CaDiCaL first, then
/// Z3 alone (not the portfolio, which would run CaDiCaL again). Most
/// relaxations have a schedule, and a loop of many bodies has dozens of
/// them per II: CaDiCaL finds it in a few ms where Z3 spends 5-20 ms setting
/// up even a 2-op model, 20-100 ms on one of 20-30 ops and 330-480 ms on one
/// of 77-97. Inside one recurrence CaDiCaL's start-window model is also the
/// one that proves, so it gets the whole time there (a 1,499-op joined loop
/// at its recurrence bound: the 29 ops of one recurrence, 265 ms), and Z3
/// the same again after it. Elsewhere CaDiCaL gets at most kSatProbeMs.
ExactResult decideRelaxation(const Problem &relaxed, bool recurrence,
                             unsigned ii, uint64_t work,
                             const ExactOptions &opts) {
  ExactOptions sub = opts;
  sub.work = work;
  if (opts.solver == Solver::Portfolio) {
    sub.solver = Solver::Sat;
    if (!recurrence && work)
      sub.work = std::min<uint64_t>(work, kSatProbeMs);
    ExactResult quick = decide(relaxed, ii, sub);
    if (quick.verdict != Verdict::Unknown)
      return quick;
    sub.solver = Solver::Z3;
    sub.work = work;
  }
  return decide(relaxed, ii, sub);
}

/// A relaxation's first try, in milliseconds at most: enough for the ones
/// with a schedule, which are most of them.
constexpr unsigned kFirstTryMs = 50;

/// Decides the relaxationMasks() in two rounds of at most half the per-II
/// limit each: each first for at most kFirstTryMs by CaDiCaL alone, then
/// the ones left open share the second half. Splitting one half evenly in
/// one round
/// starved the one that proves behind dozens that have a schedule (the
/// 1,499-op loop above: left open or proven depending on the machine's
/// speed). Returns an Infeasible verdict when one of them has no schedule.
std::optional<ExactResult>
relaxedProof(const Problem &problem, unsigned ii, const Projection &p,
             const std::vector<std::vector<unsigned>> &claimed,
             const ExactOptions &opts) {
  std::vector<Relaxation> masks = relaxationMasks(problem, p, claimed);
  // Shares of the work budget, measured on the exact check's own work
  // clock (exactWorkSpent), never the wall clock: a share that depended on
  // the machine's speed decided the verdict of the 1,499-op loop below.
  uint64_t start = exactWorkSpent();
  const double budget = opts.work ? opts.work / 2.0 : 0.0;
  // The work for the next of `left` relaxations, capped at `cap` (0:
  // none); nullopt when the budget is spent.
  auto share = [&](size_t left, unsigned cap) -> std::optional<unsigned> {
    if (!opts.work)
      return cap;
    const double spent = double(exactWorkSpent() - start);
    const double even = (budget - spent) / double(left);
    if (even < 1.0)
      return std::nullopt;
    return cap ? std::min(cap, unsigned(even)) : unsigned(even);
  };
  auto proof = [&](ExactResult r, size_t kept) {
    r.reason += " (on a relaxation: the projection onto " +
                std::to_string(kept) + " of " +
                std::to_string(problem.getNumOps()) + " ops)";
    return r;
  };
  std::vector<Problem> open;
  for (size_t i = 0; i < masks.size(); ++i) {
    std::optional<unsigned> ms = share(masks.size() - i, kFirstTryMs);
    if (!ms)
      break; // The second round still takes the ones left open.
    ProjectionResult projected = projectOntoClaims(problem, ii, masks[i].keep);
    if (projected.infeasible)
      return infeasible(*projected.infeasible);
    if (!projected.projection)
      continue;
    Problem &relaxed = projected.projection->reduced;
    if (!opts.work) {
      // No limit: one round.
      ExactResult r =
          decideRelaxation(relaxed, oneRecurrence(relaxed), ii, 0, opts);
      if (r.verdict == Verdict::Infeasible)
        return proof(std::move(r), relaxed.getNumOps());
      continue;
    }
    // The first round is CaDiCaL's alone: most have a schedule, which it
    // finds in a few ms where Z3 spends 5-20 ms setting up even a 2-op
    // model. A recurrence waits for the second round, where CaDiCaL gets
    // its whole share: a first try would only repeat the start of it (a
    // 742-op joined loop, four infeasible IIs each proven by a 26-op
    // recurrence: 2.2-2.3 s -> 1.7-1.9 s).
    if (opts.solver != Solver::Portfolio || oneRecurrence(relaxed)) {
      open.push_back(std::move(relaxed));
      continue;
    }
    ExactOptions probe = opts;
    probe.solver = Solver::Sat;
    probe.work = *ms;
    ExactResult r = decide(relaxed, ii, probe);
    if (r.verdict == Verdict::Infeasible)
      return proof(std::move(r), relaxed.getNumOps());
    if (r.verdict == Verdict::Unknown)
      open.push_back(std::move(relaxed));
  }
  // The recurrences first, sharing the round among themselves: that is
  // where CaDiCaL's start windows prove (the 1,499-op loop's 29-op
  // recurrence needs about 265 ms). Split over every open relaxation, its
  // share depended on how many the first round happened to leave open, and
  // so did the verdict. The others take what is left.
  std::vector<bool> recurrence;
  for (const Problem &relaxed : open)
    recurrence.push_back(oneRecurrence(relaxed));
  std::vector<unsigned> order;
  for (unsigned i = 0; i < open.size(); ++i)
    if (recurrence[i])
      order.push_back(i);
  const size_t recurrences = order.size();
  for (unsigned i = 0; i < open.size(); ++i)
    if (!recurrence[i])
      order.push_back(i);
  start = exactWorkSpent();
  for (size_t k = 0; k < order.size(); ++k) {
    const size_t i = order[k];
    std::optional<unsigned> ms =
        share(k < recurrences ? recurrences - k : order.size() - k, 0);
    if (!ms)
      break;
    ExactResult r = decideRelaxation(open[i], recurrence[i], ii, *ms, opts);
    if (r.verdict == Verdict::Infeasible)
      return proof(std::move(r), open[i].getNumOps());
  }
  return std::nullopt;
}

} // namespace

std::string exact::limitReason(bool timedOut, const ExactOptions &opts,
                               unsigned ii, const std::string &detail) {
  if (timedOut)
    return "timeout after " + std::to_string(opts.timeoutMs) +
           " ms at II " + std::to_string(ii) + " " + detail;
  return "work limit of " + std::to_string(opts.work) +
         " units reached at II " + std::to_string(ii) + " " + detail;
}

ExactResult exact::checkII(const Problem &problem, unsigned ii,
                           const ExactOptions &opts) {
  // Z3 errors are caught where they arise; this catches the rest (an
  // allocation failure while building the model), so that no exception
  // leaves this file.
  try {
    // Where the projection does not apply (an op that folds onto itself
    // among the reasons), the whole problem is decided.
    std::optional<RefusableProjection> refusable;
    if (opts.project)
      refusable = projectOntoRefusable(problem, ii);
    if (!refusable)
      return decide(problem, ii, opts);
    const ProjectionResult &projected = refusable->result;
    if (projected.infeasible)
      return infeasible(*projected.infeasible);
    if (!projected.projection)
      return decide(problem, ii, opts);
    const Projection &p = *projected.projection;
    const std::vector<std::vector<unsigned>> &claimed = refusable->claimed;
    // The portfolio first asks the cost-based generator (Probe.h): most
    // IIs that have a schedule it seats in milliseconds, where the
    // relaxations below would spend half the limit finding that each of
    // them has one, and a solver the rest. At any size: maxOps bounds what
    // the solvers take on, and the generator's time is capped here.
    if (opts.solver == Solver::Portfolio) {
      if (std::optional<Schedule> seated = seatWithGenerator(
              p.reduced, ii, opts.work ? opts.work / kProbeShare : 0))
        if (std::optional<Schedule> whole = extendWitness(problem, p, *seated))
          return acceptWitness(problem, std::move(*whole));
    }
    // Then the relaxations: each drops constraints of the whole, so a proof
    // that one has no schedule is a proof for the whole problem, and they
    // are far smaller.
    if (std::optional<ExactResult> proof =
            relaxedProof(problem, ii, p, claimed, opts))
      return *proof;
    const std::string where = " (on the projection onto " +
                              std::to_string(p.kept.size()) + " of " +
                              std::to_string(problem.getNumOps()) + " ops)";
    ExactResult r = decide(p.reduced, ii, opts);
    if (r.verdict != Verdict::Feasible) {
      r.reason += where;
      return r;
    }
    std::optional<Schedule> whole = extendWitness(problem, p, *r.witness);
    if (!whole)
      return unknown("internal: the projection's witness did not extend" +
                     where);
    return acceptWitness(problem, std::move(*whole));
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
