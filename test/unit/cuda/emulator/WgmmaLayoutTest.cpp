//===- WgmmaLayoutTest.cpp - wgmma fragments and descriptor ----------------===//
//
// layout/wgmma_layout.cuh against the PTX ISA's own statements of the wgmma
// fragments (docs/wgmma-facts.md): the figures' anchor elements, each
// fragment a bijection onto its tile, the inverse, and the descriptor's bits
// against the shift formula and a worked example. Seeded layouts (a lane
// quad off by one, rows of the wrong half, a swizzle code of sm_100's) must
// fail the same checks, so the checks can fail.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/emulator/prelude.h"

#include "tilepipe/layout/tile.cuh"
#include "tilepipe/layout/wgmma_layout.cuh"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <utility>

#include <gtest/gtest.h>

namespace wgmma_layout_test {

namespace wg = tp::layout::wgmma;
using Layout = std::function<wg::RowCol(int, int)>;

/// Whether `layout` maps the 128 threads x `regs` registers one to one onto
/// the rows x cols tile.
bool isBijection(const Layout &layout, int regs, int rows, int cols) {
  std::set<std::pair<int, int>> seen;
  for (int t = 0; t < wg::kThreads; ++t)
    for (int i = 0; i < regs; ++i) {
      wg::RowCol rc = layout(t, i);
      if (rc.row < 0 || rc.row >= rows || rc.col < 0 || rc.col >= cols)
        return false;
      seen.insert({rc.row, rc.col});
    }
  return int(seen.size()) == rows * cols;
}

/// The ISA figure's anchors for D (m64nNk16, f32): thread 0 holds (0, 0),
/// (0, 1), (8, 0), (8, 1) in registers 0-3 and (0, 8) in register 4;
/// thread 1 starts at column 2, thread 4 at row 1; warp 1 starts at row 16.
bool matchesAccAnchors(const Layout &layout) {
  auto at = [&](int t, int i, int row, int col) {
    wg::RowCol rc = layout(t, i);
    return rc.row == row && rc.col == col;
  };
  return at(0, 0, 0, 0) && at(0, 1, 0, 1) && at(0, 2, 8, 0) && at(0, 3, 8, 1) &&
         at(0, 4, 0, 8) && at(1, 0, 0, 2) && at(3, 1, 0, 7) && at(4, 0, 1, 0) &&
         at(31, 3, 15, 7) && at(32, 0, 16, 0) && at(127, 3, 63, 7);
}

TEST(WgmmaLayout, AccumulatorIsTheIsaFragment) {
  Layout acc = wg::acc_element;
  EXPECT_TRUE(matchesAccAnchors(acc));
  for (int n = 8; n <= 256; n += 8)
    EXPECT_TRUE(isBijection(acc, n / 2, wg::kRows, n)) << "N = " << n;
}

TEST(WgmmaLayout, AccumulatorHolderIsTheInverse) {
  for (int row = 0; row < wg::kRows; ++row)
    for (int col = 0; col < 256; ++col) {
      wg::ThreadReg h = wg::acc_holder(row, col);
      wg::RowCol back = wg::acc_element(h.thread, h.reg);
      ASSERT_EQ(back.row, row);
      ASSERT_EQ(back.col, col);
    }
}

TEST(WgmmaLayout, RegisterAIsTheIsaFragment) {
  Layout a = wg::a16_element;
  EXPECT_TRUE(isBijection(a, 8, wg::kRows, 16));
  // Thread 0 holds A[0][0..1] in register 0, A[8][0..1] in register 1,
  // A[0][8..9] in register 2; thread 1 starts at k = 2.
  EXPECT_EQ(a(0, 2).row, 8);
  EXPECT_EQ(a(0, 4).col, 8);
  EXPECT_EQ(a(1, 0).col, 2);
  EXPECT_EQ(a(33, 0).row, 16);
}

// Seeded bugs: each broken layout fails a check the right one passes.
TEST(WgmmaLayout, SeededLayoutBugsAreCaught) {
  Layout quadOff = [](int t, int i) {
    wg::RowCol rc = wg::acc_element(t, i);
    rc.row = 16 * (t / 32) + ((t % 32) / 4 + 1) % 8 + 8 * ((i >> 1) & 1);
    return rc;
  };
  EXPECT_FALSE(matchesAccAnchors(quadOff));
  Layout halvesSwapped = [](int t, int i) {
    return wg::acc_element(t, i ^ 2 ^ 1);
  };
  EXPECT_FALSE(matchesAccAnchors(halvesSwapped));
  Layout colsCollide = [](int t, int i) {
    wg::RowCol rc = wg::acc_element(t, i);
    rc.col = 8 * (i >> 2) + (t % 4) + (i & 1);
    return rc;
  };
  EXPECT_FALSE(isBijection(colsCollide, 32, wg::kRows, 64));
}

// Start [0, 14), LBO [16, 30), SBO [32, 46), base [49, 52), swizzle [62, 64).
uint64_t shiftDesc(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t sw) {
  return uint64_t(start & 0x3FFF) | (uint64_t(lbo & 0x3FFF) << 16) |
         (uint64_t(sbo & 0x3FFF) << 32) | (uint64_t(sw & 3) << 62);
}

TEST(WgmmaLayout, DescriptorBits) {
  for (uint32_t start : {0u, 1u, 0x800u, 0x3FFFu})
    for (uint32_t lbo : {0u, 1u, 8u, 0x3FFFu})
      for (uint32_t sbo : {0u, 64u, 0x3FFFu})
        for (uint32_t sw : {0u, 1u, 2u, 3u}) {
          wg::Descriptor d;
          d.startAddress = start;
          d.leadingByteOffset = lbo;
          d.strideByteOffset = sbo;
          d.swizzle = sw;
          uint64_t bits = d.pack();
          ASSERT_EQ(bits, shiftDesc(start, lbo, sbo, sw));
          wg::Descriptor back = wg::Descriptor::unpack(bits);
          ASSERT_EQ(back.startAddress, start);
          ASSERT_EQ(back.leadingByteOffset, lbo);
          ASSERT_EQ(back.strideByteOffset, sbo);
          ASSERT_EQ(back.swizzle, sw);
        }
  // A bf16 K-major tile with 128-byte swizzle at 0x8000: 8 rows of 128 B
  // between core-matrix groups (SBO 1024), LBO 16 (unused by swizzled
  // K-major operands, 1 by convention).
  EXPECT_EQ(wg::make_descriptor(0x8000, 16, 1024, tp::Swizzle::B128).pack(),
            0x4000004000010800ull);
  // sm_90's 2-bit codes at [62, 64) are sm_100's 3-bit ones at [61, 64)
  // with their low bit (always 0) dropped: the same bits. The descriptors
  // differ in sm_100's version bit 46 (docs/wgmma-facts.md, section 3).
  EXPECT_EQ(wg::swizzle_code(tp::Swizzle::B128), 1u);
  EXPECT_EQ(wg::swizzle_code(tp::Swizzle::B64), 2u);
  EXPECT_EQ(wg::swizzle_code(tp::Swizzle::B32), 3u);
  for (tp::Swizzle sw : {tp::Swizzle::None, tp::Swizzle::B32, tp::Swizzle::B64,
                         tp::Swizzle::B128}) {
    wg::Descriptor hopper = wg::make_descriptor(0x8000, 16, 1024, sw);
    tp::layout::SmemDescriptor blackwell;
    blackwell.startAddress = hopper.startAddress;
    blackwell.leadingByteOffset = hopper.leadingByteOffset;
    blackwell.strideByteOffset = hopper.strideByteOffset;
    blackwell.layoutType = uint32_t(tp::layout::desc_code(sw));
    EXPECT_EQ(blackwell.pack(), hopper.pack() | (uint64_t(1) << 46));
  }
}

// The fragment's rows (the layout attention's SIMT code works in): the ISA's
// D fragment renumbered, row slot by row slot, and the A fragment of P read
// from it without a shuffle. Checked against acc_element and a16_element,
// the ISA's statements.
TEST(WgmmaLayout, RowsAreTheAccumulatorRenumbered) {
  for (int n = 8; n <= 256; n += 8) {
    Layout rows = [n](int t, int e) { return wg::rows_element(t, e, n); };
    EXPECT_TRUE(isBijection(rows, n / 2, wg::kRows, n)) << "N = " << n;
    std::set<int> slots;
    for (int t = 0; t < wg::kThreads; ++t)
      for (int i = 0; i < n / 2; ++i) {
        wg::RowCol isa = wg::acc_element(t, i);
        wg::RowCol viaRows = wg::rows_element(t, wg::rows_of_acc(i, n), n);
        ASSERT_EQ(isa.row, viaRows.row)
            << "N " << n << " t " << t << " i " << i;
        ASSERT_EQ(isa.col, viaRows.col)
            << "N " << n << " t " << t << " i " << i;
        if (t == 0)
          slots.insert(wg::rows_of_acc(i, n));
      }
    // A permutation of the thread's registers.
    EXPECT_EQ(int(slots.size()), n / 2);
    EXPECT_EQ(*slots.rbegin(), n / 2 - 1);
    // Row-major by slot: a thread's row h is elements [h N / 4, (h + 1) N / 4)
    // in column order, as the translation's row broadcasts assume.
    for (int e = 1; e < n / 4; ++e)
      EXPECT_LT(wg::rows_element(5, e - 1, n).col,
                wg::rows_element(5, e, n).col);
  }
}

TEST(WgmmaLayout, PInTheRowsIsTheAFragment) {
  for (int k = 16; k <= 256; k += 16)
    for (int t = 0; t < wg::kThreads; ++t)
      for (int s = 0; s < k / 16; ++s)
        for (int i = 0; i < 8; ++i) {
          wg::RowCol a = wg::a16_element(t, i);
          wg::RowCol p =
              wg::rows_element(t, wg::rows_of_a(s, i / 2, k) + i % 2, k);
          ASSERT_EQ(p.row, a.row) << "K " << k << " t " << t << " i " << i;
          ASSERT_EQ(p.col, a.col + 16 * s)
              << "K " << k << " t " << t << " i " << i;
        }
}

// An 8-bit P taken from the rows four slots a register (rows_of_a8) is
// the ISA's m64k32 fragment with its K permuted: byte i of thread t holds
// A's row, and the column key_of_a8 names for the fragment's k. A
// permutation: every column of a step once.
TEST(WgmmaLayout, EightBitPInTheRowsIsTheAFragmentPermuted) {
  for (int k = 32; k <= 256; k += 32) {
    for (int t = 0; t < wg::kThreads; ++t)
      for (int s = 0; s < k / 32; ++s)
        for (int i = 0; i < 16; ++i) {
          wg::RowCol a = wg::a8_element(t, i);
          wg::RowCol p =
              wg::rows_element(t, wg::rows_of_a8(s, i / 4, k) + i % 4, k);
          ASSERT_EQ(p.row, a.row) << "K " << k << " t " << t << " i " << i;
          ASSERT_EQ(p.col, wg::key_of_a8(a.col + 32 * s))
              << "K " << k << " t " << t << " i " << i;
        }
    std::vector<int> seen(size_t(k), 0);
    for (int kk = 0; kk < k; ++kk)
      ++seen[size_t(wg::key_of_a8(kk))];
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), k) << "K " << k;
  }
}

