//===- runtime/positions.cuh - element positions and masks -----*- CUDA -*-===//
//
// tileas.iota and the integer math of masks on register tiles (docs/cuda.md,
// "Positions"). A thread's positions follow from where the layout puts its
// elements, so none is loaded or handed over:
//  - rows a thread (row-major, thread t rows t R .. t R + R - 1, or row64's
//    row for a 64-row tile): iota_rows;
//  - a column piece [c, c + W) of a streamed row: iota_cols;
//  - the wgmma fragment's rows: wgmma_rows_iota, the rows and columns of
//    detail::RowsPlace, which the unit tests check against the ISA;
//  - a per-column vector (positions a tileas.broadcast spreads along
//    columns): whole in every thread (iota_cols from 0), or in the
//    fragment's rows the thread's columns (wgmma_cols_iota).
// The math is arith's on each element (runtime/int_arith.cuh: addi wraps,
// cmpi's signed predicates compare two's complement values), broadcasting
// a shorter fragment as the float math does.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_POSITIONS_CUH
#define TILEPIPE_RUNTIME_POSITIONS_CUH

#include "tilepipe/runtime/frag.cuh"
#include "tilepipe/runtime/int_arith.cuh"
#include "tilepipe/runtime/wgmma.cuh"

namespace tp {

/// Dimension Dim's index of each of a thread's N elements, in rows of C
/// columns from row `row` R on (R = N / C rows a thread).
template <int Dim, int C, int N>
TP_DEVICE Frag<int32_t, N> iota_rows(int64_t row) {
  static_assert(N % C == 0 && (Dim == 0 || Dim == 1),
                "positions of whole rows, along dimension 0 or 1");
  constexpr int R = N / C;
  Frag<int32_t, N> f;
#pragma unroll
  for (int i = 0; i < N; ++i)
    f.v[i] = Dim == 0 ? int32_t(row * R + i / C) : int32_t(i % C);
  return f;
}

/// The column indices of a piece: c, c + 1, .., c + W - 1.
template <int W> TP_DEVICE Frag<int32_t, W> iota_cols(int64_t c) {
  Frag<int32_t, W> f;
#pragma unroll
  for (int i = 0; i < W; ++i)
    f.v[i] = int32_t(c + i);
  return f;
}

/// Dimension Dim's index of each element the thread holds in the wgmma
/// fragment's rows (2 Bands row slots of C / 4 columns each).
template <int Dim, int Bands, int C, int N>
TP_DEVICE Frag<int32_t, N> wgmma_rows_iota(int threadInAgent) {
  static_assert(N == 2 * Bands * (C / 4) && C % 8 == 0,
                "a rows-layout tile: 2 Bands rows of C / 4 columns");
  detail::RowsPlace<Bands> at(threadInAgent);
  Frag<int32_t, N> f;
#pragma unroll
  for (int slot = 0; slot < 2 * Bands; ++slot)
#pragma unroll
    for (int c = 0; c < C / 4; ++c)
      f.v[slot * (C / 4) + c] =
          Dim == 0 ? int32_t(at.row(slot)) : int32_t(at.template col<C>(c));
  return f;
}

/// A per-column vector of positions 0 .. C - 1 in the rows layout: the
/// thread's C / 4 columns, slot j column 8 (j / 2) + 2 (lane % 4) + j % 2,
/// as wgmma_cols_load_vector reads a vector from SMEM.
template <int C, int N>
TP_DEVICE Frag<int32_t, N> wgmma_cols_iota(int threadInAgent) {
  static_assert(N == C / 4 && C % 8 == 0,
                "a per-column vector in the rows: C / 4 values a thread");
  detail::RowsPlace<1> at(threadInAgent);
  Frag<int32_t, N> f;
#pragma unroll
  for (int j = 0; j < N; ++j)
    f.v[j] = int32_t(at.template col<C>(j));
  return f;
}

// arith's integer ops on tiles: each element as int_arith.cuh computes it.
#define TP_TILE_INT(name, R, expr)                                             \
  template <class T, int NA, int NB>                                           \
  TP_DEVICE Frag<R, detail::kMax<NA, NB>> name(const Frag<T, NA> &a,           \
                                               const Frag<T, NB> &b) {         \
    return detail::zip<R>([](T x, T y) { return expr; }, a, b);                \
  }
TP_TILE_INT(tile_addi, T, addi(x, y))
TP_TILE_INT(tile_subi, T, subi(x, y))
TP_TILE_INT(tile_muli, T, muli(x, y))
TP_TILE_INT(tile_andi, T, detail::wrap<T>(detail::bits(x) & detail::bits(y)))
TP_TILE_INT(tile_ori, T, detail::wrap<T>(detail::bits(x) | detail::bits(y)))
TP_TILE_INT(tile_xori, T, detail::wrap<T>(detail::bits(x) ^ detail::bits(y)))
TP_TILE_INT(tile_maxsi, T, detail::sval(x) < detail::sval(y) ? y : x)
TP_TILE_INT(tile_minsi, T, detail::sval(y) < detail::sval(x) ? y : x)
// Rows split over lanes (SplitRows) place element (t, j) at row t / L, column
// (t % L) C / L + j: C's truncating division and remainder are divsi's and
// remsi's (the divisor a constant power of two, never 0 or -1).
TP_TILE_INT(tile_divsi, T, x / y)
TP_TILE_INT(tile_remsi, T, x % y)
// cuTile's `offs // 2` (an upsample's source index): rounded toward -inf.
TP_TILE_INT(tile_floordivsi, T, floordivsi(x, y))
TP_TILE_INT(tile_ceildivsi, T, ceildivsi(x, y))
// `offs >> 1`, `offs << 2`: arith's shifts (a shift of the width or more is
// poison there; int_arith.cuh gives it a value).
TP_TILE_INT(tile_shli, T, shli(x, y))
TP_TILE_INT(tile_shrsi, T, shrsi(x, y))
TP_TILE_INT(tile_cmpi_eq, bool, x == y)
TP_TILE_INT(tile_cmpi_ne, bool, x != y)
TP_TILE_INT(tile_cmpi_slt, bool, cmpi_slt(x, y))
TP_TILE_INT(tile_cmpi_sle, bool, cmpi_sle(x, y))
TP_TILE_INT(tile_cmpi_sgt, bool, cmpi_sgt(x, y))
TP_TILE_INT(tile_cmpi_sge, bool, cmpi_sge(x, y))
TP_TILE_INT(tile_cmpi_ult, bool, cmpi_ult(x, y))
TP_TILE_INT(tile_cmpi_ule, bool, cmpi_ule(x, y))
TP_TILE_INT(tile_cmpi_ugt, bool, cmpi_ugt(x, y))
TP_TILE_INT(tile_cmpi_uge, bool, cmpi_uge(x, y))
#undef TP_TILE_INT

} // namespace tp

#endif // TILEPIPE_RUNTIME_POSITIONS_CUH
