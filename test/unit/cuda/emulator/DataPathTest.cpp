//===- DataPathTest.cpp - the emulator's data path against the facts ------===//
//
// Pins the CPU emulation of the sm_100a data path (number types, tensor
// maps, TMA, descriptors, TMEM, tcgen05.mma) to worked examples of
// docs/ptx-emulation-facts.md and to naive double-precision references.
// Descriptors are built here by hand from the PTX bit layouts, never with
// a project helper, so an error in both would have to be made twice.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/emulator/cuda_types.h"
#include "tilepipe/emulator/descriptors.h"
#include "tilepipe/emulator/driver.h"
#include "tilepipe/emulator/formats.h"
#include "tilepipe/emulator/mma_unit.h"
#include "tilepipe/emulator/tma_unit.h"
#include "tilepipe/emulator/tensor_memory.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

using namespace tp::cpu;
using namespace tp::cpu::dp;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Expects `stmt` to fault with a message containing `part`: a thrown Fault
/// where exceptions are on, else the message printed before the abort.
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define EXPECT_FAULT(stmt, part)                                               \
  do {                                                                         \
    try {                                                                      \
      stmt;                                                                    \
      ADD_FAILURE() << "no fault from " #stmt;                                 \
    } catch (const Fault &f) {                                                 \
      EXPECT_NE(std::string(f.what()).find(part), std::string::npos)           \
          << f.what();                                                         \
    }                                                                          \
  } while (0)
#else
/// POSIX extended regex matching `s` literally (for death tests).
std::string literalRegex(const std::string &s) {
  std::string r;
  for (char c : s) {
    if (std::strchr(".[]{}()\\*+?^$|", c))
      r += '\\';
    r += c;
  }
  return r;
}

#define EXPECT_FAULT(stmt, part) EXPECT_DEATH(stmt, literalRegex(part))
#endif

struct SharedMem {
  std::vector<uint8_t> bytes;
  Smem smem;
  explicit SharedMem(uint32_t size = 0x30000) : bytes(size, 0xCD) {
    smem = Smem{bytes.data(), 0, size};
  }
  template <class T> T get(uint32_t addr) const {
    T v;
    std::memcpy(&v, bytes.data() + addr, sizeof v);
    return v;
  }
  template <class T> void put(uint32_t addr, T v) {
    std::memcpy(bytes.data() + addr, &v, sizeof v);
  }
};

/// SMEM matrix descriptor from its PTX fields: start, LBO, SBO in bytes,
/// fixed 0b001 at bit 46, layout type at bits 61-63.
uint64_t smemDesc(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t layout) {
  return uint64_t((start & 0x3FFFF) >> 4) |
         uint64_t((lbo & 0x3FFFF) >> 4) << 16 |
         uint64_t((sbo & 0x3FFFF) >> 4) << 32 | uint64_t(1) << 46 |
         uint64_t(layout) << 61;
}

/// Instruction descriptor for kind f16/tf32/f8f6f4 from its PTX fields.
uint32_t instrDesc(uint32_t dType, uint32_t aType, uint32_t bType, bool aMN,
                   bool bMN, uint32_t m, uint32_t n) {
  return dType << 4 | aType << 7 | bType << 10 | uint32_t(aMN) << 15 |
         uint32_t(bMN) << 16 | (n >> 3) << 17 | (m >> 4) << 24;
}

std::unique_ptr<Tmem> newTmem() { return std::make_unique<Tmem>(); }

float f32At(const Tmem &t, uint32_t lane, uint32_t col) {
  return __uint_as_float(t.cell[lane][col]);
}

uint16_t bits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
uint16_t bits(__half h) { return __half_as_ushort(h); }

