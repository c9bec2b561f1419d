//===- harness_host.cuh - host side of the harness -------------*- CUDA -*-===//
//
// Host helpers to clear and read tp::tp_report around a harness-mode launch.
// Include it from the .cu file that holds the kernel: cudaMemcpy{To,From}Symbol
// address the report of the device code compiled in the same translation unit.
// In real mode there is no report; the helpers succeed and report all zeros, so
// host code need not be written twice.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_HARNESS_HOST_CUH
#define TILEPIPE_HARNESS_HOST_CUH

#include <cuda_runtime.h>

#include "tilepipe/kernel.cuh"

namespace tp {
namespace host {

/// Clears the report; call before every harness launch (a stale timeout would
/// make every later wait give up at once).
inline cudaError_t reset() {
#if TP_HARNESS
  HarnessReport zero = {};
  return cudaMemcpyToSymbol(tp_report, &zero, sizeof(zero));
#else
  return cudaSuccess;
#endif
}

/// Copies the report back; synchronizes with the device (the copy does).
inline cudaError_t read(HarnessReport &out) {
  out = HarnessReport{};
#if TP_HARNESS
  return cudaMemcpyFromSymbol(&out, tp_report, sizeof(out));
#else
  return cudaSuccess;
#endif
}

/// True when a harness run found no protocol error and no timeout.
inline bool clean(const HarnessReport &r) {
  return r.errors == 0 && r.timeouts == 0;
}

} // namespace host
} // namespace tp

#endif // TILEPIPE_HARNESS_HOST_CUH
