//===- ExactPropertyTest.cpp - exact check vs. brute force and bounds -----===//
//
// Two properties over random problems from TestProblems.h:
//  - on tiny problems (<= 5 ops, small II) the verdict equals a brute-force
//    oracle that enumerates every modulo row vector and takes the least
//    stage vector for it (so "Infeasible" is checked to be exact, not only
//    sound);
//  - on small problems (<= 8 ops) every Feasible witness passes verify(),
//    the serial length is always Feasible, and no II below the MII of
//    rrt::computeBounds is Feasible.
//
//===----------------------------------------------------------------------===//

#include "scheduler/exact/ExactCheck.h"

#include "rrt/RRT.h"
#include "test/unit/scheduler/TestProblems.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::exact;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}

/// The least stage vector for fixed rows (Bellman-Ford on the difference
/// constraints k_dst - k_src >= ceil((r_src + lat - r_dst) / II) - distance,
/// k >= 0, equal stages within a group), or nullopt on a positive cycle.
std::optional<std::vector<int64_t>>
leastStages(const Problem &p, unsigned ii, const std::vector<unsigned> &rows) {
  const unsigned n = p.getNumOps();
  struct Edge {
    unsigned src, dst;
    int64_t w;
  };
  std::vector<Edge> edges;
  for (const Dependence &d : p.getDependences())
    edges.push_back(
        {d.src, d.dst,
         ceilDiv(int64_t(rows[d.src]) + d.latency - rows[d.dst], ii) -
             int64_t(d.distance)});
  for (int32_t root : p.getGroups().roots()) {
    llvm::ArrayRef<OpId> m = p.getGroups().members(root);
    for (OpId x : m.drop_front()) {
      edges.push_back({m.front(), x, 0});
      edges.push_back({x, m.front(), 0});
    }
  }
  std::vector<int64_t> k(n, 0);
  for (unsigned round = 0; round <= n; ++round) {
    bool changed = false;
    for (const Edge &e : edges)
      if (k[e.dst] < k[e.src] + e.w) {
        k[e.dst] = k[e.src] + e.w;
        changed = true;
      }
    if (!changed)
      return k;
  }
  return std::nullopt;
}

/// Some schedule at `ii` that verify() accepts, by exhaustive search over the
/// rows (pruned by the RRT), or nullopt when there is none. With the rows
/// fixed, the least stage vector satisfies every constraint that any stage
/// vector does (max_depth and force-serial are upper bounds on the stages),
/// so checking it alone is exact.
std::optional<Schedule> bruteForce(const Problem &p, unsigned ii) {
  const unsigned n = p.getNumOps();
  const rrt::ResourceLayout &layout = p.getLayout();
  std::vector<rrt::FoldedFootprint> folded(n);
  for (unsigned i = 0; i < n; ++i)
    if (!p.getFootprints()[i].empty())
      folded[i] = p.getFootprints()[i].fold(layout, ii);
  rrt::RRT table(layout, ii);
  std::vector<unsigned> rows(n, 0);
  std::optional<Schedule> found;
  std::function<void(unsigned)> place = [&](unsigned i) {
    if (found)
      return;
    if (i == n) {
      std::optional<std::vector<int64_t>> k = leastStages(p, ii, rows);
      if (!k)
        return;
      Schedule s{ii, std::vector<int64_t>(n)};
      for (unsigned j = 0; j < n; ++j)
        s.start[j] = (*k)[j] * ii + rows[j];
      DiagnosticList diags;
      if (p.verify(s, diags))
        found = s;
      return;
    }
    for (unsigned r = 0; r < ii && !found; ++r) {
      rows[i] = r;
      if (folded[i].empty()) {
        place(i + 1);
        continue;
      }
      if (!table.probe(folded[i], r))
        continue;
      table.commit(folded[i], r);
      place(i + 1);
      table.release(folded[i], r);
    }
  };
  place(0);
  return found;
}

void expectWitnessValid(const Problem &p, const ExactResult &r, unsigned ii) {
  ASSERT_EQ(r.witness.has_value(), r.verdict == Verdict::Feasible);
  if (!r.witness)
    return;
  EXPECT_EQ(r.witness->ii, ii);
  DiagnosticList diags;
  EXPECT_TRUE(p.verify(*r.witness, diags))
      << (diags.all().empty() ? "" : diags.all().front().message);
}

/// A random problem with, at random, max_depth bounds, a same-depth group
/// and force-serial.
Problem constrainedProblem(std::mt19937 &rng, unsigned numOps) {
  Problem p = tilepipe::testing::randomProblem(rng, numOps);
  std::uniform_int_distribution<int> pct(0, 99), depth(0, 2);
  for (unsigned i = 0; i < numOps; ++i)
    if (pct(rng) < 25)
      p.getOp(i).constraints.maxDepth = depth(rng);
  if (numOps >= 2 && pct(rng) < 30) {
    for (unsigned i = 0; i < numOps; ++i)
      if (pct(rng) < 50)
        p.getGroups().addMember(1 + i % 2, i);
    p.getGroups().freeze();
  }
  if (pct(rng) < 8)
    p.setForceSerial(true);
  return p;
}

