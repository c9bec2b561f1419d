//===- layout/wgmma_layout.cuh - wgmma fragments and descriptor -*- CUDA -*-===//
//
// What sm_90a's wgmma.mma_async reads and writes, as functions the runtime
// atoms, the emulator and the tests share (docs/wgmma-facts.md, sections 2
// and 3; PTX ISA, "Register Fragments and Shared Memory Matrix Layouts" and
// "Matrix Descriptor Format" of the warpgroup-level MMA):
//
// - the accumulator fragment: thread t of the warpgroup (warp w = t / 32,
//   lane l = t % 32) holds, in register i of an m64nN f32 (or s32) D,
//   D[16 w + l / 4 + 8 ((i >> 1) & 1)][8 (i >> 2) + 2 (l % 4) + (i & 1)];
// - the A fragment of a 16-bit A in registers (m64k16, 8 elements a thread,
//   two to a register): A[16 w + l / 4 + 8 ((i >> 1) & 1)]
//   [2 (l % 4) + (i & 1) + 8 (i >> 2)]; of an 8-bit A (m64k32, 16 a
//   thread, four to a register, byte i % 4 of register i / 4):
//   A[16 w + l / 4 + 8 ((i >> 2) & 1)][4 (l % 4) + (i & 3) + 16 (i >> 3)];
// - the 64-bit SMEM matrix descriptor: start >> 4 at [0, 14), LBO >> 4 at
//   [16, 30), SBO >> 4 at [32, 46), base offset at [49, 52), the swizzle at
//   [62, 64) (0 none, 1 128B, 2 64B, 3 32B). sm_100's has a version field at
//   [46, 49) and a 3-bit layout at [61, 64) (layout/smem_desc.cuh).
//
// Plain constexpr C++: no CUDA needed to include it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_WGMMA_LAYOUT_CUH
#define TILEPIPE_LAYOUT_WGMMA_LAYOUT_CUH

#include "tilepipe/layout/smem_desc.cuh"

