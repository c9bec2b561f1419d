//===- WgmmaTest.cpp - the emulator's wgmma.mma_async ----------------------===//
//
// Hopper's warpgroup MMA on the CPU emulator (emulator/wgmma.h), against
// naive float64 references: bf16 and f16 from SMEM at several N, with a
// 128-byte swizzle and without, B transposed, A from registers in the ISA's
// fragment, accumulation over K-blocks, two warpgroups. Then the protocol:
// every seed passes a correct kernel; seeded bugs (no wait_group, no fence,
// a descriptor with the wrong swizzle, an A fragment off by one lane quad,
// the operand buffer overwritten before the wait) are caught by a fault or
// by wrong numbers for some seed.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/emulator/prelude.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tilepipe/emulator/driver.h"
#include "tilepipe/layout/wgmma_layout.cuh"

namespace wgmma_test {

namespace wg = tp::layout::wgmma;
using tp::Swizzle;
using tp::cpu::LaunchOptions;
using tp::cpu::LaunchResult;
using tp::cpu::Policy;
using tp::cpu::WgmmaShape;
using tp::cpu::WgmmaType;

constexpr uint32_t kSmem = tp::cpu::rt::kSmemWindow;

LaunchResult run(uint32_t threads, uint64_t seed, std::function<void()> body,
                 Policy policy = Policy::Adversarial) {
  LaunchOptions o;
  o.seed = seed;
  o.policy = policy;
  o.maxSteps = 4'000'000;
  return tp::cpu::launch(dim3(1), dim3(threads), 96 * 1024, o, std::move(body));
}

/// A deterministic small value, exact in bf16 and f16.
float valueAt(uint32_t salt, uint32_t i, uint32_t j) {
  return float(int((i * 7 + j * 13 + salt * 5) % 9) - 4) / 4.0f;
}

uint16_t toBits(WgmmaType t, float v) {
  uint16_t h;
  if (t == WgmmaType::BF16) {
    __nv_bfloat16 b = __float2bfloat16_rn(v);
    std::memcpy(&h, &b, 2);
  } else {
    __half b = __float2half_rn(v);
    std::memcpy(&h, &b, 2);
  }
  return h;
}

/// A 16-bit operand of `rows` x 16 (K) stored K-major at `base` in the
/// canonical layout of `sw` (none: 8 x 16-byte core matrices, LBO 128
/// between the K halves, SBO 256 between 8-row groups; 128B: rows of 128
/// bytes of which the first 32 are this K block, SBO 1024), and its sm_90
/// descriptor.
uint64_t storeKMajor(WgmmaType t, uint32_t base, uint32_t rows, Swizzle sw,
                     uint32_t salt) {
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t k = 0; k < 16; ++k) {
      uint32_t lin = sw == Swizzle::None
                         ? (r % 8) * 16 + (r / 8) * 256 + (k % 8) * 2 + (k / 8) * 128
                         : (r % 8) * 128 + (r / 8) * 1024 + k * 2;
      uint32_t addr = tp::layout::apply(sw, base + lin);
      uint16_t h = toBits(t, valueAt(salt, r, k));
      std::memcpy(tp::cpu::shared_to_generic(addr), &h, 2);
    }
  return sw == Swizzle::None ? wg::make_descriptor(base, 128, 256, sw).pack()
                             : wg::make_descriptor(base, 16, 1024, sw).pack();
}

/// B given K x N (MN-major, N contiguous), no swizzle: T = 8 elements of N
/// per 16 bytes; (n % 8) * 2 + (k % 8) * 16 + (n / 8) * SBO + (k / 8) * LBO
/// with SBO 256 (8 x 16 bytes per N group... ) and LBO = 256 * N / 8.
uint64_t storeMnMajorB(WgmmaType t, uint32_t base, uint32_t n, uint32_t salt) {
  uint32_t sbo = 128, lbo = 128 * (n / 8);
  for (uint32_t c = 0; c < n; ++c)
    for (uint32_t k = 0; k < 16; ++k) {
      uint32_t addr = base + (c % 8) * 2 + (k % 8) * 16 + (c / 8) * sbo + (k / 8) * lbo;
      uint16_t h = toBits(t, valueAt(salt, c, k));
      std::memcpy(tp::cpu::shared_to_generic(addr), &h, 2);
    }
  return wg::make_descriptor(base, lbo, sbo, Swizzle::None).pack();
}

