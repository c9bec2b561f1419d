//===- runtime/wgmma.cuh - Hopper's MMA on tiles, and its accumulator -*- CUDA -*-===//
//
// What the sm_90a translation calls for a tileas.wgmma (docs/cuda.md,
// "Hopper"): one K-block of D (+)= A B^T issued by the agent's warpgroup,
// over the MmaTile operands the sm_100a path lays out (the same swizzled
// tiles: an sm_90 descriptor is the sm_100 one without its version bit),
// and the accumulator's way out of its fragment into a row-major SMEM tile
// that the epilogue reads a row a thread.
//
// The accumulator is a tp::Frag<float, Bands * N / 2> (int32_t for 8-bit
// integer operands): band b (rows 64 b ..
// 64 b + 63 of the tile) is registers [b N / 2, (b + 1) N / 2), each band in
// the ISA's m64nN fragment (layout/wgmma_layout.cuh).
//
// An agent whose SIMT code reads the accumulator in its loop (attention's
// S and O) holds its register tiles in the fragment's rows instead
// (docs/cuda.md, "The fragment's rows"): a thread has 2 Bands rows, row
// slot 2 b + h being row 16 w + lane / 4 + 8 h of band b, and of each row
// the columns 8 j + 2 (lane % 4) + {0, 1}, N / 4 of them, in column order.
// Row-major by slot, so the translation's elementwise math, row broadcasts
// and row reductions (a thread's part, then its lane quad's) apply as they
// are. wgmma_rows / wgmma_regs reorder between the two, within a thread.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_WGMMA_CUH
#define TILEPIPE_RUNTIME_WGMMA_CUH

#include "tilepipe/arch/sm90/wgmma.cuh"
#include "tilepipe/layout/tile.cuh"
#include "tilepipe/layout/wgmma_layout.cuh"
#include "tilepipe/layout/wgmma_shapes.h"
#include "tilepipe/ptx/fences.cuh"
#include "tilepipe/ptx/smem.cuh"
#include "tilepipe/runtime/base.cuh"
#include "tilepipe/runtime/frag.cuh"

#include <type_traits>

