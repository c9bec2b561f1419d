//===- RowsPiecesTest.cpp - an epilogue on the fragment's rows, in pieces -===//
//
// The runtime calls of cuda/emit/RowsPieces.cpp (docs/cuda.md, "The
// epilogue in pieces"), run on the CPU emulator by one warpgroup: a tile in
// the rows layout stored piece by piece lands where the whole store puts
// it, in a row-major tile and in a 128B-swizzled one; a C tile and a
// per-column vector read piece by piece are the whole reads' slices.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/emulator/prelude.h"

#include "tilepipe/runtime/positions.cuh"
#include "tilepipe/runtime/wgmma.cuh"

#include <cstring>
#include <functional>

#include <gtest/gtest.h>

#include "tilepipe/emulator/driver.h"

namespace rows_pieces_test {

constexpr uint32_t kSmem = tp::cpu::rt::kSmemWindow;

bool run(std::function<void()> body) {
  tp::cpu::LaunchOptions o;
  o.seed = 1;
  o.maxSteps = 4'000'000;
  tp::cpu::LaunchResult r =
      tp::cpu::launch(dim3(1), dim3(128), 96 * 1024, o, std::move(body));
  EXPECT_TRUE(r.ok) << r.report;
  return r.ok;
}

TEST(CpuEmuRowsPieces, RowsColsSlicesEveryRowSlot) {
  tp::Frag<float, 128> f;
  for (int i = 0; i < 128; ++i)
    f.v[i] = float(i);
  tp::Frag<float, 16> p = tp::rows_cols<2, 8>(f, 16);
  for (int j = 0; j < 8; ++j) {
    EXPECT_EQ(p.v[j], float(16 + j));     // row slot 0: slots 16 .. 23
    EXPECT_EQ(p.v[8 + j], float(80 + j)); // row slot 1: 64 + 16 ..
  }
  tp::Frag<float, 1> one;
  one.v[0] = 3.0f;
  tp::Frag<float, 16> s = tp::rows_cols<2, 8>(one, 24);
  for (float x : s.v)
    EXPECT_EQ(x, 3.0f);
}

/// Stores a tile of 64 rows and C columns whole at kSmem and in pieces of
/// W column slots at kSmem + bytes; true when the two are the same bytes.
template <class At, int C, int W> bool piecesStoreAsTheWhole() {
  constexpr int N = 2 * (C / 4);
  constexpr uint32_t bytes = 64 * C * sizeof(__nv_bfloat16);
  bool same = false;
  bool ok = run([&] {
    int t = int(threadIdx.x);
    tp::Frag<__nv_bfloat16, N> f;
    for (int i = 0; i < N; ++i)
      f.v[i] = __float2bfloat16_rn(float((t * N + i) % 251));
    tp::wgmma_rows_store<At, 1, C>(kSmem, f, t);
    for (int64_t c = 0; c < C / 4; c += W)
      tp::wgmma_rows_store_cols<At, 1, C, W>(kSmem + bytes, c,
                                             tp::rows_cols<2, W>(f, c), t);
    __syncthreads();
    if (t == 0)
      same = std::memcmp(tp::cpu::shared_to_generic(kSmem),
                         tp::cpu::shared_to_generic(kSmem + bytes), bytes) == 0;
  });
  return ok && same;
}

TEST(CpuEmuRowsPieces, PiecesStoreWhereTheWholeStoreDoes) {
  EXPECT_TRUE(
      (piecesStoreAsTheWhole<tp::RowMajorAt<__nv_bfloat16, 64>, 64, 8>()));
  EXPECT_TRUE(
      (piecesStoreAsTheWhole<tp::RowMajorAt<__nv_bfloat16, 40>, 40, 2>()));
  using Swizzled = tp::MmaTile<__nv_bfloat16, 64, 64, tp::Swizzle::B128>;
  EXPECT_TRUE((piecesStoreAsTheWhole<Swizzled, 64, 8>()));
  EXPECT_TRUE((piecesStoreAsTheWhole<Swizzled, 64, 4>()));
}

TEST(CpuEmuRowsPieces, PiecesReadTheWholeReadsSlices) {
  constexpr int C = 64, N = 2 * (C / 4), W = 8;
  using At = tp::MmaTile<__nv_bfloat16, 64, 64, tp::Swizzle::B128>;
  constexpr uint32_t vector = kSmem + 64 * C * 2;
  int wrong = 0;
  bool ok = run([&] {
    int t = int(threadIdx.x);
    auto *tile =
        static_cast<__nv_bfloat16 *>(tp::cpu::shared_to_generic(kSmem));
    auto *cols = static_cast<float *>(tp::cpu::shared_to_generic(vector));
    for (int i = t; i < 64 * C; i += 128)
      tile[i] = __float2bfloat16_rn(float(i % 199));
    if (t < C)
      cols[t] = float(1000 + t);
    __syncthreads();
    auto whole = tp::wgmma_rows_load<At, 1, C, __nv_bfloat16, N>(kSmem, t);
    auto vec = tp::wgmma_cols_load_vector<C, float, C / 4>(vector, t);
    for (int64_t c = 0; c < C / 4; c += W) {
      auto p =
          tp::wgmma_rows_load_cols<At, 1, C, W, __nv_bfloat16>(kSmem, c, t);
      auto q = tp::rows_cols<2, W>(whole, c);
      auto v = tp::wgmma_cols_load_piece<C, W, float>(vector, c, t);
      auto u = tp::cols<W>(vec, c);
      wrong += std::memcmp(&p, &q, sizeof(p)) != 0;
      wrong += std::memcmp(&v, &u, sizeof(v)) != 0;
    }
  });
  EXPECT_TRUE(ok);
  EXPECT_EQ(wrong, 0);
}

// A per-column vector of positions (tp::wgmma_cols_iota) holds, in each
// thread, the columns a vector read from SMEM puts there, and the columns of
// the thread's elements of a rows-layout tile (tp::wgmma_rows_iota along
// dimension 1), so a broadcast of it masks the right elements.
TEST(CpuEmuRowsPieces, ColumnPositionsAreTheColumnsTheThreadHolds) {
  constexpr int C = 64, N = C / 4;
  int wrong = 0;
  bool ok = run([&] {
    int t = int(threadIdx.x);
    auto *cols = static_cast<int32_t *>(tp::cpu::shared_to_generic(kSmem));
    if (t < C)
      cols[t] = t;
    __syncthreads();
    auto read = tp::wgmma_cols_load_vector<C, int32_t, N>(kSmem, t);
    auto made = tp::wgmma_cols_iota<C, N>(t);
    auto tile = tp::wgmma_rows_iota<1, 1, C, 2 * N>(t);
    for (int j = 0; j < N; ++j)
      wrong += made.v[j] != read.v[j] || made.v[j] != tile.v[j] ||
               made.v[j] != tile.v[N + j];
  });
  EXPECT_TRUE(ok);
  EXPECT_EQ(wrong, 0);
}

} // namespace rows_pieces_test