/// D[m][n] = sum over `blocks` K-blocks of A_b[m][k] B_b[n][k] (+ 1 when
/// the accumulator started at 1), in double.
double reference(uint32_t m, uint32_t n, int blocks, bool init) {
  double s = init ? 1.0 : 0.0;
  for (int b = 0; b < blocks; ++b)
    for (uint32_t k = 0; k < 16; ++k)
      s += double(valueAt(1 + 2 * b, m, k)) * double(valueAt(2 + 2 * b, n, k));
  return s;
}

enum class Bug {
  None,
  NoWait,
  NoFence,
  WrongSwizzle,
  QuadOff,
  OverwriteB,
  TransAFlag
};

struct Case {
  WgmmaType type = WgmmaType::BF16;
  uint32_t n = 64;
  Swizzle sw = Swizzle::None;
  bool transB = false;
  bool transA = false;
  bool regA = false;
  int blocks = 1;
  uint32_t warpgroups = 1;
  Bug bug = Bug::None;
};

/// Runs one kernel: every warpgroup computes its own 64 x N tile of the
/// same product (warpgroup g's A rows are rows 64 g ..; here the same A),
/// K-block by K-block, and every thread checks its fragment. Returns the
/// number of wrong elements (-1 when the launch failed).
int runCase(const Case &cs, uint64_t seed, LaunchResult *out = nullptr) {
  int wrong = 0;
  const uint32_t N = cs.n;
  LaunchResult r = run(128 * cs.warpgroups, seed, [&] {
    uint32_t t = threadIdx.x % 128;
    std::vector<float> d(N / 2, 1.0f);
    // Bug::TransAFlag: A stored M x K transposed (MN-major), issued as if
    // K-major (imm-trans-a 0).
    WgmmaShape s{uint16_t(N), cs.type, cs.type,
                 cs.transA && cs.bug != Bug::TransAFlag, cs.transB};
    for (int b = 0; b < cs.blocks; ++b) {
      // Each block's operands in a fresh area: A at 0, B at 16 KiB, per block.
      uint32_t aBase = kSmem + uint32_t(b) * 32768, bBase = aBase + 16384;
      if (threadIdx.x == 0) {
        if (cs.transA)
          storeMnMajorB(cs.type, aBase, 64, 1 + 2 * b);
        else
          storeKMajor(cs.type, aBase, 64, cs.sw, 1 + 2 * b);
        if (cs.transB)
          storeMnMajorB(cs.type, bBase, N, 2 + 2 * b);
        else
          storeKMajor(cs.type, bBase, N, cs.sw, 2 + 2 * b);
      }
      tp::cpu::fence_proxy_async();
      __syncthreads();
      uint64_t adesc = cs.transA ? wg::make_descriptor(aBase, 128 * (64 / 8),
                                                       128, Swizzle::None)
                                       .pack()
                       : cs.sw == Swizzle::None
                           ? wg::make_descriptor(aBase, 128, 256, cs.sw).pack()
                           : wg::make_descriptor(aBase, 16, 1024, cs.sw).pack();
      uint64_t bdesc =
          cs.transB ? wg::make_descriptor(bBase, 128 * (N / 8), 128, Swizzle::None).pack()
          : cs.sw == Swizzle::None
              ? wg::make_descriptor(bBase, 128, 256, cs.sw).pack()
              : wg::make_descriptor(bBase, 16, 1024, cs.sw).pack();
      if (cs.bug == Bug::WrongSwizzle)
        bdesc = wg::make_descriptor(bBase, 16, 1024, Swizzle::B64).pack();
      uint32_t aRegs[4];
      for (int i = 0; i < 8; ++i) {
        wg::RowCol rc = wg::a16_element(int(t), i);
        if (cs.bug == Bug::QuadOff)
          rc = wg::a16_element(int((t + 4) % 128), i);
        uint32_t h = toBits(cs.type, valueAt(1 + 2 * b, uint32_t(rc.row), uint32_t(rc.col)));
        if (i % 2 == 0)
          aRegs[i / 2] = h;
        else
          aRegs[i / 2] |= h << 16;
      }
      if (cs.bug != Bug::NoFence)
        tp::cpu::wgmma_fence();
      if (cs.regA)
        tp::cpu::wgmma_mma_rs(s, d.data(), aRegs, bdesc, true);
      else
        tp::cpu::wgmma_mma_ss(s, d.data(), adesc, bdesc, true);
      tp::cpu::wgmma_commit_group();
      if (cs.bug == Bug::OverwriteB) {
        __syncwarp(0xFFFFFFFFu);
        if (t % 32 == 0)
          std::memset(tp::cpu::shared_to_generic(bBase), 0, 256);
      }
      if (cs.bug != Bug::NoWait)
        tp::cpu::wgmma_wait_group(0);
      __syncthreads();
    }
    for (uint32_t i = 0; i < N / 2; ++i) {
      wg::RowCol rc = wg::acc_element(int(t), int(i));
      double want = reference(uint32_t(rc.row), uint32_t(rc.col), cs.blocks, true);
      if (std::fabs(double(d[i]) - want) > 1e-6)
        ++wrong;
    }
  });
  if (out)
    *out = r;
  return r.ok ? wrong : -1;
}

