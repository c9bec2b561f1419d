// bench/gpu/cublas_gemm.cu - cuBLAS on the GEMM our kernel computes, as the
// baseline for scripts/gpu-check.py's timings.
//
//   C[M, N] = A[M, K] . B[N, K]^T
//   A, B: bf16, row-major (K contiguous); accumulation in fp32; C: bf16,
//   row-major (N contiguous). The same problem as examples/gemm_mainloop.mlir
//   and test/numeric/specs.py's Gemm.
//
//   nvcc -std=c++17 -O2 bench/gpu/cublas_gemm.cu -lcublas -o cublas_gemm
//   cublas_gemm [M N K] [--warmup W] [--iters N] [--check [--samples S]]
//
// Prints one JSON line:
//   {"library": "cublas", "m": .., "n": .., "k": .., "ms": .., "tflops": .., ...}
// "ms" is the mean time of one cublasGemmEx call over the timed iterations
// (cudaEvents around the whole loop, after the warm-up calls). --check then
// copies C back and compares sampled elements with a float64 dot product on
// the host, so a timing is only reported as good for a correct GEMM.
//
// Exit status: 0 ok; 1 check failed; 2 usage or CUDA/cuBLAS error;
// 77 no CUDA device (the automake "skipped" status gpu-check.py relays).

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Each error path says what failed and exits 2: a benchmark has nothing to
// clean up that the process exit does not.
#define CUDA_OK(call)                                                          \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "cublas_gemm: %s: %s\n", #call,                     \
                   cudaGetErrorString(e_));                                    \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

#define CUBLAS_OK(call)                                                        \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      std::fprintf(stderr, "cublas_gemm: %s: %s\n", #call,                     \
                   cublasGetStatusString(s_));                                 \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

// splitmix64: a fixed, seedable generator, so a run is reproducible and the
// host reference sees exactly the values the device multiplies.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1), rounded to bf16 once here: the device and the
  // reference then read the same exact values, and the only rounding left is
  // the GEMM's own (fp32 accumulation, bf16 output).
  __nv_bfloat16 bf16() {
    double u = double(next() >> 11) * 0x1.0p-53; // [0, 1)
    return __float2bfloat16_rn(float(2.0 * u - 1.0));
  }
};

void usage() {
  std::fprintf(stderr,
               "usage: cublas_gemm [M N K] [--warmup W] [--iters N] "
               "[--check [--samples S]] [--seed S]\n");
  std::exit(2);
}

// An integer of at least `least` (1 for sizes and --iters, whose mean would
// divide by zero; 0 for --warmup).
long parseCount(const char *s, const char *what, long least = 1) {
  char *end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (!*s || *end || v < least) {
    std::fprintf(stderr, "cublas_gemm: %s must be an integer >= %ld, got '%s'\n",
                 what, least, s);
    std::exit(2);
  }
  return v;
}

} // namespace

