//===- probe.cu - compile probe for the tilepipe sm100 runtime -*- CUDA -*-===//
//
// Two small warp-specialized kernels in the shape the translator emits, using
// every function of tilepipe/sm100.cuh, so that compiling this file in both
// modes proves the header and its templates:
//   real:    nvcc -std=c++17 -gencode arch=compute_100a,code=sm_100a -c -I
//   cuda/include harness: nvcc -std=c++17 -DTILEPIPE_HARNESS -gencode
//   arch=compute_90a,code=sm_90a -c ...
//
// Roles (256 threads, so that both warpgroups are complete for setmaxnreg):
// warps 0-3 are the SIMT consumer agent (warpgroup aligned, as TMEM lane access
// requires), warp 4 the TMA producer, warp 5 the MMA issuer, warps 6-7 idle.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/harness_host.cuh"
#include "tilepipe/sm100.cuh"

namespace {

using bf16 = __nv_bfloat16;
using fp8 = __nv_fp8_e4m3;

constexpr int kThreads = 256;
constexpr int kConsumerThreads = 128;
constexpr int kConsumerBar = 1; // named barrier of the consumer agent

//===----------------------------------------------------------------------===//
// probe_attn: S = Q K^T (umma_ss), online softmax in registers, P to TMEM,
// O += P V (umma_ts), O rescaled in TMEM, O / l stored with TMA.
//===----------------------------------------------------------------------===//

enum AttnPipe { kPipeQ, kPipeK, kPipeV, kPipeS, kPipeP, kPipeO };

constexpr int kTileBytes = 128 * 128 * 2; // one 128 x 128 bf16 tile
constexpr int kKVDepth = 2;
constexpr int kSDepth = 2;
constexpr uint32_t kSCols = 128;             // fp32 S tile: 128 columns
constexpr uint32_t kOCol = kSDepth * kSCols; // O accumulator after the S ring
constexpr uint32_t kPCol = kOCol + 128;      // bf16 P, packed: 64 columns
constexpr int kAttnSmem = kTileBytes * (1 + 2 * kKVDepth);

__global__ void __launch_bounds__(kThreads, 1)
    probe_attn(const __grid_constant__ tp::TmaDesc qDesc,
               const __grid_constant__ tp::TmaDesc kDesc,
               const __grid_constant__ tp::TmaDesc vDesc,
               const __grid_constant__ tp::TmaDesc oDesc, int nIter,
               float scaleLog2) {
  extern __shared__ __align__(1024) unsigned char smem[];
  unsigned char *qBuf = smem;
  unsigned char *kBuf = qBuf + kTileBytes;
  unsigned char *vBuf = kBuf + kKVDepth * kTileBytes;
  __shared__ uint64_t qFull[1], kFull[kKVDepth], kEmpty[kKVDepth],
      vFull[kKVDepth], vEmpty[kKVDepth], sFull[kSDepth], sEmpty[kSDepth],
      pFull[1], pEmpty[1], oFull[1];
  __shared__ uint32_t tmemBase;
  __shared__ __align__(16) float rowStats[kConsumerThreads];

  int warp = tp::warp_idx();
  if (tp::elect_leader(4)) {
    tp::mbar_init(qFull, 1);
    for (int i = 0; i < kKVDepth; ++i) {
      tp::mbar_init(&kFull[i], 1);
      tp::mbar_init(&kEmpty[i], 1);
      tp::mbar_init(&vFull[i], 1);
      tp::mbar_init(&vEmpty[i], 1);
    }
    for (int i = 0; i < kSDepth; ++i) {
      tp::mbar_init(&sFull[i], 1);
      tp::mbar_init(&sEmpty[i], kConsumerThreads);
    }
    tp::mbar_init(pFull, kConsumerThreads);
    tp::mbar_init(pEmpty, 1);
    tp::mbar_init(oFull, 1);
    tp::fence_mbarrier_init();
  }
  if (warp == 5)
    tp::tmem_alloc(&tmemBase, 512);
  tp::tcgen05_before();
  __syncthreads();
  tp::tcgen05_after();
  uint32_t tmem = tmemBase;

  if (warp >= 4) {
    tp::setmaxnreg_dec<40>();
    if (warp == 4 && tp::elect_leader(4)) {
      // TMA producer.
      tp::mbar_arrive_expect_tx(qFull, 1, 0, kTileBytes);
      tp::tma_load_2d(tp::smem_addr(qBuf), &qDesc, 0, blockIdx.x * 128, qFull,
                      1, 0, kPipeQ);
      for (int64_t k = 0; k < nIter; ++k) {
        tp::mbar_wait(kEmpty, kKVDepth, k, 1);
        tp::mbar_arrive_expect_tx(kFull, kKVDepth, k, kTileBytes);
        tp::tma_load_2d(tp::smem_slot(kBuf, kTileBytes, kKVDepth, k), &kDesc, 0,
                        static_cast<int32_t>(k * 128), kFull, kKVDepth, k,
                        kPipeK);
        tp::mbar_wait(vEmpty, kKVDepth, k, 1);
        tp::mbar_arrive_expect_tx(vFull, kKVDepth, k, kTileBytes);
        tp::tma_load_2d(tp::smem_slot(vBuf, kTileBytes, kKVDepth, k), &vDesc, 0,
                        static_cast<int32_t>(k * 128), vFull, kKVDepth, k,
                        kPipeV);
      }
    } else if (warp == 5 && tp::elect_leader(5)) {
      // MMA issuer.
      uint32_t q = tp::smem_addr(qBuf);
      tp::mbar_wait(qFull, 1, 0, 0);
      tp::tcgen05_after();
      tp::probe_check(q, false, kPipeQ, 0);
      for (int64_t k = 0; k < nIter; ++k) {
        uint32_t kSlot = tp::smem_slot(kBuf, kTileBytes, kKVDepth, k);
        uint32_t vSlot = tp::smem_slot(vBuf, kTileBytes, kKVDepth, k);
        uint32_t s = tp::tmem_slot(tmem, kSCols, kSDepth, k);
        tp::mbar_wait(kFull, kKVDepth, k, 0);
        tp::mbar_wait(sEmpty, kSDepth, k, 1);
        tp::tcgen05_after();
        tp::probe_check(kSlot, false, kPipeK, k);
        tp::umma_ss<128, 128, 128, bf16, bf16, float>(s, q, kSlot, false);
        tp::probe_stamp(s, true, kPipeS, k);
        tp::umma_arrive(sFull, kSDepth, k);
        tp::umma_arrive(kEmpty, kKVDepth, k);

        tp::mbar_wait(vFull, kKVDepth, k, 0);
        tp::mbar_wait(pFull, 1, k, 0);
        tp::tcgen05_after();
        tp::probe_check(vSlot, false, kPipeV, k);
        tp::probe_check(tmem + kPCol, true, kPipeP, k);
        tp::umma_ts<128, 128, 128, bf16, bf16, float>(
            tmem + kOCol, tmem + kPCol, vSlot, k > 0);
        tp::umma_arrive(pEmpty, 1, k);
        tp::umma_arrive(vEmpty, kKVDepth, k);
      }
      tp::probe_stamp(tmem + kOCol, true, kPipeO, 0);
      tp::umma_arrive(oFull, 1, 0);
    }
  } else {
    // Softmax agent: thread t owns row t of S, P and O.
    tp::setmaxnreg_inc<232>();
    int t = static_cast<int>(threadIdx.x);
    bool leader = tp::elect_leader(0);
    auto scale = tp::splat<float, 1>(scaleLog2);
    auto m = tp::splat<float, 1>(tp::bits_f32(0xFF800000u)); // -inf
    auto l = tp::splat<float, 1>(0.0f);
    for (int64_t k = 0; k < nIter; ++k) {
      uint32_t sSlot = tp::tmem_slot(tmem, kSCols, kSDepth, k);
      tp::mbar_wait(sFull, kSDepth, k, 0);
      tp::tcgen05_after();
      if (leader)
        tp::probe_check(sSlot, true, kPipeS, k);
      tp::Frag<float, 128> s = tp::tmem_load<128, float, 128>(sSlot, t);
      tp::tcgen05_wait_ld();
      tp::tcgen05_before();
      tp::mbar_arrive(sEmpty, kSDepth, k);

      tp::Frag<float, 1> mNew = tp::max(m, tp::reduce_max<1, float, 128>(s));
      tp::Frag<float, 1> negMs = tp::mul(mNew, tp::splat<float, 1>(-scaleLog2));
      tp::Frag<float, 128> p = tp::exp2(tp::fma(s, scale, negMs));
      tp::Frag<float, 1> alpha = tp::exp2(tp::mul(tp::sub(m, mNew), scale));
      l = tp::add(tp::mul(l, alpha), tp::reduce_sum<1>(p));
      m = mNew;

      // P and O are free once the previous P V has completed.
      tp::mbar_wait(pEmpty, 1, k, 1);
      tp::tcgen05_after();
      if (k > 0) {
        tp::Frag<float, 128> o =
            tp::tmem_load<128, float, 128>(tmem + kOCol, t);
        tp::tmem_store<128, float, 128>(tmem + kOCol, tp::mul(o, alpha), t);
      }
      tp::Frag<bf16, 128> pb = tp::cvt<bf16, float, 128>(p);
      tp::tmem_store<128, bf16, 128>(tmem + kPCol, pb, t);
      tp::tcgen05_wait_st();
      if (leader)
        tp::probe_stamp(tmem + kPCol, true, kPipeP, k);
      tp::tcgen05_before();
      tp::mbar_arrive(pFull, 1, k);
    }

    // Epilogue: O / l through SMEM to a TMA store.
    tp::mbar_wait(oFull, 1, 0, 0);
    tp::tcgen05_after();
    if (leader)
      tp::probe_check(tmem + kOCol, true, kPipeO, 0);
    tp::Frag<float, 128> o = tp::tmem_load<128, float, 128>(tmem + kOCol, t);
    tp::smem_store<1, float, 1>(tp::smem_addr(rowStats), l, t);
    tp::agent_sync(kConsumerBar, kConsumerThreads);
    tp::Frag<float, 1> lRow =
        tp::smem_load<1, float, 1>(tp::smem_addr(rowStats), t);
    lRow.v[0] = 1.0f / lRow.v[0];
    // Q's buffer is free: oFull means every MMA that read it has completed.
    tp::smem_store<128, bf16, 128>(tp::smem_addr(qBuf),
                                   tp::cvt<bf16>(tp::mul(o, lRow)), t);
    tp::fence_proxy_async();
    tp::agent_sync(kConsumerBar, kConsumerThreads);
    if (leader)
      tp::tma_store_2d(&oDesc, tp::smem_addr(qBuf), 0, blockIdx.x * 128);
  }

  tp::tcgen05_before();
  __syncthreads();
  if (warp == 5) {
    tp::tcgen05_after();
    tp::tmem_dealloc(tmem, 512);
  }
}

//===----------------------------------------------------------------------===//
// probe_gemm: C[128 x 256] = A B^T over kTiles K tiles (bf16, K = 64 each), or
// the fp8 variant C[128 x 128] with K = 128 tiles of the same byte size; the
// 256-wide accumulator goes TMEM -> registers -> SMEM -> TMA store.
//===----------------------------------------------------------------------===//

enum GemmPipe { kPipeA, kPipeB, kPipeAcc };

constexpr int kABytes = 128 * 64 * 2; // also 128 x 128 fp8
constexpr int kBBytes = 256 * 64 * 2; // also 128 x 128 fp8 (half used)
constexpr int kABDepth = 3;
constexpr int kGemmSmem = kABDepth * (kABytes + kBBytes);

__global__ void __launch_bounds__(kThreads, 1)
    probe_gemm(const __grid_constant__ tp::TmaDesc aDesc,
               const __grid_constant__ tp::TmaDesc bDesc,
               const __grid_constant__ tp::TmaDesc cDesc, int kTiles,
               int useFp8) {
  extern __shared__ __align__(1024) unsigned char smem[];
  unsigned char *aBuf = smem;
  unsigned char *bBuf = aBuf + kABDepth * kABytes;
  __shared__ uint64_t aFull[kABDepth], aEmpty[kABDepth], bFull[kABDepth],
      bEmpty[kABDepth], accFull[1];
  __shared__ uint32_t tmemBase;

  int warp = tp::warp_idx();
  if (tp::elect_leader(4)) {
    for (int i = 0; i < kABDepth; ++i) {
      tp::mbar_init(&aFull[i], 1);
      tp::mbar_init(&aEmpty[i], 1);
      tp::mbar_init(&bFull[i], 1);
      tp::mbar_init(&bEmpty[i], 1);
    }
    tp::mbar_init(accFull, 1);
    tp::fence_mbarrier_init();
  }
  if (warp == 5)
    tp::tmem_alloc(&tmemBase, 256);
  tp::tcgen05_before();
  __syncthreads();
  tp::tcgen05_after();
  uint32_t tmem = tmemBase;

  if (warp >= 4) {
    tp::setmaxnreg_dec<40>();
    if (warp == 4 && tp::elect_leader(4)) {
      int32_t kStep = useFp8 ? 128 : 64;
      for (int64_t k = 0; k < kTiles; ++k) {
        tp::mbar_wait(aEmpty, kABDepth, k, 1);
        tp::mbar_arrive_expect_tx(aFull, kABDepth, k, kABytes);
        tp::tma_load_2d(tp::smem_slot(aBuf, kABytes, kABDepth, k), &aDesc,
                        static_cast<int32_t>(k) * kStep, blockIdx.x * 128,
                        aFull, kABDepth, k, kPipeA);
        tp::mbar_wait(bEmpty, kABDepth, k, 1);
        tp::mbar_arrive_expect_tx(bFull, kABDepth, k,
                                  useFp8 ? kBBytes / 2 : kBBytes);
        tp::tma_load_2d(tp::smem_slot(bBuf, kBBytes, kABDepth, k), &bDesc,
                        static_cast<int32_t>(k) * kStep, 0, bFull, kABDepth, k,
                        kPipeB);
      }
    } else if (warp == 5 && tp::elect_leader(5)) {
      for (int64_t k = 0; k < kTiles; ++k) {
        uint32_t a = tp::smem_slot(aBuf, kABytes, kABDepth, k);
        uint32_t b = tp::smem_slot(bBuf, kBBytes, kABDepth, k);
        tp::mbar_wait(aFull, kABDepth, k, 0);
        tp::mbar_wait(bFull, kABDepth, k, 0);
        tp::tcgen05_after();
        tp::probe_check(a, false, kPipeA, k);
        tp::probe_check(b, false, kPipeB, k);
        if (useFp8)
          tp::umma_ss<128, 128, 128, fp8, fp8, float>(tmem, a, b, k > 0);
        else
          tp::umma_ss<128, 256, 64, bf16, bf16, float>(tmem, a, b, k > 0);
        tp::umma_arrive(aEmpty, kABDepth, k);
        tp::umma_arrive(bEmpty, kABDepth, k);
      }
      tp::probe_stamp(tmem, true, kPipeAcc, 0);
      tp::umma_arrive(accFull, 1, 0);
    }
  } else {
    tp::setmaxnreg_inc<232>();
    int t = static_cast<int>(threadIdx.x);
    bool leader = tp::elect_leader(0);
    tp::mbar_wait(accFull, 1, 0, 0);
    tp::tcgen05_after();
    if (leader)
      tp::probe_check(tmem, true, kPipeAcc, 0);
    tp::Frag<float, 256> acc = tp::tmem_load<256, float, 256>(tmem, t);
    tp::Frag<bf16, 256> c = tp::cvt<bf16>(acc);
    // The B ring is free: accFull means every MMA that read it has completed.
    tp::smem_store<256, bf16, 256>(tp::smem_addr(bBuf), c, t);
    tp::fence_proxy_async();
    tp::agent_sync(kConsumerBar, kConsumerThreads);
    if (leader)
      tp::tma_store_2d(&cDesc, tp::smem_addr(bBuf), 0, blockIdx.x * 128);
  }

  tp::tcgen05_before();
  __syncthreads();
  if (warp == 5) {
    tp::tcgen05_after();
    tp::tmem_dealloc(tmem, 256);
  }
}

//===----------------------------------------------------------------------===//
// probe_coverage: not a protocol, just the template corners the two kernels
// above do not reach, so that ptxas sees them too: every .32x32b.xN width
// (255 words = x128 + x64 + ... + x1), the tf32/half/e5m2 UMMA kinds, 1- and
// 2-byte SMEM runs, 3-element row reductions, int32 and bf16 arithmetic.
//===----------------------------------------------------------------------===//

} // namespace

