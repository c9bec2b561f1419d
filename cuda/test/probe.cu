//===- probe.cu - compile probe for the tilepipe sm100 runtime -*- CUDA -*-===//
//
// Two small warp-specialized kernels in the shape the translator emits, using
// every function of the tp:: runtime (tilepipe/kernel.cuh), so that compiling this file in both
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
#include "tilepipe/kernel.cuh"

namespace {

using bf16 = __nv_bfloat16;
using fp8 = __nv_fp8_e4m3;
// The operand tiles as the translator lays them out: rows of 128 bytes,
// 128B swizzle (layout/tile.cuh).
using Tile128 = tp::MmaTile<bf16, 128, 128, tp::Swizzle::B128>;
using TileA16 = tp::MmaTile<bf16, 128, 64, tp::Swizzle::B128>;
using TileB16 = tp::MmaTile<bf16, 256, 64, tp::Swizzle::B128>;
using TileA8 = tp::MmaTile<fp8, 128, 128, tp::Swizzle::B128>;
using TileB8 = tp::MmaTile<fp8, 128, 128, tp::Swizzle::B128>;

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
      tp::tma_load<Tile128>(tp::smem_addr(qBuf), qDesc, qFull, 1, 0, kPipeQ,
                            blockIdx.x * 128, 0);
      for (int64_t k = 0; k < nIter; ++k) {
        tp::mbar_wait(kEmpty, kKVDepth, k, 1);
        tp::mbar_arrive_expect_tx(kFull, kKVDepth, k, kTileBytes);
        tp::tma_load<Tile128>(tp::smem_slot(kBuf, kTileBytes, kKVDepth, k),
                              kDesc, kFull, kKVDepth, k, kPipeK, k * 128, 0);
        tp::mbar_wait(vEmpty, kKVDepth, k, 1);
        tp::mbar_arrive_expect_tx(vFull, kKVDepth, k, kTileBytes);
        tp::tma_load<Tile128>(tp::smem_slot(vBuf, kTileBytes, kKVDepth, k),
                              vDesc, vFull, kKVDepth, k, kPipeV, k * 128, 0);
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
        tp::umma_ss<float, tp::KMajor<Tile128>, tp::KMajor<Tile128>>(s, q, kSlot,
                                                                    false);
        tp::probe_stamp(s, true, kPipeS, k);
        tp::umma_arrive(sFull, kSDepth, k);
        tp::umma_arrive(kEmpty, kKVDepth, k);

        tp::mbar_wait(vFull, kKVDepth, k, 0);
        tp::mbar_wait(pFull, 1, k, 0);
        tp::tcgen05_after();
        tp::probe_check(vSlot, false, kPipeV, k);
        tp::probe_check(tmem + kPCol, true, kPipeP, k);
        // V [kv, d] as loaded: an MN-major B.
        tp::umma_ts<float, bf16, 128, 128, tp::MNMajor<Tile128>>(
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
      tp::tma_store<tp::DenseTile<bf16, 128, 128>>(oDesc, tp::smem_addr(qBuf),
                                                   blockIdx.x * 128, 0);
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
        uint32_t aSlot = tp::smem_slot(aBuf, kABytes, kABDepth, k);
        if (useFp8)
          tp::tma_load<TileA8>(aSlot, aDesc, aFull, kABDepth, k, kPipeA,
                               blockIdx.x * 128, k * kStep);
        else
          tp::tma_load<TileA16>(aSlot, aDesc, aFull, kABDepth, k, kPipeA,
                                blockIdx.x * 128, k * kStep);
        tp::mbar_wait(bEmpty, kABDepth, k, 1);
        tp::mbar_arrive_expect_tx(bFull, kABDepth, k,
                                  useFp8 ? kBBytes / 2 : kBBytes);
        uint32_t bSlot = tp::smem_slot(bBuf, kBBytes, kABDepth, k);
        if (useFp8)
          tp::tma_load<TileB8>(bSlot, bDesc, bFull, kABDepth, k, kPipeB, 0,
                               k * kStep);
        else
          tp::tma_load<TileB16>(bSlot, bDesc, bFull, kABDepth, k, kPipeB, 0,
                                k * kStep);
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
          tp::umma_ss<float, tp::KMajor<TileA8>, tp::KMajor<TileB8>>(tmem, a, b,
                                                                      k > 0);
        else
          tp::umma_ss<float, tp::KMajor<TileA16>, tp::KMajor<TileB16>>(tmem, a,
                                                                        b, k > 0);
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
      tp::tma_store<tp::DenseTile<bf16, 128, 256>>(cDesc, tp::smem_addr(bBuf),
                                                   blockIdx.x * 128, 0);
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
    using tp::KMajor, tp::MmaTile, tp::MNMajor, tp::Swizzle;
    tp::umma_ss<float, KMajor<MmaTile<float, 128, 32, Swizzle::B128>>,
                KMajor<MmaTile<float, 64, 32, Swizzle::B128>>>(tmem, s,
                                                               s + 16384, true);
    tp::umma_ss<__half, KMajor<MmaTile<__half, 64, 32, Swizzle::B64>>,
                MNMajor<MmaTile<__half, 32, 8, Swizzle::None>>>(tmem, s,
                                                                s + 8192, false);
    tp::umma_ts<float, __nv_fp8_e5m2, 128, 64,
                KMajor<MmaTile<__nv_fp8_e4m3, 32, 64, Swizzle::B64>>>(
        tmem, tmem + 64, s, true);
    uint32_t written = 0;
    tp::tmem_copy_scales<2, 2>(tmem + 256, s);
    tp::umma_ss_block_scaled<
        KMajor<MmaTile<__nv_fp8_e4m3, 128, 256, Swizzle::B128>>,
        KMajor<MmaTile<__nv_fp8_e5m2, 256, 256, Swizzle::B128>>>(
        tmem, s, s + 32768, tmem + 256, tmem + 264,
        tp::acc_enable(written, tmem, tmem, 256, true));
    tp::acc_zero_unwritten<128, 256, float>(written, tmem, tmem, 256, s);
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
