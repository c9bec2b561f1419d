//===- SeededBugsTest.cpp - each seeded bug is caught with its kind -------===//

#include "ExecTestUtil.h"
#include "Programs.h"

using namespace tilepipe::exec;
using namespace tilepipe::exec::test;

namespace {

class SeededBugs : public ExecFixture {
protected:
  /// Checks `text` and expects a finding of `kind` whose message contains
  /// `words`.
  void expectFinding(const std::string &text, const std::string &kind,
                     const std::string &words,
                     std::vector<uint64_t> counts = {1, 2, 3, 5},
                     const References *refs = nullptr) {
    auto func = parse(program(text));
    ASSERT_TRUE(func);
    std::optional<Finding> f = checkFunction(func, options(counts), refs);
    ASSERT_TRUE(f) << "no finding; expected " << kind;
    std::printf("[ finding  ] %s\n", explain(*f).c_str());
    EXPECT_EQ(f->kind, kind) << explain(*f);
    EXPECT_NE(f->message.find(words), std::string::npos) << explain(*f);
  }
};

/// A single-thread loop without prefetch: produce iteration i, consume it.
constexpr const char *kSimplePeeled = R"(
func.func @f(%descA: !da, %descB: !db, %m: index, %n: index, %K: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %span = arith.subi %K, %c0 : index
  %N = arith.ceildivui %span, %c64 : index
  %pa = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !pa
  %pb = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"], bytes = 32768 : i64} : !pb
  %pc = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["simt"]} : !pc
  %acc = tileas.pipe.producer_acquire %pc, %c0 : !pc -> !acc
  scf.for %i = %c0 to %N step %c1 {
    %k = arith.muli %i, %c64 : index
    %sa = tileas.pipe.producer_acquire %pa, %i : !pa -> !sa
    %a = tileas.tma_load %descA[%m, %k] into %sa : !da -> !sa
    tileas.pipe.producer_commit %pa, %i, %a {via = "expect_tx"} : !pa
    %sb = tileas.pipe.producer_acquire %pb, %i : !pb -> !sb
    %b = tileas.tma_load %descB[%n, %k] into %sb : !db -> !sb
    tileas.pipe.producer_commit %pb, %i, %b {via = "expect_tx"} : !pb
    %wa = tileas.pipe.consumer_wait %pa, %i : !pa -> !sa
    %wb = tileas.pipe.consumer_wait %pb, %i : !pb -> !sb
    %d = tileas.umma %wa, %wb, %acc {accumulate} : !sa, !sb, !acc -> !acc
    tileas.pipe.consumer_release %pb, %i {via = "tcgen05_commit"} : !pb
    tileas.pipe.consumer_release %pa, %i {via = "tcgen05_commit"} : !pa
  }
  tileas.pipe.producer_commit %pc, %c0, %acc {via = "tcgen05_commit"} : !pc
  %w = tileas.pipe.consumer_wait %pc, %c0 : !pc -> !acc
  tileas.fence "tcgen05_after"
  %r = tileas.tmem_load %w : !acc -> tensor<128x256xf32>
  tileas.fence "tcgen05_wait_ld"
  tileas.pipe.consumer_release %pc, %c0 {via = "arrive"} : !pc
  return
}
)";