namespace tp::layout::wgmma {

/// Threads of a warpgroup, and rows of one instruction's D.
constexpr int kThreads = 128;
constexpr int kRows = 64;

/// A position in a fragment: a row and a column of the tile.
struct RowCol {
  int row;
  int col;
};

/// Which thread holds an element, and in which fragment register.
struct ThreadReg {
  int thread;
  int reg;
};

/// Register `i` (0 .. N / 2 - 1) of thread `t` of an m64nN 32-bit D.
TP_CONSTEXPR RowCol acc_element(int t, int i) {
  int w = t / 32, l = t % 32;
  return {16 * w + l / 4 + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * (l % 4) + (i & 1)};
}

/// The inverse of acc_element.
TP_CONSTEXPR ThreadReg acc_holder(int row, int col) {
  int w = row / 16, r = row % 16;
  int l = 4 * (r % 8) + (col % 8) / 2;
  return {32 * w + l, 4 * (col / 8) + 2 * (r / 8) + (col % 2)};
}

/// Element `i` (0 .. 7) of thread `t` of a 16-bit m64k16 A in registers
/// (register i / 2, the low half for even i).
TP_CONSTEXPR RowCol a16_element(int t, int i) {
  int w = t / 32, l = t % 32;
  return {16 * w + l / 4 + 8 * ((i >> 1) & 1), 2 * (l % 4) + (i & 1) + 8 * (i >> 2)};
}

/// Element `i` (0 .. 15) of thread `t` of an 8-bit m64k32 A in registers
/// (byte i % 4 of register i / 4, byte 0 the low one).
TP_CONSTEXPR RowCol a8_element(int t, int i) {
  int w = t / 32, l = t % 32;
  return {16 * w + l / 4 + 8 * ((i >> 2) & 1),
          4 * (l % 4) + (i & 3) + 16 * (i >> 3)};
}

/// The band row that row slot h (0 or 1) of thread t holds in the rows
/// (rows_element below): the m64nN fragment's rows of the thread.
TP_CONSTEXPR int rows_row(int t, int h) {
  return 16 * (t / 32) + (t % 32) / 4 + 8 * h;
}

/// The fragment's rows (runtime/wgmma.cuh; docs/cuda.md, "The fragment's
/// rows"): a thread's part of a 64-row band of N columns held row slot by row
/// slot. Element e of thread t: row slot h = e / (N / 4) is row
/// 16 w + l / 4 + 8 h, column slot c = e % (N / 4) column 8 (c / 2) +
/// 2 (l % 4) + c % 2.
TP_CONSTEXPR RowCol rows_element(int t, int e, int n) {
  int l = t % 32, h = e / (n / 4), c = e % (n / 4);
  return {rows_row(t, h), 8 * (c / 2) + 2 * (l % 4) + c % 2};
}

/// A thread's rows in a 128B-swizzled tile (Tile an MmaTile<T, R, C,
/// Swizzle::B128>, layout/tile.cuh): Tile::offset, with the swizzle's XOR
/// taken on thread constants. Every row a thread holds is l / 4 + a
/// multiple of 8, so row % 8 = l / 4 for all of them; a column pair
/// 8 g + 2 (l % 4) lies in 16-byte chunk (g's chunk) ^ (the lane's), so the
/// unrolled accesses of the rows' loads and stores share one XOR per chunk
/// (8 in all) instead of computing one each (an epilogue's 64 stores).
template <class Tile> struct RowsSwizzled128 {
  using T = typename Tile::Elem;
  static_assert(Tile::kSpan == 128 && sizeof(T) >= 2 && sizeof(T) <= 4,
                "a 128B-swizzled tile of 16- or 32-bit elements");
  uint32_t y; ///< The pair's bytes into its 8 columns: 2 (l % 4) sizeof(T).
  uint32_t z; ///< The chunk bits the XOR flips: (y / 16) ^ (row % 8).
  TP_CONSTEXPR explicit RowsSwizzled128(int t)
      : y(uint32_t(2 * (t % 4) * int(sizeof(T)))),
        z((y >> 4) ^ uint32_t(rows_row(t, 0) % 8)) {}
  /// Tile::offset(row, 8 g + 2 (l % 4) + e) for one of the thread's rows.
  /// The group's bytes are whole chunks, the lane's part stays in one.
  TP_CONSTEXPR uint32_t offset(int row, int g, int e) const {
    int c = 8 * g;
    uint32_t cb = uint32_t((c % Tile::kBlockCols) * int(sizeof(T)));
    return uint32_t(c / Tile::kBlockCols) * Tile::kBoxBytes +
           uint32_t(row * Tile::kSpan) + ((((cb >> 4) ^ z) << 4)) + (y & 15u) +
           uint32_t(e * int(sizeof(T)));
  }
};

/// Where register i of the m64nN fragment lies in the rows (acc_element(t, i)
/// == rows_element(t, rows_of_acc(i, n), n)).
TP_CONSTEXPR int rows_of_acc(int i, int n) {
  return ((i >> 1) & 1) * (n / 4) + 2 * (i >> 2) + (i & 1);
}

/// Where the low half of register r (0 .. 3) of K step s's m64k16 A lies in
/// a 16-bit tile of K columns in the rows; the high half is the next
/// element (a16_element(t, 2 r + e), K step s, is rows_element(t,
/// rows_of_a(s, r, k) + e, k) shifted back by 16 s columns).
TP_CONSTEXPR int rows_of_a(int s, int r, int k) {
  return (r % 2) * (k / 4) + 4 * s + 2 * (r / 2);
}

/// Where register r (0 .. 3) of K step s's 8-bit m64k32 A starts in a tile
/// of K columns in the rows: its four bytes are four consecutive slots of
/// row slot r % 2. Those slots' columns are not the ISA's k of the four
/// bytes (4 (l % 4) + e + 16 (r / 2)), so a 8-bit A taken from the rows
/// reads its K in another order (key_of_a8), and B's rows are laid in it.
TP_CONSTEXPR int rows_of_a8(int s, int r, int k) {
  return (r % 2) * (k / 4) + 8 * s + 4 * (r / 2);
}

/// The column of the rows (FP8 attention's key) that an 8-bit A taken
/// with rows_of_a8 holds at the ISA's k: within each 16, k = 4 q + e is
/// column 2 q + (e & 1) + 8 (e >> 1), a permutation; the sum over k is the
/// same when B's row k holds that key's row (wgmma_transpose's PermuteK).
TP_CONSTEXPR int key_of_a8(int k) {
  int q = (k % 16) / 4, e = k % 4;
  return k - k % 16 + 2 * q + (e & 1) + 8 * (e >> 1);
}

/// The field `swizzle` [62, 64) of an sm_90 descriptor.
TP_CONSTEXPR uint64_t swizzle_code(Swizzle s) {
  return s == Swizzle::B128 ? 1 : s == Swizzle::B64 ? 2 : s == Swizzle::B32 ? 3
                                                                            : 0;
}

/// The fields hold the encoded values (addresses and offsets in 16-byte
/// units); bits not named here are zero.
struct Descriptor {
  uint32_t startAddress = 0;      ///< [0, 14): start address >> 4
  uint32_t leadingByteOffset = 0; ///< [16, 30): LBO >> 4
  uint32_t strideByteOffset = 0;  ///< [32, 46): SBO >> 4
  uint32_t baseOffset = 0;        ///< [49, 52): 0, tiles start on a repeat
  uint32_t swizzle = 0;           ///< [62, 64): swizzle_code

  TP_CONSTEXPR uint64_t pack() const {
    return desc_field(startAddress, 0, 14) |
           desc_field(leadingByteOffset, 16, 14) |
           desc_field(strideByteOffset, 32, 14) | desc_field(baseOffset, 49, 3) |
           desc_field(swizzle, 62, 2);
  }

  TP_CONSTEXPR static Descriptor unpack(uint64_t bits) {
    Descriptor d;
    d.startAddress = uint32_t(bits & 0x3FFF);
    d.leadingByteOffset = uint32_t((bits >> 16) & 0x3FFF);
    d.strideByteOffset = uint32_t((bits >> 32) & 0x3FFF);
    d.baseOffset = uint32_t((bits >> 49) & 0x7);
    d.swizzle = uint32_t((bits >> 62) & 0x3);
    return d;
  }
};

/// A K-major operand at SMEM byte `address`: LBO and SBO in bytes, as the
/// ISA defines them for the swizzle (docs/wgmma-facts.md, section 3).
TP_CONSTEXPR Descriptor make_descriptor(uint32_t address, uint32_t lboBytes,
                                        uint32_t sboBytes, Swizzle s) {
  Descriptor d;
  d.startAddress = (address & 0x3FFFF) >> 4;
  d.leadingByteOffset = lboBytes >> 4;
  d.strideByteOffset = sboBytes >> 4;
  d.swizzle = uint32_t(swizzle_code(s));
  return d;
}

} // namespace tp::layout::wgmma

#endif // TILEPIPE_LAYOUT_WGMMA_LAYOUT_CUH
