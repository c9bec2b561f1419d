//===- host/launch.cuh - what a generated launcher calls -------*- CUDA -*-===//
//
// The one place the launcher's two modes differ. A translated kernel's
// launcher (tp_launch_<kernel>, docs/cuda.md) encodes a tensor map per
// tma_desc parameter for the tile layout its TMAs move, sets the kernel's
// dynamic SMEM size and launches it, through these functions:
//  - on a GPU: cuTensorMapEncodeTiled through the driver entry point
//    (cudaGetDriverEntryPointByVersion: no link-time libcuda), then
//    cudaFuncSetAttribute and cudaLaunchKernelEx;
//  - under TILEPIPE_CPU: the emulated driver (tp::cpu::drv, the same
//    signature and checks) and tp::cpu::launch, which runs the kernel body
//    for every thread of every CTA and reports a fault or a deadlock.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HOST_LAUNCH_CUH
#define TILEPIPE_HOST_LAUNCH_CUH

#include <cstdint>
#include <string>
#include <utility>

#include "tilepipe/emulator/outline.h"
#include "tilepipe/kernel.cuh"

#if TP_EMULATOR
#include "tilepipe/emulator/driver.h"
#include "tilepipe/emulator/launcher.h"
#else
#include <cuda_runtime.h>
#endif

namespace tp::host {

/// The outcome of a host step: ok, or why not (a CUDA error, a rejected
/// tensor map, the emulator's fault or deadlock report).
struct Status {
  bool ok = true;
  std::string report;
  /// When the launch itself failed: the CUDA runtime's error (on the
  /// emulator, cudaErrorLaunchFailure's value for a fault or a deadlock);
  /// 0 otherwise. A caller that answers in cudaError_t (the cuTile
  /// launcher, host/cutile.cuh) returns it.
  int launchError = 0;
};
inline Status failure(std::string why) { return Status{false, std::move(why)}; }

/// A global tensor that a tensor map describes: its address (device memory
/// on a GPU), sizes and strides in elements, outermost dimension first (the
/// order the IR writes coordinates in); the innermost stride is 1, the
/// others' bytes multiples of 16 (TMA).
struct Tensor {
  void *data = nullptr;
  int rank = 0;
  int64_t dims[5] = {};
  int64_t strides[5] = {};
};

/// A row-major matrix of `rows` x `cols` with `rowStride` elements per row.
inline Tensor tensor2d(void *data, int64_t rows, int64_t cols,
                       int64_t rowStride) {
  Tensor t;
  t.data = data;
  t.rank = 2;
  t.dims[0] = rows, t.dims[1] = cols;
  t.strides[0] = rowStride, t.strides[1] = 1;
  return t;
}

/// Per launch: the stream on a GPU, the emulator's options (seed,
/// scheduling policy, TP_CPU_* from the environment) on the CPU.
struct LaunchOptions {
#if TP_EMULATOR
  cpu::LaunchOptions cpu = cpu::options_from_env();
#else
  cudaStream_t stream = nullptr;
#endif
  /// CTAs a persistent kernel is launched with (0: one per SM on a GPU,
  /// TP_CPU_CTAS or 2 on the emulator, so that a CTA runs several tiles).
  int ctas = 0;
};

/// The launch grid of a persistent kernel asked to cover `tiles`: at most
/// one CTA per tile, at most `options.ctas` (docs/cuda.md, "Persistent
/// kernels").
inline dim3 persistentGrid(dim3 tiles, const LaunchOptions &options) {
  long long want = (long long)tiles.x * tiles.y * tiles.z;
  long long ctas = options.ctas;
  if (ctas <= 0) {
#if TP_EMULATOR
    const char *s = std::getenv("TP_CPU_CTAS");
    ctas = s && *s ? std::atoll(s) : 2;
#else
    int device = 0, sms = 0;
    if (cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount,
                               device) == cudaSuccess)
      ctas = sms;
#endif
  }
  if (ctas <= 0)
    ctas = 1;
  return dim3(unsigned(want < ctas ? (want > 0 ? want : 1) : ctas), 1, 1);
}

