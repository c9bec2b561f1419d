// A cuTile host for the GEMM fixtures of test/cutile/ (kernels/matmul.py and
// kernels/matmul_bias_act.py), launching what `tilepipe compile` made of
// their bytecode through <symbol>_launch with the parameters cuTile's
// calling convention passes (cutile_python_v1: per array the pointer, then
// shape and strides as int32). Built with -DBIAS_ACT it drives
// matmul_bias_act (D = leaky_relu(A B + bias), 128 x 128 tiles), else matmul
// (C = A B, 128 x 256 tiles, grid (tiles of M, tiles of N)); matmul_bias_act
// takes its tiles in grouped order from a 1-D grid of every tile. Checks the
// result against a float64 reference to its bf16 rounding, and the padding
// beyond each output row against being written.
//
//   cutile_gemm_host M N K   "SYMBOL MxNxK, grid XxY: ok ..." or exit 1
#if defined(TILEPIPE_CPU)
#include <tilepipe/host/cutile.cuh> // dim3, cudaError_t, cudaStream_t
#else
#include <cuda_runtime.h>
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(BIAS_ACT)
#define SYMBOL "matmul_bias_act"
#define LAUNCH matmul_bias_act_launch
#define LAUNCH_ERROR matmul_bias_act_launch_error
constexpr int64_t kTileN = 128;
#else
#define SYMBOL "matmul"
#define LAUNCH matmul_launch
#define LAUNCH_ERROR matmul_launch_error
constexpr int64_t kTileN = 256;
#endif
constexpr int64_t kTileM = 128;
constexpr double kAlpha = 0.125; // matmul_bias_act.py's ALPHA

extern "C" cudaError_t LAUNCH(dim3 grid, cudaStream_t stream, void **params);
extern "C" const char *LAUNCH_ERROR(void);

namespace {

uint16_t toBf16(float f) { // exact for the values below
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);
}
double fromBf16(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/// Multiples of 1/8 in [-1, 1]: products and their f32 sums are exact here.
float eighths(uint64_t &state) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return float(int((state >> 33) % 17) - 8) / 8.0f;
}

/// One array parameter's flattened values.
struct ArrayParam {
  void *data;
  std::vector<int32_t> shape, strides;
};

/// `params` as cuLaunchKernel takes it: the address of each value.
std::vector<void *> flatten(std::vector<ArrayParam> &arrays) {
  std::vector<void *> slots;
  for (ArrayParam &a : arrays) {
    slots.push_back(&a.data);
    for (int32_t &s : a.shape)
      slots.push_back(&s);
    for (int32_t &s : a.strides)
      slots.push_back(&s);
  }
  return slots;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: cutile_gemm_host M N K\n");
    return 2;
  }
  int64_t M = std::atoll(argv[1]), N = std::atoll(argv[2]),
          K = std::atoll(argv[3]);
  // Rows padded to a multiple of 8 elements (16 bytes) and 8 more.
  int64_t lda = roundUp(K, 8) + 8, ldb = roundUp(N, 8) + 8,
          ldc = roundUp(N, 8) + 8;
  const uint16_t sentinel = 0x7FC1; // a bf16 NaN
  std::vector<uint16_t> A(size_t(M * lda), 0), B(size_t(K * ldb), 0),
      C(size_t(M * ldc), sentinel);
  std::vector<float> bias(static_cast<size_t>(N));
  uint64_t state = 7;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k)
      A[size_t(i * lda + k)] = toBf16(eighths(state));
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < N; ++j)
      B[size_t(k * ldb + j)] = toBf16(eighths(state));
  for (float &b : bias)
    b = eighths(state) * 4;

  auto i32 = [](int64_t v) { return int32_t(v); };
  std::vector<ArrayParam> arrays = {
      {A.data(), {i32(M), i32(K)}, {i32(lda), 1}},
      {B.data(), {i32(K), i32(N)}, {i32(ldb), 1}}};
#if defined(BIAS_ACT)
  arrays.push_back({bias.data(), {i32(N)}, {1}});
#endif
  arrays.push_back({C.data(), {i32(M), i32(N)}, {i32(ldc), 1}});
  std::vector<void *> params = flatten(arrays);
  unsigned tilesM = unsigned((M + kTileM - 1) / kTileM),
           tilesN = unsigned((N + kTileN - 1) / kTileN);
#if defined(BIAS_ACT)
  dim3 grid(tilesM * tilesN, 1, 1); // one block per tile, in grouped order
#else
  dim3 grid(tilesM, tilesN, 1);
#endif
  cudaError_t e = LAUNCH(grid, nullptr, params.data());
  if (e != cudaSuccess) {
    std::fprintf(stderr, SYMBOL "_launch: error %d: %s\n", int(e),
                 LAUNCH_ERROR());
    return 1;
  }

  int bad = 0;
  double maxErr = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      uint16_t got = C[size_t(i * ldc + j)];
      if (j >= N) {
        bad += got != sentinel;
        continue;
      }
      double ref = 0;
      for (int64_t k = 0; k < K; ++k)
        ref +=
            fromBf16(A[size_t(i * lda + k)]) * fromBf16(B[size_t(k * ldb + j)]);
#if defined(BIAS_ACT)
      ref += double(bias[size_t(j)]);
      ref = std::fmax(ref, kAlpha * ref);
#endif
      double err = std::fabs(fromBf16(got) - ref);
      maxErr = std::fmax(maxErr, err);
      if (!(err <= std::fabs(ref) * 0x1p-8 + 1e-6)) {
        if (bad < 5)
          std::fprintf(stderr, "C[%lld][%lld] = %g, expected %g\n",
                       (long long)i, (long long)j, fromBf16(got), ref);
        ++bad;
      }
    }
  std::printf(SYMBOL " %lldx%lldx%lld, grid %ux%u: %s (max error %.3g)\n",
              (long long)M, (long long)N, (long long)K, grid.x, grid.y,
              bad ? "WRONG" : "ok", maxErr);
  return bad ? 1 : 0;
}
