//===- AliasPipeTest.cpp - pipes that hand their slots on (`aliases`) -----===//
//
// FA4's P written over S's TMEM columns: the MMA agent writes S into a slot
// of pipe S, the softmax agent waits S, reads it, and hands the slot on as
// pipe P (`aliases %ps`) without releasing it; the MMA agent reads P and its
// release of P frees the slot on S's empty barrier.
//
//===----------------------------------------------------------------------===//

#include "ExecTestUtil.h"
#include "Programs.h"

using namespace tilepipe::exec;
using namespace tilepipe::exec::test;

namespace {

constexpr const char *kAliasTypes = R"(
!sq = !tileas.smem<128x64xbf16>
!sv = !tileas.smem<64x128xbf16>
!ts = !tileas.tmem<128x128xf32>
!tp = !tileas.tmem<128x128xbf16>
!to = !tileas.tmem<128x64xf32>
!ps = !tileas.pipe<!tileas.tmem<128x128xf32>>
!pp = !tileas.pipe<!tileas.tmem<128x128xbf16>>
!po = !tileas.pipe<!tileas.tmem<128x64xf32>>
)";

/// S = Q K^T into a slot of %ps, P = cvt(S) written over it as %pp, O += P V
/// accumulated in a UMMA->SIMT pipe slot read after the loop.
constexpr const char *kHandOn = R"(
func.func @f(%q: !sq, %kt: !sq, %v: !sv, %N: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ps = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["umma"]} : !ps
  %pp = tileas.pipe.create aliases %ps : !ps {depth = 1 : i32, producer = "simt", consumers = ["umma"]} : !pp
  %po = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["simt"]} : !po
  tileas.agent {role = "mma", warps = 1 : i32} {
    %o = tileas.pipe.producer_acquire %po, %c0 : !po -> !to
    scf.for %k = %c0 to %N step %c1 {
      %ss = tileas.pipe.producer_acquire %ps, %k : !ps -> !ts
      %s = tileas.umma %q, %kt, %ss : !sq, !sq, !ts -> !ts
      tileas.pipe.producer_commit %ps, %k, %s {via = "tcgen05_commit"} : !ps
      %wp = tileas.pipe.consumer_wait %pp, %k : !pp -> !tp
      tileas.fence "tcgen05_after"
      %d = tileas.umma %wp, %v, %o {accumulate} : !tp, !sv, !to -> !to
      tileas.pipe.consumer_release %pp, %k {via = "tcgen05_commit"} : !pp
    }
    tileas.pipe.producer_commit %po, %c0, %o {via = "tcgen05_commit"} : !po
    tileas.agent_yield
  }
  tileas.agent {role = "softmax", warps = 4 : i32} {
    scf.for %k = %c0 to %N step %c1 {
      %ws = tileas.pipe.consumer_wait %ps, %k : !ps -> !ts
      tileas.fence "tcgen05_after"
      %x = tileas.tmem_load %ws : !ts -> tensor<128x128xf32>
      tileas.fence "tcgen05_wait_ld"
      %y = tileas.cvt %x : tensor<128x128xf32> -> tensor<128x128xbf16>
      %sp = tileas.pipe.producer_acquire %pp, %k : !pp -> !tp
      %p = tileas.tmem_store %y into %sp : tensor<128x128xbf16> -> !tp
      tileas.fence "tcgen05_wait_st"
      tileas.fence "tcgen05_before"
      tileas.pipe.producer_commit %pp, %k, %p {via = "arrive"} : !pp
    }
    %wo = tileas.pipe.consumer_wait %po, %c0 : !po -> !to
    tileas.fence "tcgen05_after"
    %r = tileas.tmem_load %wo : !to -> tensor<128x64xf32>
    tileas.fence "tcgen05_wait_ld"
    tileas.pipe.consumer_release %po, %c0 {via = "arrive"} : !po
    tileas.agent_yield
  }
  return
}
)";

