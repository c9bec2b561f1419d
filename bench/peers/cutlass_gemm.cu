// CUTLASS 3.x/4.x SM100 (Blackwell, sm_100a) BF16 GEMM, written after the pattern of CUTLASS example 70;
// with -DTP_CUTLASS_SM90=1 the SM90 (Hopper, sm_90a) warp-specialized cooperative GEMM of the same tile,
// with -DTP_CUTLASS_SM90=2 the SM90 ping-pong GEMM at 128x128x64 (each consumer warpgroup a whole tile).
//   D[M,N] (bf16, row-major) = A[M,K] (bf16, row-major) * B[K,N] (bf16, "column-major" = stored N x K, K contiguous)
//   fp32 accumulation in TMEM; MMA tile 128x256x64, cluster 1x1x1, 1-SM tcgen05 kernel schedule.
// Built by bench/peers/peers.py --cutlass (-cubin), or for a GPU run:
//   nvcc -std=c++17 -O3 -arch=sm_100a --expt-relaxed-constexpr -I$CUTLASS/include -I$CUTLASS/tools/util/include \
//        -Xptxas -v -o cutlass_gemm cutlass_gemm.cu
// Run (GPU needed):  ./cutlass_gemm M N K iters      -> prints avg ms and TFLOP/s
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <string>
#include "cutlass/cutlass.h"
#include "cutlass/version.h"
#include "cute/tensor.hpp"
#include "cutlass/numeric_types.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

using namespace cute;

#ifndef TP_SCHEDULE_AUTO
#define TP_SCHEDULE_AUTO 0
#endif

using ElementA = cutlass::bfloat16_t;
using LayoutA = cutlass::layout::RowMajor;
constexpr int AlignmentA = 128 / cutlass::sizeof_bits<ElementA>::value;
using ElementB = cutlass::bfloat16_t;
using LayoutB = cutlass::layout::ColumnMajor;
constexpr int AlignmentB = 128 / cutlass::sizeof_bits<ElementB>::value;
using ElementC = cutlass::bfloat16_t;
using LayoutC = cutlass::layout::RowMajor;
constexpr int AlignmentC = 128 / cutlass::sizeof_bits<ElementC>::value;
using ElementAccumulator = float;
using ElementCompute = float;

// TP_CUTLASS_SM90 (bench/peers/peers.py --arch sm_90a): the Hopper GEMM of
// the same tile, wgmma with register accumulators, one TMA producer
// warpgroup and two consumer warpgroups sharing the tile (cooperative).
#ifndef TP_CUTLASS_SM90
#define TP_CUTLASS_SM90 0
#endif

#if TP_CUTLASS_SM90
using ArchTag = cutlass::arch::Sm90;
#else
using ArchTag = cutlass::arch::Sm100;
#endif
using OperatorClass = cutlass::arch::OpClassTensorOp;
#if TP_CUTLASS_SM90 == 2
using MmaTileShape_MNK = Shape<_128, _128, _64>;
#define TP_TILE "128x128x64"
#else
using MmaTileShape_MNK = Shape<_128, _256, _64>;
#define TP_TILE "128x256x64"
#endif
using ClusterShape_MNK = Shape<_1, _1, _1>;

#if TP_SCHEDULE_AUTO
using MainloopSchedule = cutlass::gemm::collective::KernelScheduleAuto;
using EpilogueSchedule = cutlass::epilogue::collective::EpilogueScheduleAuto;
#elif TP_CUTLASS_SM90 == 2
using MainloopSchedule = cutlass::gemm::KernelTmaWarpSpecializedPingpong;
using EpilogueSchedule = cutlass::epilogue::TmaWarpSpecialized;
#elif TP_CUTLASS_SM90
using MainloopSchedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpilogueSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;
#else
using MainloopSchedule = cutlass::gemm::KernelTmaWarpSpecialized1SmSm100;
using EpilogueSchedule = cutlass::epilogue::TmaWarpSpecialized1Sm;
#endif

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    ArchTag, OperatorClass, MmaTileShape_MNK, ClusterShape_MNK,
    cutlass::epilogue::collective::EpilogueTileAuto,
    ElementAccumulator, ElementCompute,
    ElementC, LayoutC, AlignmentC,
    ElementC, LayoutC, AlignmentC,
    EpilogueSchedule>::CollectiveOp;

using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    ArchTag, OperatorClass,
    ElementA, LayoutA, AlignmentA,
    ElementB, LayoutB, AlignmentB,
    ElementAccumulator, MmaTileShape_MNK, ClusterShape_MNK,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    MainloopSchedule>::CollectiveOp;

using GemmKernel = cutlass::gemm::kernel::GemmUniversal<
    Shape<int, int, int, int>, CollectiveMainloop, CollectiveEpilogue, void>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