// Each solver on its own (force-serial problems are Z3's: SAT answers
// Unknown there and is skipped), then the portfolio.
class ExactSolvers
    : public ::testing::TestWithParam<std::pair<Solver, ResourceEncoding>> {};

TEST_P(ExactSolvers, AgreesWithBruteForceOnTinyProblems) {
  std::mt19937 rng(20240611);
  unsigned checked = 0, feasible = 0;
  ExactOptions opts;
  opts.solver = GetParam().first;
  opts.resources = GetParam().second;
  for (unsigned iter = 0; iter < 300; ++iter) {
    unsigned numOps = 1 + iter % 5;
    Problem p = constrainedProblem(rng, numOps);
    unsigned maxII = numOps <= 3 ? 8 : numOps == 4 ? 6 : 5;
    for (unsigned ii = 1; ii <= maxII; ++ii) {
      std::optional<Schedule> oracle = bruteForce(p, ii);
      ExactResult r = checkII(p, ii, opts);
      if (opts.solver == Solver::Sat && p.isForceSerial() &&
          r.verdict == Verdict::Unknown)
        continue;
      ASSERT_NE(r.verdict, Verdict::Unknown)
          << "problem " << iter << " II " << ii << ": " << r.reason;
      EXPECT_EQ(r.verdict == Verdict::Feasible, oracle.has_value())
          << "problem " << iter << " (" << numOps << " ops) II " << ii
          << ": exact says " << toString(r.verdict) << ", brute force "
          << (oracle ? "found a schedule" : "found none");
      expectWitnessValid(p, r, ii);
      ++checked;
      feasible += oracle.has_value();
    }
  }
  // Both answers must actually occur for the comparison to mean anything.
  EXPECT_GT(feasible, checked / 5);
  EXPECT_LT(feasible, checked - checked / 5);
}

INSTANTIATE_TEST_SUITE_P(
    Solvers, ExactSolvers,
    ::testing::Values(std::pair{Solver::Z3, ResourceEncoding::Rows},
                      std::pair{Solver::Z3, ResourceEncoding::Intervals},
                      std::pair{Solver::Sat, ResourceEncoding::Auto},
                      std::pair{Solver::Portfolio, ResourceEncoding::Auto}),
    [](const auto &info) -> std::string {
      switch (info.param.first) {
      case Solver::Z3:
        return info.param.second == ResourceEncoding::Rows ? "Z3Rows"
                                                           : "Z3Intervals";
      case Solver::Sat:
        return "Sat";
      default:
        return "Portfolio";
      }
    });

// Two exact configurations decide the same model: on random problems too
// big for brute force (6-19 ops, MII - 1 .. MII + 3) every II both decide
// gets the same verdict, and the second's witnesses pass verify().
void expectSameVerdicts(uint32_t seed, const ExactOptions &first,
                        const ExactOptions &second) {
  std::mt19937 rng(seed);
  unsigned decided = 0, feasible = 0;
  for (unsigned iter = 0; iter < 60; ++iter) {
    unsigned numOps = 6 + iter % 14;
    Problem p = tilepipe::testing::randomProblem(rng, numOps);
    rrt::Bounds b = p.computeBounds();
    if (b.recurrenceInfeasible || b.resourceInfeasible)
      continue;
    for (unsigned ii = b.mii > 1 ? b.mii - 1 : 1; ii <= b.mii + 3; ++ii) {
      ExactResult a = checkII(p, ii, first), c = checkII(p, ii, second);
      if (a.verdict == Verdict::Unknown || c.verdict == Verdict::Unknown)
        continue;
      EXPECT_EQ(a.verdict, c.verdict)
          << "problem " << iter << " (" << numOps << " ops) II " << ii << ": "
          << toString(a.verdict) << " (" << a.reason << ") against "
          << toString(c.verdict) << " (" << c.reason << ")";
      expectWitnessValid(p, c, ii);
      ++decided;
      feasible += c.verdict == Verdict::Feasible;
    }
  }
  EXPECT_GT(decided, 150u);
  EXPECT_GT(feasible, decided / 5);
  EXPECT_LT(feasible, decided - decided / 5);
}

// Z3's run model against its row model.
TEST(ExactProperty, IntervalsAgreeWithRows) {
  ExactOptions rows, runs;
  rows.solver = runs.solver = Solver::Z3;
  rows.resources = ResourceEncoding::Rows;
  runs.resources = ResourceEncoding::Intervals;
  expectSameVerdicts(515, rows, runs);
}

// CaDiCaL against Z3.
TEST(ExactProperty, SatAgreesWithZ3) {
  ExactOptions z3, sat;
  z3.solver = Solver::Z3;
  sat.solver = Solver::Sat;
  expectSameVerdicts(4242, z3, sat);
}