class AliasPipes : public ExecFixture {
protected:
  std::optional<Finding> check(const std::string &text,
                               std::vector<uint64_t> counts,
                               unsigned latency = 8) {
    auto func = parse(kAliasTypes + text);
    EXPECT_TRUE(func);
    if (!func)
      return std::nullopt;
    CheckOptions o = options(std::move(counts), 30);
    o.maxLatency = latency;
    return checkFunction(func, o);
  }

  void expectFinding(const std::string &text, const std::string &kind,
                     const std::string &words,
                     std::vector<uint64_t> counts = {1, 2, 3}) {
    std::optional<Finding> f = check(text, std::move(counts));
    ASSERT_TRUE(f) << "no finding; expected " << kind;
    std::printf("[ finding  ] %s\n", explain(*f).c_str());
    EXPECT_EQ(f->kind, kind) << explain(*f);
    EXPECT_NE(f->message.find(words), std::string::npos) << explain(*f);
  }
};

/// kHandOn with both S and P `depth` deep.
static std::string withDepth(unsigned depth) {
  std::string d = "{depth = " + std::to_string(depth) + " : i32, ";
  std::string text = replace(kHandOn,
                             "{depth = 1 : i32, producer = \"umma\", "
                             "consumers = [\"umma\"]} : !ps",
                             d + "producer = \"umma\", consumers = [\"umma\"]} "
                                 ": !ps");
  return replace(text,
                 "{depth = 1 : i32, producer = \"simt\", consumers = "
                 "[\"umma\"]} : !pp",
                 d + "producer = \"simt\", consumers = [\"umma\"]} : !pp");
}

TEST_F(AliasPipes, HandOnPasses) {
  // Depth 1: the MMA agent's next S acquire waits on S's empty barrier,
  // which only the release of P completes.
  for (unsigned depth : {1u, 2u}) {
    for (unsigned latency : {0u, 8u, 40u}) {
      std::optional<Finding> f =
          check(withDepth(depth), {0, 1, 2, 3, 4, 7, 20}, latency);
      EXPECT_FALSE(f) << "depth " << depth << ", latency " << latency << ": "
                      << explain(*f);
    }
  }
}

TEST_F(AliasPipes, ChainedAliasPasses) {
  // P handed on once more as P2 (an alias of an alias): P2's release still
  // frees S's slot.
  std::string text =
      replace(kHandOn, "  %po = tileas.pipe.create",
              "  %pp2 = tileas.pipe.create aliases %pp : !pp {depth = 1 : i32, "
              "producer = \"simt\", consumers = [\"umma\"]} : !pp\n"
              "  %po = tileas.pipe.create");
  text = replace(text, "%wp = tileas.pipe.consumer_wait %pp, %k : !pp -> !tp",
                 "%wp1 = tileas.pipe.consumer_wait %pp, %k : !pp -> !tp\n"
                 "      %sp2 = tileas.pipe.producer_acquire %pp2, %k : !pp -> "
                 "!tp\n"
                 "      tileas.pipe.producer_commit %pp2, %k, %sp2 {via = "
                 "\"arrive\"} : !pp\n"
                 "      %wp = tileas.pipe.consumer_wait %pp2, %k : !pp -> !tp");
  text = replace(text,
                 "tileas.pipe.consumer_release %pp, %k {via = "
                 "\"tcgen05_commit\"} : !pp",
                 "tileas.pipe.consumer_release %pp2, %k {via = "
                 "\"tcgen05_commit\"} : !pp");
  std::optional<Finding> f = check(text, {0, 1, 2, 3, 5});
  EXPECT_FALSE(f) << explain(*f);
}

TEST_F(AliasPipes, AcquireWithoutHoldingTheSlot) {
  // The softmax agent releases S and then acquires P: nothing is handed on.
  std::string text = replace(
      kHandOn, "      %y = tileas.cvt",
      "      tileas.pipe.consumer_release %ps, %k {via = \"tcgen05_commit\"} "
      ": !ps\n"
      "      %y = tileas.cvt");
  expectFinding(text, "unbalanced",
                "without holding the slot it hands on (a consumer_wait of "
                "pipe 0");
}

