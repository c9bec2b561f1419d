//===- EngineDefectsTest.cpp - the placement engine's own parts -----------===//
//
// Tests that reach into scheduler/modulo/: the longest paths, the seats an
// arm only tries, the max_depth cap's arithmetic, the pending set inside the
// permute arm, the sampled orders, and the engine's counters (which arm
// seated, which gate refused), each on a problem built to need it.
//
//===----------------------------------------------------------------------===//

#include "TestProblems.h"

#include "scheduler/modulo/Engine.h"
#include "scheduler/modulo/PathLengths.h"

#include <gtest/gtest.h>

#include <climits>

using namespace tilepipe;
using namespace tilepipe::sched;
using namespace tilepipe::sched::modulo;
using tilepipe::testing::makeOp;
using tilepipe::testing::smallLayout;

namespace {

/// One attempt of the engine at a fixed II, with what it counted.
struct Attempt {
  std::optional<std::vector<int64_t>> starts;
  ArmStats stats;
  AttemptFailure failure;
};

Attempt runEngine(const Problem &p, unsigned ii, unsigned arms = ArmAll,
                  Strategy strategy = {}, ModuloOptions options = {}) {
  options.arms = arms;
  PathLengths paths = PathLengths::compute(p, ii);
  Engine engine(p, ii, options, strategy, paths);
  Attempt a;
  a.starts = engine.run(a.failure);
  a.stats = engine.getStats();
  return a;
}

bool verifies(const Problem &p, unsigned ii, const std::vector<int64_t> &s) {
  DiagnosticList diags;
  return p.verify({ii, s}, diags);
}

//===----------------------------------------------------------------------===//
// Longest paths
//===----------------------------------------------------------------------===//

// A chain of 100 ops whose dependences are listed tail first: a relaxation
// that sweeps the edge list moves one op per pass, so a pass limit below the
// chain's length leaves the head's height and deadline short.
TEST(EngineDefects, PathLengthsExactOnLongChain) {
  constexpr unsigned kOps = 100;
  constexpr int64_t kLatency = 2;
  Problem p(smallLayout());
  for (unsigned i = 0; i < kOps; ++i) {
    Operation op = makeOp("op" + std::to_string(i), kLatency);
    if (i + 1 == kOps)
      op.constraints.maxDepth = 0;
    p.addOp(op);
  }
  for (unsigned i = kOps - 1; i > 0; --i)
    p.addDependence({i - 1, i, kLatency, 0});
  p.finalize();
  const unsigned ii = 1000;
  PathLengths paths = PathLengths::compute(p, ii);
  const int64_t length = kLatency * (kOps - 1);
  EXPECT_EQ(paths.height[0], length);
  EXPECT_EQ(paths.height[kOps - 1], 0);
  EXPECT_EQ(paths.asap[kOps - 1], length);
  EXPECT_EQ(paths.deadline[kOps - 1], int64_t(ii) - 1);
  EXPECT_EQ(paths.deadline[0], int64_t(ii) - 1 - length);
  EXPECT_EQ(paths.alap[0], 0);
  EXPECT_EQ(paths.alap[kOps - 1], length);
}

// Carried edges need further passes, one per carried edge on the path:
// here the longest path zig-zags through 79 of them, more than a 64-pass
// limit allows.
TEST(EngineDefects, PathLengthsThroughCarriedEdges) {
  // Pairs (2i, 2i+1) joined by a distance-0 edge of latency 10, and a back
  // edge 2i+1 -> 2i-2 of distance 1, latency 1: weight 1 - II = -7 at II 8,
  // so every pair the path crosses adds 10 - 7 = 3.
  constexpr unsigned kPairs = 80;
  const unsigned ii = 8;
  Problem p(smallLayout());
  for (unsigned i = 0; i < 2 * kPairs; ++i)
    p.addOp(makeOp("op" + std::to_string(i), 1));
  for (unsigned i = 0; i < kPairs; ++i)
    p.addDependence({2 * i, 2 * i + 1, 10, 0});
  for (unsigned i = 1; i < kPairs; ++i)
    p.addDependence({2 * i + 1, 2 * i - 2, 1, 1});
  p.finalize();
  PathLengths paths = PathLengths::compute(p, ii);
  const int64_t crossed = 3 * int64_t(kPairs - 1);
  EXPECT_EQ(paths.height[2 * (kPairs - 1)], 10 + crossed);
  EXPECT_EQ(paths.height[0], 10);
  EXPECT_EQ(paths.asap[0], crossed);
  EXPECT_EQ(paths.asap[1], crossed + 10);
}

// On random problems the sweeps agree with a plain Bellman-Ford run to its
// fixpoint.
TEST(EngineDefects, PathLengthsMatchBellmanFord) {
  std::mt19937 rng(4242);
  unsigned checked = 0;
  for (unsigned iter = 0; iter < 300; ++iter) {
    Problem p = tilepipe::testing::randomProblem(rng, 2 + iter % 40);
    rrt::Bounds bounds = p.computeBounds();
    if (bounds.recurrenceInfeasible)
      continue;
    const unsigned ii = std::max(1u, bounds.mii) + iter % 3;
    const unsigned n = p.getNumOps();
    std::vector<int64_t> asap(n, 0), neg(n, 0);
    for (unsigned pass = 0; pass <= n; ++pass)
      for (const Dependence &d : p.getDependences()) {
        if (d.src == d.dst)
          continue;
        int64_t w = d.latency - int64_t(d.distance) * ii;
        asap[d.dst] = std::max(asap[d.dst], asap[d.src] + w);
        neg[d.src] = std::min(neg[d.src], neg[d.dst] - w);
      }
    PathLengths paths = PathLengths::compute(p, ii);
    for (OpId op = 0; op < n; ++op) {
      ASSERT_EQ(paths.asap[op], asap[op]) << "iteration " << iter;
      ASSERT_EQ(paths.height[op], -neg[op]) << "iteration " << iter;
    }
    ++checked;
  }
  EXPECT_GT(checked, 200u);
}

// 100k ops in a chain listed tail first, with carried edges: one sweep per
// carried edge on the path, not one per op.
TEST(EngineDefects, PathLengthsLargeGraph) {
  constexpr unsigned kOps = 100000;
  Problem p(smallLayout());
  for (unsigned i = 0; i < kOps; ++i)
    p.addOp(makeOp("op" + std::to_string(i), 1));
  for (unsigned i = kOps - 1; i > 0; --i)
    p.addDependence({i - 1, i, 1, 0});
  for (unsigned i = 1000; i < kOps; i += 1000)
    p.addDependence({i, i - 1000, 1, 1});
  p.finalize();
  PathLengths paths = PathLengths::compute(p, kOps);
  EXPECT_EQ(paths.height[0], int64_t(kOps - 1));
  EXPECT_EQ(paths.asap[kOps - 1], int64_t(kOps - 1));
}

//===----------------------------------------------------------------------===//
// Previous seats
//===----------------------------------------------------------------------===//

/// P (no resources) feeds A, B, C, D one cycle later; A, B, D must stay in
/// stage 0 (max_depth 0), C may go to stage 1, and C -> D is carried. At II
/// 4 the alu bit has four rows: P's row 0 is free of alu, but only C can
/// reach it (as cycle 4). A, B, C take rows 1, 2, 3 and D finds no seat.
Problem previousSeatProblem() {
  Problem p(smallLayout());
  p.addOp(makeOp("P", 1));
  for (const char *name : {"A", "B", "C", "D"}) {
    Operation op = makeOp(name, 1, {rrt::Use::bit(0, 1)});
    op.constraints.maxDepth = std::string(name) == "C" ? 1 : 0;
    p.addOp(op);
  }
  for (OpId op = 1; op <= 4; ++op)
    p.addDependence({0, op, 1, 0});
  p.addDependence({3, 4, 0, 1});
  p.finalize();
  return p;
}

// The fuse arm tries D at cycles 1 and 2 (its partners A and B find no other
// seat) and skips 3 (C depends on D). D was never seated, so Rau's retry
// must start at the window's first cycle; recording the fuse arm's trial
// seats as D's previous seat made it start at 3 instead.
TEST(EngineDefects, TrialSeatsAreNotPreviousSeats) {
  Problem p = previousSeatProblem();
  Attempt a = runEngine(p, 4, ArmFuse | ArmRetry);
  ASSERT_TRUE(a.starts) << a.failure.reason;
  EXPECT_TRUE(verifies(p, 4, *a.starts));
  // Retry takes D to cycle 1 and evicts A; A's fuse then moves C to cycle 4.
  EXPECT_EQ(*a.starts, (std::vector<int64_t>{0, 3, 2, 4, 1}));
  EXPECT_EQ(a.stats.retry, 1u);
  EXPECT_EQ(a.stats.fuse, 1u);
  EXPECT_EQ(a.stats.cost, 0u);
  EXPECT_EQ(a.stats.evictions, 1u);
  // G3 refused D and then A; G2 cut the windows of A, B, D and A again.
  EXPECT_EQ(a.stats.rrtRefused, 2u);
  EXPECT_EQ(a.stats.depthCapped, 4u);
}

//===----------------------------------------------------------------------===//
// max_depth arithmetic
//===----------------------------------------------------------------------===//

TEST(EngineDefects, DepthCapEndSaturates) {
  EXPECT_EQ(depthCapEnd(0, 4), 3);
  EXPECT_EQ(depthCapEnd(2, 5), 14);
  EXPECT_EQ(depthCapEnd(UINT_MAX, 4), (int64_t(1) << 32) * 4 - 1);
  EXPECT_EQ(depthCapEnd(UINT_MAX, UINT_MAX - 1), INT64_MAX);
  EXPECT_EQ(depthCapEnd(1u << 31, UINT_MAX), INT64_MAX);
}

// max_depth = UINT_MAX caps nothing: b goes to stage 1 at its earliest start.
// With the cap computed in 32 bits, UINT_MAX + 1 wrapped to 0 and b's window
// ended at cycle -1.
TEST(EngineDefects, MaxDepthUintMaxIsNoCap) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 5, {rrt::Use::bit(0, 1)}));
  Operation b = makeOp("b", 1, {rrt::Use::bit(0, 1)});
  b.constraints.maxDepth = UINT_MAX;
  p.addOp(b);
  p.addDependence({0, 1, 5, 0});
  p.finalize();
  Attempt a = runEngine(p, 4);
  ASSERT_TRUE(a.starts) << a.failure.reason;
  EXPECT_EQ(*a.starts, (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(a.stats.dead, 0u);
  EXPECT_EQ(a.stats.depthCapped, 0u);
  PathLengths paths = PathLengths::compute(p, 4);
  EXPECT_EQ(paths.deadline[1], (int64_t(1) << 32) * 4 - 1);
  EXPECT_EQ(paths.deadline[0], (int64_t(1) << 32) * 4 - 1 - 5);
  PathLengths huge = PathLengths::compute(p, UINT_MAX - 1);
  EXPECT_EQ(huge.deadline[1], INT64_MAX);
}

//===----------------------------------------------------------------------===//
// The permute arm
//===----------------------------------------------------------------------===//

/// Op 0 (gid 2, led by gid 1) comes before op 1 (gid 1, the root): op 0 is
/// pending until op 1 is seated. Both hold the alu bit for one cycle.
Problem pendingProblem() {
  Problem p(smallLayout());
  p.addOp(makeOp("pending", 1, {rrt::Use::bit(0, 1)}));
  p.addOp(makeOp("leader", 1, {rrt::Use::bit(0, 1)}));
  ConstraintGroups &groups = p.getGroups();
  groups.setLeader(2, 1);
  groups.addMember(2, 0);
  groups.addMember(1, 1);
  groups.freeze();
  p.finalize();
  return p;
}

// Both orders of the unit cost the same, and the first in lexicographic
// order put the pending op first. G1 lets only the leader go first.
TEST(EngineDefects, PermuteHonoursPendingSet) {
  Problem p = pendingProblem();
  ASSERT_TRUE(p.getGroups().isPending(0));
  Attempt a = runEngine(p, 2, ArmPermute);
  ASSERT_TRUE(a.starts) << a.failure.reason;
  EXPECT_EQ(*a.starts, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(a.stats.permute, 1u);
  EXPECT_EQ(a.stats.pendingHeld, 1u);
}

// splitmix64 and the Fisher-Yates formula, checked against values computed
// outside this code base (the reference splitmix64's first outputs for seed
// 0, and a Python transcription of the shuffle).
TEST(EngineDefects, ShuffleIsGolden) {
  SplitMix64 zero(0);
  EXPECT_EQ(zero.next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(zero.next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(zero.next(), 0x06c45d188009454full);
  std::vector<OpId> order = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  SplitMix64 rng(42);
  shuffleOrder(order, rng);
  EXPECT_EQ(order, (std::vector<OpId>{0, 9, 5, 8, 6, 4, 7, 2, 1, 3}));
}

// Nine members, too many to enumerate: with a budget of two orders the
// permute arm weighs program order against one sampled order. The members
// hold the alu bit for 9, 8, ..., 1 cycles, so program order (longest
// first) has the largest total delay and the sample wins; the seats are the
// running sums in the golden order for seed 0x5eed ^ group 0.
TEST(EngineDefects, PermuteSampleIsGolden) {
  Problem p(smallLayout());
  for (unsigned i = 0; i < 9; ++i) {
    p.addOp(makeOp("m" + std::to_string(i), 1, {rrt::Use::bit(0, 9 - i)}));
    p.getGroups().addMember(0, i);
  }
  p.getGroups().freeze();
  p.finalize();
  ModuloOptions options;
  options.permuteBudget = 2;
  Attempt a = runEngine(p, 45, ArmPermute, {}, options);
  ASSERT_TRUE(a.starts) << a.failure.reason;
  const std::vector<OpId> golden = {0, 8, 7, 6, 3, 1, 2, 5, 4};
  std::vector<int64_t> expected(9);
  int64_t t = 0;
  for (OpId m : golden) {
    expected[m] = t;
    t += 9 - m;
  }
  EXPECT_EQ(*a.starts, expected);
  EXPECT_EQ(a.stats.permute, 1u);
}

//===----------------------------------------------------------------------===//
// The counters: each arm, gate, the recovery and the ladder's rungs
//===----------------------------------------------------------------------===//

/// A problem written out op by op (latency and footprint) and edge by edge.
struct OpSpec {
  int64_t latency;
  std::vector<rrt::Use> uses;
};
Problem buildProblem(llvm::ArrayRef<OpSpec> ops,
                     llvm::ArrayRef<Dependence> deps) {
  Problem p(smallLayout());
  for (auto [i, spec] : llvm::enumerate(ops))
    p.addOp(makeOp("op" + std::to_string(i), spec.latency, spec.uses));
  for (const Dependence &d : deps)
    p.addDependence(d);
  return p;
}
rrt::Use alu(unsigned cycles) { return rrt::Use::bit(0, cycles); }
rrt::Use mem(unsigned cycles) { return rrt::Use::bit(1, cycles); }
rrt::Use issue(unsigned cycles, unsigned amount) {
  return rrt::Use::pool(0, cycles, amount);
}

// G1 without the permute arm: the pending op is held over once, its leader
// goes first and takes the first cycle.
TEST(EngineDefects, StatsPendingHeld) {
  Problem p = pendingProblem();
  Attempt a = runEngine(p, 2, ArmAll & ~ArmPermute);
  ASSERT_TRUE(a.starts) << a.failure.reason;
  EXPECT_EQ(*a.starts, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(a.stats.pendingHeld, 1u);
  EXPECT_EQ(a.stats.permute, 0u);
}

// G2's recovery and the cost arm, in program order at II 3: X, Y, Z fill the
// alu rows 0, 1, 2, which puts c (after Z, max_depth 0) past cycle 2. c is
// marked dead and Z leaves; c goes first, Z comes back through G3's refusal
// and the cost arm forces it into row 1, Y moves to row 2.
TEST(EngineDefects, StatsDeadMarkAndCost) {
  Problem p(smallLayout());
  for (const char *name : {"X", "Y", "Z"})
    p.addOp(makeOp(name, 1, {alu(1)}));
  Operation c = makeOp("c", 1, {mem(1)});
  c.constraints.maxDepth = 0;
  p.addOp(c);
  p.addDependence({2, 3, 1, 0});
  p.finalize();
  Attempt a = runEngine(p, 3, ArmAll, {Priority::ProgramOrder, false});
  ASSERT_TRUE(a.starts) << a.failure.reason;
  EXPECT_TRUE(verifies(p, 3, *a.starts));
  EXPECT_EQ(*a.starts, (std::vector<int64_t>{0, 2, 1, 2}));
  EXPECT_EQ(a.stats.dead, 1u);
  EXPECT_EQ(a.stats.cost, 1u);
  EXPECT_EQ(a.stats.rrtRefused, 1u);
  EXPECT_EQ(a.stats.evictions, 3u);
  // By height Z goes before X and Y and nothing needs mending.
  Attempt byHeight = runEngine(p, 3);
  ASSERT_TRUE(byHeight.starts);
  EXPECT_EQ(
      byHeight.stats.dead + byHeight.stats.cost + byHeight.stats.evictions, 0u);
}

// G4: b (3 cycles after a, same group) could start anywhere in [3, 6] at II
// 4; a's depth pins it to [3, 3]. The permute arm seats the pair as a unit
// instead and the gate never has to cut.
TEST(EngineDefects, StatsGroupPinned) {
  Problem p(smallLayout());
  p.addOp(makeOp("a", 3, {alu(1)}));
  p.addOp(makeOp("b", 1, {alu(1)}));
  p.addDependence({0, 1, 3, 0});
  p.getGroups().addMember(0, 0);
  p.getGroups().addMember(0, 1);
  p.getGroups().freeze();
  p.finalize();
  Attempt single = runEngine(p, 4, ArmAll & ~ArmPermute);
  ASSERT_TRUE(single.starts) << single.failure.reason;
  EXPECT_EQ(*single.starts, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(single.stats.groupPinned, 1u);
  EXPECT_EQ(single.stats.permute, 0u);
  Attempt unit = runEngine(p, 4);
  ASSERT_TRUE(unit.starts) << unit.failure.reason;
  EXPECT_EQ(*unit.starts, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(unit.stats.permute, 1u);
  EXPECT_EQ(unit.stats.groupPinned, 0u);
}

// The desperate retry (found by a random search over small grouped
// problems): op 3 runs 4 cycles after op 0 in one group, and the seats the
// first members took leave op 3 no seat at their depth; the members are
// freed once and the second try seats everyone.
TEST(EngineDefects, StatsDesperateRetry) {
  Problem p = buildProblem(
      {{2, {issue(1, 1)}}, {1, {issue(4, 1)}}, {3, {}}, {5, {issue(4, 1)}}},
      {{0, 3, 4, 0}});
  for (OpId op : {0u, 2u, 3u})
    p.getGroups().addMember(0, op);
  p.getGroups().freeze();
  p.finalize();
  Attempt a = runEngine(p, 5, ArmAll & ~ArmPermute);
  ASSERT_TRUE(a.starts) << a.failure.reason;
  EXPECT_TRUE(verifies(p, 5, *a.starts));
  EXPECT_EQ(a.stats.desperate, 1u);
  EXPECT_GE(a.stats.evictions, 1u);
}

// The strategy ladder's later rungs (problems found by a random search):
// each is seated at its MII by the rung named and by none before it.
TEST(EngineDefects, LadderRungsSeatWhatEarlierOnesCannot) {
  const Strategy ladder[] = {
      {Priority::Height, false},       {Priority::Height, true},
      {Priority::Slack, false},        {Priority::Slack, true},
      {Priority::ProgramOrder, false}, {Priority::Height, false, true, true}};
  auto firstRung = [&](const Problem &p, unsigned ii) -> int {
    for (auto [r, strategy] : llvm::enumerate(ladder)) {
      Attempt a = runEngine(p, ii, ArmAll, strategy);
      if (a.starts) {
        EXPECT_TRUE(verifies(p, ii, *a.starts));
        return int(r);
      }
    }
    return -1;
  };
  // Height priority with Rau's forced seats.
  Problem rau = buildProblem(
      {{5, {issue(1, 1)}},
       {6, {issue(2, 2)}},
       {6, {issue(4, 1)}},
       {5, {issue(2, 1)}},
       {5, {issue(3, 1)}},
       {2, {mem(2)}},
       {2, {alu(3)}},
       {3, {issue(4, 1)}}},
      {{3, 4, 6, 0}, {0, 5, 5, 0}, {4, 5, 4, 0}, {3, 1, 5, 1}, {6, 6, 5, 2}});
  rau.finalize();
  ASSERT_EQ(rau.computeBounds().mii, 9u);
  EXPECT_EQ(firstRung(rau, 9), 1);
  // Slack priority with Rau's forced seats.
  Problem slack = buildProblem({{3, {issue(3, 1)}},
                                {1, {issue(1, 2)}},
                                {1, {issue(3, 2)}},
                                {0, {mem(1)}},
                                {0, {alu(2)}},
                                {5, {}},
                                {5, {issue(4, 2)}},
                                {3, {issue(4, 1)}},
                                {6, {alu(1)}}},
                               {{0, 1, 5, 0},
                                {1, 2, 3, 0},
                                {0, 3, 4, 0},
                                {1, 4, 0, 0},
                                {3, 6, 1, 0},
                                {0, 7, 4, 0},
                                {2, 7, 2, 0},
                                {3, 7, 2, 0},
                                {4, 7, 4, 0},
                                {1, 8, 1, 0},
                                {3, 8, 0, 0},
                                {6, 8, 5, 0},
                                {7, 8, 2, 0},
                                {7, 1, 0, 1}});
  slack.finalize();
  ASSERT_EQ(slack.computeBounds().mii, 12u);
  EXPECT_EQ(firstRung(slack, 12), 3);
  // Slack priority with cost-ranked forced seats.
  Problem slackCost = buildProblem({{6, {issue(4, 2)}},
                                    {3, {alu(4)}},
                                    {4, {alu(4)}},
                                    {1, {}},
                                    {4, {alu(2)}},
                                    {2, {}},
                                    {0, {issue(1, 2)}},
                                    {3, {alu(3)}},
                                    {0, {alu(2)}},
                                    {0, {mem(2)}},
                                    {5, {}}},
                                   {{3, 5, 6, 0},
                                    {4, 5, 5, 0},
                                    {0, 7, 4, 0},
                                    {1, 7, 5, 0},
                                    {2, 7, 2, 0},
                                    {3, 7, 3, 0},
                                    {4, 7, 5, 0},
                                    {3, 9, 1, 0},
                                    {7, 9, 6, 0},
                                    {1, 10, 4, 0},
                                    {9, 1, 2, 1}});
  slackCost.finalize();
  ASSERT_EQ(slackCost.computeBounds().mii, 15u);
  EXPECT_EQ(firstRung(slackCost, 15), 2);
  // Program order.
  Problem program = buildProblem({{5, {mem(3)}},
                                  {5, {alu(3)}},
                                  {6, {}},
                                  {4, {mem(4)}},
                                  {2, {issue(4, 2)}},
                                  {2, {alu(1)}},
                                  {6, {}},
                                  {5, {}},
                                  {6, {mem(2)}},
                                  {5, {mem(1)}}},
                                 {{0, 1, 5, 0},
                                  {0, 3, 0, 0},
                                  {3, 4, 1, 0},
                                  {3, 5, 4, 0},
                                  {1, 6, 0, 0},
                                  {1, 7, 2, 0},
                                  {3, 8, 6, 0},
                                  {2, 9, 3, 0},
                                  {5, 9, 6, 0},
                                  {8, 9, 0, 0},
                                  {3, 2, 3, 2},
                                  {4, 0, 6, 1},
                                  {7, 7, 6, 1},
                                  {8, 7, 5, 1}});
  program.finalize();
  ASSERT_EQ(program.computeBounds().mii, 10u);
  EXPECT_EQ(firstRung(program, 10), 4);
  // Aligned first fit, the last rung.
  Problem aligned = buildProblem({{1, {}},
                                  {2, {issue(4, 2)}},
                                  {4, {}},
                                  {6, {issue(1, 1)}},
                                  {6, {}},
                                  {3, {}},
                                  {1, {issue(2, 2)}},
                                  {2, {mem(2)}},
                                  {6, {alu(4)}},
                                  {4, {issue(2, 1)}},
                                  {4, {issue(4, 1)}}},
                                 {{0, 1, 5, 0},
                                  {0, 2, 0, 0},
                                  {0, 5, 2, 0},
                                  {1, 5, 6, 0},
                                  {3, 5, 4, 0},
                                  {4, 6, 0, 0},
                                  {5, 6, 0, 0},
                                  {0, 7, 6, 0},
                                  {2, 7, 6, 0},
                                  {4, 7, 2, 0},
                                  {3, 8, 4, 0},
                                  {4, 8, 3, 0},
                                  {0, 9, 0, 0},
                                  {3, 9, 5, 0},
                                  {9, 10, 3, 0},
                                  {3, 1, 0, 2},
                                  {4, 2, 5, 2},
                                  {7, 4, 1, 2},
                                  {8, 3, 1, 1}});
  aligned.finalize();
  ASSERT_EQ(aligned.computeBounds().mii, 10u);
  EXPECT_EQ(firstRung(aligned, 10), 5);
}

} // namespace

namespace {

// Saturated loops in the style of bench/large-loops.py, small: a pool of
// two units held two cycles (as r2 is there) carrying the bound, a singleton
// slot beside it, dependences from the previous ops. At II = MII first fit
// leaves single free rows of the pool that no op can use; aligned first fit
// tiles the pool in blocks of two.
Problem saturatedLoop(std::mt19937 &rng, unsigned numOps) {
  Problem p(smallLayout());
  std::uniform_int_distribution<int> kind(0, 2), lat(1, 4), preds(0, 3);
  for (unsigned i = 0; i < numOps; ++i) {
    std::vector<rrt::Use> uses;
    int k = kind(rng);
    if (k == 0)
      uses.push_back(issue(2, 1));
    else if (k == 1)
      uses.push_back(alu(1));
    p.addOp(makeOp("op" + std::to_string(i), lat(rng), std::move(uses)));
    for (int j = 0, e = i ? preds(rng) : 0; j < e; ++j) {
      std::uniform_int_distribution<unsigned> from(i > 20 ? i - 20 : 0, i - 1);
      unsigned src = from(rng);
      p.addDependence({src, i, *p.getOp(src).latency, 0});
    }
  }
  p.finalize();
  return p;
}

TEST(EngineDefects, AlignedFirstFitTilesASaturatedPool) {
  std::mt19937 rng(8);
  unsigned plainSeated = 0, alignedSeated = 0, alignedSeats = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Problem p = saturatedLoop(rng, 40);
    unsigned mii = p.computeBounds().mii;
    Attempt plain =
        runEngine(p, mii, ArmAll, {Priority::Height, false, true, false});
    Attempt aligned =
        runEngine(p, mii, ArmAll, {Priority::Height, false, true, true});
    plainSeated += plain.starts.has_value();
    alignedSeated += aligned.starts.has_value();
    alignedSeats += aligned.stats.aligned;
    if (aligned.starts) {
      EXPECT_TRUE(verifies(p, mii, *aligned.starts));
    }
    if (!plain.starts) {
      EXPECT_NE(plain.failure.reason.find("first fit found no free seat"),
                std::string::npos);
    }
  }
  std::printf("[ measured ] seated at MII: first fit %u, aligned %u of 200\n",
              plainSeated, alignedSeated);
  EXPECT_GT(alignedSeats, 0u);
  EXPECT_GT(alignedSeated, plainSeated + 20);
}

} // namespace