CUtensorMap encode2d(CUtensorMapDataType type, void *base, uint64_t dim0,
                     uint64_t dim1, uint64_t strideBytes, uint32_t box0,
                     uint32_t box1, CUtensorMapSwizzle swizzle,
                     uint32_t es1 = 1) {
  CUtensorMap map;
  cuuint64_t dims[2] = {dim0, dim1};
  cuuint64_t strides[1] = {strideBytes};
  cuuint32_t box[2] = {box0, box1};
  cuuint32_t es[2] = {1, es1};
  CUresult r = drv::cuTensorMapEncodeTiled(
      &map, type, 2, base, dims, strides, box, es,
      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  EXPECT_EQ(r, CUDA_SUCCESS) << drv::lastEncodeError();
  return map;
}

//===----------------------------------------------------------------------===//
// Number types
//===----------------------------------------------------------------------===//

TEST(NumberTypes, Bf16RoundsToNearestEven) {
  EXPECT_EQ(bits(__float2bfloat16_rn(1.0f)), 0x3F80);
  // Ties: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 -> even (1.0);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6 -> even (+2^-6).
  EXPECT_EQ(bits(__float2bfloat16_rn(1.00390625f)), 0x3F80);
  EXPECT_EQ(bits(__float2bfloat16_rn(1.01171875f)), 0x3F82);
  EXPECT_EQ(bits(__float2bfloat16_rn(-1.00390625f)), 0xBF80);
  // Just above a tie rounds up.
  EXPECT_EQ(bits(__float2bfloat16_rn(__uint_as_float(0x3F808001))), 0x3F81);
  EXPECT_EQ(bits(__float2bfloat16_rn(NAN)), 0x7FFF);
  EXPECT_EQ(bits(__float2bfloat16_rn(INFINITY)), 0x7F80);
  EXPECT_EQ(bits(__float2bfloat16_rn(3.4e38f)), 0x7F80); // overflow -> inf
  EXPECT_EQ(bits(__float2bfloat16_rn(std::ldexp(1.0f, -133))), 0x0001);
  EXPECT_EQ(__bfloat162float(__ushort_as_bfloat16(0x4049)), 3.140625f);
  __nv_bfloat162 p = __floats2bfloat162_rn(1.5f, -2.25f);
  EXPECT_EQ(bits(p.x), 0x3FC0);
  EXPECT_EQ(bits(p.y), 0xC010);
}

TEST(NumberTypes, HalfRoundsToNearestEven) {
  EXPECT_EQ(bits(__float2half_rn(65504.0f)), 0x7BFF);
  EXPECT_EQ(bits(__float2half_rn(65519.0f)), 0x7BFF);
  EXPECT_EQ(bits(__float2half_rn(65520.0f)), 0x7C00); // tie -> even = inf
  EXPECT_EQ(bits(__float2half_rn(std::ldexp(1.0f, -24))), 0x0001);
  EXPECT_EQ(bits(__float2half_rn(std::ldexp(1.0f, -25))), 0x0000);
  EXPECT_EQ(bits(__float2half_rn(std::ldexp(3.0f, -26))), 0x0001);
  EXPECT_EQ(bits(__float2half_rn(NAN)), 0x7FFF);
  EXPECT_EQ(__half2float(__ushort_as_half(0x3555)), 0.333251953125f);
}

TEST(NumberTypes, ArithmeticRoundsOnce) {
  // bf16: 1 + 2^-8 (inexact) must round to 1; 1 + 2^-8 + 2^-16 up.
  __nv_bfloat16 one = __float2bfloat16_rn(1.0f);
  __nv_bfloat16 e8 = __float2bfloat16_rn(std::ldexp(1.0f, -8));
  EXPECT_EQ(bits(one + e8), 0x3F80);
  // fma rounds once: a = 1 + 2^-4, a*a = 1 + 2^-3 + 2^-8 exactly, a tie
  // between 0x3F90 and 0x3F91; c = 2^-30 lifts the exact sum above the tie
  // (-> 0x3F91), while an f32 fma would round it back onto the tie first
  // and then to even (0x3F90).
  __nv_bfloat16 a = __ushort_as_bfloat16(0x3F88);
  __nv_bfloat16 c = __float2bfloat16_rn(std::ldexp(1.0f, -30));
  EXPECT_EQ(bits(c), 0x3080);
  EXPECT_EQ(bits(__hfma(a, a, c)), 0x3F91);
  EXPECT_EQ(bits(__float2bfloat16_rn(
                __fmaf_rn(1.0625f, 1.0625f, std::ldexp(1.0f, -30)))),
            0x3F90);
  EXPECT_EQ(bits(a * a), 0x3F90);
  EXPECT_EQ(bits(a * a + c), 0x3F90); // two roundings
  // __hmax: NaN loses, +0 > -0.
  __nv_bfloat16 nan = __ushort_as_bfloat16(0x7FC1);
  EXPECT_EQ(bits(__hmax(nan, one)), 0x3F80);
  EXPECT_EQ(bits(__hmax(nan, nan)), 0x7FFF);
  EXPECT_EQ(
      bits(__hmax(__ushort_as_bfloat16(0x8000), __ushort_as_bfloat16(0x0000))),
      0x0000);
  __half h = __float2half_rn(3.0f);
  EXPECT_EQ(__half2float(__hfma(h, h, __float2half_rn(-1.0f))), 8.0f);
  EXPECT_EQ(__float2int_rn(2.5f), 2);
  EXPECT_EQ(__float2int_rn(-3.5f), -4);
  EXPECT_EQ(__float2int_rn(NAN), 0);
  EXPECT_EQ(__float2int_rn(1e10f), 2147483647);
  // cvt.rzi.s32.f32 (arith.fptosi): toward zero, saturating, NaN -> 0.
  EXPECT_EQ(__float2int_rz(2.9f), 2);
  EXPECT_EQ(__float2int_rz(-2.9f), -2);
  EXPECT_EQ(__float2int_rz(-0.5f), 0);
  EXPECT_EQ(__float2int_rz(NAN), 0);
  EXPECT_EQ(__float2int_rz(-1e10f), int(-2147483647 - 1));
  EXPECT_EQ(__fmaf_rn(2.0f, 3.0f, 1.0f), 7.0f);
}

TEST(NumberTypes, Fp8SaturatesAndRoundsToNearestEven) {
  auto e4 = [](float f) { return __nv_fp8_e4m3(f).__x; };
  auto e5 = [](float f) { return __nv_fp8_e5m2(f).__x; };
  EXPECT_EQ(e4(448.0f), 0x7E);
  EXPECT_EQ(e4(464.0f), 0x7E); // tie between 448 and 480 -> even 448
  EXPECT_EQ(e4(465.0f), 0x7E); // beyond: satfinite
  EXPECT_EQ(e4(1e9f), 0x7E);
  EXPECT_EQ(e4(-1e9f), 0xFE);
  EXPECT_EQ(e4(INFINITY), 0x7E);
  EXPECT_EQ(e4(NAN), 0x7F);
  EXPECT_EQ(e4(0.3f), 0x2A); // 0.3125
  EXPECT_EQ(float(__nv_fp8_e4m3(0.3f)), 0.3125f);
  EXPECT_EQ(e4(std::ldexp(1.0f, -9)), 0x01);  // smallest subnormal
  EXPECT_EQ(e4(std::ldexp(1.0f, -10)), 0x00); // tie -> even 0
  EXPECT_EQ(e4(std::ldexp(3.0f, -11)), 0x01);
  EXPECT_EQ(e5(57344.0f), 0x7B);
  EXPECT_EQ(e5(1e9f), 0x7B);
  EXPECT_EQ(e5(-INFINITY), 0xFB);
  EXPECT_EQ(e5(NAN), 0x7F);
  EXPECT_EQ(e5(1.125f), 0x3C); // tie 1.0 / 1.25 -> even 1.0
  EXPECT_EQ(e5(1.375f), 0x3E); // tie 1.25 / 1.5 -> even 1.5
}

TEST(Formats, DecodeEveryEncoding) {
  // Each finite e4m3/e5m2/f16/bf16 pattern decodes to a value that encodes
  // back to the same pattern.
  for (uint32_t b = 0; b < 256; ++b) {
    double v = fmt::e4m3(b);
    if ((b & 0x7F) == 0x7F) {
      EXPECT_TRUE(std::isnan(v)) << b;
      continue;
    }
    EXPECT_EQ(fmt::encode(v, fmt::kE4M3, fmt::Overflow::SatFinite, 0x7F), b);
    double w = fmt::e5m2(b);
    if ((b & 0x7C) == 0x7C)
      continue;
    EXPECT_EQ(fmt::encode(w, fmt::kE5M2, fmt::Overflow::SatFinite, 0x7F), b);
  }
  EXPECT_EQ(fmt::e4m3(0x7E), 448.0);
  EXPECT_EQ(fmt::e4m3(0x01), std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isinf(fmt::e5m2(0x7C)));
  EXPECT_EQ(fmt::e2m1(0x7), 6.0);
  EXPECT_EQ(fmt::e2m1(0x1), 0.5);
  EXPECT_EQ(fmt::e2m3(0x1F), 7.5);
  EXPECT_EQ(fmt::e3m2(0x1F), 28.0);
  EXPECT_EQ(fmt::e3m2(0x01), 0.0625);
  EXPECT_EQ(fmt::ue8m0(127), 1.0);
  EXPECT_EQ(fmt::ue8m0(0), std::ldexp(1.0, -127));
  EXPECT_TRUE(std::isnan(fmt::ue8m0(0xFF)));
  EXPECT_EQ(fmt::ue4m3(0x7E), 448.0);
  EXPECT_TRUE(std::isnan(fmt::ue4m3(0x7F)));
  // tf32: the low 13 mantissa bits are ignored.
  EXPECT_EQ(fmt::tf32(0x3F801FFF), 1.0);
  EXPECT_EQ(fmt::tf32(0x3F802000), 1.0 + std::ldexp(1.0, -10));
}

//===----------------------------------------------------------------------===//
// cuTensorMapEncodeTiled
//===----------------------------------------------------------------------===//

struct EncodeArgs {
  CUtensorMap map;
  std::vector<uint8_t> storage = std::vector<uint8_t>(1 << 16);
  CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  uint32_t rank = 2;
  void *addr = nullptr;
  cuuint64_t dims[5] = {64, 128, 1, 1, 1};
  cuuint64_t strides[4] = {128, 0, 0, 0};
  cuuint32_t box[5] = {64, 32, 1, 1, 1};
  cuuint32_t es[5] = {1, 1, 1, 1, 1};
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  CUtensorMapFloatOOBfill oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  EncodeArgs() {
    uintptr_t p = reinterpret_cast<uintptr_t>(storage.data());
    addr = reinterpret_cast<void *>((p + 255) & ~uintptr_t(255));
  }
  CUresult run() {
    return drv::cuTensorMapEncodeTiled(&map, type, rank, addr, dims, strides,
                                       box, es, interleave, swizzle,
                                       CU_TENSOR_MAP_L2_PROMOTION_NONE, oob);
  }
};

TEST(Driver, EncodeDecodeRoundTrip) {
  EncodeArgs a;
  a.es[1] = 2;
  ASSERT_EQ(a.run(), CUDA_SUCCESS) << drv::lastEncodeError();
  EXPECT_STREQ(drv::lastEncodeError(), "");
  drv::TensorMapView v = drv::decode(a.map);
  EXPECT_EQ(v.dataType, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(v.rank, 2u);
  EXPECT_EQ(v.globalAddress, reinterpret_cast<uint64_t>(a.addr));
  EXPECT_EQ(v.globalDim[0], 64u);
  EXPECT_EQ(v.globalDim[1], 128u);
  EXPECT_EQ(v.globalStride[0], 2u);
  EXPECT_EQ(v.globalStride[1], 128u);
  EXPECT_EQ(v.boxDim[0], 64u);
  EXPECT_EQ(v.boxDim[1], 32u);
  EXPECT_EQ(v.boxDim[2], 1u);
  EXPECT_EQ(v.elementStrides[1], 2u);
  EXPECT_EQ(v.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(v.elementBits, 16u);
}

TEST(Driver, ZeroedOrAlteredMapIsRejected) {
  CUtensorMap zero{};
  drv::TensorMapView v;
  EXPECT_FALSE(drv::tryDecode(zero, &v));
  EXPECT_FAULT(drv::decode(zero), "not built by cuTensorMapEncodeTiled");
  EncodeArgs a;
  ASSERT_EQ(a.run(), CUDA_SUCCESS);
  a.map.opaque[3] += 1; // globalDim[0]
  EXPECT_FALSE(drv::tryDecode(a.map, &v));
}

TEST(Driver, DocumentedRulesAreChecked) {
  auto rejects = [](auto mutate, const char *part) {
    EncodeArgs a;
    mutate(a);
    EXPECT_EQ(a.run(), CUDA_ERROR_INVALID_VALUE) << part;
    EXPECT_NE(std::string(drv::lastEncodeError()).find(part), std::string::npos)
        << drv::lastEncodeError();
  };
  rejects([](EncodeArgs &a) { a.addr = (uint8_t *)a.addr + 8; },
          "16-byte aligned");
  rejects([](EncodeArgs &a) { a.rank = 0; }, "tensorRank");
  rejects([](EncodeArgs &a) { a.rank = 6; }, "tensorRank");
  rejects([](EncodeArgs &a) { a.strides[0] = 120; }, "multiple of 16");
  rejects([](EncodeArgs &a) { a.strides[0] = uint64_t(1) << 40; }, "2^40");
  rejects([](EncodeArgs &a) { a.dims[1] = 0; }, "globalDim[1]");
  rejects([](EncodeArgs &a) { a.box[1] = 257; }, "boxDim[1]");
  rejects([](EncodeArgs &a) { a.box[1] = 0; }, "boxDim[1]");
  rejects(
      [](EncodeArgs &a) {
        a.swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
        a.box[0] = 12; // 24 bytes
      },
      "multiple of 16 bytes");
  rejects([](EncodeArgs &a) { a.box[0] = 128; }, "swizzle span"); // 256 B
  rejects(
      [](EncodeArgs &a) {
        a.swizzle = CU_TENSOR_MAP_SWIZZLE_64B;
        a.box[0] = 64;
      },
      "swizzle span");
  rejects([](EncodeArgs &a) { a.es[1] = 9; }, "elementStrides[1]");
  rejects([](EncodeArgs &a) { a.es[0] = 0; }, "elementStrides[0]");
  rejects([](EncodeArgs &a) { a.interleave = CU_TENSOR_MAP_INTERLEAVE_16B; },
          "tensorRank >= 3");
  rejects(
      [](EncodeArgs &a) {
        a.type = CU_TENSOR_MAP_DATA_TYPE_INT32;
        a.box[0] = 32;
        a.oob = CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
      },
      "floating-point");
  rejects([](EncodeArgs &a) { a.type = CUtensorMapDataType(16); },
          "tensorDataType");
  rejects([](EncodeArgs &a) { a.swizzle = CUtensorMapSwizzle(7); },
          "swizzle 7");
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

struct Bf16Matrix {
  // Element (row, col) holds the raw value row * 256 + col: positions are
  // recognizable after any permutation.
  std::vector<uint16_t> v;
  uint32_t cols;
  Bf16Matrix(uint32_t rows, uint32_t cols)
      : v(size_t(rows) * cols), cols(cols) {
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < cols; ++c)
        v[size_t(r) * cols + c] = uint16_t(r * 256 + c);
  }
};

TEST(Tma, Swizzle128BPlacesChunkCOfLineYAtYxorC) {
  Bf16Matrix g(8, 64); // one 128-byte line per row
  CUtensorMap map = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, g.v.data(), 64,
                             8, 128, 64, 8, CU_TENSOR_MAP_SWIZZLE_128B);
  SharedMem s;
  int32_t at[2] = {0, 0};
  EXPECT_EQ(tma_load_tile(map, 2, at, s.smem, 0x400), 8u * 128u);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t c = 0; c < 8; ++c)
      for (uint32_t e = 0; e < 8; ++e)
        ASSERT_EQ(s.get<uint16_t>(0x400 + y * 128 + ((y % 8) ^ c) * 16 + e * 2),
                  y * 256 + c * 8 + e)
            << "line " << y << " chunk " << c;
  // A destination inside the 1024-byte pattern continues it (absolute
  // address bits): line y sits in pattern row (y + 1) % 8.
  SharedMem t;
  tma_load_tile(map, 2, at, t.smem, 0x480);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t c = 0; c < 8; ++c)
      ASSERT_EQ(t.get<uint16_t>(0x480 + y * 128 + (((y + 1) % 8) ^ c) * 16),
                y * 256 + c * 8);
}

