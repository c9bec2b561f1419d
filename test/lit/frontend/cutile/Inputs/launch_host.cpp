// A host program written the way a cuTile host launches the cubin tileiras
// makes from cuTile's bytecode: the kernel's parameters flattened under
// cutile_python_v1 (per array: the pointer, shape[0..n) and strides[0..n)
// as int32; scalars as themselves), one pointer to each in `params`, the
// grid one CTA per 128 x 128 tile of C. It calls gemm_bias_launch, the
// launcher tilepipe-translate writes for the lowered kernel
// (launch-gemm-bias.mlir: C = alpha * (A . B) + bias[n], B given K x N),
// and checks C against a float64 reference, and the padding beyond each
// row of C against being written.
//
//   launch_host M N K        run and check; "gemm_bias MxNxK: ok ..." or 1
//   launch_host --refuse W   pass an array no TMA can take (W: inner-stride,
//                            byte-stride, align, null-param); prints the
//                            launcher's error, exits 0 if it refused
//
// With -DA_INDEX64, A's shape and strides are passed as int64 (the kernel's
// tileas.cutile.params says index = i64 for it).
// On the emulator (-DTILEPIPE_CPU) "device" memory is host memory; on a GPU
// the arrays would be cudaMalloc'ed and copied, and nothing else changes.
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
#include <string>
#include <vector>

extern "C" cudaError_t gemm_bias_launch(dim3 grid, cudaStream_t stream,
                                        void **params);
extern "C" const char *gemm_bias_launch_error(void);

namespace {

uint16_t toBf16(float f) { // exact for the values below
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);
}
float fromBf16(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
int64_t roundUp(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/// Multiples of 1/8 in [-1, 1]: products and their f32 sums are exact at
/// these sizes, so C differs from the reference only by its bf16 rounding.
float eighths(uint64_t &state) {
  state = state * 6364136223846793005ull + 1442695040888963407ull;
  return float(int((state >> 33) % 17) - 8) / 8.0f;
}

/// One cuTile array parameter, as its flattened values: shape and strides
/// as int32, or as int64 for an array declared with index_dtype int64.
struct ArrayParam {
  void *data;
  std::vector<int32_t> shape, strides;
  bool index64 = false;
  std::vector<int64_t> shape64, strides64;
};

/// The flattened parameters and `params`, pointing into them.
struct Params {
  std::vector<ArrayParam> arrays;
  float alpha = 0.5f;
  std::vector<void *> slots;
  void **build() {
    slots.clear();
    for (ArrayParam &a : arrays) {
      slots.push_back(&a.data);
      if (a.index64) {
        a.shape64.assign(a.shape.begin(), a.shape.end());
        a.strides64.assign(a.strides.begin(), a.strides.end());
        for (int64_t &s : a.shape64)
          slots.push_back(&s);
        for (int64_t &s : a.strides64)
          slots.push_back(&s);
        continue;
      }
      for (int32_t &s : a.shape)
        slots.push_back(&s);
      for (int32_t &s : a.strides)
        slots.push_back(&s);
    }
    slots.push_back(&alpha);
    return slots.data();
  }
};

struct Gemm {
  int64_t M, N, K, lda, ldb, ldc;
  std::vector<uint16_t> A, B, C;
  std::vector<float> bias;
  static constexpr uint16_t kSentinel = 0x7FC1; // a bf16 NaN

  Gemm(int64_t m, int64_t n, int64_t k) : M(m), N(n), K(k) {
    // Padded rows (views of larger arrays): strides differ from shapes.
    lda = roundUp(K, 8) + 8;
    ldb = roundUp(N, 8) + 8;
    ldc = roundUp(N, 8) + 8;
    uint64_t state = 42;
    A.assign(size_t(M * lda), 0);
    B.assign(size_t(K * ldb), 0);
    C.assign(size_t(M * ldc), kSentinel);
    bias.resize(size_t(N));
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k)
        A[size_t(i * lda + k)] = toBf16(eighths(state));
    for (int64_t k = 0; k < K; ++k)
      for (int64_t j = 0; j < N; ++j)
        B[size_t(k * ldb + j)] = toBf16(eighths(state));
    for (float &b : bias)
      b = eighths(state) * 4;
  }

  Params params() {
    auto i32 = [](int64_t v) { return int32_t(v); };
    Params p;
    p.arrays = {{A.data(), {i32(M), i32(K)}, {i32(lda), 1}},
                {B.data(), {i32(K), i32(N)}, {i32(ldb), 1}},
                {bias.data(), {i32(N)}, {1}},
                {C.data(), {i32(M), i32(N)}, {i32(ldc), 1}}};
#if defined(A_INDEX64)
    p.arrays[0].index64 = true; // A declared with index_dtype int64
#endif
    return p;
  }

  dim3 grid() const {
    return dim3(unsigned((M + 127) / 128), unsigned((N + 127) / 128), 1);
  }

  /// Elements of C off the reference by more than its bf16 rounding, and
  /// padding elements written.
  int check(float alpha, double &maxErr) const {
    int bad = 0;
    maxErr = 0;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < ldc; ++j) {
        uint16_t got = C[size_t(i * ldc + j)];
        if (j >= N) {
          bad += got != kSentinel;
          continue;
        }
        double ref = 0;
        for (int64_t k = 0; k < K; ++k)
          ref += double(fromBf16(A[size_t(i * lda + k)])) *
                 double(fromBf16(B[size_t(k * ldb + j)]));
        ref = double(alpha) * ref + double(bias[size_t(j)]);
        double err = std::fabs(double(fromBf16(got)) - ref);
        maxErr = std::fmax(maxErr, err);
        if (!(err <= std::fabs(ref) * 0x1p-8 + 1e-6)) {
          if (bad < 5)
            std::fprintf(stderr, "C[%lld][%lld] = %g, expected %g\n",
                         (long long)i, (long long)j, fromBf16(got), ref);
          ++bad;
        }
      }
    return bad;
  }
};

