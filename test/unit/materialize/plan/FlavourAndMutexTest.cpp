//===- FlavourAndMutexTest.cpp --------------------------------------------===//

#include "materialize/plan/Flavour.h"
#include "materialize/plan/MutexPlan.h"

#include <gtest/gtest.h>

using namespace tilepipe;
using namespace tilepipe::materialize;

namespace {

PipePlan pipe(Unit producer, Unit consumer, BufferClass cls, unsigned depth) {
  PipePlan p;
  p.producerUnit = producer;
  p.consumerUnit = consumer;
  p.cls = cls;
  p.depth = depth;
  return p;
}

TEST(Flavour, TmaToUmma) {
  PipeFlavour f =
      pipeFlavour(pipe(Unit::TMA, Unit::UMMA, BufferClass::SMEM, 4));
  EXPECT_EQ(f.commit, "expect_tx");
  EXPECT_EQ(f.release, "tcgen05.commit");
  EXPECT_EQ(f.producerFence, "");
  EXPECT_EQ(f.barriers, 8u);
}

TEST(Flavour, UmmaToSimtThroughTmem) {
  PipeFlavour f =
      pipeFlavour(pipe(Unit::UMMA, Unit::SIMT, BufferClass::TMEM, 2));
  EXPECT_EQ(f.commit, "tcgen05.commit");
  EXPECT_EQ(f.release, "arrive");
  EXPECT_EQ(f.consumerFence, "tcgen05.fence::after_thread_sync");
}

TEST(Flavour, SimtToUmmaFences) {
  EXPECT_EQ(pipeFlavour(pipe(Unit::SIMT, Unit::UMMA, BufferClass::SMEM, 2))
                .producerFence,
            "fence.proxy.async.shared::cta");
  EXPECT_EQ(pipeFlavour(pipe(Unit::SIMT, Unit::UMMA, BufferClass::TMEM, 2))
                .producerFence,
            "tcgen05.wait::st; tcgen05.fence::before_thread_sync");
  PipeFlavour store =
      pipeFlavour(pipe(Unit::SIMT, Unit::TMAStore, BufferClass::SMEM, 2));
  EXPECT_EQ(store.release, "bulk_group.wait");
  EXPECT_EQ(store.producerFence, "fence.proxy.async.shared::cta");
  EXPECT_EQ(store.barriers, 2u);
}

sched::ScheduleAnalysis ordered(unsigned n) {
  sched::ScheduleAnalysis s;
  s.success = true;
  s.ii = 10;
  for (unsigned i = 0; i < n; ++i)
    s.orderedOps.push_back(i);
  s.slots.resize(n);
  return s;
}

TEST(MutexPlan, TwoSoftmaxGroupsShareTheMufu) {
  // Ops 0, 1: group 0; ops 2, 3: group 1; ops 1 and 3 use slot 2 (xu).
  auto s = ordered(4);
  std::vector<std::optional<unsigned>> group = {0u, 0u, 1u, 1u};
  std::vector<std::vector<unsigned>> slots = {{}, {2}, {}, {2}};
  target::GlobalCaps caps;
  auto mutexes = planMutexes(s, group, slots, caps);
  ASSERT_EQ(mutexes.size(), 1u);
  EXPECT_EQ(mutexes[0].slot, 2u);
  EXPECT_EQ(mutexes[0].groups, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(mutexes[0].namedBarrier, std::optional<unsigned>(8));
}

TEST(MutexPlan, OneGroupNeedsNoMutexAndIdsRunOut) {
  auto s = ordered(4);
  target::GlobalCaps caps;
  std::vector<std::optional<unsigned>> one = {0u, 0u, 0u, 0u};
  std::vector<std::vector<unsigned>> slots = {{2}, {2}, {3}, {3}};
  EXPECT_TRUE(planMutexes(s, one, slots, caps).empty());
  // Two shared slots, two groups each, three free ids (13-15): the first
  // ring takes 13 and 14, the second falls back to an mbarrier ring.
  caps.reservedNamedBarriers = 13;
  std::vector<std::optional<unsigned>> two = {0u, 1u, 0u, 1u};
  auto mutexes = planMutexes(s, two, slots, caps);
  ASSERT_EQ(mutexes.size(), 2u);
  EXPECT_EQ(mutexes[0].namedBarrier, std::optional<unsigned>(13));
  EXPECT_FALSE(mutexes[1].namedBarrier);
}

} // namespace