TEST(Wgmma, SmemOperandsMatchTheReference) {
  for (WgmmaType type : {WgmmaType::BF16, WgmmaType::F16})
    for (uint32_t n : {8u, 64u, 136u, 256u})
      for (Swizzle sw : {Swizzle::None, Swizzle::B128}) {
        Case cs;
        cs.type = type;
        cs.n = n;
        cs.sw = sw;
        LaunchResult r;
        EXPECT_EQ(runCase(cs, 1, &r), 0)
            << "N " << n << " swizzle " << int(sw) << "\n" << r.report;
      }
}

TEST(Wgmma, TransposedBRegisterAAndKBlocks) {
  Case t;
  t.transB = true;
  t.n = 128;
  LaunchResult r;
  EXPECT_EQ(runCase(t, 2, &r), 0) << r.report;
  Case a;
  a.regA = true;
  a.n = 256;
  EXPECT_EQ(runCase(a, 3, &r), 0) << r.report;
  Case k;
  k.blocks = 2;
  k.warpgroups = 2;
  k.sw = Swizzle::B128;
  EXPECT_EQ(runCase(k, 4, &r), 0) << r.report;
}

// imm-trans-a 1 (session 29): A given K x M, M contiguous, as a weight
// gradient's dY^T is; with B transposed too, and the same bytes issued with
// imm-trans-a 0 read as K-major give other numbers.
TEST(Wgmma, TransposedA) {
  for (bool transB : {false, true}) {
    Case t;
    t.transA = true;
    t.transB = transB;
    t.n = 64;
    LaunchResult r;
    EXPECT_EQ(runCase(t, 5, &r), 0) << "trans-b " << transB << "\n" << r.report;
  }
  Case bug;
  bug.transA = true;
  bug.bug = Bug::TransAFlag;
  EXPECT_GT(runCase(bug, 5), 0);
}

TEST(Wgmma, CorrectKernelPassesForEverySeed) {
  Case cs;
  cs.blocks = 2;
  cs.regA = true;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    LaunchResult r;
    ASSERT_EQ(runCase(cs, seed, &r), 0) << "seed " << seed << "\n" << r.report;
  }
}

