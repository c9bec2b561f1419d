//===- SlotTableTest.cpp - the built-in sm_100a tables --------------------===//
//
// The slot table, pools and caps against tileiras-facts §2.1/§2.7 and
// blackwell-facts §1.1: these numbers are the model's contract with the
// scheduler, so each is asserted literally rather than re-derived.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "gtest/gtest.h"

using namespace tilepipe::target;

namespace {

const TargetModel &sm100a() { return TargetModel::sm100a(); }

TEST(SlotTable, TwentyFourDenseIds) {
  ASSERT_EQ(sm100a().getSlots().size(), 24u);
  ASSERT_EQ(TargetModel::kNumSlotIds, 24u);
  for (unsigned id = 1; id <= 24; ++id) {
    const SlotInfo *slot = sm100a().getSlot(id);
    ASSERT_NE(slot, nullptr) << id;
    EXPECT_EQ(slot->id, id);
    EXPECT_EQ(&sm100a().getSlots()[id - 1], slot) << "indexed by id - 1";
  }
  EXPECT_EQ(sm100a().getSlot(0), nullptr);
  EXPECT_EQ(sm100a().getSlot(25), nullptr);
}

TEST(SlotTable, NamesInBookOrder) {
  const char *names[] = {"issue",        "xu",
                         "xu64",         "fp32x2_fp16ultra",
                         "alu",          "alu_or_fmaheavy",
                         "dual_alu",     "lsu",
                         "tmem",         "mma",
                         "tc_and_mma",   "tma",
                         "tp_gnic_rd",   "tp_gnic_wr",
                         "tp_smem_rd",   "tp_smem_wr",
                         "tp_tmem_rd",   "tp_tmem_wr",
                         "tp_mma",       "unknown",
                         "omitted_simt", "test_simt",
                         "test_mma",     "test_dma"};
  for (unsigned i = 0; i < 24; ++i) {
    EXPECT_EQ(sm100a().getSlots()[i].name, names[i]);
    const SlotInfo *byName = sm100a().lookupSlot(names[i]);
    ASSERT_NE(byName, nullptr) << names[i];
    EXPECT_EQ(byName->id, i + 1);
    EXPECT_FALSE(sm100a().getSlots()[i].meaning.empty());
  }
  EXPECT_EQ(sm100a().lookupSlot("tpmma"), nullptr);
}

TEST(SlotTable, FifteenPrimaryFineSlots) {
  std::vector<unsigned> primary, fine;
  for (const SlotInfo &slot : sm100a().getSlots()) {
    if (slot.primary)
      primary.push_back(slot.id);
    if (slot.kind == SlotKind::Fine)
      fine.push_back(slot.id);
  }
  std::vector<unsigned> expected = {4,  6,  7,  11, 13, 14, 15, 16,
                                    17, 18, 19, 20, 21, 22, 23};
  EXPECT_EQ(primary, expected);
  EXPECT_EQ(fine, expected);
}

TEST(SlotTable, EightCoarseOneTest) {
  std::vector<unsigned> coarse, test;
  for (const SlotInfo &slot : sm100a().getSlots()) {
    if (slot.kind == SlotKind::Coarse)
      coarse.push_back(slot.id);
    if (slot.kind == SlotKind::Test)
      test.push_back(slot.id);
  }
  EXPECT_EQ(coarse, (std::vector<unsigned>{1, 2, 3, 5, 8, 9, 10, 12}));
  EXPECT_EQ(test, (std::vector<unsigned>{24}));
}

TEST(SlotTable, PoolBindings) {
  for (const SlotInfo &slot : sm100a().getSlots()) {
    switch (slot.id) {
    case 1:
      EXPECT_EQ(slot.pool, 4u);
      break;
    case 4:
      EXPECT_EQ(slot.pool, 6u);
      break;
    case 6:
      EXPECT_EQ(slot.pool, 1u);
      break;
    case 7:
      EXPECT_EQ(slot.pool, 2u);
      break;
    default:
      EXPECT_FALSE(slot.pool.has_value()) << slot.name << " is a singleton";
    }
  }
}

TEST(SlotTable, SlotKindStrings) {
  for (SlotKind kind : {SlotKind::Coarse, SlotKind::Fine, SlotKind::Test})
    EXPECT_EQ(symbolizeSlotKind(stringifySlotKind(kind)), kind);
  EXPECT_EQ(stringifySlotKind(SlotKind::Coarse), "coarse");
  EXPECT_EQ(stringifySlotKind(SlotKind::Fine), "fine");
  EXPECT_EQ(stringifySlotKind(SlotKind::Test), "test");
  EXPECT_EQ(symbolizeSlotKind("Fine"), std::nullopt);
  EXPECT_EQ(symbolizeSlotKind(""), std::nullopt);
}

TEST(Pools, CapacityVector) {
  const unsigned caps[] = {37, 4, 7, 37, 5, 1, 3, 6, 2};
  const char *names[] = {"optag_table",     "alu_fma_issue",  "dual_alu_fanout",
                         "optag_table_bwd", "coarse_issue",   "smem_lock",
                         "dual_issue",      "alu_fma_fanout", "regbank_pair"};
  ASSERT_EQ(sm100a().getPools().size(), 9u);
  for (unsigned i = 0; i < 9; ++i) {
    const PoolInfo &pool = sm100a().getPools()[i];
    EXPECT_EQ(pool.index, i);
    EXPECT_EQ(pool.capacity, caps[i]);
    EXPECT_EQ(pool.name, names[i]);
    EXPECT_EQ(pool.binding, i != 0 && i != 3) << "table widths never bind";
    EXPECT_FALSE(pool.role.empty());
    EXPECT_EQ(sm100a().lookupPool(names[i]), &pool);
    EXPECT_EQ(sm100a().getPool(i), &pool);
  }
  EXPECT_EQ(sm100a().getPool(9), nullptr);
  EXPECT_EQ(sm100a().lookupPool("smem"), nullptr);
}

TEST(Caps, TierTwo) {
  const GlobalCaps &caps = sm100a().getCaps();
  EXPECT_EQ(caps.smemBytes, 232448);
  EXPECT_EQ(caps.tmemColumns, 512);
  EXPECT_EQ(caps.tmemLanes, 128);
  EXPECT_EQ(caps.namedBarriers, 16u);
  EXPECT_EQ(caps.reservedNamedBarriers, 8u);
  EXPECT_EQ(caps.registersPerSM, 65536);
  EXPECT_EQ(caps, GlobalCaps{}) << "struct defaults are the sm_100a caps";
}

TEST(Model, BuiltInValidates) {
  EXPECT_EQ(sm100a().getName(), "sm_100a");
  EXPECT_FALSE(sm100a().description.empty());
  llvm::Error err = sm100a().validate();
  EXPECT_FALSE(err) << llvm::toString(std::move(err));
  EXPECT_EQ(&TargetModel::sm100a(), &sm100a()) << "built once";
}

} // namespace