TEST(Tma, Swizzle32And64B) {
  Bf16Matrix g(8, 32);
  CUtensorMap m64 = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, g.v.data(), 32,
                             8, 64, 32, 8, CU_TENSOR_MAP_SWIZZLE_64B);
  SharedMem s;
  int32_t at[2] = {0, 0};
  tma_load_tile(m64, 2, at, s.smem, 0);
  // Row y (64 B) is half of line y/2; its chunk c sits at (line % 4) ^ c
  // within that line.
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t c = 0; c < 4; ++c) {
      uint32_t lin = y * 64 + c * 16, line = lin / 128;
      uint32_t phys = (lin & ~0x70u) | ((((lin >> 4) & 7) ^ (line % 4)) << 4);
      ASSERT_EQ(s.get<uint16_t>(phys), y * 256 + c * 8) << y << " " << c;
    }
  Bf16Matrix h(8, 16);
  CUtensorMap m32 = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, h.v.data(), 16,
                             8, 32, 16, 8, CU_TENSOR_MAP_SWIZZLE_32B);
  SharedMem t;
  tma_load_tile(m32, 2, at, t.smem, 0);
  // Rows 0-3 fill line 0 unswizzled; rows 4-7 (line 1) swap their chunks.
  EXPECT_EQ(t.get<uint16_t>(0 * 32 + 16), 0 * 256 + 8);
  EXPECT_EQ(t.get<uint16_t>(4 * 32 + 0), 4 * 256 + 8);
  EXPECT_EQ(t.get<uint16_t>(4 * 32 + 16), 4 * 256 + 0);
}

TEST(Tma, OutOfBoundsZeroFillAndFullByteCount) {
  // 5 x 6 f32 tensor; a 8 x 4 box at (-4, 3) covers columns -4..3 and rows
  // 3..6: rows 6 and columns -4..-1 are outside. (A negative inner
  // coordinate of whole 16-byte units: -16 bytes. The H200 ran such loads
  // and zero-filled them as here; -2 floats would fault, see below.)
  std::vector<float> g(6 * 8, 0); // row stride 32 bytes
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 5; ++c)
      g[r * 8 + c] = float(r * 10 + c + 1);
  CUtensorMap map = encode2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, g.data(), 5, 6,
                             32, 8, 4, CU_TENSOR_MAP_SWIZZLE_NONE);
  SharedMem s;
  int32_t at[2] = {-4, 3};
  EXPECT_EQ(tma_load_tile(map, 2, at, s.smem, 0x80), 8u * 4u * 4u);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 8; ++x) {
      int r = 3 + y, c = -4 + x;
      float want = (r < 6 && c >= 0 && c < 5) ? float(r * 10 + c + 1) : 0.0f;
      EXPECT_EQ(s.get<float>(0x80 + (y * 8 + x) * 4), want) << y << "," << x;
    }
  // Store: only in-bounds elements are written (a 4-float, 16-byte wide
  // tensor in rows of 8: the box's columns 4-7 land in the row padding,
  // its row 3 below the tensor).
  std::vector<float> out(6 * 8, -1.0f);
  CUtensorMap om = encode2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, out.data(), 4, 6,
                            32, 8, 4, CU_TENSOR_MAP_SWIZZLE_NONE);
  for (int i = 0; i < 32; ++i)
    s.put<float>(0x200 + i * 4, float(100 + i));
  int32_t inside[2] = {0, 3};
  tma_store_tile(om, 2, inside, s.smem, 0x200);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 8; ++c) {
      bool stored = r >= 3 && c < 4;
      float want = stored ? float(100 + (r - 3) * 8 + c) : -1.0f;
      EXPECT_EQ(out[r * 8 + c], want) << r << "," << c;
    }
  // A negative coordinate stops an H200's kernel (emulator/tma_unit.h,
  // checkStoreBox), where a load zero-fills.
  EXPECT_FAULT(tma_store_tile(om, 2, at, s.smem, 0x200),
               "box coordinate 0 is -4, negative");
}