TEST(Wgmma, SeededBugsAreCaught) {
  auto caught = [](Bug bug, bool regA = false) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      Case cs;
      cs.bug = bug;
      cs.regA = regA;
      if (runCase(cs, seed) != 0)
        return true;
    }
    return false;
  };
  EXPECT_TRUE(caught(Bug::NoWait));
  EXPECT_TRUE(caught(Bug::NoFence));
  EXPECT_TRUE(caught(Bug::WrongSwizzle));
  EXPECT_TRUE(caught(Bug::QuadOff, /*regA=*/true));
  EXPECT_TRUE(caught(Bug::OverwriteB));
}

/// The bits of `v` in an 8-bit float format (v is exact in it).
uint8_t bits8(WgmmaType t, float v) {
  for (uint32_t b = 0; b < 256; ++b) {
    double x = t == WgmmaType::E4M3 ? tp::cpu::fmt::e4m3(b) : tp::cpu::fmt::e5m2(b);
    if (x == double(v))
      return uint8_t(b);
  }
  ADD_FAILURE() << "value " << v << " is not exact";
  return 0;
}

/// One wgmma of tf32 (K 8) or 8-bit floats (K 32, e4m3 and e5m2 mixed),
/// 64 x 64, K-major without swizzle: each operand row is 32 bytes, two
/// 16-byte core-matrix columns LBO = 128 apart, 8-row groups SBO = 256
/// apart. The emulator reads them at their own width and rate.
///
/// `regA` (8-bit only): A from registers in the ISA's m64k32 fragment
/// (a8_element); `quadOff` packs each thread's registers from the next lane
/// quad's elements, which must give other numbers.
int runKind(WgmmaType ta, WgmmaType tb, LaunchResult &r, bool regA = false,
            bool quadOff = false) {
  uint32_t bytes = ta == WgmmaType::TF32 ? 4 : 1, K = 32 / bytes, T = 16 / bytes;
  int wrong = 0;
  auto store = [&](WgmmaType t, uint32_t base, uint32_t rows, uint32_t salt) {
    for (uint32_t m = 0; m < rows; ++m)
      for (uint32_t k = 0; k < K; ++k) {
        uint32_t addr = base + (m % 8) * 16 + (m / 8) * 256 + (k % T) * bytes + (k / T) * 128;
        float v = valueAt(salt, m, k);
        if (t == WgmmaType::TF32)
          std::memcpy(tp::cpu::shared_to_generic(addr), &v, 4);
        else
          *static_cast<uint8_t *>(tp::cpu::shared_to_generic(addr)) = bits8(t, v);
      }
  };
  r = run(128, 5, [&] {
    if (threadIdx.x == 0) {
      store(ta, kSmem, 64, 7);
      store(tb, kSmem + 4096, 64, 8);
    }
    tp::cpu::fence_proxy_async();
    __syncthreads();
    float d[32];
    uint32_t aRegs[4] = {};
    for (int i = 0; regA && i < 16; ++i) {
      int t = int(threadIdx.x);
      wg::RowCol rc = wg::a8_element(quadOff ? (t + 4) % 128 : t, i);
      uint32_t b = bits8(ta, valueAt(7, uint32_t(rc.row), uint32_t(rc.col)));
      aRegs[i / 4] |= b << (8 * (i % 4));
    }
    tp::cpu::wgmma_fence();
    uint64_t bdesc =
        wg::make_descriptor(kSmem + 4096, 128, 256, Swizzle::None).pack();
    if (regA)
      tp::cpu::wgmma_mma_rs(WgmmaShape{64, ta, tb, false, false}, d, aRegs,
                            bdesc, false);
    else
      tp::cpu::wgmma_mma_ss(
          WgmmaShape{64, ta, tb, false, false}, d,
          wg::make_descriptor(kSmem, 128, 256, Swizzle::None).pack(), bdesc,
          false);
    tp::cpu::wgmma_commit_group();
    tp::cpu::wgmma_wait_group(0);
    for (int i = 0; i < 32; ++i) {
      wg::RowCol rc = wg::acc_element(int(threadIdx.x), i);
      double want = 0;
      for (uint32_t k = 0; k < K; ++k)
        want += double(valueAt(7, uint32_t(rc.row), k)) * double(valueAt(8, uint32_t(rc.col), k));
      wrong += double(d[i]) != want;
    }
  });
  return r.ok ? wrong : -1;
}