/// The tensor-map element type of T (fp8, int8 and UE8M0 bytes are UINT8,
/// int16 UINT16: TMA only moves them, and fills zeros).
template <class T> constexpr CUtensorMapDataType tmaDataType() {
  using tp::detail::kSame;
  if constexpr (kSame<T, float>)
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  else if constexpr (kSame<T, __nv_bfloat16>)
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  else if constexpr (kSame<T, __half>)
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  else if constexpr (kSame<T, int32_t>)
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  else if constexpr (kSame<T, int16_t>)
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  else {
    static_assert(sizeof(T) == 1, "no tensor-map data type for this element");
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
}

constexpr CUtensorMapSwizzle tmaSwizzle(Swizzle s) {
  return s == Swizzle::B128  ? CU_TENSOR_MAP_SWIZZLE_128B
         : s == Swizzle::B64 ? CU_TENSOR_MAP_SWIZZLE_64B
         : s == Swizzle::B32 ? CU_TENSOR_MAP_SWIZZLE_32B
                             : CU_TENSOR_MAP_SWIZZLE_NONE;
}

namespace detail {

using EncodeTiled = CUresult (*)(CUtensorMap *, CUtensorMapDataType,
                                 cuuint32_t, void *, const cuuint64_t *,
                                 const cuuint64_t *, const cuuint32_t *,
                                 const cuuint32_t *, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion,
                                 CUtensorMapFloatOOBfill);

inline Status encoder(EncodeTiled &fn) {
#if TP_EMULATOR
  fn = &cpu::drv::cuTensorMapEncodeTiled;
  return {};
#else
  static EncodeTiled cached = nullptr;
  if (!cached) {
    void *p = nullptr;
    cudaDriverEntryPointQueryResult found;
    // 12000: the ABI cuTensorMapEncodeTiled has had since CUDA 12.0.
    cudaError_t e = cudaGetDriverEntryPointByVersion(
        "cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found);
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || !p)
      return failure(std::string("cuTensorMapEncodeTiled: no driver entry "
                                 "point (") +
                     cudaGetErrorString(e) + ")");
    cached = reinterpret_cast<EncodeTiled>(p);
  }
  fn = cached;
  return {};
#endif
}

} // namespace detail

namespace detail {

/// encodeTma's work for a tile of `tileRank` dimensions whose box is
/// `tileBox` (innermost first), elements of `elemBytes` bytes: one
/// definition for every layout (in the emulator library under
/// TILEPIPE_EMULATOR_EXTERN). Bit i of `unitDims` (innermost first) gives
/// tensor dimension i a box of 1 between the tile's dimensions.
TP_EMU_OUTLINE Status encodeTmaBox(TmaDesc &map, const Tensor &t,
                                   const char *name, CUtensorMapDataType type,
                                   size_t elemBytes, int tileRank,
                                   const cuuint32_t *tileBox,
                                   CUtensorMapSwizzle swizzle,
                                   unsigned unitDims);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE Status encodeTmaBox(TmaDesc &map, const Tensor &t,
                                   const char *name, CUtensorMapDataType type,
                                   size_t elemBytes, int tileRank,
                                   const cuuint32_t *tileBox,
                                   CUtensorMapSwizzle swizzle,
                                   unsigned unitDims) {
  const int K = tileRank;
  const int R = t.rank;
  std::string what = std::string("tensor map of ") + name;
  if (R < K + __builtin_popcount(unitDims) || R > 5)
    return failure(what + ": the tensor has rank " + std::to_string(t.rank) +
                   ", the tile " + std::to_string(K));
  if (t.strides[R - 1] != 1)
    return failure(what + ": the innermost dimension must be contiguous");
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], elementStrides[5];
  for (int i = 0, j = 0; i < R; ++i) { // TMA order: innermost first
    // The driver rejects a size of 0; a kernel reads nothing of an empty
    // tensor (its loops run 0 times), so any map will do.
    dims[i] = cuuint64_t(t.dims[R - 1 - i] > 0 ? t.dims[R - 1 - i] : 1);
    box[i] = (unitDims >> i) & 1 ? 1 : j < K ? tileBox[j++] : 1;
    elementStrides[i] = 1;
  }
  for (int i = 0; i + 1 < R; ++i)
    strides[i] = cuuint64_t(t.strides[R - 2 - i]) * elemBytes;
  EncodeTiled encode;
  if (Status s = encoder(encode); !s.ok)
    return s;
  CUresult r = encode(&map, type, cuuint32_t(R), t.data, dims, strides, box,
                      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                      CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return failure(what + ": cuTensorMapEncodeTiled returned " +
                   std::to_string(int(r))
#if TP_EMULATOR
                   + " (" + cpu::drv::lastEncodeError() + ")"
#endif
    );
  return {};
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace detail

/// Encodes `map` for tiles of layout L (layout/tile.cuh) over `t`: L's box
/// (its first column block for an MmaTile; the kernel offsets the others)
/// and swizzle, no interleave, zero fill out of bounds. A tensor of higher
/// rank than the tile gets a box of 1 along its outer dimensions (a batch of
/// one: the (1, M, K) box of a batched matmul lands as L's MxK tile) and
/// along the dimensions `unitDims` marks, innermost first (the (1, H, 1, D)
/// box of one token's heads lands as L's HxD tile).
template <class L>
Status encodeTma(TmaDesc &map, const Tensor &t, const char *name,
                 unsigned unitDims = 0) {
  constexpr int K = L::kRank;
  cuuint32_t box[K];
  for (int i = 0; i < K; ++i) // innermost first
    box[i] = cuuint32_t(L::box_dim(K - 1 - i));
  return detail::encodeTmaBox(map, t, name, tmaDataType<typename L::Elem>(),
                              sizeof(typename L::Elem), K, box,
                              tmaSwizzle(L::kSwizzle), unitDims);
}

/// cudaErrorLaunchFailure's value (driver_types.h): what the emulator's
/// fault or deadlock stands for.
inline constexpr int kLaunchFailure = 719;

/// Launches `kernel` on `grid` x `block` with `smemBytes` of dynamic SMEM.
template <class... Params, class... Args>
Status launch(void (*kernel)(Params...), dim3 grid, dim3 block,
              size_t smemBytes, const LaunchOptions &options,
              Args &&...args) {
#if TP_EMULATOR
  cpu::LaunchResult r = cpu::launch(grid, block, smemBytes, options.cpu,
                                    [&] { kernel(args...); });
  return Status{r.ok, r.report, r.ok ? 0 : kLaunchFailure};
#else
  cudaError_t e = cudaFuncSetAttribute(
      kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smemBytes));
  if (e != cudaSuccess)
    return Status{false,
                  std::string("cudaFuncSetAttribute: ") +
                      cudaGetErrorString(e),
                  int(e)};
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smemBytes;
  config.stream = options.stream;
  e = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
  if (e != cudaSuccess)
    return Status{false,
                  std::string("cudaLaunchKernelEx: ") + cudaGetErrorString(e),
                  int(e)};
  return {};
#endif
}

} // namespace tp::host

#endif // TILEPIPE_HOST_LAUNCH_CUH