// A seeded mistake fails the same check: the A registers packed row-major
// (register r as row slot r / 2) put P's elements in the wrong rows.
TEST(WgmmaLayout, SeededARegistersOrderFails) {
  auto seeded = [](int s, int r, int k) {
    return (r / 2) * (k / 4) + 4 * s + 2 * (r % 2);
  };
  bool mismatch = false;
  for (int t = 0; t < wg::kThreads && !mismatch; ++t)
    for (int i = 0; i < 8; ++i) {
      wg::RowCol a = wg::a16_element(t, i);
      wg::RowCol p = wg::rows_element(t, seeded(0, i / 2, 64) + i % 2, 64);
      mismatch = mismatch || p.row != a.row || p.col != a.col;
    }
  EXPECT_TRUE(mismatch);
}

// The rows' stores and loads of a tile only TMA and the rows touch (an
// epilogue's staging tile) go to a 128B-swizzled MmaTile
// (cuda/analysis/TileLayouts.h) through RowsSwizzled128, which must give
// MmaTile::offset's bytes for every thread, row slot and column pair.
template <class Tile> void expectRowsSwizzledIsTheTile(int bands) {
  constexpr int C = Tile::kCols;
  for (int t = 0; t < wg::kThreads; ++t) {
    wg::RowsSwizzled128<Tile> sw(t);
    for (int band = 0; band < bands; ++band)
      for (int h = 0; h < 2; ++h) {
        int row = 64 * band + wg::rows_row(t, h);
        for (int c = 0; c < C / 4; ++c) {
          int col = wg::rows_element(t, h * (C / 4) + c, C).col;
          ASSERT_EQ(sw.offset(row, c / 2, c % 2), Tile::offset(row, col))
              << "t " << t << " row " << row << " col " << col;
        }
      }
  }
}

