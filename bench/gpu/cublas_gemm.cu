// bench/gpu/cublas_gemm.cu - cuBLAS on the GEMM our kernel computes, as the
// baseline for scripts/gpu-check.py's timings.
//
//   C[M, N] = A[M, K] . B[N, K]^T
//   A, B: bf16, row-major (K contiguous); accumulation in fp32; C: bf16,
//   row-major (N contiguous). The same problem as examples/gemm_mainloop.mlir
//   and test/numeric/specs.py's Gemm.
//
//   nvcc -std=c++17 -O2 bench/gpu/cublas_gemm.cu -lcublas -o cublas_gemm
//   cublas_gemm [M N K] [--warmup W] [--iters N] [--rotate R]
//               [--check [--samples S]]
//
// Prints one JSON line:
//   {"library": "cublas", "m": .., "n": .., "k": .., "ms": .., "tflops": ..,
//    "mean_ms": .., "min_ms": .., "max_ms": .., ...}
// The method is the generated main's --repeat (host/main.cuh,
// time_launches) and triton's do_bench, which times the peers: W untimed
// calls, then N calls each timed on its own (a cudaEvent pair around each);
// "ms" (and "tflops") is the median of the N. The calls take A, B and C
// from R copies in turn (bench/gpu/rotation.py's rotation), and before each
// call, outside its events, a write of twice the L2's size evicts what the
// call before left there. --check then copies back the C of the last timed
// call and compares sampled elements with a float64 dot product on the host,
// so a timing is only reported as good for a correct GEMM.
//
// Exit status: 0 ok; 1 check failed; 2 usage or CUDA/cuBLAS error;
// 77 no CUDA device (the automake "skipped" status gpu-check.py relays).

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
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
  std::fprintf(stderr, "usage: cublas_gemm [M N K] [--warmup W] [--iters N] "
                       "[--rotate R] [--check [--samples S]] [--seed S]\n");
  std::exit(2);
}

// An integer of at least `least` (1 for sizes, --iters, whose median needs
// a time, and --rotate; 0 for --warmup).
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
  long warmup = 10, iters = 50, samples = 256, rotate = 4;
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
    else if (a == "--rotate")
      rotate = parseCount(value(), "--rotate");
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

  // --rotate sets of A, B and C, the same values in each, so that no call
  // finds its operands in L2 from the call before and any set's C checks.
  struct Set {
    __nv_bfloat16 *a = nullptr, *b = nullptr, *c = nullptr;
  };
  std::vector<Set> sets(static_cast<size_t>(rotate));
  for (Set &set : sets) {
    CUDA_OK(cudaMalloc(&set.a, aCount * sizeof(__nv_bfloat16)));
    CUDA_OK(cudaMalloc(&set.b, bCount * sizeof(__nv_bfloat16)));
    CUDA_OK(cudaMalloc(&set.c, cCount * sizeof(__nv_bfloat16)));
    CUDA_OK(cudaMemcpy(set.a, hA.data(), aCount * sizeof(__nv_bfloat16),
                       cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(set.b, hB.data(), bCount * sizeof(__nv_bfloat16),
                       cudaMemcpyHostToDevice));
    // NaN-ish fill (0xFF bytes), so a C the GEMM never wrote fails --check.
    CUDA_OK(cudaMemset(set.c, 0xFF, cCount * sizeof(__nv_bfloat16)));
  }
  // Written before each call, outside its events: twice the L2, as
  // host/main.cuh's time_launches does (triton's do_bench clears L2 alike).
  size_t flushBytes = 2 * size_t(prop.l2CacheSize);
  void *flush = nullptr;
  if (flushBytes)
    CUDA_OK(cudaMalloc(&flush, flushBytes));

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
  auto gemm = [&](const Set &set) {
    return cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(n), int(m),
                        int(k), &alpha, set.b, CUDA_R_16BF, int(k), set.a,
                        CUDA_R_16BF, int(k), &beta, set.c, CUDA_R_16BF, int(n),
                        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  };

  // The first `warmup` calls pay the heuristic's kernel selection, module
  // loading and clock ramp-up; they are not timed. Each timed call has its
  // own events, so the median can leave out a call that a clock change or
  // another process slowed.
  std::vector<cudaEvent_t> events(static_cast<size_t>(2 * iters));
  for (cudaEvent_t &ev : events)
    CUDA_OK(cudaEventCreate(&ev));
  for (long i = 0; i < warmup + iters; ++i) {
    if (flush)
      CUDA_OK(cudaMemsetAsync(flush, 0, flushBytes));
    long t = i - warmup;
    if (t >= 0)
      CUDA_OK(cudaEventRecord(events[size_t(2 * t)]));
    CUBLAS_OK(gemm(sets[size_t(i % rotate)]));
    if (t >= 0)
      CUDA_OK(cudaEventRecord(events[size_t(2 * t + 1)]));
  }
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaGetLastError());
  std::vector<double> times(static_cast<size_t>(iters));
  for (long t = 0; t < iters; ++t) {
    float took = 0;
    CUDA_OK(cudaEventElapsedTime(&took, events[size_t(2 * t)],
                                 events[size_t(2 * t + 1)]));
    times[size_t(t)] = took;
  }
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  double ms =
      iters % 2
          ? sorted[size_t(iters / 2)]
          : (sorted[size_t(iters / 2 - 1)] + sorted[size_t(iters / 2)]) / 2;
  double mean = 0;
  for (double x : times)
    mean += x / double(iters);
  double tflops = 2.0 * double(m) * double(n) * double(k) / (ms * 1e-3) / 1e12;
  const Set &last = sets[size_t((warmup + iters - 1) % rotate)];

  // --check: the C of the last timed call against float64 dot products of
  // the exact bf16 inputs. Bound per element: one bf16 rounding of the
  // result (2^-9 relative, doubled) plus the fp32 accumulation, whose error
  // scales with sum |a_i b_i| (a transposed operand or an unwritten C is
  // off by O(|C|), far past it).
  std::string checkJson;
  bool checkOk = true;
  if (check) {
    std::vector<__nv_bfloat16> hC(cCount);
    CUDA_OK(cudaMemcpy(hC.data(), last.c, cCount * sizeof(__nv_bfloat16),
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

  std::printf(
      "{\"library\": \"cublas\", \"m\": %ld, \"n\": %ld, \"k\": %ld, "
      "\"ms\": %.4f, \"tflops\": %.1f, \"iters\": %ld, \"warmup\": %ld, "
      "\"mean_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, "
      "\"launches\": %ld, \"rotate\": %ld, \"l2_flush\": %s, "
      "\"device\": \"%s\", \"cc\": \"%d.%d\"%s}\n",
      m, n, k, ms, tflops, iters, warmup, mean, sorted.front(), sorted.back(),
      iters, rotate, flush ? "true" : "false", prop.name, prop.major,
      prop.minor, checkJson.c_str());

  for (cudaEvent_t ev : events)
    cudaEventDestroy(ev);
  cublasDestroy(handle);
  cudaFree(workspace);
  cudaFree(flush);
  for (Set &set : sets) {
    cudaFree(set.a);
    cudaFree(set.b);
    cudaFree(set.c);
  }
  return checkOk ? 0 : 1;
}
