// The sm_90a wgmma atoms (arch/sm90/wgmma.cuh) at every N of m64nNk16, A from
// SMEM and from registers, f16 and bf16, B K-major and transposed: one kernel
// that issues each, for nvcc (sm_90a: each becomes an HGMMA) and for g++ with
// -DTILEPIPE_CPU (the emulator's branch). test/lit/cuda/wgmma-atoms.test.
#include "tilepipe/arch/sm90/wgmma.cuh"

namespace {

template <int N, tp::ptx::Wgmma16 T, int TransB>
TP_DEVICE void one(float *out, uint64_t a, uint64_t b, const uint32_t (&ra)[4]) {
  float d[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    d[i] = 0.0f;
  tp::ptx::wgmma_fence_operand(d);
  tp::ptx::wgmma_fence();
  tp::ptx::wgmma_ss<N, T, TransB>(d, a, b, false);
  tp::ptx::wgmma_rs<N, T, TransB>(d, ra, b, true);
  tp::ptx::wgmma_commit_group();
  tp::ptx::wgmma_wait_group<0>();
  tp::ptx::wgmma_fence_operand(d);
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    s += d[i];
  out[threadIdx.x] += s;
}

template <int N>
TP_DEVICE void allOf(float *out, uint64_t a, uint64_t b, const uint32_t (&ra)[4]) {
  if constexpr (N <= 256) {
    one<N, tp::ptx::Wgmma16::BF16, 0>(out, a, b, ra);
    one<N, tp::ptx::Wgmma16::F16, 1>(out, a, b, ra);
    allOf<N + 8>(out, a, b, ra);
  }
}

} // namespace

// Every N with -DTP_WGMMA_ALL_N (the long tier: 128 wgmma, about 25 s of
// nvcc); make test's four (8, 64, 136, 256: 16 wgmma).
__global__ void __launch_bounds__(128, 1)
    wgmma_atoms(float *out, uint64_t a, uint64_t b) {
  uint32_t ra[4] = {threadIdx.x, threadIdx.x + 1, threadIdx.x + 2, threadIdx.x + 3};
#if defined(TP_WGMMA_ALL_N)
  allOf<8>(out, a, b, ra);
#else
  one<8, tp::ptx::Wgmma16::BF16, 0>(out, a, b, ra);
  one<8, tp::ptx::Wgmma16::F16, 1>(out, a, b, ra);
  one<64, tp::ptx::Wgmma16::BF16, 0>(out, a, b, ra);
  one<64, tp::ptx::Wgmma16::F16, 1>(out, a, b, ra);
  one<136, tp::ptx::Wgmma16::BF16, 0>(out, a, b, ra);
  one<136, tp::ptx::Wgmma16::F16, 1>(out, a, b, ra);
  one<256, tp::ptx::Wgmma16::BF16, 0>(out, a, b, ra);
  one<256, tp::ptx::Wgmma16::F16, 1>(out, a, b, ra);
#endif
}