namespace tp {

namespace detail {
template <class T>
constexpr ptx::Wgmma16 kWgmma16 =
    kSame<T, __half> ? ptx::Wgmma16::F16 : ptx::Wgmma16::BF16;

/// s8 and u8: s32 accumulators, K-major only.
template <class T>
constexpr bool kIsInt8 = kSame<T, int8_t> || kSame<T, uint8_t>;

/// tf32 (a float tile) and the 8-bit types: K-major only, no register A
/// (but an 8-bit float one).
template <class T>
constexpr bool kWgmmaKMajorOnly = kSame<T, float> || kIsF8<T> || kIsInt8<T>;
template <class T>
constexpr ptx::WgmmaKMajor kWgmmaKMajor =
    kSame<T, float>            ? ptx::WgmmaKMajor::TF32
    : kSame<T, __nv_fp8_e4m3> ? ptx::WgmmaKMajor::E4M3
                              : ptx::WgmmaKMajor::E5M2;

/// sm_90's matrix descriptor: sm_100's bits without the version field
/// [46, 49), which sm_90 reserves (layout/wgmma_layout.cuh).
TP_HOST_DEVICE uint64_t sm90_desc(uint64_t sm100) {
  return sm100 & ~(uint64_t(7) << 46);
}

/// What both forms of a 16-bit wgmma require of their operands.
template <class TA, class BV> TP_HOST_DEVICE constexpr bool wgmma16_operands() {
  static_assert(kSame<TA, typename BV::Elem>, "A and B of one type");
  static_assert(kSame<TA, __nv_bfloat16> || kSame<TA, __half>,
                "wgmma here: bf16 or f16 operands");
  return true;
}

/// What wgmma from SMEM requires of its operands: one 16-bit type, tf32,
/// two 8-bit floats or two 8-bit integers; the last three K-major.
template <class TA, class BV> TP_HOST_DEVICE constexpr bool wgmma_ss_operands() {
  using TB = typename BV::Elem;
  if constexpr (kWgmmaKMajorOnly<TA> || kWgmmaKMajorOnly<TB>) {
    static_assert((kSame<TA, float> && kSame<TB, float>) ||
                      (kIsF8<TA> && kIsF8<TB>) || (kIsInt8<TA> && kIsInt8<TB>),
                  "wgmma here: tf32 x tf32, two 8-bit floats or two 8-bit "
                  "integers");
    static_assert(!BV::kMNMajor, "tf32 and 8-bit B are K-major for wgmma");
    return true;
  } else {
    return wgmma16_operands<TA, BV>();
  }
}

template <class T>
constexpr ptx::WgmmaInt8 kWgmmaInt8 =
    kSame<T, int8_t> ? ptx::WgmmaInt8::S8 : ptx::WgmmaInt8::U8;

/// The accumulator fenced from the compiler, then wgmma.fence: before a
/// warpgroup's MMAs of one K-block.
template <class T, int N> TP_DEVICE void wgmma_begin(Frag<T, N> &d) {
  ptx::wgmma_fence_operand(d.v);
  ptx::wgmma_fence();
}

/// Their commit group, and the accumulator fenced again.
template <class T, int N> TP_DEVICE void wgmma_end(Frag<T, N> &d) {
  ptx::wgmma_commit_group();
  ptx::wgmma_fence_operand(d.v);
}
} // namespace detail

/// D (+)= A B^T for one K-block, by the calling warpgroup (all 128 threads,
/// warp-aligned): its Bands 64-row bands of A (AV, K- or MN-major) from band
/// `firstBand` on (0 when one warpgroup holds the tile, Bands times its
/// index otherwise), and B (BV, K- or MN-major; tf32 and 8-bit: both
/// K-major) of N
/// rows; one wgmma per band and 32 bytes of K (m64nNk16, k8 for tf32, k32
/// for e4m3/e5m2 and s8/u8), in one commit group. D is f32, or s32 (TD
/// int32_t) for 8-bit integer operands. `accumulate`
/// false: the first step overwrites D. The caller retires the group with
/// wgmma_wait.
template <class AV, class BV, int Bands, class TD>
TP_DEVICE void wgmma_ss(Frag<TD, Bands * BV::kMN / 2> &d, uint32_t a,
                        uint32_t b, bool accumulate, int firstBand TP_LOC) {
  using TA = typename AV::Elem;
  constexpr int N = BV::kMN;
  static_assert(detail::wgmma_ss_operands<TA, BV>());
  static_assert(
      detail::kSame<TD, detail::Cond<detail::kIsInt8<TA>, int32_t, float>>,
      "wgmma here: 8-bit integers accumulate in s32, the rest in "
      "f32");
  // A narrow tile of 8, 16 or 32 rows (Bands 1, K-major) is read as 64
  // rows: the SMEM after it (the next slot, or the layout's pad) fills the
  // rows of D past the tile's, which are never stored (docs/cuda.md, "Tiles
  // of fewer than 64 rows").
  static_assert(
      AV::kMN % (64 * Bands) == 0 ||
          (wgmma_shape::narrow_m_ok(AV::kMN) && Bands == 1 && !AV::kMNMajor),
      "A has 64 rows a band (or is a narrow K-major tile)");
  static_assert(AV::kK == BV::kK, "A and B have one K");
  constexpr int kSteps = AV::kK * int(sizeof(TA)) / 32;
  constexpr uint32_t kBandBytes = AV::kBandBytes;
  TP_AT();
  detail::wgmma_begin(d);
#pragma unroll
  for (int s = 0; s < kSteps; ++s)
#pragma unroll
    for (int g = 0; g < Bands; ++g) {
      auto &dg = *reinterpret_cast<TD(*)[N / 2]>(&d.v[g * (N / 2)]);
      uint64_t ad = detail::sm90_desc(
          AV::desc(a + uint32_t(firstBand + g) * kBandBytes, s));
      uint64_t bd = detail::sm90_desc(BV::desc(b, s));
      bool scaleD = s == 0 ? accumulate : true;
      if constexpr (detail::kIsInt8<TA>) {
        static_assert(!AV::kMNMajor, "8-bit A: K-major");
        ptx::wgmma_ss_s32<N, detail::kWgmmaInt8<TA>,
                          detail::kWgmmaInt8<typename BV::Elem>>(dg, ad, bd,
                                                                 scaleD);
      } else if constexpr (detail::kWgmmaKMajorOnly<TA>) {
        static_assert(!AV::kMNMajor, "tf32 and 8-bit A: K-major");
        ptx::wgmma_ss_kmajor<N, detail::kWgmmaKMajor<TA>,
                             detail::kWgmmaKMajor<typename BV::Elem>>(
            dg, ad, bd, scaleD);
      } else {
        ptx::wgmma_ss<N, detail::kWgmma16<TA>, BV::kMNMajor ? 1 : 0,
                      AV::kMNMajor ? 1 : 0>(dg, ad, bd, scaleD);
      }
    }
  detail::wgmma_end(d);
}

/// An operand given MN-major that wgmma reads K-major only (tf32, e4m3,
/// e5m2; Src: K rows of M or N, those contiguous): the agent's threads copy
/// it into Dst (M or N rows of K, K contiguous) at `dst`, each element
/// through both tiles' swizzled offsets, and fence their writes for the
/// async proxy that the wgmma reads through (docs/cuda.md, "Operands given
/// MN-major"). A thread moves a block of 4 / sizeof(T) k by four columns:
/// one 16-byte read of a tf32 row, or a 4-byte read of each of four 8-bit
/// rows regrouped by bytes in registers, then a 4-byte write down each
/// column; neighbouring threads take neighbouring blocks along k, so with
/// the 128B swizzle their reads fall in distinct bank groups and their
/// writes run along Dst's rows. The caller has retired the wgmma that last read
/// `dst` and syncs the agent before the wgmma that reads it.
///
/// PermuteK (8-bit only): Dst's k holds Src's row key_of_a8(k) instead of k,
/// the order in which an 8-bit A taken from the rows holds its K
/// (layout/wgmma_layout.cuh, rows_of_a8; FP8 attention's V under P).
template <class Src, class Dst, bool PermuteK = false>
TP_DEVICE void wgmma_transpose(uint32_t dst, uint32_t src, int thread,
                               int threads TP_LOC) {
  using T = typename Src::Elem;
  static_assert(sizeof(T) == sizeof(typename Dst::Elem) &&
                    (sizeof(T) == 4 || sizeof(T) == 1),
                "32-bit (tf32) or 8-bit elements");
  static_assert(Src::kRows == Dst::kCols && Src::kCols == Dst::kRows,
                "Dst is Src transposed");
  constexpr int K = Src::kRows, MN = Src::kCols;
  constexpr int kPerWord = 4 / int(sizeof(T)); // k of a Dst word
  static_assert(MN % 4 == 0 && K % kPerWord == 0, "whole 4 x 4-byte blocks");
  static_assert(!PermuteK || (kPerWord == 4 && K % 16 == 0),
                "K permuted in 16s of 8-bit elements");
  constexpr int kBlocksK = K / kPerWord;
  TP_AT();
  for (int i = thread; i < kBlocksK * (MN / 4); i += threads) {
    int k = (i % kBlocksK) * kPerWord, c = (i / kBlocksK) * 4;
    // Four columns of a row lie in one 16-byte chunk (c is a multiple of
    // four, the swizzle moves whole chunks).
    uint32_t out[4];
    if constexpr (kPerWord == 1) {
      ptx::ld_shared<16>(src + Src::offset(k, c),
                         reinterpret_cast<unsigned char *>(out));
    } else {
      uint32_t in[4];
#pragma unroll
      for (int r = 0; r < 4; ++r)
        ptx::ld_shared<4>(
            src + Src::offset(
                      PermuteK ? layout::wgmma::key_of_a8(k + r) : k + r, c),
            reinterpret_cast<unsigned char *>(&in[r]));
        // Byte j of row k + r is column c + j: out[j] gathers column c + j
        // of the four rows, row r in its byte r.
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        out[j] = 0;
#pragma unroll
        for (int r = 0; r < 4; ++r)
          out[j] |= ((in[r] >> (8 * j)) & 0xffu) << (8 * r);
      }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j)
      ptx::st_shared<4>(dst + Dst::offset(c + j, k),
                        reinterpret_cast<const unsigned char *>(&out[j]));
  }
  ptx::fence_proxy_async();
}