TEST(Tma, InnerCoordinateMustBeAWholeNumberOf16ByteUnits) {
  // Measured on an H200 (sm_90, docs/cpu-emulation.md "Fidelity on
  // hardware"): a tiled load whose innermost coordinate times the element
  // size is not a multiple of 16 bytes stops the kernel with an illegal
  // instruction; one that is runs, also at a negative coordinate. A bf16
  // tensor of 64 x 4, box 16 x 4 (32 bytes inner), no swizzle.
  Bf16Matrix g(4, 64);
  CUtensorMap map = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, g.v.data(), 64,
                             4, 128, 16, 4, CU_TENSOR_MAP_SWIZZLE_NONE);
  auto load = [&](int32_t c0, SharedMem &s) {
    int32_t at[2] = {c0, 0};
    return tma_load_tile(map, 2, at, s.smem, 0x400);
  };
  // c0 = 8: 16 bytes, runs.
  SharedMem a;
  EXPECT_EQ(load(8, a), 16u * 4u * 2u);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 16; ++x)
      ASSERT_EQ(a.get<uint16_t>(0x400 + (y * 16 + x) * 2), y * 256 + 8 + x);
  // c0 = 1: 2 bytes, faults, naming the rule, the coordinate, the element
  // size and where the rule comes from.
  SharedMem b;
  EXPECT_FAULT(load(1, b), "innermost box coordinate 1 x 2-byte elements = 2 "
                           "bytes is not a multiple of 16 bytes");
  EXPECT_FAULT(load(1, b), "measured on sm_90 hardware (H200)");
  EXPECT_FAULT(load(1, b), "assumed for sm_100");
  // c0 = -8: -16 bytes, runs; columns -8..-1 read as zero (the H200's
  // neg-col-aligned loads, 2026-11-27, zero-filled them the same way).
  SharedMem c;
  EXPECT_EQ(load(-8, c), 16u * 4u * 2u);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 16; ++x)
      ASSERT_EQ(c.get<uint16_t>(0x400 + (y * 16 + x) * 2),
                x < 8 ? 0u : y * 256 + (x - 8))
          << y << "," << x;
  // c0 = -5: -10 bytes, faults (as the H200 did at -5 bf16).
  SharedMem d;
  EXPECT_FAULT(load(-5, d), "innermost box coordinate -5 x 2-byte elements = "
                            "-10 bytes is not a multiple of 16 bytes");
  // Over the right edge the rule is the same: 56 runs, 57 faults.
  SharedMem e;
  EXPECT_EQ(load(56, e), 16u * 4u * 2u);
  EXPECT_FAULT(load(57, e), "innermost box coordinate 57 x 2-byte");
  // Other element sizes: 4 floats (16 bytes) run, 2 (8 bytes) fault.
  std::vector<float> f(4 * 32, 1.0f);
  CUtensorMap fm = encode2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, f.data(), 32, 4,
                            128, 8, 4, CU_TENSOR_MAP_SWIZZLE_NONE);
  SharedMem h;
  int32_t four[2] = {4, 0}, two[2] = {2, 0};
  EXPECT_EQ(tma_load_tile(fm, 2, four, h.smem, 0), 8u * 4u * 4u);
  EXPECT_FAULT(tma_load_tile(fm, 2, two, h.smem, 0),
               "innermost box coordinate 2 x 4-byte elements = 8 bytes");
  // Stores too (measured on the H200 on 2026-12-04: the unaligned-col
  // store probes stopped the kernel); nothing is written.
  std::vector<uint16_t> out(4 * 64, 0xFFFF);
  CUtensorMap om = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, out.data(), 64, 4,
                            128, 16, 4, CU_TENSOR_MAP_SWIZZLE_NONE);
  int32_t one[2] = {1, 0};
  EXPECT_FAULT(tma_store_tile(om, 2, one, a.smem, 0x400),
               "innermost box coordinate 1 x 2-byte elements = 2 bytes");
  EXPECT_EQ(out[1], 0xFFFFu);
}

TEST(Tma, ElementStridesAndRank3) {
  // 3-D f32 tensor 4 x 4 x 2, box 4 x 4 x 2 with traversal stride 2 in
  // dimension 1: rows 0 and 2 of each plane.
  std::vector<float> g(32);
  for (int i = 0; i < 32; ++i)
    g[i] = float(i);
  CUtensorMap map;
  cuuint64_t dims[3] = {4, 4, 2}, strides[2] = {16, 64};
  cuuint32_t box[3] = {4, 4, 2}, es[3] = {1, 2, 1};
  ASSERT_EQ(drv::cuTensorMapEncodeTiled(
                &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, g.data(), dims,
                strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_SUCCESS);
  SharedMem s;
  int32_t at[3] = {0, 0, 0};
  EXPECT_EQ(tma_load_tile(map, 3, at, s.smem, 0), 4u * 2u * 2u * 4u);
  float want[16] = {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27};
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(s.get<float>(i * 4), want[i]) << i;
}

TEST(Tma, Faults) {
  Bf16Matrix g(8, 64);
  CUtensorMap map = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, g.v.data(), 64,
                             8, 128, 64, 8, CU_TENSOR_MAP_SWIZZLE_128B);
  SharedMem s(0x1000);
  int32_t at[3] = {0, 0, 0};
  EXPECT_FAULT(tma_load_tile(map, 2, at, s.smem, 0x440), "128-byte aligned");
  EXPECT_FAULT(tma_load_tile(map, 3, at, s.smem, 0x400), "rank 2");
  EXPECT_FAULT(tma_load_tile(map, 2, at, s.smem, 0xC80), "outside shared");
  CUtensorMap zero{};
  EXPECT_FAULT(tma_load_tile(zero, 2, at, s.smem, 0), "not built by");
  // 64-byte inner box under a 128-byte swizzle: legal for the driver, but
  // its row placement is undocumented.
  CUtensorMap narrow = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, g.v.data(),
                                64, 8, 128, 32, 8, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_FAULT(tma_load_tile(narrow, 2, at, s.smem, 0), "narrower");
}

//===----------------------------------------------------------------------===//
// Descriptors
//===----------------------------------------------------------------------===//

TEST(Descriptors, SmemDescriptorWorkedExample) {
  // Facts 1: K-major, 128B swizzle, bf16 128 x 64 tile at 0x8000.
  uint64_t d = 0x4000404000010800ull;
  EXPECT_EQ(smemDesc(0x8000, 16, 1024, 2), d);
  SmemDescriptor s = decodeSmemDesc(d);
  EXPECT_EQ(s.start, 0x8000u);
  EXPECT_EQ(s.lbo, 16u);
  EXPECT_EQ(s.sbo, 1024u);
  EXPECT_EQ(s.layout, SmemLayout::Swizzle128B);
  EXPECT_EQ(operandAddress(s, Major::K, 2, 3, 20), 0x8198u);
  // Unswizzled K-major: core matrices of 8 rows x 16 B.
  SmemDescriptor n = decodeSmemDesc(smemDesc(0x1000, 128, 512, 0));
  EXPECT_EQ(operandAddress(n, Major::K, 2, 9, 11),
            0x1000u + 16 + 512 + 6 + 128);
  // Unswizzled MN-major: 8 MN elements (16 B) x 8 K rows per core matrix.
  EXPECT_EQ(operandAddress(n, Major::MN, 2, 17, 11),
            0x1000u + 1 * 2 + 3 * 16 + 2 * 512 + 1 * 128);
  // MN-major 64B swizzle: LBO steps MN atoms, SBO steps 8-row K groups.
  SmemDescriptor m = decodeSmemDesc(smemDesc(0x2000, 2048, 512, 4));
  uint32_t lin = 0x2000 + (40 % 32) * 2 + (11 % 8) * 64 + 1 * 2048 + 1 * 512;
  EXPECT_EQ(operandAddress(m, Major::MN, 2, 40, 11),
            lin ^ (((lin >> 7) & 3) << 4));
}

TEST(Descriptors, SmemDescriptorFaults) {
  uint64_t good = 0x4000404000010800ull;
  EXPECT_FAULT(decodeSmemDesc(good & ~(uint64_t(1) << 46)), "0b001");
  EXPECT_FAULT(decodeSmemDesc(good | uint64_t(1) << 47), "0b001");
  EXPECT_FAULT(decodeSmemDesc(good | uint64_t(3) << 49), "base offset");
  EXPECT_FAULT(decodeSmemDesc(good | uint64_t(1) << 52), "LBO mode");
  for (uint64_t l : {3, 5, 7})
    EXPECT_FAULT(decodeSmemDesc((good & ~(uint64_t(7) << 61)) | l << 61),
                 "layout type");
  EXPECT_FAULT(
      checkMajorness(ElemType::TF32, Major::MN, SmemLayout::Swizzle128B, "A"),
      "tf32");
  EXPECT_FAULT(checkMajorness(ElemType::BF16, Major::MN,
                              SmemLayout::Swizzle128BAtom32B, "B"),
               "32B-atom");
  EXPECT_FAULT(checkMajorness(ElemType::E2M1, Major::MN, SmemLayout::None, "A"),
               "K-major only");
  checkMajorness(ElemType::BF16, Major::MN, SmemLayout::None, "A");
  checkMajorness(ElemType::TF32, Major::MN, SmemLayout::Swizzle128BAtom32B,
                 "A");
}

TEST(Descriptors, InstructionDescriptorWorkedExamples) {
  EXPECT_EQ(instrDesc(1, 1, 1, false, false, 128, 256), 0x08400490u);
  InstrDescriptor a = decodeInstrDesc(0x08400490, MmaKind::F16);
  EXPECT_EQ(a.m, 128u);
  EXPECT_EQ(a.n, 256u);
  EXPECT_TRUE(a.dF32);
  EXPECT_EQ(a.a, ElemType::BF16);
  EXPECT_EQ(a.b, ElemType::BF16);
  EXPECT_EQ(a.aMajor, Major::K);
  EXPECT_EQ(a.bMajor, Major::K);

  InstrDescriptor t = decodeInstrDesc(0x08200910, MmaKind::TF32);
  EXPECT_EQ(t.m, 128u);
  EXPECT_EQ(t.n, 128u);
  EXPECT_EQ(t.a, ElemType::TF32);
  EXPECT_TRUE(t.dF32);

  InstrDescriptor x = decodeInstrDesc(0x28A00020, MmaKind::MXF8F6F4);
  EXPECT_EQ(x.m, 128u);
  EXPECT_EQ(x.n, 128u);
  EXPECT_EQ(x.a, ElemType::E4M3);
  EXPECT_EQ(x.b, ElemType::E4M3);
  EXPECT_EQ(x.sfaId, 1u);
  EXPECT_EQ(x.sfbId, 2u);

  InstrDescriptor f = decodeInstrDesc(
      instrDesc(0, 3, 5, false, false, 64, 8) | 1u << 13, MmaKind::F8F6F4);
  EXPECT_EQ(f.m, 64u);
  EXPECT_EQ(f.n, 8u);
  EXPECT_FALSE(f.dF32);
  EXPECT_EQ(f.a, ElemType::E2M3);
  EXPECT_EQ(f.b, ElemType::E2M1);
  EXPECT_TRUE(f.negA);
  EXPECT_FALSE(f.negB);
}