TEST(ExactProperty, SerialLengthFeasibleAndNothingBelowMII) {
  std::mt19937 rng(77);
  for (unsigned iter = 0; iter < 300; ++iter) {
    unsigned numOps = 1 + iter % 8;
    Problem p = tilepipe::testing::randomProblem(rng, numOps);
    DiagnosticList diags;
    ASSERT_TRUE(p.check(diags));

    // (b) The serial schedule exists at the serial length.
    unsigned serial = unsigned(p.serialLength());
    ExactResult atSerial = checkII(p, serial);
    EXPECT_EQ(atSerial.verdict, Verdict::Feasible)
        << "problem " << iter << " at its serial length " << serial << ": "
        << atSerial.reason;
    expectWitnessValid(p, atSerial, serial);

    // (c) Nothing below the MII: every II in [1, mii) is proven infeasible.
    rrt::Bounds b = p.computeBounds();
    ASSERT_FALSE(b.recurrenceInfeasible || b.resourceInfeasible);
    EXPECT_EQ(proveOptimal(p, b.mii, 1), std::optional<bool>(true))
        << "problem " << iter << " below mii " << b.mii;
    if (b.mii > 1) {
      ExactResult below = checkII(p, b.mii - 1);
      EXPECT_EQ(below.verdict, Verdict::Infeasible) << "problem " << iter;
      EXPECT_FALSE(below.witness);
    }

    // (a) At the MII and one random II in between, a Feasible verdict comes
    // with a valid witness.
    for (unsigned ii : {b.mii, std::uniform_int_distribution<unsigned>(
                                   b.mii, std::max(b.mii, serial))(rng)}) {
      ExactResult r = checkII(p, ii);
      EXPECT_NE(r.verdict, Verdict::Unknown)
          << "problem " << iter << " II " << ii << ": " << r.reason;
      expectWitnessValid(p, r, ii);
    }
  }
}

} // namespace

/// A problem whose ops come in classes of identical twins (same footprint,
/// same dependences to and from the rest) and whose free ops (no footprint)
/// sit on the paths between them: what the projection removes and the
/// symmetry edges order.
Problem twinProblem(std::mt19937 &rng, unsigned numClasses) {
  Problem p(tilepipe::testing::smallLayout());
  std::uniform_int_distribution<int> lat(0, 4), coin(0, 3), copies(1, 3);
  std::vector<std::vector<OpId>> classes;
  for (unsigned c = 0; c < numClasses; ++c) {
    std::vector<rrt::Use> uses;
    switch (coin(rng)) {
    case 0:
    case 1:
      uses.push_back(rrt::Use::bit(coin(rng) % 2, 1 + coin(rng) % 2));
      break;
    case 2:
      uses.push_back(rrt::Use::pool(0, 1 + coin(rng) % 2, 1));
      break;
    default:
      break;
    }
    int64_t latency = lat(rng);
    classes.emplace_back();
    for (int k = copies(rng); k > 0; --k)
      classes.back().push_back(p.addOp(tilepipe::testing::makeOp(
          "c" + std::to_string(c) + "_" + std::to_string(k), latency, uses)));
  }
  // Dependences between classes: every member of one to every member of
  // the other, so the twins stay interchangeable.
  for (unsigned a = 0; a < numClasses; ++a)
    for (unsigned b = 0; b < numClasses; ++b) {
      if (coin(rng) != 0 || (a >= b && coin(rng) != 0))
        continue;
      unsigned distance = a < b ? 0 : 1 + coin(rng) % 2;
      int64_t latency = lat(rng);
      for (OpId x : classes[a])
        for (OpId y : classes[b])
          p.addDependence({x, y, latency, distance});
    }
  p.finalize();
  return p;
}

// The projection (with its transitive reduction and twin ordering) and the
// start-window SAT model decide what brute force decides, on problems built
// to have removable ops and interchangeable twins.
TEST(ExactProjection, AgreesWithBruteForceOnTwins) {
  std::mt19937 rng(20261123);
  unsigned checked = 0, feasible = 0, projectedSmaller = 0;
  for (unsigned iter = 0; iter < 250; ++iter) {
    Problem p = twinProblem(rng, 2 + iter % 3);
    if (p.getNumOps() > 7)
      continue;
    for (unsigned ii = 1; ii <= 5; ++ii) {
      std::optional<Schedule> oracle = bruteForce(p, ii);
      for (Solver solver : {Solver::Sat, Solver::Z3}) {
        for (bool project : {true, false}) {
          ExactOptions opts;
          opts.solver = solver;
          opts.project = project;
          ExactResult r = checkII(p, ii, opts);
          ASSERT_NE(r.verdict, Verdict::Unknown)
              << "problem " << iter << " II " << ii << ": " << r.reason;
          EXPECT_EQ(r.verdict == Verdict::Feasible, oracle.has_value())
              << "problem " << iter << " (" << p.getNumOps() << " ops) II "
              << ii << " solver " << int(solver) << " project " << project
              << ": exact says " << toString(r.verdict) << " ("
              << r.reason << ")";
          expectWitnessValid(p, r, ii);
          projectedSmaller +=
              project && r.reason.find("projection onto") != std::string::npos;
        }
      }
      ++checked;
      feasible += oracle.has_value();
    }
  }
  EXPECT_GT(checked, 300u);
  EXPECT_GT(feasible, checked / 5);
  EXPECT_LT(feasible, checked - checked / 5);
  EXPECT_GT(projectedSmaller, 20u);
}