TEST_F(AliasPipes, AcquireOfAnotherIteration) {
  std::string text = replace(
      kHandOn, "%sp = tileas.pipe.producer_acquire %pp, %k : !pp -> !tp",
      "%k1 = arith.addi %k, %c1 : index\n"
      "      %sp = tileas.pipe.producer_acquire %pp, %k1 : !pp -> !tp");
  expectFinding(text, "unbalanced", "iteration 1)");
}

TEST_F(AliasPipes, AcquireBeforeTheWait) {
  std::string text = replace(
      kHandOn,
      "      %sp = tileas.pipe.producer_acquire %pp, %k : !pp -> !tp\n", "");
  text = replace(
      text, "      %ws = tileas.pipe.consumer_wait %ps, %k : !ps -> !ts\n",
      "      %sp = tileas.pipe.producer_acquire %pp, %k : !pp -> "
      "!tp\n"
      "      %ws = tileas.pipe.consumer_wait %ps, %k : !ps -> !ts\n");
  expectFinding(text, "unbalanced", "without holding the slot it hands on");
}

TEST_F(AliasPipes, ReleaseAfterHandingOn) {
  // The slot was handed on, not kept: releasing S as well would free it
  // twice.
  std::string text = replace(
      kHandOn,
      "      tileas.pipe.producer_commit %pp, %k, %p {via = \"arrive\"} : "
      "!pp\n",
      "      tileas.pipe.producer_commit %pp, %k, %p {via = \"arrive\"} : !pp\n"
      "      tileas.pipe.consumer_release %ps, %k {via = \"tcgen05_commit\"} "
      ": !ps\n");
  expectFinding(text, "unbalanced", "without holding its consumer_wait");
}

TEST_F(AliasPipes, ReadOfTheHandedOnSlot) {
  // After the hand-on the softmax agent no longer holds S.
  std::string text =
      replace(kHandOn, "      tileas.fence \"tcgen05_before\"\n",
              "      tileas.fence \"tcgen05_before\"\n"
              "      %x2 = tileas.tmem_load %ws : !ts -> tensor<128x128xf32>\n"
              "      tileas.fence \"tcgen05_wait_ld\"\n");
  expectFinding(text, "read-before-commit", "without holding it");
}

TEST_F(AliasPipes, RootConsumersMissTheAliasRelease) {
  // S's empty barrier waits for two releases but only P's consumer
  // releases: with one iteration the slot is never reused, so the end
  // checks find iteration 0 short of a release.
  std::string text =
      replace(kHandOn, "producer = \"umma\", consumers = [\"umma\"]} : !ps",
              "producer = \"umma\", consumers = [\"simt\", \"umma\"]} : !ps");
  expectFinding(text, "unbalanced", "released by 1 of its 2 consumer(s)", {1});
  // A second iteration waits for the missing release forever.
  expectFinding(text, "deadlock", "producer_acquire", {2});
}

TEST_F(AliasPipes, AliasReleaseCountsForTheRoot) {
  // P expects two releases, S (whose consumers count P's) one: P's second
  // release is one too many for S.
  std::string text =
      replace(kHandOn, "producer = \"simt\", consumers = [\"umma\"]} : !pp",
              "producer = \"simt\", consumers = [\"umma\", \"umma\"]} : !pp");
  text = replace(
      text,
      "      tileas.pipe.consumer_release %pp, %k {via = \"tcgen05_commit\"} "
      ": !pp\n",
      "      tileas.pipe.consumer_release %pp, %k {via = \"tcgen05_commit\"} "
      ": !pp\n"
      "      %again = tileas.pipe.consumer_wait %pp, %k : !pp -> !tp\n"
      "      tileas.pipe.consumer_release %pp, %k {via = \"tcgen05_commit\"} "
      ": !pp\n");
  expectFinding(text, "unbalanced",
                "releases pipe 0 !tileas.pipe<!tileas.tmem<128x128xf32>> slot "
                "0 (pipe iteration 0) more often than it has consumers");
}