TEST(Descriptors, InstructionDescriptorFaults) {
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(1, 1, 1, 0, 0, 256, 128), MmaKind::F16),
      "M = 256");
  EXPECT_FAULT(decodeInstrDesc(instrDesc(1, 1, 1, 0, 0, 32, 128), MmaKind::F16),
               "M = 32");
  EXPECT_FAULT(decodeInstrDesc(instrDesc(1, 1, 1, 0, 0, 128, 0), MmaKind::F16),
               "N = 0");
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(1, 1, 1, 0, 0, 128, 264), MmaKind::F16),
      "N = 264");
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(0, 2, 2, 0, 0, 128, 128), MmaKind::TF32),
      "tf32: F32 only");
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(0, 1, 1, 0, 0, 128, 128), MmaKind::F16),
      "F32 accumulator");
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(1, 0, 1, 0, 0, 128, 128), MmaKind::F16),
      "differ");
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(1, 2, 2, 0, 0, 128, 128) | 4u, MmaKind::TF32),
      "sparse");
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(1, 2, 1, 0, 0, 128, 128), MmaKind::F8F6F4),
      "not an f8f6f4 type");
  // kind::i8: D is S32 (2) only, types U8 0 / S8 1, no negation, its own N;
  // the saturate bit is for it alone.
  EXPECT_FAULT(decodeInstrDesc(instrDesc(1, 1, 1, 0, 0, 128, 128), MmaKind::I8),
               "i8: S32 = 2 only");
  EXPECT_FAULT(decodeInstrDesc(instrDesc(2, 1, 2, 0, 0, 128, 128), MmaKind::I8),
               "U8 = 0 or S8 = 1");
  EXPECT_FAULT(decodeInstrDesc(instrDesc(2, 1, 1, 0, 0, 128, 128) | 1u << 13,
                               MmaKind::I8),
               "negate");
  EXPECT_FAULT(decodeInstrDesc(instrDesc(2, 1, 1, 0, 0, 128, 40), MmaKind::I8),
               "kind::i8 takes N");
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(2, 1, 1, 0, 0, 128, 128), MmaKind::F16),
      "is invalid");
  EXPECT_FAULT(
      decodeInstrDesc(instrDesc(1, 1, 1, 0, 0, 128, 128) | 8u, MmaKind::F16),
      "saturate");
  InstrDescriptor i8 =
      decodeInstrDesc(instrDesc(2, 0, 1, 0, 1, 64, 24) | 8u, MmaKind::I8);
  EXPECT_EQ(i8.a, ElemType::U8);
  EXPECT_EQ(i8.b, ElemType::S8);
  EXPECT_TRUE(i8.dS32);
  EXPECT_TRUE(i8.saturate);
  EXPECT_EQ(i8.bMajor, Major::MN);
  // mxf8f6f4: M = 64 (bits 27-28 = 0) and a UE4M3 scale type are invalid.
  EXPECT_FAULT(decodeInstrDesc(0x20A00020, MmaKind::MXF8F6F4), "M = 0");
  EXPECT_FAULT(decodeInstrDesc(0x28200020, MmaKind::MXF8F6F4), "UE8M0");
}

//===----------------------------------------------------------------------===//
// TMEM
//===----------------------------------------------------------------------===//

TEST(Tmem, LdStLaneQuadrantsAndColumns) {
  auto t = newTmem();
  uint32_t base = t->allocate(64);
  EXPECT_EQ(base, 0u);
  EXPECT_EQ(t->allocate(32), 64u);
  uint32_t regs[4] = {1, 2, 3, 4}, out[4] = {};
  // Warp 6 is in quadrant 2: lanes 64..95.
  st_32x32b(*t, 6, 5, base + (64u << 16) + 8, 4, regs);
  EXPECT_EQ(t->cell[69][10], 3u);
  ld_32x32b(*t, 2, 5, base + (64u << 16) + 8, 4, out);
  EXPECT_EQ(out[3], 4u);
  // Unwritten cells of an allocation read as the poison NaN.
  ld_32x32b(*t, 2, 6, base + (64u << 16) + 8, 4, out);
  EXPECT_EQ(out[0], kPoison);
  EXPECT_FAULT(ld_32x32b(*t, 2, 0, base, 4, out), "quadrant");
  EXPECT_FAULT(ld_32x32b(*t, 1, 0, base + (64u << 16), 4, out), "quadrant");
  EXPECT_FAULT(st_32x32b(*t, 0, 0, base + (16u << 16), 4, regs), "quadrant");
  EXPECT_FAULT(ld_32x32b(*t, 0, 0, base + 94, 4, out), "not allocated");
  EXPECT_FAULT(ld_32x32b(*t, 0, 0, base + 510, 4, out), "exceed");
  EXPECT_FAULT(ld_32x32b(*t, 0, 0, base, 3, out), "power of 2");
  EXPECT_FAULT(t->allocate(48), "power of 2");
  t->deallocate(64, 32);
  EXPECT_FAULT(t->deallocate(64, 32), "not allocated");
}

/// .32x32b.xN.pack::16b reads 2N columns into N registers, the low halves
/// of columns 2j and 2j + 1 in register j (how a 16-bit accumulator, one
/// element per column, comes back packed); .unpack::16b writes them back.
TEST(Tmem, Pack16AndUnpack16) {
  auto t = newTmem();
  uint32_t base = t->allocate(32);
  for (uint32_t c = 0; c < 4; ++c)
    t->write(37, base + c, 0xABCD0000u | (0x1110u + c));
  uint32_t out[2] = {};
  // Warp 1 reaches lanes 32..63: thread 5 is lane 37.
  ld(*t, 1, 5, base + (32u << 16), {TmemForm::S32x32bPack16, 2, 0}, out);
  EXPECT_EQ(out[0], 0x11111110u);
  EXPECT_EQ(out[1], 0x11131112u);
  const uint32_t in[1] = {0x22220001u};
  st(*t, 1, 6, base + (32u << 16) + 8, {TmemForm::S32x32bPack16, 1, 0}, in);
  EXPECT_EQ(t->cell[38][base + 8], 0x0001u);
  EXPECT_EQ(t->cell[38][base + 9], 0x2222u);
  // x16 reaches 32 columns: the 33rd is not allocated.
  uint32_t wide[16];
  EXPECT_FAULT(ld(*t, 0, 0, base + 2, {TmemForm::S32x32bPack16, 16, 0}, wide),
               "not allocated");
}

/// .16x32bx2: threads 0-15 reach lanes lane(taddr) + t at col(taddr) + j,
/// threads 16-31 the same lanes at col(taddr) + off + j. An M = 64
/// accumulator (row m at lane (m % 16) + 32 (m / 16)) read at offset 0 gives
/// threads t and t + 16 of warp w row 16 w + t % 16.
TEST(Tmem, Ld16x32bx2ReadsAnM64Accumulator) {
  auto t = newTmem();
  uint32_t base = t->allocate(64);
  for (uint32_t m = 0; m < 64; ++m)
    for (uint32_t n = 0; n < 4; ++n)
      t->write((m % 16) + 32 * (m / 16), base + n, 1000 * m + n);
  uint32_t out[4] = {};
  TmemAccess x{TmemForm::S16x32bx2, 4, 0};
  ld(*t, 2, 7, base + (64u << 16), x, out);
  EXPECT_EQ(out[0], 1000u * 39);
  ld(*t, 2, 23, base + (64u << 16), x, out);
  EXPECT_EQ(out[3], 1000u * 39 + 3);
  // With a half offset of 2 the upper half-warp reads two columns on.
  ld(*t, 3, 20, base + (96u << 16), {TmemForm::S16x32bx2, 2, 2}, out);
  EXPECT_EQ(out[0], 1000u * 52 + 2);
  // Lane 16 of the quadrant is a valid start; lane 8 is not.
  ld(*t, 0, 0, base + (16u << 16), x, out);
  EXPECT_EQ(out[0], kPoison);
  EXPECT_FAULT(ld(*t, 0, 0, base + (8u << 16), x, out), "lane 0 or 16");
  EXPECT_FAULT(ld(*t, 0, 0, base + 62, {TmemForm::S16x32bx2, 2, 2}, out),
               "not allocated");
}