TEST(WgmmaLayout, RowsSwizzledIsTheTilesOffset) {
  expectRowsSwizzledIsTheTile<
      tp::MmaTile<__nv_bfloat16, 128, 256, tp::Swizzle::B128>>(2);
  expectRowsSwizzledIsTheTile<tp::MmaTile<float, 128, 128, tp::Swizzle::B128>>(
      2);
  expectRowsSwizzledIsTheTile<tp::MmaTile<__half, 64, 64, tp::Swizzle::B128>>(
      1);
}

/// SMEM wavefronts of one warp's access of `bytes` a lane at `offset(lane)`:
/// the most distinct 4-byte words any of the 32 banks must serve.
int wavefronts(const std::function<uint32_t(int)> &offset, int bytes) {
  std::map<int, std::set<uint32_t>> words;
  for (int lane = 0; lane < 32; ++lane)
    for (int b = 0; b < bytes; b += 4) {
      uint32_t word = (offset(lane) + uint32_t(b)) / 4;
      words[int(word % 32)].insert(word);
    }
  size_t most = 0;
  for (auto &[bank, set] : words)
    most = std::max(most, set.size());
  return int(most);
}

// Why the swizzle: the rows' bf16 stores of a 128 x 256 tile, one
// instruction per (row slot, column pair), take one wavefront each swizzled
// and eight row-major (8 rows 512 bytes apart share a bank group), as Nsight
// Compute measured on an H200: "8.0-way bank conflict" on attention's
// epilogue stores, 12.8 on the staged GEMM's (docs/retarget.md).
TEST(WgmmaLayout, RowsStoresAreConflictFreeSwizzled) {
  using Tile = tp::MmaTile<__nv_bfloat16, 128, 256, tp::Swizzle::B128>;
  constexpr int C = 256;
  for (int h = 0; h < 2; ++h)
    for (int c = 0; c < C / 4; c += 2) {
      auto swizzled = [&](int lane) {
        wg::RowsSwizzled128<Tile> sw(lane);
        return sw.offset(wg::rows_row(lane, h), c / 2, 0);
      };
      auto rowMajor = [&](int lane) {
        wg::RowCol rc = wg::rows_element(lane, h * (C / 4) + c, C);
        return uint32_t((rc.row * C + rc.col) * 2);
      };
      EXPECT_EQ(wavefronts(swizzled, 4), 1) << "h " << h << " c " << c;
      EXPECT_EQ(wavefronts(rowMajor, 4), 8) << "h " << h << " c " << c;
    }
  // f32 pairs (8 bytes a lane, 256 a warp): two wavefronts, the fewest.
  using F32 = tp::MmaTile<float, 128, 128, tp::Swizzle::B128>;
  auto f32 = [&](int lane) {
    wg::RowsSwizzled128<F32> sw(lane);
    return sw.offset(wg::rows_row(lane, 0), 0, 0);
  };
  EXPECT_EQ(wavefronts(f32, 8), 2);
}

// Seeded: the XOR on the wrong row bits (row / 8 instead of row % 8) is not
// the tile's offset, and the check above sees it.
TEST(WgmmaLayout, SeededRowsSwizzleFails) {
  using Tile = tp::MmaTile<__nv_bfloat16, 128, 256, tp::Swizzle::B128>;
  bool mismatch = false;
  for (int t = 0; t < wg::kThreads && !mismatch; ++t) {
    wg::RowsSwizzled128<Tile> sw(t);
    int row = wg::rows_row(t, 1);
    sw.z = (sw.y >> 4) ^ uint32_t((row / 8) % 8);
    for (int c = 0; c < 64 && !mismatch; c += 2)
      mismatch = sw.offset(row, c / 2, 0) !=
                 Tile::offset(row, wg::rows_element(t, 64 + c, 256).col);
  }
  EXPECT_TRUE(mismatch);
}

} // namespace wgmma_layout_test
