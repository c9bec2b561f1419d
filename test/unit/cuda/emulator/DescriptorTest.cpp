//===- DescriptorTest.cpp - descriptor structs against their bits ---------===//
//
// The SMEM matrix descriptor and the tcgen05 instruction descriptors are
// built as structs of named fields and packed by pack()
// (layout/smem_desc.cuh, layout/instr_desc.cuh). These tests check, over
// many field values, that the packing gives the same bits as the shift
// formula the runtime used before the structs, written out again here as
// the PTX ISA's tables state it, and that the emulator's decoder
// (emulator/descriptors.h) reads the fields back.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/emulator/prelude.h"

#include "tilepipe/emulator/descriptors.h"
#include "tilepipe/layout/instr_desc.cuh"
#include "tilepipe/layout/smem_desc.cuh"

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace {

using tp::Swizzle;

// The shift formulas: start [0, 14), LBO [16, 30), SBO [32, 46), each in
// 16-byte units; 0b001 at [46, 49); the swizzle at [61, 64).
uint64_t shiftSmemDesc(uint32_t start, uint32_t lbo, uint32_t sbo,
                       Swizzle s) {
  return uint64_t((start & 0x3FFFFu) >> 4) |
         uint64_t((lbo & 0x3FFFFu) >> 4) << 16 |
         uint64_t((sbo & 0x3FFFFu) >> 4) << 32 | uint64_t(1) << 46 |
         tp::layout::desc_code(s) << 61;
}

// [4, 6) D type; [7, 10) A type; [10, 13) B type; 15/16 MN-major;
// [17, 23) N >> 3; [24, 29) M >> 4.
uint32_t shiftInstrDesc(int m, int n, uint32_t aFormat, uint32_t bFormat,
                        bool dF32, bool aMN, bool bMN) {
  return uint32_t(dF32) << 4 | aFormat << 7 | bFormat << 10 |
         uint32_t(aMN) << 15 | uint32_t(bMN) << 16 | uint32_t(n >> 3) << 17 |
         uint32_t(m >> 4) << 24;
}

// [4, 6) SFB id; types and majors as above; [17, 23) N >> 3; 23 UE8M0;
// [27, 29) M >> 7; [29, 31) SFA id.
uint32_t shiftBlockScaleDesc(int m, int n, uint32_t aFormat, uint32_t bFormat,
                             bool aMN, bool bMN, uint32_t sfaId,
                             uint32_t sfbId) {
  return (sfbId & 3) << 4 | aFormat << 7 | bFormat << 10 |
         uint32_t(aMN) << 15 | uint32_t(bMN) << 16 | uint32_t(n >> 3) << 17 |
         uint32_t(1) << 23 | uint32_t(m >> 7) << 27 | (sfaId & 3) << 29;
}

const Swizzle kSwizzles[] = {Swizzle::None, Swizzle::B32, Swizzle::B64,
                             Swizzle::B128};

/// Byte values across the 18 bits the descriptor keeps, with the ends,
/// single bits, and bits outside (below 16 bytes, above 256 KiB) that it
/// drops.
std::vector<uint32_t> byteValues() {
  std::vector<uint32_t> v = {0, 8, 16, 0x3FFF0, 0x3FFFF, 0x40000, 0x40010,
                             0xFFFFFFFFu};
  for (int bit = 4; bit < 18; ++bit)
    v.push_back(1u << bit);
  for (uint32_t x = 0x400; x < 0x40000; x += 0x1230)
    v.push_back(x);
  return v;
}

TEST(CpuEmuDescriptors, SmemDescriptorPacksAsTheShifts) {
  std::vector<uint32_t> values = byteValues();
  int checked = 0;
  for (uint32_t start : values)
    for (uint32_t lbo : values)
      for (uint32_t sbo : {0u, 16u, 128u, 1024u, 0x3FFF0u, 0x40080u})
        for (Swizzle s : kSwizzles) {
          ASSERT_EQ(tp::layout::smem_desc(start, lbo, sbo, s),
                    shiftSmemDesc(start, lbo, sbo, s))
              << "start " << start << " lbo " << lbo << " sbo " << sbo
              << " swizzle " << int(s);
          ++checked;
        }
  EXPECT_GT(checked, 10000);
}

TEST(CpuEmuDescriptors, SmemDescriptorFieldsAtTheirBits) {
  tp::layout::SmemDescriptor d;
  d.version = 0;
  EXPECT_EQ(d.pack(), 0u);
  const struct {
    uint32_t tp::layout::SmemDescriptor::*field;
    int lo, width;
  } fields[] = {
      {&tp::layout::SmemDescriptor::startAddress, 0, 14},
      {&tp::layout::SmemDescriptor::leadingByteOffset, 16, 14},
      {&tp::layout::SmemDescriptor::strideByteOffset, 32, 14},
      {&tp::layout::SmemDescriptor::version, 46, 3},
      {&tp::layout::SmemDescriptor::baseOffset, 49, 3},
      {&tp::layout::SmemDescriptor::lboMode, 52, 1},
      {&tp::layout::SmemDescriptor::layoutType, 61, 3},
  };
  for (const auto &f : fields) {
    tp::layout::SmemDescriptor one;
    one.version = 0;
    one.*(f.field) = 0xFFFFFFFFu; // every bit: only the field's range lands
    uint64_t want = ((uint64_t(1) << f.width) - 1) << f.lo;
    EXPECT_EQ(one.pack(), want) << "field at bit " << f.lo;
  }
}

TEST(CpuEmuDescriptors, EmulatorDecodesTheSmemDescriptor) {
  for (uint32_t start = 0x400; start < 0x40000; start += 0x2A70)
    for (uint32_t lbo : {16u, 128u, 8192u, 0x3FFF0u})
      for (uint32_t sbo : {0u, 1024u, 0x20000u})
        for (Swizzle s : kSwizzles) {
          auto d = tp::cpu::dp::decodeSmemDesc(
              tp::layout::smem_desc(start, lbo, sbo, s));
          EXPECT_EQ(d.start, start & 0x3FFF0u);
          EXPECT_EQ(d.lbo, lbo);
          EXPECT_EQ(d.sbo, sbo);
          EXPECT_EQ(uint64_t(d.layout), tp::layout::desc_code(s));
        }
}

TEST(CpuEmuDescriptors, InstrDescriptorPacksAsTheShifts) {
  int checked = 0;
  for (int m : {64, 128, 256})
    for (int n = 8; n <= 256; n += 8)
      for (uint32_t a = 0; a < 8; ++a)
        for (uint32_t b = 0; b < 8; b += 3)
          for (int flags = 0; flags < 8; ++flags) {
            bool dF32 = flags & 1, aMN = flags & 2, bMN = flags & 4;
            ASSERT_EQ(tp::layout::instr_desc(m, n, a, b, dF32, aMN, bMN),
                      shiftInstrDesc(m, n, a, b, dF32, aMN, bMN))
                << "M " << m << " N " << n << " types " << a << "/" << b
                << " flags " << flags;
            ++checked;
          }
  EXPECT_EQ(checked, 3 * 32 * 8 * 3 * 8);
}

TEST(CpuEmuDescriptors, BlockScaledInstrDescriptorPacksAsTheShifts) {
  int checked = 0;
  for (int m : {128, 256})
    for (int n = 8; n <= 256; n += 8)
      for (uint32_t a = 0; a < 8; a += 2)
        for (uint32_t sfa = 0; sfa < 6; ++sfa) // 4, 5: the ids keep 2 bits
          for (uint32_t sfb = 0; sfb < 6; ++sfb)
            for (int majors = 0; majors < 4; ++majors) {
              bool aMN = majors & 1, bMN = majors & 2;
              ASSERT_EQ(tp::layout::instr_desc_block_scale(m, n, a, 7 - a,
                                                           aMN, bMN, sfa, sfb),
                        shiftBlockScaleDesc(m, n, a, 7 - a, aMN, bMN, sfa,
                                            sfb))
                  << "M " << m << " N " << n << " sf ids " << sfa << "/"
                  << sfb;
              ++checked;
            }
  EXPECT_EQ(checked, 2 * 32 * 4 * 6 * 6 * 4);
}

TEST(CpuEmuDescriptors, EmulatorDecodesTheInstrDescriptors) {
  using tp::MmaKind;
  namespace dp = tp::cpu::dp;
  for (int m : {64, 128})
    for (int n = 16; n <= 256; n += 16)
      for (int flags = 0; flags < 4; ++flags) {
        bool aMN = flags & 1, bMN = flags & 2;
        // bf16 x bf16 -> f32
        dp::InstrDescriptor d = dp::decodeInstrDesc(
            tp::layout::instr_desc(m, n, 1, 1, true, aMN, bMN), MmaKind::F16);
        EXPECT_EQ(d.m, uint32_t(m));
        EXPECT_EQ(d.n, uint32_t(n));
        EXPECT_TRUE(d.dF32);
        EXPECT_EQ(d.aMajor, aMN ? dp::Major::MN : dp::Major::K);
        EXPECT_EQ(d.bMajor, bMN ? dp::Major::MN : dp::Major::K);
      }
  // s8 x s8 -> s32 (MmaElem<int8_t>, kind::i8), B MN-major.
  dp::InstrDescriptor i8 = dp::decodeInstrDesc(
      tp::layout::instr_desc(128, 48, tp::MmaElem<int8_t>::kFormat,
                             tp::MmaElem<int8_t>::kFormat, tp::layout::kDS32,
                             false, true),
      MmaKind::I8);
  EXPECT_EQ(i8.a, dp::ElemType::S8);
  EXPECT_EQ(i8.b, dp::ElemType::S8);
  EXPECT_TRUE(i8.dS32);
  EXPECT_FALSE(i8.saturate);
  EXPECT_EQ(i8.n, 48u);
  EXPECT_EQ(i8.bMajor, dp::Major::MN);
  for (uint32_t sfa = 0; sfa < 4; ++sfa)
    for (uint32_t sfb = 0; sfb < 4; ++sfb) {
      dp::InstrDescriptor d = dp::decodeInstrDesc(
          tp::layout::instr_desc_block_scale(128, 256, 0, 1, false, false, sfa,
                                             sfb),
          MmaKind::MXF8F6F4);
      EXPECT_EQ(d.m, 128u);
      EXPECT_EQ(d.n, 256u);
      EXPECT_EQ(d.sfaId, sfa);
      EXPECT_EQ(d.sfbId, sfb);
    }
}

} // namespace