TEST_F(SeededBugs, SimplePeeledIsCorrect) {
  auto func = parse(program(kSimplePeeled));
  ASSERT_TRUE(func);
  std::optional<Finding> f = checkFunction(func, options({0, 1, 2, 3, 20}));
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(SeededBugs, MissingConsumerWait) {
  // The MMA reads the slot the producer acquired and committed, without
  // waiting for the copy to land.
  std::string text = replace(kSimplePeeled,
                             "    %wa = tileas.pipe.consumer_wait %pa, %i : !pa -> !sa\n",
                             "");
  text = replace(text, "tileas.umma %wa, %wb", "tileas.umma %a, %wb");
  expectFinding(text, "read-before-commit", "without holding it");
}

TEST_F(SeededBugs, ReleaseBeforeRead) {
  std::string text =
      replace(kSpecialized,
              "    tileas.pipe.consumer_release %pc, %c0 {via = \"arrive\"} : !pc\n",
              "");
  text = replace(text, "    tileas.fence \"tcgen05_after\"\n",
                 "    tileas.fence \"tcgen05_after\"\n"
                 "    tileas.pipe.consumer_release %pc, %c0 {via = \"arrive\"} : !pc\n");
  expectFinding(text, "release-before-read", "after its consumer_release");
}

TEST_F(SeededBugs, ReleaseWhileTmemLoadInFlight) {
  std::string text =
      replace(kSpecialized, "    tileas.fence \"tcgen05_wait_ld\"\n", "");
  expectFinding(text, "release-before-read", "tcgen05_wait_ld");
}

TEST_F(SeededBugs, SlotReadTwiceBeforeRelease) {
  std::string text = replace(
      kSpecialized,
      "      %wb = tileas.pipe.consumer_wait %pb, %it : !pb -> !sb\n",
      "      %wb = tileas.pipe.consumer_wait %pb, %it : !pb -> !sb\n"
      "      %wb2 = tileas.pipe.consumer_wait %pb, %it : !pb -> !sb\n");
  expectFinding(text, "double-wait", "slot read twice before release");
}

/// Pipe A filled by SIMT stores instead of TMA.
static std::string simtProducer(bool fenced) {
  std::string text = replace(kSpecialized, "%K: index)",
                             "%K: index, %xa: tensor<128x64xbf16>)");
  text = replace(text,
                 "producer = \"tma\", consumers = [\"umma\"], bytes = 16384 : "
                 "i64} : !pa",
                 "producer = \"simt\", consumers = [\"umma\"]} : !pa");
  text = replace(text,
                 "%a = tileas.tma_load %descA[%m, %k] into %sa : !da -> !sa",
                 "%a = tileas.smem_store %xa into %sa : tensor<128x64xbf16> "
                 "-> !sa");
  text = replace(text,
                 "      tileas.pipe.producer_commit %pa, %it, %a {via = "
                 "\"expect_tx\"} : !pa",
                 std::string(fenced ? "      tileas.fence \"proxy_async\"\n"
                                    : "") +
                     "      tileas.pipe.producer_commit %pa, %it, %a {via = "
                     "\"arrive\"} : !pa");
  return text;
}

TEST_F(SeededBugs, SimtProducerWithFenceIsCorrect) {
  auto func = parse(program(simtProducer(true)));
  ASSERT_TRUE(func);
  std::optional<Finding> f = checkFunction(func, options({0, 1, 2, 5, 20}));
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(SeededBugs, MissingProxyAsyncFence) {
  expectFinding(simtProducer(false), "missing-fence", "proxy_async");
}

TEST_F(SeededBugs, MissingTcgen05AfterFence) {
  std::string text =
      replace(kSpecialized, "    tileas.fence \"tcgen05_after\"\n", "");
  expectFinding(text, "missing-fence", "tcgen05_after");
}

TEST_F(SeededBugs, UmmaConsumerReleasesViaArrive) {
  // Declared as a SIMT consumer, so it releases with a thread arrive while
  // its MMA is still reading the slot.
  std::string text = replace(
      kSpecialized,
      "producer = \"tma\", consumers = [\"umma\"], bytes = 16384 : i64} : !pa",
      "producer = \"tma\", consumers = [\"simt\"], bytes = 16384 : i64} : !pa");
  text = replace(text,
                 "tileas.pipe.consumer_release %pa, %it {via = "
                 "\"tcgen05_commit\"} : !pa",
                 "tileas.pipe.consumer_release %pa, %it {via = \"arrive\"} : "
                 "!pa");
  expectFinding(text, "overwrite-before-release", "via \"arrive\"");
}

TEST_F(SeededBugs, WrongConsumerIterationNeedsTheReference) {
  // The MMA agent consumes iterations in the order 1, 0, 3, 2, ...: every
  // handshake is balanced, but the accumulation runs in the wrong order.
  std::string text = replace(
      kSpecialized,
      "      %wa = tileas.pipe.consumer_wait %pa, %it : !pa -> !sa\n",
      "      %c1 = arith.constant 1 : index\n"
      "      %jt = arith.xori %it, %c1 : index\n"
      "      %wa = tileas.pipe.consumer_wait %pa, %jt : !pa -> !sa\n");
  text = replace(text,
                 "tileas.pipe.consumer_release %pa, %it {via = "
                 "\"tcgen05_commit\"} : !pa",
                 "tileas.pipe.consumer_release %pa, %jt {via = "
                 "\"tcgen05_commit\"} : !pa");
  auto func = parse(program(text));
  auto original = parse(program(kOriginal));
  ASSERT_TRUE(func && original);
  // Even trip counts keep the permutation inside the produced range.
  std::vector<uint64_t> counts = {2, 4, 20};
  std::optional<Finding> f = checkFunction(func, options(counts));
  EXPECT_FALSE(f) << "the protocol alone cannot see it: " << explain(*f);
  References refs = recordReferences(original, counts);
  f = checkFunction(func, options(counts), &refs);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "wrong-value") << explain(*f);
  EXPECT_NE(f->message.find("tileas.umma"), std::string::npos) << explain(*f);
  EXPECT_NE(f->message.find("never computes"), std::string::npos)
      << explain(*f);
}

TEST_F(SeededBugs, MissingInstance) {
  // The epilogue drops its conversion.
  std::string text = replace(
      kSpecialized,
      "    %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>\n",
      "");
  auto func = parse(program(text));
  auto original = parse(program(kOriginal));
  ASSERT_TRUE(func && original);
  References refs = recordReferences(original, {3});
  std::optional<Finding> f = checkFunction(func, options({3}), &refs);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, "missing-instance") << explain(*f);
  EXPECT_NE(f->message.find("an instance of 'tileas.cvt' never executes"),
            std::string::npos)
      << explain(*f);
}

