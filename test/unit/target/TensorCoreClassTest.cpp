//===- TensorCoreClassTest.cpp - tcgen05.cp and the narrow UMMA rates ------===//
//
// The tensor core's in-order queue takes UMMAs and SMEM -> TMEM copies
// (tmem_copy, tcgen05.cp). An FP8 UMMA with K=32 and a block-scaled FP4 one
// with K=64 take the cycles of a BF16 K=16 one at equal M,N
// (blackwell-facts 1.2/1.3): their classes charge real FLOPs at 2x and 4x
// the BF16 rate.
//
//===----------------------------------------------------------------------===//

#include "target/Target.h"

#include "ResolveHelpers.h"
#include "gtest/gtest.h"

using namespace tilepipe::target;
using namespace tilepipe::target::test;

namespace {

/// Work of an SS UMMA: real FLOPs, A and B read from SMEM.
OpWork ssUmma(int64_t m, int64_t n, int64_t k, int64_t bitsPerElement) {
  OpWork work;
  work.flops = 2 * m * n * k;
  work.bytes = (m + n) * k * bitsPerElement / 8;
  return work;
}

OpWork copyBytes(int64_t n) {
  OpWork work;
  work.bytes = n;
  return work;
}

TEST(TensorCoreClasses, TmemCopyHoldsTheUmmaQueueAndReadsSmem) {
  const OpClassInfo *cls = sm100a().lookupOpClass("tmem_copy");
  ASSERT_NE(cls, nullptr);
  EXPECT_TRUE(cls->async) << "completion is tracked by tcgen05.commit";
  EXPECT_TRUE(cls->mma) << "a tcgen05 op of the MMA issuer";
  EXPECT_FALSE(cls->tma);
  EXPECT_FALSE(cls->chainLatency);
  // The MXFP8 scale factors of a 128-row K-block of 128: 4 UE8M0 per row.
  ResolvedOp sfa = resolve("tmem_copy", copyBytes(128 * 4));
  EXPECT_EQ(sfa.latency, 4);
  EXPECT_EQ(triples(sfa),
            (Triples{{"tc_and_mma", 4, 1}, {"tp_smem_rd", 4, 1}}));
  ResolvedOp sfb = resolve("tmem_copy", copyBytes(256 * 4));
  EXPECT_EQ(sfb.latency, 8);
  EXPECT_EQ(triples(sfb),
            (Triples{{"tc_and_mma", 8, 1}, {"tp_smem_rd", 8, 1}}));
  // A tiny copy still holds the queue for a cycle.
  EXPECT_EQ(triples(resolve("tmem_copy", copyBytes(16))),
            (Triples{{"tc_and_mma", 1, 1}, {"tp_smem_rd", 1, 1}}));
}

TEST(TensorCoreClasses, TmemCopySharesTheUmmaIssueSlot) {
  // Every tensor-core class holds the same tc_and_mma slot, so a copy and a
  // UMMA of any kind cannot overlap in one modulo cycle.
  auto slotsOf = [](llvm::StringRef name) {
    std::vector<std::string> out;
    for (const FootprintTriple &t : sm100a().lookupOpClass(name)->footprint)
      out.push_back(sm100a().getSlot(t.slot)->name);
    return out;
  };
  for (llvm::StringRef name : {"umma", "umma_ts", "umma_f8", "umma_ts_f8",
                               "umma_f4", "umma_ts_f4", "tmem_copy"}) {
    std::vector<std::string> slots = slotsOf(name);
    EXPECT_NE(llvm::find(slots, "tc_and_mma"), slots.end()) << name.str();
    EXPECT_NE(llvm::find(slots, "tp_smem_rd"), slots.end()) << name.str();
  }
}

TEST(TensorCoreClasses, Fp8K32TakesTheCyclesOfBf16K16) {
  // blackwell-facts 1.3 (SA): E4M3 SS 128x128x32 measured 200 clk, II 64,
  // as BF16 SS 128x128x16.
  ResolvedOp fp8 = resolve("umma_f8", ssUmma(128, 128, 32, 8));
  ResolvedOp bf16 = resolve("umma", ssUmma(128, 128, 16, 16));
  EXPECT_EQ(fp8.latency, 200);
  EXPECT_EQ(fp8.chainLatency, 64);
  EXPECT_EQ(fp8.latency, bf16.latency);
  EXPECT_EQ(fp8.chainLatency, bf16.chainLatency);
}

TEST(TensorCoreClasses, Fp8K128TakesTheCyclesOfBf16K64) {
  // The MXFP8 mainloop UMMA (128x256, K-block 128 of fp8 = 128 B rows) and
  // the BF16 one (K-block 64 of bf16 = 128 B rows) move the same bytes and
  // hold the tensor core equally long, with twice the FLOPs.
  OpWork fp8Work = ssUmma(128, 256, 128, 8);
  OpWork bf16Work = ssUmma(128, 256, 64, 16);
  EXPECT_EQ(fp8Work.flops, 2 * bf16Work.flops) << "flops stay real FLOPs";
  EXPECT_EQ(fp8Work.bytes, bf16Work.bytes);
  ResolvedOp fp8 = resolve("umma_f8", fp8Work);
  ResolvedOp bf16 = resolve("umma", bf16Work);
  EXPECT_EQ(fp8.latency, 136 + 512);
  EXPECT_EQ(fp8.chainLatency, 512);
  EXPECT_EQ(triples(fp8), (Triples{{"tc_and_mma", 512, 1},
                                   {"tp_mma", 512, 1},
                                   {"tp_smem_rd", 384, 1}}));
  EXPECT_EQ(fp8.latency, bf16.latency);
  EXPECT_EQ(fp8.chainLatency, bf16.chainLatency);
  EXPECT_EQ(triples(fp8), triples(bf16));
}

TEST(TensorCoreClasses, Fp4K64TakesTheCyclesOfBf16K16) {
  // blackwell-facts 1.3 (SA): F4 SS 128x256x64 measured 264 clk, II 128, as
  // BF16 SS 128x256x16.
  ResolvedOp fp4 = resolve("umma_f4", ssUmma(128, 256, 64, 4));
  ResolvedOp bf16 = resolve("umma", ssUmma(128, 256, 16, 16));
  EXPECT_EQ(fp4.latency, 264);
  EXPECT_EQ(fp4.chainLatency, 128);
  EXPECT_EQ(fp4.latency, bf16.latency);
  EXPECT_EQ(fp4.chainLatency, bf16.chainLatency);
  // K=256 of FP4 (128 B rows) = K=64 of BF16 = K=128 of FP8.
  ResolvedOp fp4Block = resolve("umma_f4", ssUmma(128, 256, 256, 4));
  EXPECT_EQ(fp4Block.chainLatency,
            resolve("umma_f8", ssUmma(128, 256, 128, 8)).chainLatency);
  EXPECT_EQ(fp4Block.chainLatency, 512);
}

TEST(TensorCoreClasses, NarrowTsKeepTheTsOffset) {
  // A from TMEM: the BF16 TS offset (116), the narrow rate.
  OpWork work;
  work.flops = 2 * 128 * 128 * 32;
  work.bytes = 128 * 32; // B only.
  ResolvedOp ts = resolve("umma_ts_f8", work);
  EXPECT_EQ(ts.latency, 116 + 64);
  EXPECT_EQ(ts.chainLatency, 64);
  work.flops = 2 * 128 * 128 * 64;
  work.bytes = 128 * 64 / 2;
  ResolvedOp ts4 = resolve("umma_ts_f4", work);
  EXPECT_EQ(ts4.latency, 116 + 64);
  EXPECT_EQ(ts4.chainLatency, 64);
}

TEST(TensorCoreClasses, NarrowClassesAreMmaAndAsync) {
  for (llvm::StringRef name :
       {"umma_f8", "umma_ts_f8", "umma_f4", "umma_ts_f4"}) {
    const OpClassInfo *cls = sm100a().lookupOpClass(name);
    ASSERT_NE(cls, nullptr) << name.str();
    EXPECT_TRUE(cls->async && cls->mma && !cls->tma) << name.str();
    EXPECT_TRUE(cls->chainLatency.has_value()) << name.str();
  }
}

} // namespace
