//===- CorrectCodeTest.cpp - correct stage code executes cleanly ----------===//

#include "ExecTestUtil.h"
#include "Programs.h"

#include <chrono>

using namespace tilepipe::exec;
using namespace tilepipe::exec::test;

namespace {

class CorrectCode : public ExecFixture {};

TEST_F(CorrectCode, WarpSpecializedRingPasses) {
  auto func = parse(program(kSpecialized));
  ASSERT_TRUE(func);
  std::optional<Finding> f =
      checkFunction(func, options({0, 1, 2, 3, 4, 5, 7, 20}, 30));
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(CorrectCode, PeeledCodePasses) {
  auto func = parse(program(kPeeled));
  ASSERT_TRUE(func);
  std::optional<Finding> f =
      checkFunction(func, options({0, 1, 2, 3, 4, 5, 7, 20}, 30));
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(CorrectCode, LatencyZeroAndLarge) {
  auto func = parse(program(kSpecialized));
  ASSERT_TRUE(func);
  for (unsigned latency : {0u, 1u, 40u}) {
    CheckOptions o = options({0, 1, 3, 9}, 10);
    o.maxLatency = latency;
    std::optional<Finding> f = checkFunction(func, o);
    EXPECT_FALSE(f) << "latency " << latency << ": " << explain(*f);
  }
}

TEST_F(CorrectCode, MatchesTheOriginalLoop) {
  auto original = parse(program(kOriginal));
  auto specialized = parse(program(kSpecialized));
  auto peeled = parse(program(kPeeled));
  ASSERT_TRUE(original && specialized && peeled);
  std::vector<uint64_t> counts = {0, 1, 2, 3, 5, 20};
  References refs = recordReferences(original, counts);
  ASSERT_EQ(refs.byTripCount.size(), counts.size());
  for (const auto &[n, ref] : refs.byTripCount) {
    EXPECT_FALSE(ref.failure) << explain(*ref.failure);
    // 2 loads and 1 MMA per iteration, then tmem_load and cvt.
    unsigned total = 0;
    for (const auto &[key, count] : ref.instances)
      total += count;
    EXPECT_EQ(total, 3 * n + 2) << "trip count " << n;
  }
  std::optional<Finding> f = checkFunction(specialized, options({}, 10), &refs);
  EXPECT_FALSE(f) << explain(*f);
  f = checkFunction(peeled, options({}, 10), &refs);
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(CorrectCode, DefaultTripCounts) {
  auto func = parse(program(kSpecialized));
  ASSERT_TRUE(func);
  // maxDepth 2, no stages attribute: S = 2.
  EXPECT_EQ(defaultTripCounts(func),
            (std::vector<uint64_t>{0, 1, 2, 3, 7, 20}));
  Census c = census(func);
  EXPECT_EQ(c.agents, 3u);
  EXPECT_EQ(c.pipes, 3u);
  EXPECT_EQ(c.mutexes, 0u);
}

TEST_F(CorrectCode, FastEnough) {
  auto original = parse(program(kOriginal));
  auto func = parse(program(kSpecialized));
  ASSERT_TRUE(original && func);
  auto start = std::chrono::steady_clock::now();
  std::vector<uint64_t> counts = defaultTripCounts(func);
  References refs = recordReferences(original, counts);
  std::optional<Finding> f = checkFunction(func, options(counts, 20), &refs);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  EXPECT_FALSE(f) << explain(*f);
  EXPECT_LT(seconds, 1.0);
  std::printf("[ timing ] specialized GEMM, %zu trip counts x 20 seeds: %.3f s\n",
              counts.size(), seconds);
}

} // namespace