TEST(Wgmma, Tf32AndEightBitKinds) {
  for (auto [a, b] : {std::pair(WgmmaType::TF32, WgmmaType::TF32),
                      std::pair(WgmmaType::E4M3, WgmmaType::E4M3),
                      std::pair(WgmmaType::E5M2, WgmmaType::E5M2),
                      std::pair(WgmmaType::E4M3, WgmmaType::E5M2)}) {
    LaunchResult r;
    EXPECT_EQ(runKind(a, b, r), 0) << int(a) << " x " << int(b) << "\n" << r.report;
  }
}

// An 8-bit A from registers (FP8 attention's P): the m64k32 fragment, four
// elements a register, as the ISA lays it; the next quad's elements give
// other numbers.
TEST(Wgmma, EightBitRegisterA) {
  for (auto [a, b] : {std::pair(WgmmaType::E4M3, WgmmaType::E4M3),
                      std::pair(WgmmaType::E5M2, WgmmaType::E4M3)}) {
    LaunchResult r;
    EXPECT_EQ(runKind(a, b, r, /*regA=*/true), 0) << int(a) << "\n" << r.report;
  }
  LaunchResult r;
  EXPECT_GT(
      runKind(WgmmaType::E4M3, WgmmaType::E4M3, r, true, /*quadOff=*/true), 0);
}

/// An 8-bit integer element over the type's whole range (s8: -128..127,
/// u8: 0..255), so that products reach 2^14 and 2^16.
int int8At(WgmmaType t, uint32_t salt, uint32_t i, uint32_t j) {
  int v = int((i * 37 + j * 101 + salt * 13) % 256);
  return t == WgmmaType::S8 ? v - 128 : v;
}

/// Two m64nNk32 wgmmas of 8-bit integers into s32, K-major without
/// swizzle as runKind lays them: the first overwrites D (scale-d 0), the
/// second adds, and D starts at `init` when `accumulateFirst`. Returns the
/// number of D registers other than the exact sum wrapped to 32 bits.
int runInt(WgmmaType ta, WgmmaType tb, uint32_t n, int32_t init,
           bool accumulateFirst, LaunchResult &r) {
  int wrong = 0;
  auto store = [&](WgmmaType t, uint32_t base, uint32_t rows, uint32_t salt) {
    for (uint32_t m = 0; m < rows; ++m)
      for (uint32_t k = 0; k < 32; ++k) {
        uint32_t addr =
            base + (m % 8) * 16 + (m / 8) * 256 + (k % 16) + (k / 16) * 128;
        *static_cast<uint8_t *>(tp::cpu::shared_to_generic(addr)) =
            uint8_t(int8At(t, salt, m, k));
      }
  };
  r = run(128, 7, [&] {
    if (threadIdx.x == 0) {
      store(ta, kSmem, 64, 1);
      store(tb, kSmem + 4096, n, 2);
    }
    tp::cpu::fence_proxy_async();
    __syncthreads();
    std::vector<int32_t> d(n / 2, init);
    uint64_t adesc = wg::make_descriptor(kSmem, 128, 256, Swizzle::None).pack();
    uint64_t bdesc =
        wg::make_descriptor(kSmem + 4096, 128, 256, Swizzle::None).pack();
    WgmmaShape shape{uint16_t(n), ta, tb, false, false};
    tp::cpu::wgmma_fence();
    for (bool scaleD : {accumulateFirst, true})
      tp::cpu::wgmma_mma_ss(shape, reinterpret_cast<float *>(d.data()), adesc,
                            bdesc, scaleD);
    tp::cpu::wgmma_commit_group();
    tp::cpu::wgmma_wait_group(0);
    for (uint32_t i = 0; i < n / 2; ++i) {
      wg::RowCol rc = wg::acc_element(int(threadIdx.x), int(i));
      int64_t dot = 0;
      for (uint32_t k = 0; k < 32; ++k)
        dot += int64_t(int8At(ta, 1, uint32_t(rc.row), k)) *
               int8At(tb, 2, uint32_t(rc.col), k);
      int64_t want = 2 * dot + (accumulateFirst ? init : 0);
      wrong += d[i] != int32_t(uint32_t(uint64_t(want)));
    }
  });
  return r.ok ? wrong : -1;
}