int main(int argc, char **argv) {
  long m = 8192, n = 8192, k = 8192;
  long warmup = 10, iters = 50, samples = 256;
  uint64_t seed = 1;
  bool check = false;
  std::vector<const char *> dims;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        usage();
      return argv[++i];
    };
    if (a == "--check")
      check = true;
    else if (a == "--warmup")
      warmup = parseCount(value(), "--warmup", 0);
    else if (a == "--iters")
      iters = parseCount(value(), "--iters");
    else if (a == "--samples")
      samples = parseCount(value(), "--samples");
    else if (a == "--seed")
      seed = uint64_t(parseCount(value(), "--seed"));
    else if (a == "-h" || a == "--help")
      usage();
    else if (!a.empty() && a[0] == '-')
      usage();
    else
      dims.push_back(argv[i]);
  }
  if (dims.size() == 3) {
    m = parseCount(dims[0], "M");
    n = parseCount(dims[1], "N");
    k = parseCount(dims[2], "K");
  } else if (!dims.empty()) {
    usage();
  }
  // cublasGemmEx takes int sizes and leading dimensions.
  if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) {
    std::fprintf(stderr, "cublas_gemm: M, N and K must fit in an int\n");
    return 2;
  }

  // No device (no driver, no GPU, or CUDA_VISIBLE_DEVICES hiding them all) is
  // not an error of the benchmark: 77 lets the caller report it as skipped.
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "cublas_gemm: skipped: no CUDA device (%s)\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 77;
  }
  int dev = 0;
  CUDA_OK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDeviceProperties(&prop, dev));

  // Host inputs: A row-major m x k, B row-major n x k.
  size_t aCount = size_t(m) * size_t(k), bCount = size_t(n) * size_t(k),
         cCount = size_t(m) * size_t(n);
  std::vector<__nv_bfloat16> hA(aCount), hB(bCount);
  Rng rng{seed};
  for (auto &x : hA)
    x = rng.bf16();
  for (auto &x : hB)
    x = rng.bf16();

  __nv_bfloat16 *dA = nullptr, *dB = nullptr, *dC = nullptr;
  CUDA_OK(cudaMalloc(&dA, aCount * sizeof(__nv_bfloat16)));
  CUDA_OK(cudaMalloc(&dB, bCount * sizeof(__nv_bfloat16)));
  CUDA_OK(cudaMalloc(&dC, cCount * sizeof(__nv_bfloat16)));
  CUDA_OK(cudaMemcpy(dA, hA.data(), aCount * sizeof(__nv_bfloat16),
                     cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dB, hB.data(), bCount * sizeof(__nv_bfloat16),
                     cudaMemcpyHostToDevice));
  // NaN-ish fill (0xFF bytes), so a C the GEMM never wrote fails --check.
  CUDA_OK(cudaMemset(dC, 0xFF, cCount * sizeof(__nv_bfloat16)));

  cublasHandle_t handle;
  CUBLAS_OK(cublasCreate(&handle));
  // An explicit workspace of the size NVIDIA recommends for Hopper and
  // Blackwell (32 MiB), so the heuristic can pick its split-K and stream-K
  // kernels and the timing does not depend on the library's default.
  size_t workspaceBytes = size_t(32) << 20;
  void *workspace = nullptr;
  CUDA_OK(cudaMalloc(&workspace, workspaceBytes));
  CUBLAS_OK(cublasSetWorkspace(handle, workspace, workspaceBytes));

  // The layout mapping. cuBLAS is column-major; our matrices are row-major,
  // and a row-major R x C matrix with row stride C is, byte for byte, the
  // column-major C x R matrix (its transpose) with leading dimension C. So:
  //   our C (m x n, row-major)   = cuBLAS column-major C^T (n x m), ldc = n
  //   our B (n x k, row-major)   = cuBLAS column-major B^T (k x n), ld = k
  //   our A (m x k, row-major)   = cuBLAS column-major A^T (k x m), ld = k
  // and C = A B^T  <=>  C^T = B A^T. cuBLAS computes
  //   D (m' x n') = op(X) (m' x k) . op(Y) (k x n')
  // with m' = n, n' = m, X = the buffer of B read as k x n, op(X) = X^T = B
  // (CUBLAS_OP_T), Y = the buffer of A read as k x m, op(Y) = Y = A^T
  // (CUBLAS_OP_N). That is the "TN" GEMM, cuBLAS's native fast case for
  // K-contiguous operands, which is also what the tcgen05 kernel reads (both
  // operands K-major).
  const float alpha = 1.0f, beta = 0.0f;
  auto gemm = [&] {
    return cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(n), int(m),
                        int(k), &alpha, dB, CUDA_R_16BF, int(k), dA,
                        CUDA_R_16BF, int(k), &beta, dC, CUDA_R_16BF, int(n),
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };

  // Warm-up: the first calls pay the heuristic's kernel selection, module
  // loading and clock ramp-up; they are not timed.
  for (long i = 0; i < warmup; ++i)
    CUBLAS_OK(gemm());
  CUDA_OK(cudaDeviceSynchronize());

  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  CUDA_OK(cudaEventRecord(start));
  for (long i = 0; i < iters; ++i)
    CUBLAS_OK(gemm());
  CUDA_OK(cudaEventRecord(stop));
  CUDA_OK(cudaEventSynchronize(stop));
  CUDA_OK(cudaGetLastError());
  float total = 0;
  CUDA_OK(cudaEventElapsedTime(&total, start, stop));
  double ms = double(total) / double(iters);
  double tflops = 2.0 * double(m) * double(n) * double(k) / (ms * 1e-3) / 1e12;

  // --check: the C of the last timed call against float64 dot products of
  // the exact bf16 inputs. Bound per element: one bf16 rounding of the
  // result (2^-9 relative, doubled) plus the fp32 accumulation, whose error
  // scales with sum |a_i b_i| (a transposed operand or an unwritten C is
  // off by O(|C|), far past it).
  std::string checkJson;
  bool checkOk = true;
  if (check) {
    std::vector<__nv_bfloat16> hC(cCount);
    CUDA_OK(cudaMemcpy(hC.data(), dC, cCount * sizeof(__nv_bfloat16),
                       cudaMemcpyDeviceToHost));
    Rng pick{seed ^ 0xC0FFEEull};
    long bad = 0;
    double maxErr = 0, maxRatio = 0;
    long firstI = -1, firstJ = -1;
    double firstGot = 0, firstWant = 0;
    for (long s = 0; s < samples; ++s) {
      // The four corners first (tile-edge bugs), then random elements.
      long i, j;
      if (s < 4) {
        i = (s & 1) ? m - 1 : 0;
        j = (s & 2) ? n - 1 : 0;
      } else {
        i = long(pick.next() % uint64_t(m));
        j = long(pick.next() % uint64_t(n));
      }
      double ref = 0, mag = 0;
      const __nv_bfloat16 *a = &hA[size_t(i) * size_t(k)];
      const __nv_bfloat16 *b = &hB[size_t(j) * size_t(k)];
      for (long p = 0; p < k; ++p) {
        double prod = double(__bfloat162float(a[p])) *
                      double(__bfloat162float(b[p]));
        ref += prod;
        mag += std::fabs(prod);
      }
      double got = double(__bfloat162float(hC[size_t(i) * size_t(n) + size_t(j)]));
      double err = std::fabs(got - ref);
      double bound = 0x1.0p-8 * std::fabs(ref) + 1e-5 * mag + 1e-6;
      bool ok = err <= bound; // NaN compares false: an unwritten C fails
      if (!ok && bad++ == 0) {
        firstI = i, firstJ = j, firstGot = got, firstWant = ref;
      }
      if (ok || !std::isnan(err)) {
        maxErr = std::fmax(maxErr, err);
        maxRatio = std::fmax(maxRatio, err / bound);
      }
    }
    checkOk = bad == 0;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  ", \"check\": \"%s\", \"samples\": %ld, \"bad\": %ld, "
                  "\"max_abs_err\": %.4g, \"max_err_over_bound\": %.3g",
                  checkOk ? "pass" : "fail", samples, bad, maxErr, maxRatio);
    checkJson = buf;
    if (!checkOk)
      std::fprintf(stderr,
                   "cublas_gemm: check failed: %ld of %ld sampled elements "
                   "differ; first C[%ld][%ld] = %.6g, want %.6g\n",
                   bad, samples, firstI, firstJ, firstGot, firstWant);
  }

  std::printf("{\"library\": \"cublas\", \"m\": %ld, \"n\": %ld, \"k\": %ld, "
              "\"ms\": %.4f, \"tflops\": %.1f, \"iters\": %ld, \"warmup\": %ld, "
              "\"device\": \"%s\", \"cc\": \"%d.%d\"%s}\n",
              m, n, k, ms, tflops, iters, warmup, prop.name, prop.major,
              prop.minor, checkJson.c_str());

  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cublasDestroy(handle);
  cudaFree(workspace);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return checkOk ? 0 : 1;
}
