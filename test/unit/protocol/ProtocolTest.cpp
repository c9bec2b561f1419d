//===- ProtocolTest.cpp - pipe and mutex protocol checker -----------------===//

#include "materialize/protocol/Protocol.h"

#include "gtest/gtest.h"

using namespace tilepipe::protocol;

namespace {

Instr op(Step step, unsigned object, std::string label, int64_t offset = 0,
         unsigned group = 0) {
  Instr in;
  in.step = step;
  in.object = object;
  in.group = group;
  in.label = std::move(label);
  in.indexOffset = offset;
  return in;
}

/// TMA loads tiles into pipe 0; the MMA warp consumes them. The shape the
/// materializer emits for a warp-specialized mainloop.
Program tmaUmma(unsigned depth) {
  Program p;
  p.pipes.push_back({"smem_ab", depth, 1});
  Agent tma{"tma", {}, 0, {}, {}};
  tma.body = {op(Step::Acquire, 0, "acquire ab"),
              op(Step::Write, 0, "tma load"), op(Step::Commit, 0, "commit ab")};
  Agent mma{"mma", {}, 0, {}, {}};
  mma.body = {op(Step::Wait, 0, "wait ab"), op(Step::Read, 0, "umma"),
              op(Step::Release, 0, "release ab")};
  p.agents = {tma, mma};
  return p;
}

void expectViolation(const std::optional<Violation> &v, Violation::Kind kind,
                     std::initializer_list<const char *> words) {
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->kind, kind) << v->message;
  EXPECT_TRUE(llvm::StringRef(v->message).starts_with(kindName(kind)))
      << v->message;
  for (const char *w : words)
    EXPECT_NE(v->message.find(w), std::string::npos)
        << "'" << w << "' not in: " << v->message;
}

TEST(ProtocolTest, CorrectTmaUmmaPipe) {
  for (unsigned depth = 2; depth <= 4; ++depth) {
    Program p = tmaUmma(depth);
    for (uint64_t trips :
         {uint64_t(0), uint64_t(1), uint64_t(2), uint64_t(depth - 1),
          uint64_t(depth), uint64_t(20)}) {
      CheckOptions o;
      o.tripCount = trips;
      auto v = checkMany(p, o, 50);
      EXPECT_FALSE(v) << "depth " << depth << " trips " << trips << ": "
                      << v->message;
    }
  }
}

TEST(ProtocolTest, CorrectWithZeroAndLargeLatency) {
  for (unsigned lat : {0u, 1u, 16u}) {
    CheckOptions o;
    o.tripCount = 12;
    o.maxLatency = lat;
    auto v = checkMany(tmaUmma(2), o, 20);
    EXPECT_FALSE(v) << v->message;
  }
}

TEST(ProtocolTest, CorrectDepthOnePipe) {
  CheckOptions o;
  o.tripCount = 10;
  auto v = checkMany(tmaUmma(1), o, 30);
  EXPECT_FALSE(v) << v->message;
}

TEST(ProtocolTest, CorrectMultiConsumerPipe) {
  Program p;
  p.pipes.push_back({"s_tmem", 2, 3});
  Agent mma{"mma", {}, 0, {}, {}};
  mma.body = {op(Step::Acquire, 0, "acquire s"), op(Step::Write, 0, "umma qk"),
              op(Step::Commit, 0, "commit s")};
  p.agents.push_back(mma);
  for (unsigned c = 0; c < 3; ++c) {
    Agent sm{"softmax" + std::to_string(c), {}, 0, {}, {}};
    sm.body = {op(Step::Wait, 0, "wait s"), op(Step::Read, 0, "tcgen05.ld"),
               op(Step::Release, 0, "release s", 0, c)};
    p.agents.push_back(sm);
  }
  CheckOptions o;
  o.tripCount = 16;
  auto v = checkMany(p, o, 50);
  EXPECT_FALSE(v) << v->message;
}

