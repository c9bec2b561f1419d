//===- host/cutile.cuh - what a cuTile launcher calls ----------*- CUDA -*-===//
//
// A kernel lowered from cuTile (its func.func carries tileas.cutile.params)
// gets, beside tp_launch_<kernel>, a launcher with cuTile's calling
// convention (docs/cuda-tile-launch.md):
//
//   extern "C" cudaError_t <kernel>_launch(dim3 grid, cudaStream_t stream,
//                                          void **params);
//
// `params` is the array cuLaunchKernel would receive for tileiras's cubin
// of the same bytecode (cutile_python_v1): one pointer per flattened
// parameter, pointing at its value; an array parameter of rank n is the
// base pointer, then shape[0..n), then strides[0..n) in elements, each an
// int32 (int64 with index_dtype int64). The launcher reads them here, turns
// each array into a tp::host::Tensor after checking that a TMA can move it,
// and calls tp_launch_<kernel>. A refusal or a failed launch returns a
// cudaError_t, with the reason in <kernel>_launch_error().
//
// Under TILEPIPE_CPU the CUDA runtime's cudaError_t and cudaStream_t are
// declared here (the emulator has no runtime header), with CUDA 13's values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HOST_CUTILE_CUH
#define TILEPIPE_HOST_CUTILE_CUH

#include <cstdint>
#include <cstring>
#include <string>

#include "tilepipe/emulator/outline.h"
#include "tilepipe/host/launch.cuh"

#if TP_EMULATOR
// The runtime's error enum as driver_types.h numbers it (the values this
// launcher returns), and an opaque stream the emulator ignores.
typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorLaunchFailure = 719,
} cudaError_t;
typedef struct CUstream_st *cudaStream_t;
#endif

namespace tp::host::cutile {

/// The last refusal or launch failure of a cuTile launcher on this thread
/// ("" after a launch that succeeded).
TP_EMU_OUTLINE std::string &lastError();

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE std::string &lastError() {
  static thread_local std::string why;
  return why;
}
#endif // !TILEPIPE_EMULATOR_EXTERN

/// One array parameter as cuTile passes it: base pointer, shape and
/// strides (elements), outermost dimension first.
struct Array {
  void *data = nullptr;
  int rank = 0;
  int64_t shape[5] = {};
  int64_t strides[5] = {};
};

/// One call of a cuTile launcher: reads `params` slot by slot and keeps the
/// first reason to refuse.
class Call {
public:
  Call(const char *kernel, void **params) : kernel(kernel), params(params) {
    lastError().clear();
  }

  /// Array parameter `param` (its name `name`), whose rank-n value fills
  /// slots [first, first + 1 + 2n) with Index-typed shape and strides.
  template <class Index>
  bool array(int param, int first, int rank, const char *name, Array &out) {
    out.rank = rank;
    if (!read(first, name, out.data))
      return false;
    for (int d = 0; d < rank; ++d) {
      Index extent = 0, stride = 0;
      if (!read(first + 1 + d, name, extent) ||
          !read(first + 1 + rank + d, name, stride))
        return false;
      out.shape[d] = int64_t(extent);
      out.strides[d] = int64_t(stride);
      if (extent < 0)
        return refuse(param, name,
                      "shape[" + std::to_string(d) + "] is negative (" +
                          std::to_string(out.shape[d]) + ")");
    }
    return true;
  }

  /// The scalar parameter in slot `slot`.
  template <class T> bool scalar(int slot, const char *name, T &out) {
    return read(slot, name, out);
  }

  /// The tensor a TMA descriptor of `a` describes, once the TMA's rules
  /// hold: innermost stride 1, other strides positive with a byte stride a
  /// multiple of 16 below 2^40, base address 16-byte aligned, extents up to
  /// 2^32.
  bool tensor(int param, const Array &a, size_t elementBytes, const char *name,
              Tensor &t);

  /// The refusal as the launcher returns it.
  cudaError_t refused() const { return cudaErrorInvalidValue; }

  /// Launch options for `stream` (the emulator runs on the calling thread
  /// and ignores it).
  LaunchOptions options(cudaStream_t stream) const {
    LaunchOptions o;
#if TP_EMULATOR
    (void)stream;
#else
    o.stream = stream;
#endif
    return o;
  }