using StrideA = typename Gemm::GemmKernel::StrideA;
using StrideB = typename Gemm::GemmKernel::StrideB;
using StrideC = typename Gemm::GemmKernel::StrideC;
using StrideD = typename Gemm::GemmKernel::StrideD;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void fill_bf16(cutlass::bfloat16_t* p, size_t n, unsigned seed) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) {
    unsigned h = (unsigned)i * 2654435761u ^ seed;
    p[i] = cutlass::bfloat16_t(float((h >> 8) & 0xff) / 256.0f - 0.5f);
  }
}

int main(int argc, char** argv) {
  int M = argc > 1 ? std::atoi(argv[1]) : 8192;
  int N = argc > 2 ? std::atoi(argv[2]) : 8192;
  int K = argc > 3 ? std::atoi(argv[3]) : 8192;
  int iters = argc > 4 ? std::atoi(argv[4]) : 20;
#if TP_CUTLASS_SM90
  // Register accumulators: no TMEM stages.
  constexpr int kAccumulatorStages = 0;
  const char *what = TP_SCHEDULE_AUTO ? "SM90 auto-schedule"
                     : TP_CUTLASS_SM90 == 2 ? "SM90 ping-pong"
                                            : "SM90 cooperative";
#else
  constexpr int kAccumulatorStages =
      int(CollectiveMainloop::DispatchPolicy::Schedule::AccumulatorPipelineStageCount);
  const char *what = TP_SCHEDULE_AUTO ? "SM100 auto-schedule" : "SM100 1SmSm100";
#endif
  std::printf("CUTLASS %d.%d.%d %s bf16 GEMM " TP_TILE " cluster1x1x1; smem/CTA=%d B, stages=%d, threads=%d, "
              "accumulators=%d\n",
              CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH, what,
              int(GemmKernel::SharedStorageSize), int(CollectiveMainloop::DispatchPolicy::Stages),
              int(GemmKernel::MaxThreadsPerBlock), kAccumulatorStages);
  if (argc > 1 && std::string(argv[1]) == "--info") return 0;

  cutlass::bfloat16_t *A, *B, *C, *D;
  CK(cudaMalloc(&A, sizeof(*A) * size_t(M) * K));
  CK(cudaMalloc(&B, sizeof(*B) * size_t(N) * K));
  CK(cudaMalloc(&C, sizeof(*C) * size_t(M) * N));
  CK(cudaMalloc(&D, sizeof(*D) * size_t(M) * N));
  fill_bf16<<<(size_t(M) * K + 255) / 256, 256>>>(A, size_t(M) * K, 1);
  fill_bf16<<<(size_t(N) * K + 255) / 256, 256>>>(B, size_t(N) * K, 2);
  CK(cudaMemset(C, 0, sizeof(*C) * size_t(M) * N));

  StrideA sA = cutlass::make_cute_packed_stride(StrideA{}, {M, K, 1});
  StrideB sB = cutlass::make_cute_packed_stride(StrideB{}, {N, K, 1});
  StrideC sC = cutlass::make_cute_packed_stride(StrideC{}, {M, N, 1});
  StrideD sD = cutlass::make_cute_packed_stride(StrideD{}, {M, N, 1});
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1},
                                {A, sA, B, sB},
                                {{1.0f, 0.0f}, C, sC, D, sD}};
  Gemm gemm;
  size_t ws = Gemm::get_workspace_size(args);
  void* workspace = nullptr;
  if (ws) CK(cudaMalloc(&workspace, ws));
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) { std::fprintf(stderr, "can_implement failed\n"); return 1; }
  if (gemm.initialize(args, workspace) != cutlass::Status::kSuccess) { std::fprintf(stderr, "initialize failed\n"); return 1; }
  for (int i = 0; i < 3; ++i) if (gemm.run() != cutlass::Status::kSuccess) { std::fprintf(stderr, "run failed\n"); return 1; }
  CK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  CK(cudaEventRecord(e0));
  for (int i = 0; i < iters; ++i) gemm.run();
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  float ms = 0; CK(cudaEventElapsedTime(&ms, e0, e1));
  ms /= iters;
  // spot check D[0,0] against a host dot product
  std::vector<cutlass::bfloat16_t> a(K), b(K);
  CK(cudaMemcpy(a.data(), A, K * sizeof(*A), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), B, K * sizeof(*B), cudaMemcpyDeviceToHost));
  cutlass::bfloat16_t d00; CK(cudaMemcpy(&d00, D, sizeof(d00), cudaMemcpyDeviceToHost));
  double ref = 0; for (int k = 0; k < K; ++k) ref += double(float(a[k])) * double(float(b[k]));
  std::printf("M=%d N=%d K=%d avg %.4f ms  %.1f TFLOP/s  D[0,0]=%.4f ref=%.4f\n", M, N, K, ms,
              2.0 * M * N * K / (ms * 1e-3) / 1e12, float(d00), ref);
  return 0;
}