/// Writes the accumulator, 64 Bands rows of N f32 a warpgroup (warpgroup w
/// of the agent its rows from 64 Bands w on), into the row-major SMEM tile
/// at `saddr`, each thread its fragment's elements (two adjacent columns
/// per 8-byte store). The caller has retired every group that writes `d`
/// (wgmma_wait<0>) and syncs the agent before the rows are read by other
/// threads. `Rows` (nonzero): the tile's rows, fewer than the fragment's (a
/// 32-row tile issued as 64); the rest are not stored.
template <int Bands, int N, int Rows = 0, class T>
TP_DEVICE void wgmma_acc_store(uint32_t saddr, Frag<T, Bands * N / 2> &d,
                               int threadInAgent) {
  static_assert(sizeof(T) == 4, "f32 or s32 accumulators");
  namespace wg = layout::wgmma;
  // Orders the reads below after the wait_group that completed the MMAs.
  ptx::wgmma_fence_operand(d.v);
  int t = threadInAgent % wg::kThreads;
  int firstBand = Bands * (threadInAgent / wg::kThreads);
#pragma unroll
  for (int g = 0; g < Bands; ++g)
#pragma unroll
    for (int i = 0; i < N / 2; i += 2) {
      wg::RowCol rc = wg::acc_element(t, i);
      int row = 64 * (firstBand + g) + rc.row;
      // A 32-row tile (Rows 32) keeps the rows it has.
      if (Rows && row >= Rows)
        continue;
      uint32_t at = saddr + uint32_t((row * N + rc.col) * 4);
      ptx::st_shared<8>(at, reinterpret_cast<const unsigned char *>(
                                &d.v[g * (N / 2) + i]));
    }
}