TEST_F(SeededBugs, ConsumerWaitsOneAhead) {
  std::string text = replace(
      kSpecialized,
      "      %wa = tileas.pipe.consumer_wait %pa, %it : !pa -> !sa\n",
      "      %c1 = arith.constant 1 : index\n"
      "      %jt = arith.addi %it, %c1 : index\n"
      "      %wa = tileas.pipe.consumer_wait %pa, %jt : !pa -> !sa\n");
  text = replace(text,
                 "tileas.pipe.consumer_release %pa, %it {via = "
                 "\"tcgen05_commit\"} : !pa",
                 "tileas.pipe.consumer_release %pa, %jt {via = "
                 "\"tcgen05_commit\"} : !pa");
  expectFinding(text, "deadlock", "no thread can run", {1});
}

/// Two softmax groups sharing the MUFU through a token ring.
constexpr const char *kMutex = R"(
func.func @f(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tileas.mutex.create {groups = 2 : i32, impl = "namedbar", barrier_id = 8 : i32} : !tileas.mutex
  tileas.agent {role = "softmax", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      tileas.mutex.lock %m, %c0 : !tileas.mutex
      %e = tileas.exp2 %x : tensor<128xf32>
      tileas.mutex.unlock %m, %c0 : !tileas.mutex
    }
    tileas.agent_yield
  }
  tileas.agent {role = "softmax", warps = 4 : i32} {
    scf.for %k = %c0 to %n step %c1 {
      tileas.mutex.lock %m, %c1 : !tileas.mutex
      %e = tileas.exp2 %x : tensor<128xf32>
      tileas.mutex.unlock %m, %c1 : !tileas.mutex
    }
    tileas.agent_yield
  }
  return
}
)";

TEST_F(SeededBugs, MutexRingIsCorrect) {
  auto func = parse(program(kMutex));
  ASSERT_TRUE(func);
  std::optional<Finding> f = checkFunction(func, options({0, 1, 2, 20}));
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(SeededBugs, LockUnlockSwapped) {
  std::string text = replace(
      kMutex,
      "      tileas.mutex.lock %m, %c1 : !tileas.mutex\n"
      "      %e = tileas.exp2 %x : tensor<128xf32>\n"
      "      tileas.mutex.unlock %m, %c1 : !tileas.mutex\n",
      "      tileas.mutex.unlock %m, %c1 : !tileas.mutex\n"
      "      %e = tileas.exp2 %x : tensor<128xf32>\n"
      "      tileas.mutex.lock %m, %c1 : !tileas.mutex\n");
  expectFinding(text, "mutual-exclusion", "without holding its token");
}

TEST_F(SeededBugs, FindingsAreReproducible) {
  std::string text =
      replace(kSpecialized, "    tileas.fence \"tcgen05_wait_ld\"\n", "");
  auto func = parse(program(text));
  ASSERT_TRUE(func);
  std::optional<Finding> a = checkFunction(func, options({3}, 5));
  std::optional<Finding> b = checkFunction(func, options({3}, 5));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(explain(*a), explain(*b));
  EXPECT_EQ(a->seed, b->seed);
}

} // namespace