int run(int64_t m, int64_t n, int64_t k) {
  Gemm g(m, n, k);
  Params p = g.params();
  cudaError_t e = gemm_bias_launch(g.grid(), nullptr, p.build());
  if (e != cudaSuccess) {
    std::fprintf(stderr, "gemm_bias_launch: error %d: %s\n", int(e),
                 gemm_bias_launch_error());
    return 1;
  }
  double maxErr = 0;
  int bad = g.check(p.alpha, maxErr);
  std::printf("gemm_bias %lldx%lldx%lld, grid %ux%u: %s (max error %.3g)\n",
              (long long)m, (long long)n, (long long)k, g.grid().x, g.grid().y,
              bad ? "WRONG" : "ok", maxErr);
  return bad ? 1 : 0;
}

/// Launches with one array made unfit for a TMA; 0 when the launcher
/// refused it with cudaErrorInvalidValue.
int refuse(const std::string &what) {
  Gemm g(128, 128, 64);
  Params p = g.params();
  void **params = p.build();
  if (what == "inner-stride")
    p.arrays[1].strides[1] = 2;
  else if (what == "byte-stride")
    p.arrays[3].strides[0] = int32_t(g.N) + 1; // 258 bytes
  else if (what == "align")
    p.arrays[0].data = static_cast<char *>(p.arrays[0].data) + 2;
  else if (what == "null-param")
    params[18] = nullptr;
  else
    return 2;
  cudaError_t e = gemm_bias_launch(g.grid(), nullptr, params);
  std::printf("%s: error %d: %s\n", what.c_str(), int(e),
              gemm_bias_launch_error());
  return e == cudaErrorInvalidValue ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--refuse")
    return refuse(argv[2]);
  if (argc != 4) {
    std::fprintf(stderr, "usage: launch_host M N K | --refuse WHAT\n");
    return 2;
  }
  return run(std::atoll(argv[1]), std::atoll(argv[2]), std::atoll(argv[3]));
}
