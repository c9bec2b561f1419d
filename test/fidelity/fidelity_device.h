//===- test/fidelity/fidelity_device.h - buffers and the device check -----===//
//
// What the wgmma fidelity programs (wgmma_fidelity.cu, rounding_fidelity.cu)
// share around their kernels: device buffers that are heap memory under the
// emulator, and the check that a Hopper is there to run the hardware side.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_TEST_FIDELITY_FIDELITY_DEVICE_H
#define TILEPIPE_TEST_FIDELITY_FIDELITY_DEVICE_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if !defined(TILEPIPE_CPU)
#include <cuda_runtime.h>
#endif

namespace fidelity {

/// Device buffers: cudaMalloc on a GPU, the heap under the emulator.
template <class E> struct Buf {
  E *p = nullptr;
  size_t n = 0;
  explicit Buf(size_t count) : n(count) {
#if defined(TILEPIPE_CPU)
    p = static_cast<E *>(std::calloc(count, sizeof(E)));
#else
    if (cudaMalloc(&p, count * sizeof(E)) != cudaSuccess)
      p = nullptr;
#endif
  }
  Buf(const Buf &) = delete;
  Buf &operator=(const Buf &) = delete;
  ~Buf() {
#if defined(TILEPIPE_CPU)
    std::free(p);
#else
    cudaFree(p);
#endif
  }
  void put(const E *src) {
#if defined(TILEPIPE_CPU)
    std::memcpy(p, src, n * sizeof(E));
#else
    cudaMemcpy(p, src, n * sizeof(E), cudaMemcpyHostToDevice);
#endif
  }
  void get(E *dst) const {
#if defined(TILEPIPE_CPU)
    std::memcpy(dst, p, n * sizeof(E));
#else
    cudaMemcpy(dst, p, n * sizeof(E), cudaMemcpyDeviceToHost);
#endif
  }
};

/// 0 when a Hopper (sm_90) is there to run the hardware side, else 77
/// (scripts/fidelity-check.sh's "skipped"); the emulator build has none.
inline int deviceCheck() {
#if defined(TILEPIPE_CPU)
  return 77;
#else
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0)
    return 77;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  std::printf("device: %s, sm_%d%d\n", p.name, p.major, p.minor);
  return p.major == 9 ? 0 : 77;
#endif
}

} // namespace fidelity

#endif // TILEPIPE_TEST_FIDELITY_FIDELITY_DEVICE_H