TEST(ProtocolTest, CorrectLaggedReleaseWithEpilogue) {
  // The consumer keeps the previous slot until the next one is in hand and
  // releases it one iteration late; the epilogue releases the last one.
  Program p = tmaUmma(3);
  Agent &mma = p.agents[1];
  mma.body = {op(Step::Wait, 0, "wait ab"), op(Step::Read, 0, "umma"),
              op(Step::Release, 0, "release ab k-1", -1)};
  mma.epilogue = {op(Step::Release, 0, "release ab last", -1)};
  for (uint64_t trips : {1, 2, 9}) {
    CheckOptions o;
    o.tripCount = trips;
    auto v = checkMany(p, o, 30);
    EXPECT_FALSE(v) << v->message;
  }
}

TEST(ProtocolTest, CorrectPrefetchingProducer) {
  // Peeled producer: the prologue loads iteration 0, the body loads k+1.
  Program p = tmaUmma(2);
  Agent &tma = p.agents[0];
  tma.prologue = {op(Step::Acquire, 0, "acquire ab 0"),
                  op(Step::Write, 0, "tma load 0"),
                  op(Step::Commit, 0, "commit ab 0")};
  tma.body = {op(Step::Acquire, 0, "acquire ab k+1", 1),
              op(Step::Write, 0, "tma load k+1", 1),
              op(Step::Commit, 0, "commit ab k+1", 1)};
  for (uint64_t trips : {0, 1, 7}) {
    CheckOptions o;
    o.tripCount = trips;
    auto v = checkMany(p, o, 30);
    EXPECT_FALSE(v) << v->message;
  }
}

Program softmaxRing(bool lockSecond) {
  Program p;
  p.mutexes.push_back({"mufu", 2});
  for (unsigned g = 0; g < 2; ++g) {
    Agent sm{"softmax" + std::to_string(g), {}, g, {}, {}};
    if (g == 0 || lockSecond)
      sm.body.push_back(op(Step::Lock, 0, "lock mufu"));
    sm.body.push_back(op(Step::Unlock, 0, "unlock mufu"));
    p.agents.push_back(sm);
  }
  return p;
}

TEST(ProtocolTest, CorrectTwoGroupMutexRing) {
  CheckOptions o;
  o.tripCount = 20;
  auto v = checkMany(softmaxRing(true), o, 50);
  EXPECT_FALSE(v) << v->message;
}

TEST(ProtocolTest, CorrectPipesAndMutexTogether) {
  // FA-style: one producer feeds two softmax groups, which take turns on MUFU.
  Program p;
  p.pipes.push_back({"s", 2, 2});
  p.mutexes.push_back({"mufu", 2});
  Agent mma{"mma", {}, 0, {}, {}};
  mma.body = {op(Step::Acquire, 0, "acquire s"), op(Step::Write, 0, "umma"),
              op(Step::Commit, 0, "commit s")};
  p.agents.push_back(mma);
  for (unsigned g = 0; g < 2; ++g) {
    Agent sm{"softmax" + std::to_string(g), {}, g, {}, {}};
    sm.body = {op(Step::Wait, 0, "wait s"), op(Step::Read, 0, "ld s"),
               op(Step::Lock, 0, "lock mufu"),
               op(Step::Unlock, 0, "unlock mufu"),
               op(Step::Release, 0, "release s", 0, g)};
    p.agents.push_back(sm);
  }
  CheckOptions o;
  o.tripCount = 10;
  auto v = checkMany(p, o, 50);
  EXPECT_FALSE(v) << v->message;
}

TEST(ProtocolTest, CorrectThreeAgentChain) {
  // TMA -> MMA -> epilogue: the middle agent consumes one pipe and produces
  // into another, with different depths.
  Program p;
  p.pipes = {{"ab", 3, 1}, {"acc", 2, 1}};
  Agent tma{"tma", {}, 0, {}, {}};
  tma.body = {op(Step::Acquire, 0, "acquire ab"), op(Step::Write, 0, "load"),
              op(Step::Commit, 0, "commit ab")};
  Agent mma{"mma", {}, 0, {}, {}};
  mma.body = {
      op(Step::Wait, 0, "wait ab"),       op(Step::Acquire, 1, "acquire acc"),
      op(Step::Read, 0, "umma reads ab"), op(Step::Write, 1, "umma writes acc"),
      op(Step::Release, 0, "release ab"), op(Step::Commit, 1, "commit acc")};
  Agent epi{"epilogue", {}, 0, {}, {}};
  epi.body = {op(Step::Wait, 1, "wait acc"), op(Step::Read, 1, "tcgen05.ld"),
              op(Step::Release, 1, "release acc")};
  p.agents = {tma, mma, epi};
  for (uint64_t trips : {0, 1, 5, 17}) {
    CheckOptions o;
    o.tripCount = trips;
    auto v = checkMany(p, o, 50);
    EXPECT_FALSE(v) << v->message;
  }
}