// s8/u8 operands into s32 (int8 GEMM): exact, in either signedness and
// mixed, over N of the integer shapes; D wraps past INT32_MAX as integer
// MMA without .satfinite does.
TEST(Wgmma, IntegerKindsAreExactAndWrap) {
  for (auto [a, b] : {std::pair(WgmmaType::S8, WgmmaType::S8),
                      std::pair(WgmmaType::S8, WgmmaType::U8),
                      std::pair(WgmmaType::U8, WgmmaType::U8)})
    for (uint32_t n : {8u, 48u, 256u}) {
      LaunchResult r;
      EXPECT_EQ(runInt(a, b, n, 0, false, r), 0)
          << int(a) << " x " << int(b) << " N " << n << "\n"
          << r.report;
    }
  LaunchResult r;
  EXPECT_EQ(runInt(WgmmaType::U8, WgmmaType::U8, 64, INT32_MAX - 1000, true, r),
            0)
      << r.report;
  // N = 40 is a float shape, not an integer one.
  EXPECT_EQ(runInt(WgmmaType::S8, WgmmaType::S8, 40, 0, false, r), -1);
  EXPECT_NE(r.report.find("s8/u8: 8, 16, 24, then"), std::string::npos)
      << r.report;
}

TEST(Wgmma, FaultsNameTheRule) {
  LaunchResult r;
  Case cs;
  cs.bug = Bug::NoFence;
  runCase(cs, 1, &r);
  EXPECT_NE(r.report.find("without a wgmma.fence"), std::string::npos) << r.report;
  cs.bug = Bug::NoWait;
  runCase(cs, 1, &r);
  EXPECT_NE(r.report.find("wgmma"), std::string::npos) << r.report;
  // A descriptor of sm_100 (version bit 46) is refused.
  r = run(128, 1, [&] {
    float d[4] = {};
    tp::cpu::wgmma_fence();
    uint64_t desc = wg::make_descriptor(kSmem, 128, 256, Swizzle::None).pack() |
                    (uint64_t(1) << 46);
    tp::cpu::wgmma_mma_ss(WgmmaShape{8, WgmmaType::BF16, WgmmaType::BF16, false, false},
                          d, desc, desc, false);
    tp::cpu::wgmma_commit_group();
    tp::cpu::wgmma_wait_group(0);
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.report.find("bits 46-48 are reserved on sm_90"), std::string::npos) << r.report;
  // A CTA of 64 threads holds no whole warpgroup.
  r = run(64, 1, [&] {
    float d[4] = {};
    tp::cpu::wgmma_fence();
    uint64_t desc = wg::make_descriptor(kSmem, 128, 256, Swizzle::None).pack();
    tp::cpu::wgmma_mma_ss(WgmmaShape{8, WgmmaType::BF16, WgmmaType::BF16, false, false},
                          d, desc, desc, false);
  });
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.report.find("does not fill"), std::string::npos) << r.report;
}

} // namespace wgmma_test