TEST(Tmem, CopyShapes) {
  auto t = newTmem();
  uint32_t col = t->allocate(32);
  SharedMem s;
  // 128 rows x 32 B, K-major unswizzled: row r's bytes 0-15 at
  // (r%8)*16 + (r/8)*SBO, bytes 16-31 LBO further.
  const uint32_t src = 0x1000, lbo = 128, sbo = 256;
  for (uint32_t r = 0; r < 128; ++r)
    for (uint32_t b = 0; b < 32; ++b)
      s.bytes[src + (r % 8) * 16 + (r / 8) * sbo + (b / 16) * lbo + b % 16] =
          uint8_t(r + 3 * b);
  cp(*t, s.smem, CpShape::S128x256b, col + 8, smemDesc(src, lbo, sbo, 0));
  for (uint32_t r : {0u, 7u, 8u, 77u, 127u})
    for (uint32_t w = 0; w < 8; ++w) {
      uint32_t want = 0;
      for (uint32_t i = 0; i < 4; ++i)
        want |= uint32_t(uint8_t(r + 3 * (4 * w + i))) << (8 * i);
      EXPECT_EQ(t->cell[r][col + 8 + w], want) << r << " " << w;
    }
  // 32x128b.warpx4: 32 rows of 16 B contiguous (SBO 128), each to lanes
  // r, r+32, r+64, r+96.
  for (uint32_t i = 0; i < 512; ++i)
    s.bytes[0x2000 + i] = uint8_t(i * 7);
  cp(*t, s.smem, CpShape::S32x128b_warpx4, col + 20,
     smemDesc(0x2000, 0, 128, 0));
  for (uint32_t q = 0; q < 4; ++q)
    for (uint32_t r : {0u, 13u, 31u}) {
      uint32_t b0 = r * 16 + 4;
      uint32_t want = uint32_t(uint8_t(b0 * 7)) |
                      uint32_t(uint8_t((b0 + 1) * 7)) << 8 |
                      uint32_t(uint8_t((b0 + 2) * 7)) << 16 |
                      uint32_t(uint8_t((b0 + 3) * 7)) << 24;
      EXPECT_EQ(t->cell[32 * q + r][col + 21], want);
    }
  cp(*t, s.smem, CpShape::S64x128b_warpx2_02_13, col,
     smemDesc(0x2000, 0, 128, 0));
  EXPECT_EQ(t->cell[40][col], t->cell[104][col]); // row 40 -> lanes 40, 104
  EXPECT_FAULT(
      cp(*t, s.smem, CpShape::S4x256b, col, smemDesc(0x2000, 0, 128, 0)),
      "4x256b");
  EXPECT_FAULT(
      cp(*t, s.smem, CpShape::S128x256b, col + 28, smemDesc(src, lbo, sbo, 0)),
      "not allocated");
}

//===----------------------------------------------------------------------===//
// MMA
//===----------------------------------------------------------------------===//

std::mt19937 &rng() {
  static std::mt19937 g(12345);
  return g;
}

float randomBf16Value() {
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  return __bfloat162float(__float2bfloat16_rn(d(rng())));
}

/// Reads D[m][n] of an M = 128 f32 accumulator as the four warps would,
/// through tcgen05.ld.32x32b.
std::vector<float> readAccumulator(const Tmem &t, uint32_t d, uint32_t n) {
  std::vector<float> out(128 * n);
  std::vector<uint32_t> regs(n);
  for (int w = 0; w < 4; ++w)
    for (int lane = 0; lane < 32; ++lane) {
      for (uint32_t c0 = 0; c0 < n; c0 += 32) {
        ld_32x32b(t, w, lane, d + (uint32_t(32 * w) << 16) + c0, 32,
                  regs.data() + c0);
      }
      for (uint32_t j = 0; j < n; ++j)
        out[(32 * w + lane) * n + j] = __uint_as_float(regs[j]);
    }
  return out;
}

TEST(Mma, Bf16KMajorSwizzle128ThroughTma) {
  const uint32_t M = 128, N = 256, K = 64;
  std::vector<__nv_bfloat16> A(M * K), B(N * K);
  for (auto &x : A)
    x = __float2bfloat16_rn(randomBf16Value());
  for (auto &x : B)
    x = __float2bfloat16_rn(randomBf16Value());
  CUtensorMap ma = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, A.data(), K, M,
                            K * 2, K, M, CU_TENSOR_MAP_SWIZZLE_128B);
  CUtensorMap mb = encode2d(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, B.data(), K, N,
                            K * 2, K, N, CU_TENSOR_MAP_SWIZZLE_128B);
  SharedMem s;
  int32_t at[2] = {0, 0};
  const uint32_t aAddr = 0x0000, bAddr = 0x4000;
  EXPECT_EQ(tma_load_tile(ma, 2, at, s.smem, aAddr), M * K * 2);
  EXPECT_EQ(tma_load_tile(mb, 2, at, s.smem, bAddr), N * K * 2);

  auto t = newTmem();
  uint32_t d = t->allocate(256);
  uint32_t idesc = instrDesc(1, 1, 1, false, false, M, N); // 0x08400490
  double ms = 0;
  for (uint32_t i = 0; i < K / 16; ++i) {
    // K-advance inside the swizzle atom: start += 32 bytes per MMA.
    uint64_t ad = smemDesc(aAddr + 32 * i, 16, 1024, 2);
    uint64_t bd = smemDesc(bAddr + 32 * i, 16, 1024, 2);
    auto t0 = std::chrono::steady_clock::now();
    mma(*t, s.smem, MmaKind::F16, d, false, ad, bd, idesc, i > 0, 0, 0);
    ms = std::max(ms, std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
  }
  EXPECT_LT(ms, 10.0) << "one 128x256x16 MMA took " << ms << " ms";
  std::printf("slowest 128x256x16 bf16 MMA: %.3f ms\n", ms);
  std::vector<float> D = readAccumulator(*t, d, N);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      // The emulation's documented rounding: each instruction's 16-term
      // dot product in double, added to D, rounded to f32.
      float acc = 0;
      double exact = 0;
      for (uint32_t i = 0; i < K / 16; ++i) {
        double part = 0;
        for (uint32_t k = 16 * i; k < 16 * i + 16; ++k)
          part += double(__bfloat162float(A[m * K + k])) *
                  double(__bfloat162float(B[n * K + k]));
        acc = float(double(acc) + part);
        exact += part;
      }
      ASSERT_EQ(D[m * N + n], acc) << m << "," << n;
      ASSERT_NEAR(D[m * N + n], exact, 1e-5 * (1 + std::fabs(exact)));
    }
  // Facts 4 example: warp 2, taddr = base + (64 << 16) + 32, .x16: thread
  // t's register j is D[64 + t][32 + j].
  uint32_t regs[16];
  ld_32x32b(*t, 2, 7, d + (64u << 16) + 32, 16, regs);
  for (int j = 0; j < 16; ++j)
    EXPECT_EQ(__uint_as_float(regs[j]), D[(64 + 7) * N + 32 + j]);
}

TEST(Mma, F16MNMajorNoSwizzleM64) {
  const uint32_t M = 64, N = 64, K = 16;
  SharedMem s;
  // MN-major, no swizzle: core matrix = 8 MN elements (16 B) x 8 K rows;
  // SBO (128) steps MN groups, LBO steps K groups.
  const uint32_t aAddr = 0x8000, bAddr = 0xA000, sbo = 128, lbo = 1024;
  auto place = [&](uint32_t base, uint32_t mn, uint32_t k, __half v) {
    s.put<uint16_t>(base + (mn % 8) * 2 + (k % 8) * 16 + (mn / 8) * sbo +
                        (k / 8) * lbo,
                    __half_as_ushort(v));
  };
  std::vector<float> A(M * K), B(N * K);
  std::uniform_int_distribution<int> d(-16, 16);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) {
      A[m * K + k] = float(d(rng())) / 8;
      place(aAddr, m, k, __float2half_rn(A[m * K + k]));
    }
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t k = 0; k < K; ++k) {
      B[n * K + k] = float(d(rng())) / 4;
      place(bAddr, n, k, __float2half_rn(B[n * K + k]));
    }
  auto t = newTmem();
  uint32_t dcol = t->allocate(128) + 64;
  uint32_t idesc = instrDesc(1, 0, 0, true, true, M, N);
  mma(*t, s.smem, MmaKind::F16, dcol, false, smemDesc(aAddr, lbo, sbo, 0),
      smemDesc(bAddr, lbo, sbo, 0), idesc, false, 0, 0);
  for (uint32_t m = 0; m < M; ++m) {
    uint32_t lane = (m % 16) + 32 * (m / 16); // M = 64 layout
    for (uint32_t n = 0; n < N; ++n) {
      double want = 0;
      for (uint32_t k = 0; k < K; ++k)
        want += double(A[m * K + k]) * B[n * K + k];
      ASSERT_EQ(f32At(*t, lane, dcol + n), float(want)) << m << "," << n;
    }
  }
  // Lanes 16-31 of each quadrant are untouched (still poisoned).
  EXPECT_FALSE(t->written[16][dcol]);
  EXPECT_FALSE(t->written[127][dcol]);
  // The same data with a lane offset of 16 fills the other half.
  mma(*t, s.smem, MmaKind::F16, dcol + (16u << 16), false,
      smemDesc(aAddr, lbo, sbo, 0), smemDesc(bAddr, lbo, sbo, 0), idesc, false,
      0, 0);
  EXPECT_EQ(t->cell[16 + 32 * 3 + 5][dcol + 9], t->cell[32 * 3 + 5][dcol + 9]);
  EXPECT_FAULT(mma(*t, s.smem, MmaKind::F16, dcol + (8u << 16), false,
                   smemDesc(aAddr, lbo, sbo, 0), smemDesc(bAddr, lbo, sbo, 0),
                   idesc, false, 0, 0),
               "0 or 16");
}