namespace detail {
/// Where register i of band g's m64nN fragment lies in the rows layout:
/// band g's row slots come after the g bands before it.
template <int N> TP_CONSTEXPR int rows_slot(int g, int i) {
  return 2 * g * (N / 4) + layout::wgmma::rows_of_acc(i, N);
}
} // namespace detail

/// The accumulator in the rows layout. The caller has retired every group
/// that writes `d` (a permutation of registers, which ptxas renames).
template <int Bands, int N, class T>
TP_DEVICE Frag<T, Bands * N / 2> wgmma_rows(Frag<T, Bands * N / 2> &d) {
  ptx::wgmma_fence_operand(d.v);
  Frag<T, Bands * N / 2> r;
#pragma unroll
  for (int g = 0; g < Bands; ++g)
#pragma unroll
    for (int i = 0; i < N / 2; ++i)
      r.v[detail::rows_slot<N>(g, i)] = d.v[g * (N / 2) + i];
  return r;
}

/// A tile in the rows layout as an accumulator for the next wgmma.
template <int Bands, int N, class T>
TP_DEVICE Frag<T, Bands * N / 2> wgmma_regs(const Frag<T, Bands * N / 2> &r) {
  Frag<T, Bands * N / 2> d;
#pragma unroll
  for (int g = 0; g < Bands; ++g)
#pragma unroll
    for (int i = 0; i < N / 2; ++i)
      d.v[g * (N / 2) + i] = r.v[detail::rows_slot<N>(g, i)];
  return d;
}

/// D (+)= A B^T for one K-block with A from the thread's registers: A is a
/// 16-bit tile of 64 Bands rows and K columns in the rows layout (P, the
/// softmax of an accumulator converted elementwise), which holds exactly
/// the ISA's m64k16 A fragments: for K step s and band g, register r is
/// row slot 2 g + r % 2, column slots 4 s + 2 (r / 2) and the next (the low
/// half first). B as for wgmma_ss; one commit group.
///
/// An 8-bit A (FP8 attention's P) is taken the same way, four slots a
/// register (rows_of_a8), which holds its K in the order key_of_a8: B must
/// have been staged K-major in that order (wgmma_transpose<.., true>).
template <class BV, int Bands, class TA, int NA>
TP_DEVICE void wgmma_rs(Frag<float, Bands * BV::kMN / 2> &d,
                        const Frag<TA, NA> &a, uint32_t b,
                        bool accumulate TP_LOC) {
  using TB = typename BV::Elem;
  constexpr bool kF8 = detail::kIsF8<TA>;
  constexpr int N = BV::kMN;
  constexpr int K = BV::kK;
  if constexpr (kF8)
    static_assert(detail::kIsF8<TB> && !BV::kMNMajor,
                  "an 8-bit A in registers takes an 8-bit K-major B");
  else
    static_assert(detail::wgmma16_operands<TA, BV>());
  static_assert(NA == Bands * K / 2,
                "A in the rows layout: 2 Bands rows of K / 4 columns");
  constexpr int kSteps = K / (kF8 ? 32 : 16);
  TP_AT();
  // Every A register is packed before the fence: one written between two
  // wgmmas of the group makes ptxas wait for it there (it injects a
  // warpgroup.arrive before each such wgmma, C7519).
  uint32_t ra[kSteps][Bands][4];
#pragma unroll
  for (int s = 0; s < kSteps; ++s)
#pragma unroll
    for (int g = 0; g < Bands; ++g)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        int at = 2 * g * (K / 4) + (kF8 ? layout::wgmma::rows_of_a8(s, r, K)
                                        : layout::wgmma::rows_of_a(s, r, K));
        __builtin_memcpy(&ra[s][g][r], &a.v[at], 4);
      }
  ptx::wgmma_fence_operand(
      reinterpret_cast<uint32_t(&)[kSteps * Bands * 4]>(ra));
  detail::wgmma_begin(d);