// Outside the anonymous namespace: nothing launches it, and an external kernel
// needs no reference to be compiled.
__global__ void __launch_bounds__(128, 1)
    tp_probe_coverage(int *out, uint32_t tmem) {
  extern __shared__ __align__(1024) unsigned char smem[];
  int t = static_cast<int>(threadIdx.x);
  uint32_t s = tp::smem_addr(smem);
  auto wide = tp::tmem_load<255, float, 255>(tmem, t);
  tp::tmem_store<255, float, 255>(tmem + 256, wide, t);
  auto h = tp::cvt<__half>(tp::tmem_load<6, float, 6>(tmem, t));
  tp::tmem_store<6, __half, 6>(tmem, h, t);
  if (tp::elect_leader(0)) {
    tp::umma_ss<128, 64, 32, float, float, float>(tmem, s, s + 8192, true);
    tp::umma_ss<64, 8, 32, __half, __half, __half>(tmem, s, s + 8192, false);
    tp::umma_ts<128, 32, 64, __nv_fp8_e5m2, __nv_fp8_e4m3, float>(
        tmem, tmem + 64, s, true);
  }
  auto b = tp::smem_load<1, bf16, 1>(s, t);
  tp::smem_store<1, fp8, 1>(s + 256, tp::cvt<fp8>(b), t);
  auto rows = tp::smem_load<3, bf16, 9>(s + 512, t); // RPT = 3 rows of 3
  auto rmax = tp::reduce_max<3>(rows);
  auto rsum = tp::reduce_sum<3>(tp::exp2(tp::sub(rows, rmax)));
  tp::smem_store<3, bf16, 9>(
      s + 512, tp::fma(rows, rsum, tp::splat<bf16, 1>(bf16(1.0f))), t);
  auto i = tp::cvt<int32_t>(tp::cvt<float>(rsum));
  auto j = tp::max(tp::add(i, tp::splat<int32_t, 3>(7)), tp::mul(i, i));
  out[t] = tp::reduce_sum<1>(j).v[0];
}