TEST(ProtocolTest, LaggedReleaseNeedsDepthTwo) {
  // Releasing k-1 after waiting for k needs two slots: at depth 1 the producer
  // waits for the release of k-1 and the consumer for the commit of k.
  Program p = tmaUmma(1);
  p.agents[1].body = {op(Step::Wait, 0, "wait ab"), op(Step::Read, 0, "umma"),
                      op(Step::Release, 0, "release ab k-1", -1)};
  p.agents[1].epilogue = {op(Step::Release, 0, "release ab last", -1)};
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::Deadlock,
                  {"agent 'tma'", "'acquire ab'", "agent 'mma'", "'wait ab'",
                   "iteration 1"});
  EXPECT_EQ(v->agent, "tma");
  EXPECT_EQ(v->iteration, 1);
}

TEST(ProtocolTest, Deterministic) {
  Program p = tmaUmma(1);
  p.agents[1].body.pop_back(); // Never releases: deadlocks.
  CheckOptions o;
  o.seed = 7;
  auto a = check(p, o), b = check(p, o);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->message, b->message);
  EXPECT_EQ(a->seed, 7u);
}

TEST(ProtocolTest, ConsumerWithoutWaitReadsBeforeCommit) {
  Program p = tmaUmma(2);
  p.agents[1].body.erase(p.agents[1].body.begin());
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(
      v, Violation::ReadBeforeCommit,
      {"agent 'mma'", "'umma'", "iteration 0", "pipe 'smem_ab'", "slot 0"});
  EXPECT_EQ(v->agent, "mma");
  EXPECT_EQ(v->iteration, 0);
}

TEST(ProtocolTest, ProducerWithoutAcquireOverwrites) {
  Program p = tmaUmma(2);
  p.agents[0].body.erase(p.agents[0].body.begin());
  p.agents[0].body.back() = op(Step::Commit, 0, "commit ab");
  // Commit without Acquire would be Unbalanced; the Write comes first.
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::OverwriteBeforeRelease,
                  {"agent 'tma'", "'tma load'", "iteration 0", "pipe 'smem_ab'",
                   "without an Acquire"});
}

TEST(ProtocolTest, ProducerWritingAheadOverwrites) {
  // The producer writes iteration k+2 (same slot as k at depth 2) before the
  // consumer, which never releases, is done with k.
  Program p = tmaUmma(2);
  p.agents[1].body.pop_back();
  p.agents[0].body.insert(p.agents[0].body.begin() + 2,
                          op(Step::Write, 0, "tma load ahead", 2));
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::OverwriteBeforeRelease,
                  {"agent 'tma'", "'tma load ahead'", "pipe 'smem_ab'",
                   "slot 0", "iteration 2", "holds iteration 0"});
}

TEST(ProtocolTest, ConsumerNeverReleasingDeadlocks) {
  Program p = tmaUmma(1);
  p.agents[1].body.pop_back();
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::Deadlock,
                  {"agent 'tma'", "'acquire ab'", "Acquire of pipe 'smem_ab'",
                   "agent 'mma'", "'wait ab'", "iteration 1"});
}

TEST(ProtocolTest, ConsumerHoldingPastEndIsUnbalanced) {
  // With one trip the missing Release cannot deadlock; it shows at the end.
  Program p = tmaUmma(1);
  p.agents[1].body.pop_back();
  CheckOptions o;
  o.tripCount = 1;
  auto v = checkMany(p, o, 10);
  expectViolation(v, Violation::Unbalanced,
                  {"agent 'mma'", "pipe 'smem_ab'", "never released"});
}