#pragma unroll
  for (int s = 0; s < kSteps; ++s)
#pragma unroll
    for (int g = 0; g < Bands; ++g) {
      auto &dg = *reinterpret_cast<float(*)[N / 2]>(&d.v[g * (N / 2)]);
      uint64_t bd = detail::sm90_desc(BV::desc(b, s));
      bool scaleD = s == 0 ? accumulate : true;
      if constexpr (kF8)
        ptx::wgmma_rs_kmajor<N, detail::kWgmmaKMajor<TA>,
                             detail::kWgmmaKMajor<TB>>(dg, ra[s][g], bd,
                                                       scaleD);
      else
        ptx::wgmma_rs<N, detail::kWgmma16<TA>, BV::kMNMajor ? 1 : 0>(
            dg, ra[s][g], bd, scaleD);
    }
  detail::wgmma_end(d);
}

/// Byte offsets of (row, column) in the SMEM tiles a rows-layout tile is
/// stored to: row-major of C columns, a BlockedTile (layout/tile.cuh); an
/// MmaTile has offset(row, column) of its own.
template <class T, int C> struct RowMajorAt {
  static TP_CONSTEXPR uint32_t offset(int r, int c) {
    return uint32_t((r * C + c) * int(sizeof(T)));
  }
};
template <class Tile> struct BlockedAt {
  static TP_CONSTEXPR uint32_t offset(int r, int c) {
    return Tile::offset(int64_t(r) * Tile::kCols + c);
  }
};

namespace detail {
/// Where the agent's thread `threadInAgent` holds its elements of a tile in
/// the rows layout (64 Bands rows a warpgroup, warpgroup w of the agent its
/// rows from 64 Bands w on): the band's rows and columns are
/// layout::wgmma::rows_element's, which the unit tests check against the ISA.
/// `Rows` (nonzero): the tile's rows, fewer than the fragment's 64 (a narrow
/// tile issued as 64 rows, ir/WgmmaStaging.h): the slots of rows past them
/// are held but never read from or written to memory.
template <int Bands, int Rows = 0> struct RowsPlace {
  int t, firstBand;
  TP_DEVICE explicit RowsPlace(int threadInAgent)
      : t(threadInAgent % layout::wgmma::kThreads),
        firstBand(Bands * (threadInAgent / layout::wgmma::kThreads)) {}
  /// The tile row of row slot `slot` (0 .. 2 Bands - 1).
  TP_DEVICE int row(int slot) const {
    return 64 * (firstBand + slot / 2) + layout::wgmma::rows_row(t, slot % 2);
  }
  /// The column of column slot `c` of a tile of C columns.
  template <int C> TP_DEVICE int col(int c) const {
    return layout::wgmma::rows_element(t, c, C).col;
  }
  /// Whether the thread is its lane quad's first (the quad shares rows).
  TP_DEVICE bool quadFirst() const { return t % 4 == 0; }
  /// Whether row slot `slot` is one of the tile's rows.
  TP_DEVICE bool kept(int slot) const { return Rows == 0 || row(slot) < Rows; }
};

/// Whether At is a 128B-swizzled tile (an MmaTile), whose offsets the rows
/// take through layout::wgmma::RowsSwizzled128.
template <class At, class = void> struct Swizzled128 : std::false_type {};
template <class At>
struct Swizzled128<At, std::enable_if_t<At::kSwizzle == Swizzle::B128>>
    : std::true_type {};

/// The offset in At of column slot pair (slot, c) of the rows: At's own
/// offset(row, column), or for a swizzled tile RowsSwizzled128's, which
/// takes the XOR on thread constants.
template <class At, int Bands, int C, int Rows>
TP_DEVICE auto rows_at(const RowsPlace<Bands, Rows> &at) {
  if constexpr (Swizzled128<At>::value) {
    layout::wgmma::RowsSwizzled128<At> sw(at.t);
    return [at, sw](int slot, int c) {
      return sw.offset(at.row(slot), c / 2, c % 2);
    };
  } else {
    return [at](int slot, int c) {
      return At::offset(at.row(slot), at.template col<C>(c));
    };
  }
}
} // namespace detail