/// K-major, no swizzle, 1-byte elements, 32 per row: core matrices 8 x 16 B,
/// LBO 128 between the two K halves, SBO 256 between 8-row groups.
uint32_t kMajor8(uint32_t base, uint32_t mn, uint32_t k) {
  return base + (mn % 8) * 16 + (mn / 8) * 256 + (k % 16) + (k / 16) * 128;
}

TEST(Mma, Fp8E4M3xE5M2WithF16Accumulator) {
  const uint32_t M = 128, N = 64, K = 32;
  SharedMem s;
  const uint32_t aAddr = 0x1000, bAddr = 0x6000;
  std::vector<double> A(M * K), B(N * K);
  std::uniform_real_distribution<float> d(-3.0f, 3.0f);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) {
      __nv_fp8_e4m3 v(d(rng()));
      A[m * K + k] = double(float(v));
      s.bytes[kMajor8(aAddr, m, k)] = v.__x;
    }
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t k = 0; k < K; ++k) {
      __nv_fp8_e5m2 v(d(rng()));
      B[n * K + k] = double(float(v));
      s.bytes[kMajor8(bAddr, n, k)] = v.__x;
    }
  auto t = newTmem();
  uint32_t dcol = t->allocate(64);
  uint32_t idesc = instrDesc(0, 0, 1, false, false, M, N); // D f16
  uint64_t ad = smemDesc(aAddr, 128, 256, 0), bd = smemDesc(bAddr, 128, 256, 0);
  mma(*t, s.smem, MmaKind::F8F6F4, dcol, false, ad, bd, idesc, false, 0, 0);
  mma(*t, s.smem, MmaKind::F8F6F4, dcol, false, ad, bd, idesc, true, 0, 0);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      double dot = 0;
      for (uint32_t k = 0; k < K; ++k)
        dot += A[m * K + k] * B[n * K + k];
      __half once = __double2half(dot);
      __half twice = __double2half(double(__half2float(once)) + dot);
      uint32_t cellv = t->cell[m][dcol + n];
      ASSERT_EQ(cellv, uint32_t(__half_as_ushort(twice))) << m << "," << n;
    }
}

// kind::i8 (an int8 GEMM on sm_100a): s8 x u8 into s32, exact; the second
// instruction adds, the third (D type S32 with the saturate bit) clamps a
// D started near INT32_MAX, where the plain one wraps. The descriptor is
// CUTLASS's (S8Format: signed 1, unsigned 0; CFormat S32 = 2), which
// layout::instr_desc packs (DescriptorTest).
TEST(Mma, Int8KindIsExactWrapsAndSaturates) {
  const uint32_t M = 128, N = 48, K = 32;
  SharedMem s;
  const uint32_t aAddr = 0x1000, bAddr = 0x6000;
  std::vector<int64_t> A(M * K), B(N * K);
  std::uniform_int_distribution<int> d(0, 255);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) {
      // Row 0 at the top of s8: a large positive product with the u8 B.
      int8_t v = m == 0 ? int8_t(127) : int8_t(d(rng()) - 128);
      A[m * K + k] = v;
      s.bytes[kMajor8(aAddr, m, k)] = uint8_t(v);
    }
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t k = 0; k < K; ++k) {
      uint8_t v = uint8_t(d(rng()));
      B[n * K + k] = v;
      s.bytes[kMajor8(bAddr, n, k)] = v;
    }
  auto t = newTmem();
  uint32_t dcol = t->allocate(64);
  uint32_t idesc = instrDesc(2, 1, 0, false, false, M, N);
  uint64_t ad = smemDesc(aAddr, 128, 256, 0), bd = smemDesc(bAddr, 128, 256, 0);
  mma(*t, s.smem, MmaKind::I8, dcol, false, ad, bd, idesc, false, 0, 0);
  mma(*t, s.smem, MmaKind::I8, dcol, false, ad, bd, idesc, true, 0, 0);
  auto dot = [&](uint32_t m, uint32_t n) {
    int64_t r = 0;
    for (uint32_t k = 0; k < K; ++k)
      r += A[m * K + k] * B[n * K + k];
    return r;
  };
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n)
      ASSERT_EQ(int32_t(t->cell[m][dcol + n]), int32_t(2 * dot(m, n)))
          << m << "," << n;
  // Row 0, column 0 near the top of the range, then one more product.
  uint32_t big = uint32_t(INT32_MAX - 10);
  int64_t p = dot(0, 0);
  ASSERT_GT(p, 10) << "the test wants a positive product at (0, 0)";
  for (bool saturate : {false, true}) {
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n)
        t->write(m, dcol + n, big);
    mma(*t, s.smem, MmaKind::I8, dcol, false, ad, bd,
        idesc | uint32_t(saturate) << 3, true, 0, 0);
    int64_t want = int64_t(INT32_MAX) - 10 + p;
    EXPECT_EQ(int32_t(t->cell[0][dcol]),
              saturate ? INT32_MAX : int32_t(uint32_t(uint64_t(want))));
  }
}

TEST(Mma, Tf32Swizzle64TruncatesTo10MantissaBits) {
  const uint32_t M = 128, N = 128, K = 16; // two instructions of K = 8
  std::vector<float> A(M * K), B(N * K);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto &x : A)
    x = d(rng());
  for (auto &x : B)
    x = d(rng());
  CUtensorMap ma = encode2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, A.data(), K, M,
                            K * 4, K, M, CU_TENSOR_MAP_SWIZZLE_64B);
  CUtensorMap mb = encode2d(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, B.data(), K, N,
                            K * 4, K, N, CU_TENSOR_MAP_SWIZZLE_64B);
  SharedMem s;
  int32_t at[2] = {0, 0};
  tma_load_tile(ma, 2, at, s.smem, 0x0);
  tma_load_tile(mb, 2, at, s.smem, 0x2000);
  auto t = newTmem();
  uint32_t dcol = t->allocate(128);
  uint32_t idesc = instrDesc(1, 2, 2, false, false, M, N);
  EXPECT_EQ(idesc, 0x08200910u);
  for (uint32_t i = 0; i < 2; ++i)
    mma(*t, s.smem, MmaKind::TF32, dcol, false,
        smemDesc(0x0 + 32 * i, 16, 512, 4),
        smemDesc(0x2000 + 32 * i, 16, 512, 4), idesc, i > 0, 0, 0);
  auto tf32 = [](float x) {
    return double(__uint_as_float(__float_as_uint(x) & 0xFFFFE000u));
  };
  double worstFull = 0;
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      float acc = 0;
      double full = 0;
      for (uint32_t i = 0; i < 2; ++i) {
        double part = 0;
        for (uint32_t k = 8 * i; k < 8 * i + 8; ++k) {
          part += tf32(A[m * K + k]) * tf32(B[n * K + k]);
          full += double(A[m * K + k]) * B[n * K + k];
        }
        acc = float(double(acc) + part);
      }
      ASSERT_EQ(f32At(*t, m, dcol + n), acc) << m << "," << n;
      worstFull = std::max(worstFull, std::fabs(acc - full));
    }
  // The truncation is visible against f32 inputs, and bounded by it.
  EXPECT_GT(worstFull, 1e-6);
  EXPECT_LT(worstFull, 16 * std::ldexp(1.0, -10));
}