TEST_F(AliasPipes, NextMmaOnAnotherAccumulatorIsNotOrdered) {
  // PTX orders an MMA behind an earlier MMA of the same thread only when
  // both use the same accumulator: one that reads (as its TMEM A operand)
  // what the MMA before it writes into another accumulator may read before
  // that write lands, so the check reports it where no commit and wait
  // order the two.
  std::string text = R"(
!sqh = !tileas.smem<128x64xf16>
!svh = !tileas.smem<64x128xf16>
!th = !tileas.tmem<128x128xf16>
func.func @f(%q: !sqh, %kt: !sqh, %v: !svh) {
  %c0 = arith.constant 0 : index
  %x0 = tileas.alloc_tmem : !th
  %po = tileas.pipe.create {depth = 1 : i32, producer = "umma", consumers = ["simt"]} : !po
  tileas.agent {role = "mma", warps = 1 : i32} {
    %o = tileas.pipe.producer_acquire %po, %c0 : !po -> !to
    %x = tileas.umma %q, %kt, %x0 : !sqh, !sqh, !th -> !th
    %d = tileas.umma %x, %v, %o : !th, !svh, !to -> !to
    tileas.pipe.producer_commit %po, %c0, %d {via = "tcgen05_commit"} : !po
    tileas.agent_yield
  }
  tileas.agent {role = "epilogue", warps = 4 : i32} {
    %wo = tileas.pipe.consumer_wait %po, %c0 : !po -> !to
    tileas.fence "tcgen05_after"
    %r = tileas.tmem_load %wo : !to -> tensor<128x64xf32>
    tileas.fence "tcgen05_wait_ld"
    tileas.pipe.consumer_release %po, %c0 {via = "arrive"} : !po
    tileas.agent_yield
  }
  return
}
)";
  std::optional<Finding> f = check(text, {1}, 8);
  ASSERT_TRUE(f) << "no finding";
  EXPECT_EQ(f->kind, "read-before-commit") << explain(*f);
}

TEST_F(AliasPipes, CommitReleaseToAnotherIssuerPasses) {
  // S made by a second MMA thread: PV's tcgen05.commit release frees P's
  // columns only once PV has read them, whoever writes S next.
  std::string text =
      replace(kHandOn,
              "      %ss = tileas.pipe.producer_acquire %ps, %k : !ps -> !ts\n"
              "      %s = tileas.umma %q, %kt, %ss : !sq, !sq, !ts -> !ts\n"
              "      tileas.pipe.producer_commit %ps, %k, %s {via = "
              "\"tcgen05_commit\"} : !ps\n",
              "");
  text = replace(text, "  tileas.agent {role = \"softmax\"",
                 "  tileas.agent {role = \"mma\", warps = 1 : i32} {\n"
                 "    scf.for %k = %c0 to %N step %c1 {\n"
                 "      %ss = tileas.pipe.producer_acquire %ps, %k : !ps -> "
                 "!ts\n"
                 "      %s = tileas.umma %q, %kt, %ss : !sq, !sq, !ts -> !ts\n"
                 "      tileas.pipe.producer_commit %ps, %k, %s {via = "
                 "\"tcgen05_commit\"} : !ps\n"
                 "    }\n"
                 "    tileas.agent_yield\n"
                 "  }\n"
                 "  tileas.agent {role = \"softmax\"");
  for (unsigned latency : {0u, 8u, 40u}) {
    std::optional<Finding> f = check(text, {1, 2, 3, 5}, latency);
    EXPECT_FALSE(f) << "latency " << latency << ": " << explain(*f);
  }
}

} // namespace