/// Stores column slots [c, c + W) of each of the thread's row slots (64
/// Bands rows of C columns a warpgroup, warpgroup w of the agent its rows
/// from 64 Bands w on) to the SMEM tile at `saddr`, two adjacent columns a
/// store: a piece of an epilogue evaluated in column pieces (`rows_cols`).
template <class At, int Bands, int C, int W, class T, int N, int Rows = 0>
TP_DEVICE void wgmma_rows_store_cols(uint32_t saddr, int64_t c,
                                     const Frag<T, N> &f, int threadInAgent) {
  static_assert(N == 2 * Bands * W && W % 2 == 0 && (C / 4) % W == 0,
                "a rows-layout piece: W of each row slot's C / 4 columns");
  detail::RowsPlace<Bands, Rows> at(threadInAgent);
  auto offset = detail::rows_at<At, Bands, C>(at);
#pragma unroll
  for (int slot = 0; slot < 2 * Bands; ++slot)
#pragma unroll
    for (int j = 0; j < W; j += 2)
      if (at.kept(slot))
        ptx::st_shared<2 * sizeof(T)>(
            saddr + offset(slot, int(c) + j),
            reinterpret_cast<const unsigned char *>(&f.v[slot * W + j]));
}

/// Stores a tile in the rows layout, all of its C / 4 column slots.
template <class At, int Bands, int C, class T, int N, int Rows = 0>
TP_DEVICE void wgmma_rows_store(uint32_t saddr, const Frag<T, N> &f,
                                int threadInAgent) {
  static_assert(N == 2 * Bands * (C / 4) && C % 8 == 0,
                "a rows-layout tile: 2 Bands rows of C / 4 columns");
  wgmma_rows_store_cols<At, Bands, C, C / 4, T, N, Rows>(saddr, 0, f,
                                                         threadInAgent);
}

/// Loads column slots [c, c + W) of each of the thread's row slots from the
/// SMEM tile at `saddr`, two adjacent columns a load: a piece of a C tile
/// read where a piece of an epilogue uses it (`rows_cols`).
template <class At, int Bands, int C, int W, class T, int Rows = 0>
TP_DEVICE Frag<T, 2 * Bands * W> wgmma_rows_load_cols(uint32_t saddr, int64_t c,
                                                      int threadInAgent) {
  static_assert(W % 2 == 0 && (C / 4) % W == 0 && C % 8 == 0,
                "a rows-layout piece: W of each row slot's C / 4 columns");
  detail::RowsPlace<Bands, Rows> at(threadInAgent);
  auto offset = detail::rows_at<At, Bands, C>(at);
  Frag<T, 2 * Bands * W> f;
#pragma unroll
  for (int slot = 0; slot < 2 * Bands; ++slot)
#pragma unroll
    for (int j = 0; j < W; j += 2) {
      if (!at.kept(slot)) {
        f.v[slot * W + j] = f.v[slot * W + j + 1] = T{};
        continue;
      }
      ptx::ld_shared<2 * sizeof(T)>(
          saddr + offset(slot, int(c) + j),
          reinterpret_cast<unsigned char *>(&f.v[slot * W + j]));
    }
  return f;
}

/// Loads a tile into the rows layout (the inverse of wgmma_rows_store: a C
/// tile loaded by TMA for an epilogue that runs on the fragment). The
/// caller's wait on the tile's TMA barrier orders the loads after the copy.
template <class At, int Bands, int C, class T, int N, int Rows = 0>
TP_DEVICE Frag<T, N> wgmma_rows_load(uint32_t saddr, int threadInAgent) {
  static_assert(N == 2 * Bands * (C / 4) && C % 8 == 0,
                "a rows-layout tile: 2 Bands rows of C / 4 columns");
  return wgmma_rows_load_cols<At, Bands, C, C / 4, T, Rows>(saddr, 0,
                                                            threadInAgent);
}