  /// tp_launch_<kernel>'s status as a cudaError_t. On a GPU the kernel runs
  /// asynchronously, as after cuLaunchKernel; the emulator has finished it.
  cudaError_t finish(const Status &launched) const {
    if (launched.ok)
      return cudaSuccess;
    lastError() = std::string(kernel) + "_launch: " + launched.report;
    // A tensor map the driver refused is an argument error.
    return launched.launchError ? cudaError_t(launched.launchError)
                                : cudaErrorInvalidValue;
  }

private:
  /// Copies slot `slot`'s value (the bytes cuLaunchKernel would copy).
  template <class T> bool read(int slot, const char *name, T &out) {
    if (!params)
      return fail("params is null");
    if (!params[slot])
      return fail("params[" + std::to_string(slot) + "] (of '" + name +
                  "') is null");
    std::memcpy(&out, params[slot], sizeof(T));
    return true;
  }
  bool refuse(int param, const char *name, const std::string &why);
  bool fail(const std::string &why);

  const char *kernel;
  void **params;
};

// Call's members that do not depend on a type: one definition in the
// emulator library under -DTILEPIPE_EMULATOR_EXTERN (emulator/outline.h).
#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE bool Call::tensor(int param, const Array &a, size_t elementBytes,
                                 const char *name, Tensor &t) {
  int n = a.rank;
  if (n < 1 || n > 5)
    return refuse(param, name,
                  "rank " + std::to_string(n) + " (a TMA moves ranks 1 to 5)");
  void *data = a.data;
  if (!data) {
    // An empty array may come with a null pointer (torch gives one). The
    // driver refuses a null address even where nothing is read, so the map
    // gets an aligned one that no load reaches: the kernel's loops over an
    // extent of 0 run no trip.
    bool empty = false;
    for (int d = 0; d < n; ++d)
      empty |= a.shape[d] == 0;
    if (!empty)
      return refuse(param, name, "the base pointer is null");
    alignas(128) static char unread[128];
    data = unread;
  }
  if (reinterpret_cast<uintptr_t>(data) % 16)
    return refuse(param, name,
                  "the base address is not 16-byte aligned, which a TMA "
                  "requires");
  // An innermost extent of 1 reads one element whatever its stride.
  if (a.strides[n - 1] != 1 && a.shape[n - 1] > 1)
    return refuse(param, name,
                  "strides[" + std::to_string(n - 1) + "] is " +
                      std::to_string(a.strides[n - 1]) +
                      ": a TMA needs the innermost dimension contiguous "
                      "(stride 1)");
  for (int d = 0; d < n; ++d) {
    if (a.shape[d] > (int64_t(1) << 32))
      return refuse(param, name,
                    "shape[" + std::to_string(d) +
                        "] is more than 2^32, a TMA's largest extent");
    if (d == n - 1)
      continue;
    int64_t bytes = a.strides[d] * int64_t(elementBytes);
    std::string which = "strides[" + std::to_string(d) + "] is " +
                        std::to_string(a.strides[d]) + " (" +
                        std::to_string(bytes) + " bytes)";
    if (a.strides[d] <= 0)
      return refuse(param, name, which + ": a TMA needs positive strides");
    if (bytes % 16)
      return refuse(param, name,
                    which + ": a TMA needs byte strides that are "
                            "multiples of 16");
    if (bytes >= (int64_t(1) << 40))
      return refuse(param, name, which + ": a TMA needs them below 2^40");
  }
  t.data = data;
  t.rank = n;
  for (int d = 0; d < n; ++d) {
    t.dims[d] = a.shape[d];
    t.strides[d] = d == n - 1 ? 1 : a.strides[d];
  }
  return true;
}

TP_EMU_OUTLINE bool Call::refuse(int param, const char *name,
                                 const std::string &why) {
  return fail("parameter " + std::to_string(param) + " ('" + name +
              "'): " + why);
}

TP_EMU_OUTLINE bool Call::fail(const std::string &why) {
  lastError() = std::string(kernel) + "_launch: " + why;
  return false;
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::host::cutile

#endif // TILEPIPE_HOST_CUTILE_CUH