TEST(Mma, EnableInputDAndPoison) {
  const uint32_t M = 128, N = 16;
  SharedMem s;
  // A = B = all ones (bf16), K-major unswizzled: each D element is 16.
  for (uint32_t i = 0; i < 0x2000; i += 2)
    s.put<uint16_t>(i, 0x3F80);
  uint64_t ad = smemDesc(0, 128, 256, 0), bd = smemDesc(0x1000, 128, 256, 0);
  uint32_t idesc = instrDesc(1, 1, 1, false, false, M, N);
  auto t = newTmem();
  uint32_t dcol = t->allocate(32);
  // Accumulating into a never-written accumulator yields NaN.
  mma(*t, s.smem, MmaKind::F16, dcol, false, ad, bd, idesc, true, 0, 0);
  EXPECT_TRUE(std::isnan(f32At(*t, 5, dcol + 3)));
  // enable_input_d = false ignores D.
  uint32_t hundred[16];
  for (auto &h : hundred)
    h = __float_as_uint(100.0f);
  for (int w = 0; w < 4; ++w)
    for (int l = 0; l < 32; ++l)
      st_32x32b(*t, w, l, dcol + (uint32_t(32 * w) << 16), 16, hundred);
  mma(*t, s.smem, MmaKind::F16, dcol, false, ad, bd, idesc, false, 0, 0);
  EXPECT_EQ(f32At(*t, 5, dcol + 3), 16.0f);
  mma(*t, s.smem, MmaKind::F16, dcol, false, ad, bd, idesc, true, 0, 0);
  EXPECT_EQ(f32At(*t, 5, dcol + 3), 32.0f);
  for (int w = 0; w < 4; ++w)
    for (int l = 0; l < 32; ++l)
      st_32x32b(*t, w, l, dcol + (uint32_t(32 * w) << 16), 16, hundred);
  mma(*t, s.smem, MmaKind::F16, dcol, false, ad, bd, idesc, true, 0, 0);
  EXPECT_EQ(f32At(*t, 127, dcol + 15), 116.0f);
  // Negate A (bit 13).
  mma(*t, s.smem, MmaKind::F16, dcol, false, ad, bd, idesc | 1u << 13, false, 0,
      0);
  EXPECT_EQ(f32At(*t, 0, dcol), -16.0f);
  // A from TMEM (ts form): bf16 ones, two per column.
  uint32_t acol = t->allocate(32);
  uint32_t ones[8];
  for (auto &o : ones)
    o = 0x3F803F80u;
  for (int w = 0; w < 4; ++w)
    for (int l = 0; l < 32; ++l)
      st_32x32b(*t, w, l, acol + (uint32_t(32 * w) << 16), 8, ones);
  mma(*t, s.smem, MmaKind::F16, dcol, true, acol, bd, idesc, false, 0, 0);
  EXPECT_EQ(f32At(*t, 99, dcol + 7), 16.0f);
  // D outside the allocation.
  EXPECT_FAULT(mma(*t, s.smem, MmaKind::F16, dcol + 60, false, ad, bd, idesc,
                   false, 0, 0),
               "not allocated");
  EXPECT_FAULT(mma(*t, s.smem, MmaKind::F16, dcol, false, ad | 3ull << 49, bd,
                   idesc, false, 0, 0),
               "base offset");
}

TEST(Mma, BlockScaledMxf8WithScalesFromTcgen05Cp) {
  const uint32_t M = 128, N = 64, K = 32;
  SharedMem s;
  const uint32_t aAddr = 0x1000, bAddr = 0x6000, sfaAddr = 0x9000,
                 sfbAddr = 0x9400;
  std::vector<double> A(M * K), B(N * K);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) {
      __nv_fp8_e4m3 v(d(rng()));
      A[m * K + k] = double(float(v));
      s.bytes[kMajor8(aAddr, m, k)] = v.__x;
    }
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t k = 0; k < K; ++k) {
      __nv_fp8_e4m3 v(d(rng()));
      B[n * K + k] = double(float(v));
      s.bytes[kMajor8(bAddr, n, k)] = v.__x;
    }
  // Scale factors, 4 K-blocks per row, in the 512-byte SMEM atom:
  // SF(r, j) at (r%32)*16 + (r/32)*4 + j.
  std::uniform_int_distribution<int> e(120, 134);
  uint8_t sfa[128][4], sfb[128][4];
  for (uint32_t r = 0; r < 128; ++r)
    for (uint32_t j = 0; j < 4; ++j) {
      sfa[r][j] = uint8_t(e(rng()));
      sfb[r][j] = uint8_t(e(rng()));
      s.bytes[sfaAddr + (r % 32) * 16 + (r / 32) * 4 + j] = sfa[r][j];
      s.bytes[sfbAddr + (r % 32) * 16 + (r / 32) * 4 + j] = sfb[r][j];
    }
  auto t = newTmem();
  uint32_t dcol = t->allocate(128);
  uint32_t sfaCol = dcol + 64, sfbCol = dcol + 72;
  cp(*t, s.smem, CpShape::S32x128b_warpx4, sfaCol,
     smemDesc(sfaAddr, 0, 128, 0));
  cp(*t, s.smem, CpShape::S32x128b_warpx4, sfbCol,
     smemDesc(sfbAddr, 0, 128, 0));
  // SFA id 1, SFB id 2: bytes 1 and 2 of each word.
  uint32_t idesc =
      2u << 4 | (N >> 3) << 17 | 1u << 23 | (M >> 7) << 27 | 1u << 29;
  uint32_t sfaOperand = sfaCol | 1u << 30; // CUTLASS-style id bits: ignored
  mma(*t, s.smem, MmaKind::MXF8F6F4, dcol, false, smemDesc(aAddr, 128, 256, 0),
      smemDesc(bAddr, 128, 256, 0), idesc, false, sfaOperand, sfbCol);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      double dot = 0;
      for (uint32_t k = 0; k < K; ++k)
        dot += A[m * K + k] * B[n * K + k];
      double want = dot * std::ldexp(1.0, sfa[m][1] - 127) *
                    std::ldexp(1.0, sfb[n][2] - 127);
      ASSERT_EQ(f32At(*t, m, dcol + n), float(want)) << m << "," << n;
    }
  // Scale factors not duplicated to every lane quadrant are refused.
  uint32_t junk = 0x01020304;
  st_32x32b(*t, 2, 3, sfaCol + (64u << 16), 1, &junk);
  EXPECT_FAULT(mma(*t, s.smem, MmaKind::MXF8F6F4, dcol, false,
                   smemDesc(aAddr, 128, 256, 0), smemDesc(bAddr, 128, 256, 0),
                   idesc, false, sfaOperand, sfbCol),
               "differ between TMEM lane quadrants");
}

TEST(Mma, Fp4AndFp6OperandsInPaddedContainers) {
  // f8f6f4 with A = e2m1 and B = e3m2, K-major: 16 elements per 16-byte
  // container, packed from its start (8 bytes of e2m1, 12 of e3m2).
  const uint32_t M = 128, N = 8, K = 32;
  SharedMem s;
  const uint32_t aAddr = 0x1000, bAddr = 0x6000;
  std::vector<double> A(M * K), B(N * K);
  std::uniform_int_distribution<int> d4(0, 15), d6(0, 63);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t k = 0; k < K; ++k) {
      uint32_t v = uint32_t(d4(rng()));
      A[m * K + k] = fmt::e2m1(v);
      uint32_t byte = kMajor8(aAddr, m, k & ~15u) + (k % 16) / 2;
      s.bytes[byte] =
          uint8_t((s.bytes[byte] & ~(0xF << 4 * (k % 2))) | v << 4 * (k % 2));
    }
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t k = 0; k < K; ++k) {
      uint32_t v = uint32_t(d6(rng()));
      B[n * K + k] = fmt::e3m2(v);
      uint32_t bit = (k % 16) * 6, base = kMajor8(bAddr, n, k & ~15u);
      uint32_t w = uint32_t(s.bytes[base + bit / 8]) |
                   uint32_t(s.bytes[base + bit / 8 + 1]) << 8;
      w = (w & ~(0x3Fu << bit % 8)) | v << bit % 8;
      s.bytes[base + bit / 8] = uint8_t(w);
      s.bytes[base + bit / 8 + 1] = uint8_t(w >> 8);
    }
  auto t = newTmem();
  uint32_t dcol = t->allocate(32);
  uint32_t idesc = instrDesc(1, 5, 4, false, false, M, N);
  mma(*t, s.smem, MmaKind::F8F6F4, dcol, false, smemDesc(aAddr, 128, 256, 0),
      smemDesc(bAddr, 128, 256, 0), idesc, false, 0, 0);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      double dot = 0;
      for (uint32_t k = 0; k < K; ++k)
        dot += A[m * K + k] * B[n * K + k];
      ASSERT_EQ(f32At(*t, m, dcol + n), float(dot)) << m << "," << n;
    }
}

} // namespace