/// A rows-layout tile read with a padding (smem_load valid(..) padding =
/// V, an attention bias padded with -inf): element (slot, j) is row
/// at.row(slot), column slot c + j of the tile; at or past validRows x
/// validCols (the tensor's extents beyond the tile's origin, where TMA
/// wrote zero) it reads as `pad`.
template <int Bands, int C, int W, class T, int N>
TP_DEVICE Frag<T, N> wgmma_rows_padded(Frag<T, N> f, int64_t c,
                                       int threadInAgent, int64_t validRows,
                                       int64_t validCols, float pad) {
  static_assert(N == 2 * Bands * W, "2 Bands row slots of W columns");
  detail::RowsPlace<Bands> at(threadInAgent);
  const T value = detail::from_f32<T>(pad);
#pragma unroll
  for (int slot = 0; slot < 2 * Bands; ++slot)
#pragma unroll
    for (int j = 0; j < W; ++j)
      if (at.row(slot) >= validRows ||
          at.template col<C>(int(c) + j) >= validCols)
        f.v[slot * W + j] = value;
  return f;
}

/// Loads a per-row vector (row-major in SMEM) into the rows layout: each
/// thread the values of its 2 Bands rows.
template <int Bands, class T, int N, int Rows = 0>
TP_DEVICE Frag<T, N> wgmma_rows_load_vector(uint32_t saddr, int threadInAgent) {
  static_assert(N == 2 * Bands, "a per-row vector: 2 Bands values a thread");
  detail::RowsPlace<Bands, Rows> at(threadInAgent);
  Frag<T, N> f;
#pragma unroll
  for (int slot = 0; slot < 2 * Bands; ++slot)
    if (!at.kept(slot))
      f.v[slot] = T{};
    else
      ptx::ld_shared<sizeof(T)>(saddr + uint32_t(at.row(slot) * int(sizeof(T))),
                                reinterpret_cast<unsigned char *>(&f.v[slot]));
  return f;
}

/// Stores a per-row vector in the rows layout (2 Bands values a thread) to
/// the row-major vector at `saddr`: the first lane of each quad its rows.
template <int Bands, class T, int N, int Rows = 0>
TP_DEVICE void wgmma_rows_store_vector(uint32_t saddr, const Frag<T, N> &f,
                                       int threadInAgent) {
  static_assert(N == 2 * Bands, "a per-row vector: 2 Bands values a thread");
  detail::RowsPlace<Bands, Rows> at(threadInAgent);
  if (!at.quadFirst())
    return;
#pragma unroll
  for (int slot = 0; slot < 2 * Bands; ++slot)
    if (at.kept(slot))
      ptx::st_shared<sizeof(T)>(
          saddr + uint32_t(at.row(slot) * int(sizeof(T))),
          reinterpret_cast<const unsigned char *>(&f.v[slot]));
}

/// Column slots [c, c + W) of a per-column vector (C values in SMEM, a bias
/// TMA brought in) in the rows layout: slot j is column 8 (j / 2) + 2 (lane
/// % 4) + j % 2, two adjacent ones a load. An epilogue in pieces reads them
/// where a piece uses them (`rows_cols`), so the vector is never held
/// whole; tp::bcast_cols repeats them for each row slot.
template <int C, int W, class T>
TP_DEVICE Frag<T, W> wgmma_cols_load_piece(uint32_t saddr, int64_t c,
                                           int threadInAgent) {
  static_assert(W % 2 == 0 && (C / 4) % W == 0 && C % 8 == 0,
                "a piece of a per-column vector: W of the C / 4 slots");
  detail::RowsPlace<1> at(threadInAgent);
  Frag<T, W> f;
#pragma unroll
  for (int j = 0; j < W; j += 2)
    ptx::ld_shared<2 * sizeof(T)>(
        saddr + uint32_t(at.template col<C>(int(c) + j) * int(sizeof(T))),
        reinterpret_cast<unsigned char *>(&f.v[j]));
  return f;
}