TEST(ProtocolTest, MutexWithoutLockBreaksExclusion) {
  auto v = checkMany(softmaxRing(false), CheckOptions(), 10);
  expectViolation(
      v, Violation::MutualExclusion,
      {"agent 'softmax1'", "'unlock mufu'", "mutex 'mufu'", "iteration 0"});
}

TEST(ProtocolTest, MutexRingWithOneGroupTooFewLetsTwoIn) {
  // Both agents claim group 0 of a one-group ring: the token never separates
  // them, and some interleaving puts both inside.
  Program p = softmaxRing(true);
  p.mutexes[0].groups = 1;
  p.agents[1].groupIndex = 0;
  auto v = checkMany(p, CheckOptions(), 50);
  expectViolation(v, Violation::MutualExclusion,
                  {"'lock mufu'", "mutex 'mufu'", "is inside"});
}

TEST(ProtocolTest, ConsumerReadingWrongIndexIsOutOfOrder) {
  Program p = tmaUmma(2);
  p.agents[1].body[1] = op(Step::Read, 0, "umma", 1);
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::OutOfOrder,
                  {"agent 'mma'", "'umma'", "iteration 1", "pipe 'smem_ab'",
                   "slot 1", "observed iteration(s) 0"});
}

TEST(ProtocolTest, ConsumerSkippingAheadAliasesThePhase) {
  // Stage index off by 2 * depth: the parity wait passes on iteration 0's
  // commit (same slot, same phase bit), and the consumer sees iteration 0
  // where it expected 4.
  Program p = tmaUmma(2);
  for (Instr &in : p.agents[1].body)
    in.indexOffset = 4;
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::OutOfOrder,
                  {"agent 'mma'", "'umma'", "pipe 'smem_ab'", "slot 0",
                   "iteration 4", "holds iteration 0"});
}

TEST(ProtocolTest, AcquireWithoutCommitIsUnbalanced) {
  Program p = tmaUmma(2);
  p.agents[0].body.pop_back();
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::Unbalanced,
                  {"agent 'tma'", "iteration 0", "1 Acquire(s) but 0 Commit(s)",
                   "pipe 'smem_ab'"});
}

TEST(ProtocolTest, LockWithoutUnlockIsUnbalanced) {
  Program p = softmaxRing(true);
  p.agents[0].body.pop_back();
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::Unbalanced,
                  {"agent 'softmax0'", "mutex 'mufu'", "1 Lock(s) but 0"});
}

TEST(ProtocolTest, MalformedPrograms) {
  Program p = tmaUmma(2);
  p.pipes[0].depth = 0;
  expectViolation(check(p, CheckOptions()), Violation::Malformed, {"depth 0"});
  p = tmaUmma(2);
  p.agents[1].body[2].group = 1; // Only one consumer.
  expectViolation(check(p, CheckOptions()), Violation::Malformed,
                  {"consumer index 1"});
  p = tmaUmma(2);
  p.agents[0].body[0].object = 3;
  expectViolation(check(p, CheckOptions()), Violation::Malformed,
                  {"pipe index 3"});
}

TEST(ProtocolTest, DuplicateConsumerIndexIsUnbalanced) {
  Program p;
  p.pipes.push_back({"s", 2, 2});
  Agent mma{"mma", {}, 0, {}, {}};
  mma.body = {op(Step::Acquire, 0, "acquire s"), op(Step::Write, 0, "umma"),
              op(Step::Commit, 0, "commit s")};
  p.agents.push_back(mma);
  for (unsigned c = 0; c < 2; ++c) {
    Agent sm{"softmax" + std::to_string(c), {}, 0, {}, {}};
    sm.body = {op(Step::Wait, 0, "wait s"), op(Step::Read, 0, "ld"),
               op(Step::Release, 0, "release s", 0, /*group=*/0)};
    p.agents.push_back(sm);
  }
  auto v = checkMany(p, CheckOptions(), 10);
  expectViolation(v, Violation::Unbalanced,
                  {"consumer index 0", "pipe 's'", "twice"});
}

} // namespace