/// Host entry (compiled, not run here): launches both probes on one CTA per
/// 128-row tile and returns the harness report (all zeros in real mode).
cudaError_t tp_run_probes(const CUtensorMap &q, const CUtensorMap &k,
                          const CUtensorMap &v, const CUtensorMap &o,
                          const CUtensorMap &a, const CUtensorMap &b,
                          const CUtensorMap &c, int ctas, int nIter,
                          tp::HarnessReport &report) {
  cudaError_t err = tp::host::reset();
  if (err == cudaSuccess)
    err = cudaFuncSetAttribute(
        probe_attn, cudaFuncAttributeMaxDynamicSharedMemorySize, kAttnSmem);
  if (err == cudaSuccess)
    err = cudaFuncSetAttribute(
        probe_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kGemmSmem);
  if (err != cudaSuccess)
    return err;
  probe_attn<<<ctas, kThreads, kAttnSmem>>>(q, k, v, o, nIter, 1.4426950f);
  probe_gemm<<<ctas, kThreads, kGemmSmem>>>(a, b, c, nIter, 0);
  probe_gemm<<<ctas, kThreads, kGemmSmem>>>(a, b, c, nIter, 1);
  if ((err = cudaGetLastError()) != cudaSuccess)
    return err;
  return tp::host::read(report);
}
