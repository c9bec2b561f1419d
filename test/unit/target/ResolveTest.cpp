//===- ResolveTest.cpp - built-in op classes on representative work -------===//
//
// Each class evaluated on the work of a real tile (GEMM mainloop and FA4
// forward shapes from blackwell-facts §7.4), so that a changed rate or base
// shows up as a changed duration here.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "ResolveHelpers.h"
#include "gtest/gtest.h"

#include <climits>
#include <set>

using namespace tilepipe::target;
using namespace tilepipe::target::test;

namespace {

constexpr int64_t kBf16 = 2, kF32 = 4;

TEST(Resolve, EveryBuiltInClassIsThere) {
  std::set<std::string> names;
  for (const OpClassInfo &cls : sm100a().getOpClasses())
    names.insert(cls.name);
  std::set<std::string> expected = {
      "tma_load",     "tma_store",     "cp_async",
      "umma",         "umma_ts",       "umma_f8",
      "umma_ts_f8",   "umma_f4",       "umma_ts_f4",
      "tmem_copy",    "tmem_load",     "tmem_store",
      "smem_load",    "smem_store",    "exp2",
      "fma",          "cvt",           "reduce",
      "generic",      "book.dual_alu", "book.fma_heavy",
      "book.fp32x2",  "book.smem_rd",  "book.smem_wr",
      "book.tmem_rd", "book.tmem_wr",  "book.tma_load",
      "book.mma"};
  EXPECT_EQ(names, expected);
  for (const OpClassInfo &cls : sm100a().getOpClasses()) {
    EXPECT_EQ(sm100a().lookupOpClass(cls.name), &cls);
    EXPECT_FALSE(cls.source.empty()) << cls.name << " needs a source";
  }
  EXPECT_EQ(sm100a().lookupOpClass("wgmma"), nullptr);
}

TEST(Resolve, UmmaBf16_128x128x64) {
  // A and B 128x64 bf16 from SMEM (SS mode).
  OpWork work{2 * 128 * 64 * kBf16, 2 * 128 * 128 * 64, 0};
  ResolvedOp op = resolve("umma", work);
  EXPECT_EQ(op.latency, 136 + 256);
  EXPECT_EQ(op.chainLatency, 256) << "in-order TC queue: the II alone";
  EXPECT_EQ(triples(op), (Triples{{"tc_and_mma", 256, 1},
                                  {"tp_mma", 256, 1},
                                  {"tp_smem_rd", 256, 1}}));
  EXPECT_TRUE(op.pools.empty());
  EXPECT_EQ(op.poolHoldCycles(), 256u);
}

TEST(Resolve, UmmaMatchesMeasured128x128x16) {
  // blackwell-facts §1.3: SS 128x128x16 bf16 measured 200 clk, II 64.
  ResolvedOp op = resolve("umma", {0, 2 * 128 * 128 * 16, 0});
  EXPECT_EQ(op.latency, 200);
  EXPECT_EQ(op.chainLatency, 64);
}

TEST(Resolve, UmmaTs) {
  ResolvedOp op = resolve("umma_ts", {128 * 64 * kBf16, 2 * 128 * 128 * 64, 0});
  EXPECT_EQ(op.latency, 116 + 256);
  EXPECT_EQ(op.chainLatency, 256);
  EXPECT_EQ(triples(op), (Triples{{"tc_and_mma", 256, 1},
                                  {"tp_mma", 256, 1},
                                  {"tp_smem_rd", 128, 1}}));
}

TEST(Resolve, TmaLoad32KiB) {
  // No l2_reuse stated: the chip's default reuse of 4, so 8192 of the 32768
  // bytes come from HBM (8192 / 25 = 327.68 -> 328), all 32768 cross L2 ->
  // SM at 64 B/clk (512) and land in SMEM at 128 B/clk (256).
  ASSERT_EQ(sm100a().getChip().defaultL2Reuse, 4u);
  ResolvedOp op = resolve("tma_load", {32768, 0, 0});
  // Latency by byte source: 800 (L2-hit round trip) + 328 + 512.
  EXPECT_EQ(op.latency, 800 + 328 + 512);
  EXPECT_EQ(op.chainLatency, 800 + 328 + 512) << "no chain latency: the latency";
  EXPECT_EQ(triples(op), (Triples{{"tma", 328, 1},
                                  {"tp_gnic_rd", 512, 1},
                                  {"tp_smem_wr", 256, 1}}));
}

TEST(Resolve, TmaLoadFromHbmOnly) {
  // l2_reuse = 1: every byte from HBM at the 25 B/clk/SM share, the charge
  // every TMA byte paid before loads said where their bytes come from.
  OpWork work{32768, 0, 0};
  work.l2Reuse = 1;
  EXPECT_EQ(triples(resolve("tma_load", work)),
            (Triples{{"tma", 1311, 1},
                     {"tp_gnic_rd", 512, 1},
                     {"tp_smem_wr", 256, 1}}));
}

TEST(Resolve, TmaLoadReuseAndMulticast) {
  // The GEMM example's B tile: 256x64 bf16, multicast to 2 CTAs, re-read by
  // 4 clusters. Fetched 16384, from HBM 4096 (164 cycles); the whole tile
  // still lands in this CTA's SMEM.
  OpWork work{256 * 64 * kBf16, 0, 0};
  work.l2Reuse = 4;
  work.multicast = 2;
  EXPECT_EQ(work.fetchedBytes(), 16384);
  EXPECT_EQ(work.hbmBytes(), 4096);
  ResolvedOp op = resolve("tma_load", work);
  EXPECT_EQ(triples(op), (Triples{{"tma", 164, 1},
                                  {"tp_gnic_rd", 256, 1},
                                  {"tp_smem_wr", 256, 1}}));
  // The latency follows the byte source too: 800 + 164 + 256, well below
  // the flushed-L2 single-load table's 4586.
  EXPECT_EQ(op.latency, 800 + 164 + 256);

  // The FA4 K tile: 128x128 bf16 read by 16 Q-tile CTAs, no multicast.
  OpWork k{128 * 128 * kBf16, 0, 0};
  k.l2Reuse = 16;
  EXPECT_EQ(triples(resolve("tma_load", k)),
            (Triples{{"tma", 82, 1},
                     {"tp_gnic_rd", 512, 1},
                     {"tp_smem_wr", 256, 1}}));
}

TEST(Resolve, MoreReuseNeverCostsMore) {
  unsigned last = UINT_MAX;
  for (int64_t reuse : {1, 2, 3, 4, 8, 16, 1000}) {
    OpWork work{49152, 0, 0};
    work.l2Reuse = reuse;
    unsigned tma = resolve("tma_load", work).triples[0].duration;
    EXPECT_LE(tma, last) << reuse;
    EXPECT_GE(tma, 1u);
    last = tma;
  }
}

TEST(Resolve, TmaLoadInterpolates) {
  EXPECT_EQ(resolve("tma_store", {24576, 0, 0}).latency, 4088);
  EXPECT_EQ(resolve("tma_store", {512, 0, 0}).latency, 1413);
}

TEST(Resolve, TmaStore16KiB) {
  ResolvedOp op = resolve("tma_store", {16384, 0, 0});
  EXPECT_EQ(op.latency, 3590);
  EXPECT_EQ(triples(op), (Triples{{"tma", 656, 1}, {"tp_smem_rd", 128, 1}}));
}

TEST(Resolve, CpAsync) {
  ResolvedOp op = resolve("cp_async", {16384, 0, 0});
  EXPECT_EQ(op.latency, 1600);
  EXPECT_EQ(triples(op), (Triples{{"lsu", 128, 1},
                                  {"tp_gnic_rd", 656, 1},
                                  {"tp_smem_wr", 128, 1}}));
}

TEST(Resolve, TmemLoadStore) {
  OpWork acc{128 * 128 * kF32, 0, 0};
  ResolvedOp ld = resolve("tmem_load", acc);
  EXPECT_EQ(ld.latency, 50 + 128);
  EXPECT_EQ(triples(ld), (Triples{{"tp_tmem_rd", 128, 1}}));
  ResolvedOp st = resolve("tmem_store", acc);
  EXPECT_EQ(st.latency, 50 + 128);
  EXPECT_EQ(triples(st), (Triples{{"tp_tmem_wr", 128, 1}}));
}

TEST(Resolve, SmemLoadStore) {
  OpWork tile{128 * 128 * kBf16, 0, 0};
  ResolvedOp ld = resolve("smem_load", tile);
  EXPECT_EQ(ld.latency, 30 + 256);
  EXPECT_EQ(triples(ld), (Triples{{"tp_smem_rd", 256, 1}}));
  ResolvedOp st = resolve("smem_store", tile);
  EXPECT_EQ(st.latency, 30 + 256);
  EXPECT_EQ(triples(st), (Triples{{"tp_smem_wr", 256, 1}}));
}

TEST(Resolve, Exp2OnMufu) {
  // blackwell-facts §1.3: 16384 exponentials take 1024 clk of MUFU.
  ResolvedOp op = resolve("exp2", {0, 0, 128 * 128});
  EXPECT_EQ(op.latency, 20 + 1024);
  EXPECT_EQ(triples(op), (Triples{{"xu", 1024, 1}}));
}

TEST(Resolve, FmaAndReduceHoldTheFanoutPool) {
  OpWork tile{0, 0, 128 * 128};
  ResolvedOp fma = resolve("fma", tile);
  EXPECT_EQ(fma.latency, 4 + 512);
  EXPECT_EQ(triples(fma), (Triples{{"alu_or_fmaheavy", 512, 1}}));
  ASSERT_EQ(fma.pools.size(), 1u);
  EXPECT_EQ(fma.pools[0].pool, 7u);
  EXPECT_EQ(fma.pools[0].amount, 1u);
  EXPECT_EQ(fma.poolHoldCycles(), 512u);

  ResolvedOp red = resolve("reduce", tile);
  EXPECT_EQ(red.latency, 14 + 512);
  EXPECT_EQ(triples(red), (Triples{{"alu_or_fmaheavy", 512, 1}}));
  EXPECT_EQ(red.pools, fma.pools);
}

TEST(Resolve, Cvt) {
  ResolvedOp op = resolve("cvt", {0, 0, 128 * 128});
  EXPECT_EQ(op.latency, 4 + 256);
  EXPECT_EQ(triples(op), (Triples{{"fp32x2_fp16ultra", 256, 1}}));
}

TEST(Resolve, Generic) {
  ResolvedOp op = resolve("generic", {1 << 20, 1 << 20, 1 << 20});
  EXPECT_EQ(op.latency, 2);
  EXPECT_EQ(triples(op), (Triples{{"dual_alu", 1, 1}}));
}

TEST(Resolve, BookFamilies) {
  OpWork any{4096, 4096, 4096};
  EXPECT_EQ(triples(resolve("book.dual_alu", any)),
            (Triples{{"dual_alu", 2, 1}}));
  EXPECT_EQ(resolve("book.dual_alu", any).latency, 2);
  EXPECT_EQ(triples(resolve("book.fma_heavy", any)),
            (Triples{{"alu_or_fmaheavy", 4, 1}}));
  EXPECT_EQ(triples(resolve("book.fp32x2", any)),
            (Triples{{"fp32x2_fp16ultra", 4, 1}}));
  for (const char *cls : {"book.fma_heavy", "book.fp32x2"})
    EXPECT_EQ(resolve(cls, any).latency, 4) << cls;
  EXPECT_EQ(triples(resolve("book.smem_rd", any)),
            (Triples{{"tp_smem_rd", 7, 1}}));
  EXPECT_EQ(triples(resolve("book.smem_wr", any)),
            (Triples{{"tp_smem_wr", 7, 1}}));
  EXPECT_EQ(triples(resolve("book.tmem_rd", any)),
            (Triples{{"tp_tmem_rd", 7, 1}}));
  EXPECT_EQ(triples(resolve("book.tmem_wr", any)),
            (Triples{{"tp_tmem_wr", 7, 1}}));
  for (const char *cls :
       {"book.smem_rd", "book.smem_wr", "book.tmem_rd", "book.tmem_wr"})
    EXPECT_EQ(resolve(cls, any).latency, 7) << cls;
  ResolvedOp tma = resolve("book.tma_load", any);
  EXPECT_EQ(tma.latency, 8);
  EXPECT_EQ(triples(tma), (Triples{{"tma", 8, 1}, {"tp_smem_wr", 8, 1}}));
  ResolvedOp mma = resolve("book.mma", any);
  EXPECT_EQ(mma.latency, 16) << "accumulator latency";
  EXPECT_EQ(triples(mma), (Triples{{"tc_and_mma", 8, 1}, {"tp_mma", 8, 1}}))
      << "8-cycle issue window";
}

TEST(Resolve, Flags) {
  auto flags = [](llvm::StringRef name) {
    const OpClassInfo *cls = sm100a().lookupOpClass(name);
    return std::make_tuple(cls->async, cls->tma, cls->mma);
  };
  using F = std::tuple<bool, bool, bool>;
  EXPECT_EQ(flags("tma_load"), F(true, true, false));
  EXPECT_EQ(flags("tma_store"), F(true, true, false));
  EXPECT_EQ(flags("cp_async"), F(true, false, false));
  EXPECT_EQ(flags("umma"), F(true, false, true));
  EXPECT_EQ(flags("umma_ts"), F(true, false, true));
  EXPECT_EQ(flags("book.tma_load"), F(true, true, false));
  EXPECT_EQ(flags("book.mma"), F(true, false, true));
  for (const char *sync :
       {"tmem_load", "tmem_store", "smem_load", "smem_store", "exp2", "fma",
        "cvt", "reduce", "generic", "book.dual_alu"})
    EXPECT_EQ(flags(sync), F(false, false, false)) << sync;
}

TEST(Resolve, DurationsAreAtLeastOne) {
  ResolvedOp op = resolve("umma", {});
  EXPECT_EQ(op.latency, 136);
  EXPECT_EQ(op.chainLatency, 0);
  for (const ResolvedTriple &t : op.triples)
    EXPECT_EQ(t.duration, 1u);
  EXPECT_EQ(op.poolHoldCycles(), 1u);
}

TEST(Resolve, PoolsHeldAtLeastOneCycleWithoutTriples) {
  OpClassInfo cls;
  cls.name = "pool_only";
  cls.latency = Quantity::constant(0);
  cls.pools = {{5, 1}};
  ResolvedOp op = sm100a().resolve(cls, {});
  EXPECT_EQ(op.latency, 0);
  EXPECT_TRUE(op.triples.empty());
  EXPECT_EQ(op.poolHoldCycles(), 1u);
}

} // namespace