/// A per-column vector's C / 4 column slots in the rows layout (each
/// thread the values of its columns).
template <int C, class T, int N>
TP_DEVICE Frag<T, N> wgmma_cols_load_vector(uint32_t saddr, int threadInAgent) {
  static_assert(N == C / 4 && C % 8 == 0,
                "a per-column vector in the rows: C / 4 values a thread");
  return wgmma_cols_load_piece<C, C / 4, T>(saddr, 0, threadInAgent);
}

/// Column slots [c, c + W) of each of a rows-layout tile's S row slots,
/// slot-major as the tile is (a per-row vector then broadcasts over a
/// piece as over the tile): an epilogue on the fragment evaluated W
/// columns at a time, so that what it makes is never held whole beside the
/// accumulator. A one-value fragment (a scalar splat) is every element.
template <int S, int W, class T, int N>
TP_DEVICE Frag<T, S * W> rows_cols(const Frag<T, N> &f, int64_t c) {
  Frag<T, S * W> r;
  if constexpr (N == 1) {
#pragma unroll
    for (int i = 0; i < S * W; ++i)
      r.v[i] = f.v[0];
  } else {
    static_assert(N % S == 0 && (N / S) % W == 0,
                  "a rows-layout tile is S row slots of whole pieces");
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
      for (int j = 0; j < W; ++j)
        r.v[s * W + j] = f.v[s * (N / S) + int(c) + j];
  }
  return r;
}

/// A per-column vector passed in (C values in global memory) in the rows
/// layout: each thread the values of its columns.
template <int C, class T, int N>
TP_DEVICE Frag<T, N> wgmma_cols_global_load(const T *p, int threadInAgent) {
  static_assert(N == C / 4 && C % 8 == 0,
                "a per-column vector in the rows: C / 4 values a thread");
  detail::RowsPlace<1> at(threadInAgent);
  Frag<T, N> f;
#pragma unroll
  for (int c = 0; c < N; ++c)
    f.v[c] = p[at.template col<C>(c)];
  return f;
}

/// A register tile passed in (row-major in global memory, C columns; C 1:
/// a per-row vector) in the rows layout: each thread loads its 2 Bands rows,
/// of each its N / (2 Bands) columns 8 j + 2 (lane % 4) + {0, 1}.
template <int Bands, int C, class T, int N, int Rows = 0>
TP_DEVICE Frag<T, N> wgmma_rows_global_load(const T *p, int threadInAgent) {
  constexpr int kPerRow = N / (2 * Bands);
  static_assert(N % (2 * Bands) == 0 && (C == 1 ? kPerRow == 1
                                                 : kPerRow == C / 4),
                "a rows-layout tile: 2 Bands rows of C / 4 columns, or a "
                "per-row vector");
  detail::RowsPlace<Bands, Rows> at(threadInAgent);
  Frag<T, N> f;
#pragma unroll
  for (int slot = 0; slot < 2 * Bands; ++slot) {
    if (!at.kept(slot)) {
      for (int c = 0; c < kPerRow; ++c)
        f.v[slot * kPerRow + c] = T{};
      continue;
    }
    const T *row = p + static_cast<size_t>(at.row(slot)) * C;
#pragma unroll
    for (int c = 0; c < kPerRow; ++c)
      f.v[slot * kPerRow + c] = row[C == 1 ? 0 : at.template col<C>(c)];
  }
  return f;
}

/// wgmma.wait_group Pending, for the translation's releases: at most
/// Pending of the thread's commit groups still in flight.
template <int Pending> TP_DEVICE void wgmma_wait() {
  ptx::wgmma_wait_group<Pending>();
}

/// Whether the agent's thread `threadInAgent` is in its first warpgroup
/// (which runs an epilogue after two consumer warpgroups).
TP_DEVICE bool first_warpgroup(int threadInAgent) {
  return threadInAgent < layout::wgmma::kThreads;
}
/// Whether the agent's thread is among its first `threads` (the warps that
/// run a 32-row tile's staged epilogue, a row a thread).
TP_DEVICE bool first_threads(int threadInAgent, int threads) {
  return threadInAgent < threads;
}

/// Whether a release waits for the next wait_group (-1: none does).
TP_DEVICE bool wgmma_pending(int64_t k) { return k >= 0; }

} // namespace tp

#endif // TILEPIPE_RUNTIME_WGMMA_CUH
