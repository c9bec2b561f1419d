//===- test/fidelity/tma_fidelity.cu - the CPU emulator against hardware --===//
//
// One source, two builds, one dump each, compared byte for byte:
//
//   g++ -std=c++17 -O1 -Wno-psabi -x c++ -DTILEPIPE_CPU -I cuda/include -I .
//       test/fidelity/tma_fidelity.cu -o fid.cpu            # the emulator
//   nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a -I cuda/include
//   -I .
//       test/fidelity/tma_fidelity.cu -o fid.gpu            # Hopper
//       (H100/H200)
//
//   fid.cpu --dump cpu.bin --selftest    # the emulator's dump, checked first
//   fid.gpu --dump gpu.bin               # the hardware's (exit 3: resume-at K)
//   fid.cpu --compare cpu.bin gpu.bin    # one verdict per configuration
//
// scripts/fidelity-check.sh does all of it. What is exercised is the
// project's own code, nothing written for the test: tensor maps are encoded
// by tp::host::encodeTma<L> (host/launch.cuh, the call the generated
// launcher makes: the driver's cuTensorMapEncodeTiled on a GPU, the emulated
// driver under TILEPIPE_CPU), the kernels are launched by tp::host::launch,
// the loads are tp::tma_load<L> (runtime/tma.cuh over ptx/bulk_copy.cuh)
// completing on tp::mbar_arrive_expect_tx (runtime/pipes.cuh over
// ptx/mbarrier.cuh), and the conversions are tp::cvt (runtime/frag.cuh:
// cuda_bf16.h / cuda_fp16.h / cuda_fp8.h intrinsics on the GPU,
// emulator/cuda_types.h + emulator/formats.h on the CPU).
//
// Per TMA configuration a one-CTA kernel fills a window of SMEM (starting on
// an absolute 1024-byte boundary) with 0xA5, loads the tile at `off` in the
// window, waits (bounded: a broken configuration reports a timeout instead
// of hanging the GPU), and copies the whole window out verbatim: the box,
// the bytes before it and a 256-byte guard after it. The global tensor sits
// inside a larger allocation whose every byte (guards, row padding) comes
// from a seeded generator, so a chunk read from the wrong place is found
// again in the allocation and named in the report.
//
// A load whose innermost coordinate times the element size is not a
// multiple of 16 bytes stops an H200's kernel with an illegal instruction
// (docs/cpu-emulation.md, "Fidelity on hardware"); the emulator faults
// there too, --selftest requires it, and --compare counts both sides
// faulting as a match of its own kind ("match (both fault)", apart from
// "match (data)").
//
// After the loads and the conversions (whose order --start keeps), TMA
// stores: a one-CTA kernel copies seeded bytes into an SMEM window, fences
// the async proxy, stores the tile by tp::tma_store<L> (cp.async.bulk.tensor
// .global.shared::cta, commit_group, wait_group.read 0) and waits for the
// writes (wait_group 0); the record is the whole global allocation (tensor,
// row padding, guards wide enough for every element of the box, all seeded
// beforehand), kept as the runs of bytes the store changed. Then mbarrier
// scripts: steps of init / arrive / arrive.expect_tx / expect_tx / TMA load
// (complete_tx) / bounded wait, each followed by thread 0's test_wait.parity
// and try_wait.parity of both parities; the record is one byte of answers
// per step. --selftest checks the stores against a per-element model of
// the ISA (clipped elements not written, the swizzle undone) and the
// scripts against answers worked by hand from the ISA's phase rules, which
// a model of those rules must also give, whenever the copies land.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/host/launch.cuh"
// The element formats, for the host side's list of conversion inputs (plain
// C++, included by the emulator anyway, here in both builds).
#include "tilepipe/emulator/formats.h"
#include "support/SplitMix64.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#if !defined(TILEPIPE_CPU)
#include <cuda_runtime.h>
#endif

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

namespace fid {

constexpr uint32_t kThreads = 128;
constexpr uint32_t kFill = 0xA5A5A5A5u; // SMEM before the load
constexpr uint32_t kGuardAfter = 256;   // window bytes copied past the box
constexpr uint32_t kStatusOk = 1, kStatusTimeout = 2;

/// mbarrier.try_wait.parity in a loop, given up after about a second of SM
/// clocks so that a configuration the hardware never completes cannot hang
/// the run.
TP_DEVICE bool wait_bounded(uint32_t bar, uint32_t parity) {
  long long start = tp::ptx::clock64();
  while (!tp::ptx::mbarrier_try_wait_parity(bar, parity))
    if (tp::ptx::clock64() - start > (1ll << 31))
      return false;
  return true;
}

/// One step of an mbarrier script (fid_mbar_kernel): thread `who` does
/// `op`, then thread 0 probes the barrier unless `probe` is 0.
enum MbarOp : uint8_t {
  kMInit,     // mbarrier.init, arg = the expected arrival count
  kMArrive,   // mbarrier.arrive
  kMArriveTx, // mbarrier.arrive.expect_tx, arg = bytes
  kMExpectTx, // mbarrier.expect_tx, arg = bytes (no arrival)
  kMLoad,     // a TMA load (complete_tx of MbarLoad::kBytes) into slot arg
  kMWait,     // the bounded try_wait loop for parity arg (thread 0)
};
struct MbarStep {
  uint8_t op, probe;
  uint16_t who;
  uint32_t arg;
};
/// What a kMLoad moves: 256 bytes, so that its complete_tx is one known
/// count.
using MbarLoad = tp::DenseTile<__nv_bfloat16, 8, 16>;
constexpr uint32_t kMbarSlots = 4; // destinations for the loads of a script
/// A step's observation byte: what test_wait.parity answered for parity 0
/// and 1, what try_wait.parity answered (asked only where test_wait said
/// the phase completed, since a try_wait on an open phase waits, and under
/// the emulator blocks), whether the step's bounded wait completed, and
/// that no probe was taken (a step whose answer depends on when an
/// asynchronous copy lands).
constexpr uint8_t kObsTest0 = 1, kObsTest1 = 2, kObsTry0 = 4, kObsTry1 = 8,
                  kObsWaited = 16, kObsNoProbe = 0x80;

} // namespace fid

// The kernels live at global scope, as emitted kernels do: under the
// emulator a block-scope `extern __shared__` must name ::tp_smem_raw.

/// The dynamic SMEM window. Declared in a non-template function: g++ 12
/// calls a null TLS-init function for a block-scope `extern thread_local`
/// (what `extern __shared__` becomes under the emulator) when the only
/// declaration is inside a function template.
__device__ __forceinline__ unsigned char *fid_smem_raw() {
  extern __shared__ __align__(1024) unsigned char tp_smem_raw[];
  return tp_smem_raw;
}

template <class L>
__global__ void __launch_bounds__(fid::kThreads, 1)
    fid_tma_kernel(const __grid_constant__ tp::TmaDesc map, int64_t r0,
                   int64_t c0, uint32_t off, uint32_t window, uint8_t *out,
                   uint32_t *status) {
  // The swizzles act on absolute shared addresses: start the window on the
  // 128B pattern's repeat, wherever the dynamic window begins.
  unsigned char *smem = fid_smem_raw();
  uint32_t raw = tp::smem_addr(smem);
  unsigned char *win = smem + (((raw + 1023u) & ~1023u) - raw);
  uint64_t *bar = reinterpret_cast<uint64_t *>(win + ((window + 15u) & ~15u));
  uint32_t *w32 = reinterpret_cast<uint32_t *>(win);
  for (uint32_t i = threadIdx.x; i < window / 4; i += blockDim.x)
    w32[i] = fid::kFill;
  tp::fence_proxy_async(); // the fill before the TMA's writes
  if (threadIdx.x == 0) {
    tp::mbar_init(bar, 1);
    tp::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    tp::mbar_arrive_expect_tx(bar, 1, 0, L::kBytes);
    tp::tma_load<L>(tp::smem_addr(win) + off, map, bar, 1, 0, 0, r0, c0);
  }
  bool ok = fid::wait_bounded(tp::smem_addr(bar), 0);
  if (ok) {
    uint32_t *o32 = reinterpret_cast<uint32_t *>(out);
    for (uint32_t i = threadIdx.x; i < window / 4; i += blockDim.x)
      o32[i] = w32[i];
  }
  if (threadIdx.x == 0)
    status[0] = ok ? fid::kStatusOk : fid::kStatusTimeout;
}

/// A TMA store: the window (on an absolute 1024-byte boundary, as for the
/// loads) gets the host's bytes by generic stores, which the async proxy
/// sees only after fence.proxy.async; then one thread stores the tile at
/// `off` in the window through tp::tma_store<L> (box by box, then
/// commit_group and wait_group.read 0: the source may be reused) and waits
/// with wait_group 0 until the writes themselves completed. Rank 3 adds an
/// outer coordinate the box spans one element of. Nothing here can hang:
/// a store completes or faults.
template <class L, int Rank>
__global__ void __launch_bounds__(fid::kThreads, 1)
    fid_store_kernel(const __grid_constant__ tp::TmaDesc map, int64_t p0,
                     int64_t r0, int64_t c0, uint32_t off, uint32_t window,
                     const uint8_t *src) {
  unsigned char *smem = fid_smem_raw();
  uint32_t raw = tp::smem_addr(smem);
  unsigned char *win = smem + (((raw + 1023u) & ~1023u) - raw);
  uint32_t *w32 = reinterpret_cast<uint32_t *>(win);
  const uint32_t *s32 = reinterpret_cast<const uint32_t *>(src);
  for (uint32_t i = threadIdx.x; i < window / 4; i += blockDim.x)
    w32[i] = s32[i];
  tp::fence_proxy_async(); // every writer's bytes before the TMA reads them
  __syncthreads();
  if (threadIdx.x == 0) {
    if constexpr (Rank == 3)
      tp::tma_store<L>(map, tp::smem_addr(win) + off, p0, r0, c0);
    else
      tp::tma_store<L>(map, tp::smem_addr(win) + off, r0, c0);
    tp::ptx::bulk_wait_group<0>();
  }
}

/// An mbarrier script: the steps in order, each done by its thread, a
/// __syncthreads, then thread 0's probe of both parities (test_wait, and
/// try_wait where test_wait said completed), recorded in out[step]. A wait
/// that times out ends the script (status: timeout), since a copy it
/// waited for may still be in flight.
__global__ void __launch_bounds__(fid::kThreads, 1)
    fid_mbar_kernel(const __grid_constant__ tp::TmaDesc map,
                    const fid::MbarStep *steps, uint32_t n, uint8_t *out,
                    uint32_t *status) {
  using namespace fid;
  unsigned char *smem = fid_smem_raw();
  uint32_t raw = tp::smem_addr(smem);
  unsigned char *win = smem + (((raw + 1023u) & ~1023u) - raw);
  uint64_t *bar =
      reinterpret_cast<uint64_t *>(win + kMbarSlots * MbarLoad::kBytes);
  volatile uint32_t *stop = reinterpret_cast<volatile uint32_t *>(bar + 1);
  uint32_t b = tp::smem_addr(bar);
  if (threadIdx.x == 0)
    *stop = 0;
  __syncthreads();
  for (uint32_t i = 0; i < n; ++i) {
    MbarStep s = steps[i];
    bool waited = false;
    if (threadIdx.x == s.who) {
      switch (s.op) {
      case kMInit:
        tp::mbar_init(bar, s.arg);
        tp::fence_mbarrier_init();
        break;
      case kMArrive:
        tp::mbar_arrive(bar, 1, 0);
        break;
      case kMArriveTx:
        tp::mbar_arrive_expect_tx(bar, 1, 0, s.arg);
        break;
      case kMExpectTx:
        tp::mbar_expect_tx(bar, 1, 0, s.arg);
        break;
      case kMLoad:
        tp::tma_load<MbarLoad>(tp::smem_addr(win) + s.arg * MbarLoad::kBytes,
                               map, bar, 1, 0, 0, 0, 0);
        break;
      case kMWait:
        waited = wait_bounded(b, s.arg);
        if (!waited)
          *stop = 1;
        break;
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      uint8_t o = waited ? kObsWaited : 0;
      if (!s.probe) {
        o |= kObsNoProbe;
      } else {
        bool t0 = tp::ptx::mbarrier_test_wait_parity(b, 0);
        bool t1 = tp::ptx::mbarrier_test_wait_parity(b, 1);
        o |= (t0 ? kObsTest0 : 0) | (t1 ? kObsTest1 : 0);
        if (t0 && tp::ptx::mbarrier_try_wait_parity(b, 0))
          o |= kObsTry0;
        if (t1 && tp::ptx::mbarrier_try_wait_parity(b, 1))
          o |= kObsTry1;
      }
      out[i] = o;
    }
    __syncthreads();
    if (*stop)
      break;
  }
  if (threadIdx.x == 0)
    status[0] = *stop ? kStatusTimeout : kStatusOk;
}

/// f32 -> bf16 (scalar and the paired cvt.rn.bf16x2.f32 of tp::cvt), f16,
/// e4m3 and e5m2 (satfinite), by the runtime's own conversions.
__global__ void __launch_bounds__(256, 1)
    fid_cvt_kernel(const float *in, int64_t pairs, uint16_t *bf16,
                   uint16_t *bf16x2, uint16_t *f16, uint8_t *e4m3,
                   uint8_t *e5m2) {
  for (int64_t p = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; p < pairs;
       p += int64_t(gridDim.x) * blockDim.x) {
    tp::Frag<float, 2> a;
    a.v[0] = in[2 * p];
    a.v[1] = in[2 * p + 1];
    tp::Frag<__nv_bfloat16, 2> b2 = tp::cvt<__nv_bfloat16>(a);
    tp::Frag<__half, 2> h = tp::cvt<__half>(a);
    tp::Frag<__nv_fp8_e4m3, 2> q4 = tp::cvt<__nv_fp8_e4m3>(a);
    tp::Frag<__nv_fp8_e5m2, 2> q5 = tp::cvt<__nv_fp8_e5m2>(a);
    for (int j = 0; j < 2; ++j) {
      int64_t i = 2 * p + j;
      bf16[i] =
          __bfloat16_as_ushort(tp::detail::from_f32<__nv_bfloat16>(a.v[j]));
      bf16x2[i] = __bfloat16_as_ushort(b2.v[j]);
      f16[i] = __half_as_ushort(h.v[j]);
      std::memcpy(&e4m3[i], &q4.v[j], 1);
      std::memcpy(&e5m2[i], &q5.v[j], 1);
    }
  }
}

//===----------------------------------------------------------------------===//
// Host: memory, the configuration table, the dump
//===----------------------------------------------------------------------===//

namespace fid {

using tp::host::failure;
using tp::host::Status;

/// Device memory: cudaMalloc on a GPU, the heap under the emulator.
struct DevBuf {
  void *p = nullptr;
  size_t n = 0;
  DevBuf() = default;
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
  ~DevBuf() {
#if defined(TILEPIPE_CPU)
    std::free(p);
#else
    if (p)
      cudaFree(p);
#endif
  }
  Status alloc(size_t bytes) {
    n = bytes;
#if defined(TILEPIPE_CPU)
    p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    return p ? Status{} : failure("out of memory");
#else
    cudaError_t e = cudaMalloc(&p, bytes);
    return e == cudaSuccess
               ? Status{}
               : failure(std::string("cudaMalloc: ") + cudaGetErrorString(e));
#endif
  }
  Status put(const void *src, size_t bytes) { return copy(p, src, bytes, true); }
  Status get(void *dst, size_t bytes) const {
    return copy(dst, p, bytes, false);
  }

private:
  static Status copy(void *dst, const void *src, size_t bytes, bool toDevice) {
#if defined(TILEPIPE_CPU)
    (void)toDevice;
    std::memcpy(dst, src, bytes);
    return {};
#else
    cudaError_t e = cudaMemcpy(dst, src, bytes,
                               toDevice ? cudaMemcpyHostToDevice
                                        : cudaMemcpyDeviceToHost);
    return e == cudaSuccess
               ? Status{}
               : failure(std::string("cudaMemcpy: ") + cudaGetErrorString(e));
#endif
  }
};

/// After a launch: the kernel's own errors (none under the emulator, whose
/// report comes back from tp::host::launch).
inline Status synchronize() {
#if defined(TILEPIPE_CPU)
  return {};
#else
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess)
    e = cudaGetLastError();
  return e == cudaSuccess
             ? Status{}
             : failure(std::string("kernel: ") + cudaGetErrorString(e));
#endif
}

/// The input data: splitmix64, seeded per configuration from its name.
using Rng = tilepipe::SplitMix64;
inline uint64_t nameSeed(const std::string &s) {
  uint64_t h = 0xcbf29ce484222325ull ^ 0x5EEDF1DE11ull;
  for (unsigned char c : s)
    h = (h ^ c) * 0x100000001b3ull;
  return h;
}

/// Guard bytes before and after the tensor in its allocation: reads at
/// negative or too-large coordinates that were not clipped land here.
constexpr size_t kGlobalGuard = 8192;

struct Config;
using RunFn = Status (*)(const Config &, const std::vector<uint8_t> &alloc,
                         std::vector<uint8_t> &window, uint32_t *status);

/// What a tile layout L (layout/tile.cuh) loads, as numbers.
struct Layout {
  const char *type; // bf16, f16, f32, fp8
  std::string name; // e.g. mma128x64.b128
  int es;           // element bytes
  int rows;         // R: box rows
  int boxCols;      // box inner extent, elements
  int boxes;        // boxes per tile (MmaTile: C / boxCols)
  int span;         // swizzle span in bytes, 0 for none
  uint32_t boxBytes, tileBytes;
  RunFn run;
};

struct Config {
  std::string name;
  const Layout *L;
  int64_t rows, cols, stride; // the global tensor, elements
  int64_t r0, c0;             // the tile's origin, outermost first
  uint32_t off;               // SMEM destination, bytes past a 1024 boundary
  bool probe;                 // behaviour the ISA/driver docs do not pin down
  uint32_t window() const { return off + L->tileBytes + kGuardAfter; }
  /// The rule measured on sm_90 (docs/cpu-emulation.md, "Fidelity on
  /// hardware"): a tiled load whose innermost coordinate times the element
  /// size is not a multiple of 16 bytes faults (an illegal instruction),
  /// negative coordinates included. Every box of a tile starts a multiple
  /// of 16 bytes after c0, so c0 decides for all of them. Written here
  /// independently of emulator/tma_unit.h, for the self-check.
  bool innerUnaligned() const { return (c0 * L->es) % 16 != 0; }
  size_t tensorBytes() const { return size_t(rows * stride * L->es); }
  size_t allocBytes() const { return 2 * kGlobalGuard + tensorBytes(); }
};

/// The allocation's bytes: guards, tensor and row padding all random.
inline std::vector<uint8_t> globalData(const Config &c) {
  std::vector<uint8_t> a(c.allocBytes());
  Rng r(nameSeed(c.name));
  for (size_t i = 0; i < a.size(); i += 8) {
    uint64_t v = r.next();
    std::memcpy(&a[i], &v, std::min<size_t>(8, a.size() - i));
  }
  return a;
}

template <class L>
Status runTma(const Config &c, const std::vector<uint8_t> &alloc,
              std::vector<uint8_t> &window, uint32_t *kernelStatus) {
  *kernelStatus = 0;
  DevBuf g, out, st;
  uint32_t win = c.window();
  if (Status s = g.alloc(alloc.size()); !s.ok)
    return s;
  if (Status s = g.put(alloc.data(), alloc.size()); !s.ok)
    return s;
  if (Status s = out.alloc(win); !s.ok)
    return s;
  if (Status s = st.alloc(4); !s.ok)
    return s;
  uint32_t zero = 0;
  if (Status s = st.put(&zero, 4); !s.ok)
    return s;
  std::vector<uint8_t> poison(win, 0x5A);
  if (Status s = out.put(poison.data(), win); !s.ok)
    return s;
  tp::host::Tensor t = tp::host::tensor2d(
      static_cast<uint8_t *>(g.p) + kGlobalGuard, c.rows, c.cols, c.stride);
  alignas(128) tp::TmaDesc map;
  if (Status s = tp::host::encodeTma<L>(map, t, c.name.c_str()); !s.ok)
    return Status{false, "encode: " + s.report};
  size_t smem = 1024 + ((win + 15u) & ~15u) + 16;
  Status s = tp::host::launch(fid_tma_kernel<L>, dim3(1), dim3(kThreads), smem,
                              tp::host::LaunchOptions(), map, c.r0, c.c0, c.off,
                              win, static_cast<uint8_t *>(out.p),
                              static_cast<uint32_t *>(st.p));
  if (!s.ok)
    return Status{false, "launch: " + s.report};
  if (Status e = synchronize(); !e.ok)
    return e;
  if (Status e = st.get(kernelStatus, 4); !e.ok)
    return e;
  window.resize(win);
  return out.get(window.data(), win);
}

/// L's geometry, without a kernel to run it.
template <class L> Layout geometryOf(const char *type, std::string name) {
  Layout l;
  l.type = type;
  l.name = std::move(name);
  l.es = int(sizeof(typename L::Elem));
  l.rows = L::box_dim(0);
  l.boxCols = L::box_dim(1);
  l.boxes = L::kBoxes;
  l.span = L::kSwizzle == tp::Swizzle::None ? 0 : tp::layout::span(L::kSwizzle);
  l.boxBytes = uint32_t(l.rows * l.boxCols * l.es);
  l.tileBytes = L::kBytes;
  l.run = nullptr;
  return l;
}

template <class L> Layout layoutOf(const char *type, std::string name) {
  Layout l = geometryOf<L>(type, std::move(name));
  l.run = &runTma<L>;
  return l;
}

using bf16 = __nv_bfloat16;
using f16 = __half;
using fp8 = __nv_fp8_e4m3; // a UINT8 tensor map: TMA only moves the bytes
using tp::DenseTile;
using tp::MmaTile;
using S = tp::Swizzle;

/// Every tile layout under test: DenseTile (no swizzle, any box with a
/// 16-byte multiple inner extent), MmaTile with each swizzle (inner box =
/// the span) and with None (16-byte column blocks), one box and several.
inline const std::vector<Layout> &layouts() {
  static const std::vector<Layout> all = {
      layoutOf<DenseTile<bf16, 8, 8>>("bf16", "dense8x8"),
      layoutOf<DenseTile<bf16, 32, 40>>("bf16", "dense32x40"),
      layoutOf<DenseTile<bf16, 16, 256>>("bf16", "dense16x256"),
      layoutOf<MmaTile<bf16, 64, 32, S::None>>("bf16", "mma64x32.none"),
      layoutOf<MmaTile<bf16, 8, 16, S::B32>>("bf16", "mma8x16.b32"),
      layoutOf<MmaTile<bf16, 64, 32, S::B64>>("bf16", "mma64x32.b64"),
      layoutOf<MmaTile<bf16, 8, 64, S::B128>>("bf16", "mma8x64.b128"),
      layoutOf<MmaTile<bf16, 128, 64, S::B128>>("bf16", "mma128x64.b128"),
      layoutOf<MmaTile<bf16, 64, 128, S::B128>>("bf16", "mma64x128.b128"),
      layoutOf<DenseTile<f16, 24, 24>>("f16", "dense24x24"),
      layoutOf<MmaTile<f16, 16, 32, S::B32>>("f16", "mma16x32.b32"),
      layoutOf<MmaTile<f16, 32, 32, S::B64>>("f16", "mma32x32.b64"),
      layoutOf<MmaTile<f16, 32, 64, S::B128>>("f16", "mma32x64.b128"),
      layoutOf<DenseTile<float, 8, 4>>("f32", "dense8x4"),
      layoutOf<DenseTile<float, 12, 36>>("f32", "dense12x36"),
      layoutOf<DenseTile<float, 4, 256>>("f32", "dense4x256"),
      layoutOf<MmaTile<float, 16, 8, S::B32>>("f32", "mma16x8.b32"),
      layoutOf<MmaTile<float, 16, 16, S::B64>>("f32", "mma16x16.b64"),
      layoutOf<MmaTile<float, 64, 32, S::B128>>("f32", "mma64x32.b128"),
      layoutOf<MmaTile<float, 32, 64, S::B128>>("f32", "mma32x64.b128"),
      layoutOf<DenseTile<fp8, 16, 16>>("fp8", "dense16x16"),
      layoutOf<DenseTile<fp8, 8, 208>>("fp8", "dense8x208"),
      layoutOf<MmaTile<fp8, 16, 64, S::None>>("fp8", "mma16x64.none"),
      layoutOf<MmaTile<fp8, 32, 64, S::B32>>("fp8", "mma32x64.b32"),
      layoutOf<MmaTile<fp8, 16, 64, S::B64>>("fp8", "mma16x64.b64"),
      layoutOf<MmaTile<fp8, 128, 128, S::B128>>("fp8", "mma128x128.b128"),
      layoutOf<MmaTile<fp8, 64, 256, S::B128>>("fp8", "mma64x256.b128"),
  };
  return all;
}

/// The placements of each layout's tile (R x C in all, C = boxes x box
/// inner extent), on tensors padded to a 16-byte row stride plus 32 bytes.
inline std::vector<Config> configs() {
  std::vector<Config> v;
  for (const Layout &L : layouts()) {
    int64_t R = L.rows, C = int64_t(L.boxCols) * L.boxes, e16 = 16 / L.es;
    auto stride = [&](int64_t cols) {
      int64_t bytes = (cols * L.es + 15) / 16 * 16 + 32;
      return bytes / L.es;
    };
    auto add = [&](const char *kase, int64_t rows, int64_t cols, int64_t r0,
                   int64_t c0, uint32_t off, bool probe) {
      Config c;
      c.name = std::string("tma/") + L.type + "/" + L.name + "/" + kase;
      c.L = &L;
      c.rows = rows, c.cols = cols, c.stride = stride(cols);
      c.r0 = r0, c.c0 = c0, c.off = off, c.probe = probe;
      v.push_back(c);
    };
    // A tensor larger than the tile in both dimensions, its width not a
    // multiple of 16 bytes (5 extra elements).
    int64_t rows = 2 * R + 3, cols = 2 * C + 5;
    add("inside", rows, cols, R / 2 + 1, e16, 0, false);
    add("origin", rows, cols, 0, 0, 0, false);
    add("unaligned-col", rows, cols, 2, 1, 0, false);
    add("right-edge", rows, cols, 1, cols - C / 2 - 1, 0, false);
    add("bottom-edge", rows, cols, rows - R / 2, e16, 0, false);
    add("corner", rows, cols, rows - R / 3 - 1, cols - C / 3 - 1, 0, false);
    add("neg-row", rows, cols, -(R / 2), e16, 0, false);
    add("neg-col", rows, cols, 1, -(C / 2) - 1, 0, false);
    add("neg-both", rows, cols, -(R / 4) - 1, -(C / 4) - 1, 0, false);
    add("box-over-tensor", R / 2 + 1, C / 2 + 3, 0, 0, 0, false);
    add("smem-offset-1024", rows, cols, 3, e16, 1024, false);
    // Not pinned down by the ISA / driver documentation: a box wholly
    // outside the tensor (zero-filled, full complete-tx?), and a
    // destination inside the swizzle pattern's repeat (absolute address
    // bits, as the emulator assumes, or relative to the destination?).
    add("outside-below", rows, cols, rows + 1, e16, 0, true);
    add("outside-neg", rows, cols, -R - 2, -C - 3, 0, true);
    add("mid-pattern-384", rows, cols, 2, e16, 384, true);
    // Negative inner coordinates that are whole 16-byte units (the first
    // hardware run, 2026-11-27, had none: every negative column of the
    // placements above is also unaligned, and faulted): 16 bytes left of
    // the tensor, about half the tile left of it with negative rows too,
    // and wholly left of and above it.
    int64_t half = std::max<int64_t>(e16, C / 2 / e16 * e16);
    add("neg-col-aligned", rows, cols, 1, -e16, 0, true);
    add("neg-both-aligned", rows, cols, -(R / 4) - 1, -half, 0, true);
    add("outside-neg-aligned", rows, cols, -R - 2, -C - e16, 0, true);
  }
  return v;
}

//===----------------------------------------------------------------------===//
// TMA stores: the layouts, the placements, the run
//===----------------------------------------------------------------------===//

struct StoreConfig;
using StoreFn = Status (*)(const StoreConfig &,
                           const std::vector<uint8_t> &alloc,
                           const std::vector<uint8_t> &smem,
                           std::vector<uint8_t> &result);

/// A tile layout stored by TMA: its geometry and its store kernels (rank 2
/// for all, rank 3 for a few: a batch coordinate whose box is 1).
struct StoreLayout {
  Layout g;
  StoreFn store2 = nullptr, store3 = nullptr;
  bool unalignedProbe = false; // also stored at an odd column
};

/// Which of the box's elements lie in the tensor: all, some (the store must
/// clip the others) or none. Fixed by the placement; the self-check makes
/// sure each configuration is what its name says.
enum class Clip { None, Partial, All };

struct StoreConfig {
  std::string name;
  const StoreLayout *S;
  const Layout *L;
  int rank;                   // of the tensor: 2, or 3 (planes)
  int64_t planes, rows, cols; // elements
  int64_t stride, planeStride;
  int64_t p0, r0, c0; // the tile's origin, outermost first
  uint32_t off;       // SMEM source, bytes past a 1024 boundary
  bool probe;
  Clip clip;
  size_t guard; // bytes before and after the tensor in its allocation
  uint32_t window() const { return off + L->tileBytes; }
  size_t tensorBytes() const { return size_t(planes * planeStride * L->es); }
  size_t allocBytes() const { return 2 * guard + tensorBytes(); }
  int64_t tileCols() const { return int64_t(L->boxCols) * L->boxes; }
  /// The rule the loads follow on sm_90 (Config::innerUnaligned); whether
  /// stores follow it is what the unaligned-col probes find out.
  bool innerUnaligned() const { return (c0 * L->es) % 16 != 0; }
  /// Global element (p, r, c) of the tensor, or -1 outside it.
  int64_t element(int64_t p, int64_t r, int64_t c) const {
    if (p < 0 || p >= planes || r < 0 || r >= rows || c < 0 || c >= cols)
      return -1;
    return p * planeStride + r * stride + c;
  }
};

/// Seeded bytes, all of them: the allocation before the store (so that a
/// write where none belongs changes a known byte) and the SMEM window.
inline std::vector<uint8_t> seededBytes(const std::string &seed, size_t n) {
  std::vector<uint8_t> a(n);
  Rng r(nameSeed(seed));
  for (size_t i = 0; i < n; i += 8) {
    uint64_t v = r.next();
    std::memcpy(&a[i], &v, std::min<size_t>(8, n - i));
  }
  return a;
}
inline std::vector<uint8_t> storeGlobal(const StoreConfig &c) {
  return seededBytes(c.name, c.allocBytes());
}
inline std::vector<uint8_t> storeSmem(const StoreConfig &c) {
  return seededBytes(c.name + "#smem", c.window());
}

/// A store's record: the allocation after the store as the runs of bytes
/// that differ from the seeded bytes before it, each {uint32 offset,
/// uint32 length, the bytes}, so that the dump holds what the store wrote
/// and not the guards and tensor it left alone (megabytes for the larger
/// tiles); expandRuns gives the whole allocation back.
inline std::vector<uint8_t> changedRuns(const std::vector<uint8_t> &before,
                                        const std::vector<uint8_t> &after) {
  std::vector<uint8_t> r;
  for (size_t o = 0; o < after.size();) {
    if (o < before.size() && after[o] == before[o]) {
      ++o;
      continue;
    }
    size_t end = o;
    while (end < after.size() &&
           (end >= before.size() || after[end] != before[end]))
      ++end;
    uint32_t head[2] = {uint32_t(o), uint32_t(end - o)};
    const uint8_t *h = reinterpret_cast<const uint8_t *>(head);
    r.insert(r.end(), h, h + 8);
    r.insert(r.end(), after.begin() + long(o), after.begin() + long(end));
    o = end;
  }
  return r;
}
inline bool expandRuns(const std::vector<uint8_t> &before,
                       const std::vector<uint8_t> &runs,
                       std::vector<uint8_t> &after) {
  after = before;
  for (size_t i = 0; i < runs.size();) {
    uint32_t head[2];
    if (runs.size() - i < 8)
      return false;
    std::memcpy(head, &runs[i], 8);
    i += 8;
    if (runs.size() - i < head[1] || size_t(head[0]) + head[1] > after.size())
      return false;
    std::memcpy(&after[head[0]], &runs[i], head[1]);
    i += head[1];
  }
  return true;
}

template <class L, int Rank>
Status runStore(const StoreConfig &c, const std::vector<uint8_t> &alloc,
                const std::vector<uint8_t> &smemBytes,
                std::vector<uint8_t> &result) {
  DevBuf g, src;
  uint32_t win = c.window();
  if (Status s = g.alloc(alloc.size()); !s.ok)
    return s;
  if (Status s = g.put(alloc.data(), alloc.size()); !s.ok)
    return s;
  if (Status s = src.alloc(win); !s.ok)
    return s;
  if (Status s = src.put(smemBytes.data(), win); !s.ok)
    return s;
  uint8_t *base = static_cast<uint8_t *>(g.p) + c.guard;
  tp::host::Tensor t;
  if constexpr (Rank == 3) {
    t.data = base;
    t.rank = 3;
    t.dims[0] = c.planes, t.dims[1] = c.rows, t.dims[2] = c.cols;
    t.strides[0] = c.planeStride, t.strides[1] = c.stride, t.strides[2] = 1;
  } else {
    t = tp::host::tensor2d(base, c.rows, c.cols, c.stride);
  }
  alignas(128) tp::TmaDesc map;
  if (Status s = tp::host::encodeTma<L>(map, t, c.name.c_str()); !s.ok)
    return Status{false, "encode: " + s.report};
  size_t smem = 1024 + win;
  Status s =
      tp::host::launch(fid_store_kernel<L, Rank>, dim3(1), dim3(kThreads), smem,
                       tp::host::LaunchOptions(), map, c.p0, c.r0, c.c0, c.off,
                       win, static_cast<const uint8_t *>(src.p));
  if (!s.ok)
    return Status{false, "launch: " + s.report};
  if (Status e = synchronize(); !e.ok)
    return e;
  result.resize(alloc.size());
  return g.get(result.data(), alloc.size());
}

template <class L, bool With3d = false>
StoreLayout storeLayoutOf(const char *type, std::string name,
                          bool unalignedProbe = false) {
  StoreLayout s;
  s.g = geometryOf<L>(type, std::move(name));
  s.store2 = &runStore<L, 2>;
  if constexpr (With3d)
    s.store3 = &runStore<L, 3>;
  s.unalignedProbe = unalignedProbe;
  return s;
}

using i8 = int8_t; // a UINT8 tensor map, as fp8

/// The layouts stored: each element size with DenseTiles and MmaTiles of
/// every swizzle, among them the GEMM epilogue's 128B-swizzled staging
/// tiles (MmaTile<bf16, 128, 64 or 128, B128>, docs/cuda.md "The epilogue
/// on the fragment"), one or several boxes.
inline const std::vector<StoreLayout> &storeLayouts() {
  static const std::vector<StoreLayout> all = {
      storeLayoutOf<DenseTile<bf16, 8, 8>>("bf16", "dense8x8", true),
      storeLayoutOf<DenseTile<bf16, 32, 40>>("bf16", "dense32x40"),
      storeLayoutOf<MmaTile<bf16, 64, 32, S::None>>("bf16", "mma64x32.none"),
      storeLayoutOf<MmaTile<bf16, 8, 16, S::B32>>("bf16", "mma8x16.b32"),
      storeLayoutOf<MmaTile<bf16, 64, 32, S::B64>>("bf16", "mma64x32.b64"),
      storeLayoutOf<MmaTile<bf16, 16, 64, S::B128>, true>("bf16",
                                                          "mma16x64.b128"),
      storeLayoutOf<MmaTile<bf16, 128, 64, S::B128>>("bf16", "mma128x64.b128"),
      storeLayoutOf<MmaTile<bf16, 128, 128, S::B128>>("bf16",
                                                      "mma128x128.b128"),
      storeLayoutOf<DenseTile<f16, 24, 24>>("f16", "dense24x24", true),
      storeLayoutOf<MmaTile<f16, 16, 32, S::B32>>("f16", "mma16x32.b32"),
      storeLayoutOf<MmaTile<f16, 32, 64, S::B128>>("f16", "mma32x64.b128"),
      storeLayoutOf<DenseTile<float, 12, 36>>("f32", "dense12x36", true),
      storeLayoutOf<DenseTile<float, 4, 256>, true>("f32", "dense4x256"),
      storeLayoutOf<MmaTile<float, 16, 16, S::B64>>("f32", "mma16x16.b64"),
      storeLayoutOf<MmaTile<float, 32, 32, S::B128>>("f32", "mma32x32.b128"),
      storeLayoutOf<DenseTile<i8, 16, 48>>("int8", "dense16x48", true),
      storeLayoutOf<MmaTile<i8, 16, 64, S::None>>("int8", "mma16x64.none"),
      storeLayoutOf<MmaTile<i8, 32, 64, S::B64>>("int8", "mma32x64.b64"),
      storeLayoutOf<MmaTile<i8, 16, 128, S::B128>>("int8", "mma16x128.b128"),
  };
  return all;
}

/// The placements of each stored tile (R x C), on tensors shaped as for the
/// loads (2R + 3 rows, 2C + 5 columns: the right edge ragged, not a whole
/// number of 16-byte units; rows padded to 16 bytes plus 32). Inner
/// coordinates are whole 16-byte units except in the unaligned-col probes.
inline std::vector<StoreConfig> storeConfigs() {
  std::vector<StoreConfig> v;
  for (const StoreLayout &SL : storeLayouts()) {
    const Layout &L = SL.g;
    int64_t R = L.rows, C = int64_t(L.boxCols) * L.boxes, e16 = 16 / L.es;
    auto stride = [&](int64_t cols) {
      int64_t bytes = (cols * L.es + 15) / 16 * 16 + 32;
      return bytes / L.es;
    };
    // Down to a whole number of 16-byte units (negative values too).
    auto units = [&](int64_t x) {
      return (x >= 0 ? x / e16 : -((-x + e16 - 1) / e16)) * e16;
    };
    auto add = [&](std::string kase, int rank, int64_t planes, int64_t rows,
                   int64_t cols, int64_t p0, int64_t r0, int64_t c0,
                   uint32_t off, bool probe, Clip clip) {
      StoreConfig c;
      c.name = std::string("tma-store/") + L.type + "/" + L.name + "/" + kase;
      c.S = &SL, c.L = &L, c.rank = rank;
      c.planes = planes, c.rows = rows, c.cols = cols;
      c.stride = stride(cols);
      // Planes 64 bytes apart beyond their rows: a write into the gap shows.
      c.planeStride = rows * c.stride + (rank == 3 ? 64 / L.es : 0);
      c.p0 = p0, c.r0 = r0, c.c0 = c0, c.off = off, c.probe = probe;
      c.clip = clip;
      // Guards wide enough for every element of the box, clipped or not,
      // so that a store that fails to clip writes inside the allocation
      // (and shows in the dump) rather than beyond it.
      int64_t es = L.es, bytes = int64_t(c.tensorBytes());
      int64_t first = (p0 * c.planeStride + r0 * c.stride + c0) * es;
      int64_t last = (p0 * c.planeStride + (r0 + R - 1) * c.stride + c0 + C) *
                     es; // one past the box's last element
      int64_t reach = std::max<int64_t>({0, -first, last - bytes});
      c.guard = size_t((reach + 256 + 255) / 256 * 256);
      v.push_back(c);
    };
    int64_t rows = 2 * R + 3, cols = 2 * C + 5;
    auto add2 = [&](const char *kase, int64_t rs, int64_t cs, int64_t r0,
                    int64_t c0, uint32_t off, bool probe, Clip clip) {
      add(kase, 2, 1, rs, cs, 0, r0, c0, off, probe, clip);
    };
    add2("inside", rows, cols, R / 2 + 1, e16, 0, false, Clip::None);
    add2("origin", rows, cols, 0, 0, 0, false, Clip::None);
    add2("right-edge", rows, cols, 1, units(cols - C / 2), 0, false,
         Clip::Partial);
    add2("bottom-edge", rows, cols, rows - R / 2, e16, 0, false, Clip::Partial);
    add2("corner", rows, cols, rows - R / 3 - 1, units(cols - C / 3 - 1), 0,
         false, Clip::Partial);
    add2("neg-row", rows, cols, -(R / 2), e16, 0, false, Clip::Partial);
    // A tile one 16-byte unit wide lies wholly left of the tensor at a
    // negative inner coordinate: then a probe like the other boxes wholly
    // outside.
    bool narrow = C <= e16;
    Clip left = narrow ? Clip::All : Clip::Partial;
    add2("neg-col-aligned", rows, cols, 1, -e16, 0, narrow, left);
    add2("neg-both-aligned", rows, cols, -(R / 4) - 1,
         -std::max(e16, units(C / 2)), 0, narrow, left);
    add2("box-over-tensor", R / 2 + 1, C / 2 + 3, 0, 0, 0, false,
         Clip::Partial);
    add2("smem-offset-1024", rows, cols, 3, e16, 1024, false, Clip::None);
    // Open in the documentation: where the swizzle starts for a source
    // inside the pattern's repeat (absolute address bits, as the hardware
    // does for loads), and a box wholly outside the tensor (nothing
    // written, but does the store complete?).
    add2("mid-pattern-384", rows, cols, 2, e16, 384, true, Clip::None);
    add2("outside-below", rows, cols, rows + 1, e16, 0, true, Clip::All);
    add2("outside-neg-aligned", rows, cols, -R - 2, -C - e16, 0, true,
         Clip::All);
    // Loads at such a column stop an H200's kernel; the emulator stores
    // there (no store was measured): a probe of whether stores share the
    // rule, for one layout of each element size, moved to the end below.
    if (SL.unalignedProbe)
      add2("unaligned-col", rows, cols, 2, 1, 0, true, Clip::None);
    if (SL.store3) {
      // Three planes: the box in plane 1, over plane 2's corner, at
      // negative rows of plane 1 (unclipped, they would land in plane 0),
      // and in the planes before the first and after the last.
      add("3d-inside", 3, 3, rows, cols, 1, R / 2 + 1, e16, 0, false,
          Clip::None);
      add("3d-corner", 3, 3, rows, cols, 2, rows - R / 3 - 1,
          units(cols - C / 3 - 1), 0, false, Clip::Partial);
      add("3d-neg-row", 3, 3, rows, cols, 1, -(R / 2), e16, 0, false,
          Clip::Partial);
      add("3d-plane-before", 3, 3, rows, cols, -1, 1, e16, 0, true, Clip::All);
      add("3d-plane-after", 3, 3, rows, cols, 3, 1, e16, 0, true, Clip::All);
    }
  }
  std::stable_partition(v.begin(), v.end(), [](const StoreConfig &c) {
    return !c.innerUnaligned();
  });
  return v;
}

//===----------------------------------------------------------------------===//
// mbarrier scripts
//===----------------------------------------------------------------------===//

/// A sequence of mbarrier operations and, for each step, the phase parity
/// the probes must find afterwards, worked out by hand from the PTX ISA's
/// rules: a phase completes when its pending arrival count and its
/// tx-count are both zero (an arrival lowers the first, expect_tx raises
/// the second, a copy's complete_tx lowers it; the tx-count may go below
/// zero), the next phase then expects the init count again, and
/// test_wait.parity(P) / try_wait.parity(P) are true iff the phase of
/// parity P completed, i.e. the current phase's parity is not P (so on a
/// fresh barrier, in phase 0, parity 1 counts as completed). In `want`,
/// '0' or '1' is the current phase's parity after the step, '.' a step not
/// probed: one after which the answer depends on when a copy lands.
struct MbarScript {
  std::string name;
  std::vector<MbarStep> steps;
  std::string want;
};

inline MbarStep mInit(uint32_t count) { return {kMInit, 1, 0, count}; }
inline MbarStep mArrive(uint16_t who = 0) { return {kMArrive, 1, who, 0}; }
inline MbarStep mArriveTx(uint32_t bytes, uint16_t who = 0) {
  return {kMArriveTx, 1, who, bytes};
}
inline MbarStep mExpectTx(uint32_t bytes) { return {kMExpectTx, 1, 0, bytes}; }
inline MbarStep mLoad(uint32_t slot) { return {kMLoad, 1, 0, slot}; }
inline MbarStep mWait(uint32_t parity) { return {kMWait, 1, 0, parity}; }

inline const std::vector<MbarScript> &mbarScripts() {
  static const std::vector<MbarScript> all = [] {
    constexpr uint32_t B = MbarLoad::kBytes; // 256
    std::vector<MbarScript> v = {
        // Count 1: every arrival completes a phase; the parity flips each
        // time, and a wait on the phase before returns at once.
        {"mbar/count1-arrive",
         {mInit(1), mArrive(), mArrive(), mArrive(), mArrive(), mArrive(),
          mWait(0)},
         "0101011"},
        // Count 2: every second arrival.
        {"mbar/count2-arrive",
         {mInit(2), mArrive(), mArrive(), mArrive(), mArrive(), mArrive(),
          mArrive()},
         "0011001"},
        // Count 3, arrivals from three warps.
        {"mbar/count3-warps",
         {mInit(3), mArrive(0), mArrive(33), mArrive(97), mArrive(64),
          mArrive(127), mArrive(1)},
         "0001110"},
        // Count 3 from one thread: each arrival counts, as an arrive with
        // a count of 3 would (the project has no counted arrive).
        {"mbar/count3-one-thread",
         {mInit(3), mArrive(), mArrive(), mArrive(), mArrive(), mArrive(),
          mArrive()},
         "0001110"},
        // arrive.expect_tx of 0 bytes is a plain arrival.
        {"mbar/arrive-expect-tx-0",
         {mInit(1), mArriveTx(0), mArriveTx(0), mArriveTx(0)},
         "0101"},
        // Bytes expected keep the phase open after its last arrival until
        // the copies land: one load of 256, then two for 512.
        {"mbar/expect-tx-load",
         {mInit(1), mArriveTx(B), mLoad(0), mWait(0), mArriveTx(2 * B),
          mLoad(1), mLoad(2), mWait(1)},
         "00.111.0"},
        // expect_tx without an arrival; the phase needs both the arrivals
        // and the bytes.
        {"mbar/expect-tx-then-arrive",
         {mInit(2), mExpectTx(B), mArrive(), mLoad(0), mArrive(1), mWait(0),
          mArriveTx(B), mArrive(1), mLoad(1), mWait(1)},
         "0000.111.0"},
        // tx-count split over two expect_tx, then a plain arrival completes
        // the next phase (the tx-count starts it at zero).
        {"mbar/expect-tx-split",
         {mInit(1), mExpectTx(B), mExpectTx(B), mArrive(), mLoad(0), mLoad(1),
          mWait(0), mArrive()},
         "00000.10"},
        // A copy issued before its expect_tx: the tx-count goes below zero
        // while an arrival is pending, and the arrive.expect_tx brings it
        // back (the phase completes either way round).
        {"mbar/tx-before-expect",
         {mInit(1), mLoad(0), mArriveTx(B), mWait(0), mLoad(1), mLoad(2),
          mArriveTx(2 * B), mWait(1)},
         "00.111.0"},
    };
    // The steps after which the probes would race a copy are not probed.
    for (MbarScript &s : v)
      for (size_t i = 0; i < s.steps.size() && i < s.want.size(); ++i)
        s.steps[i].probe = s.want[i] != '.';
    return v;
  }();
  return all;
}

/// The tensor the scripts' loads read (16 x 16 bf16, every load the same
/// 8 x 16 box at the origin) and the run.
inline Status runMbar(const MbarScript &m, const tp::host::LaunchOptions &o,
                      std::vector<uint8_t> &obs, uint32_t *kernelStatus) {
  *kernelStatus = 0;
  DevBuf g, steps, out, st;
  std::vector<uint8_t> data = seededBytes(m.name, 16 * 16 * 2);
  uint32_t n = uint32_t(m.steps.size());
  std::vector<uint8_t> unset(n, 0xEE);
  uint32_t zero = 0;
  for (auto [b, src, bytes] : {std::tuple<DevBuf *, const void *, size_t>{
                                   &g, data.data(), data.size()},
                               {&steps, m.steps.data(), n * sizeof(MbarStep)},
                               {&out, unset.data(), n},
                               {&st, &zero, 4}}) {
    if (Status s = b->alloc(bytes); !s.ok)
      return s;
    if (Status s = b->put(src, bytes); !s.ok)
      return s;
  }
  tp::host::Tensor t = tp::host::tensor2d(g.p, 16, 16, 16);
  alignas(128) tp::TmaDesc map;
  if (Status s = tp::host::encodeTma<MbarLoad>(map, t, m.name.c_str()); !s.ok)
    return Status{false, "encode: " + s.report};
  size_t smem = 1024 + kMbarSlots * MbarLoad::kBytes + 16;
  Status s = tp::host::launch(fid_mbar_kernel, dim3(1), dim3(kThreads), smem, o,
                              map, static_cast<const MbarStep *>(steps.p), n,
                              static_cast<uint8_t *>(out.p),
                              static_cast<uint32_t *>(st.p));
  if (!s.ok)
    return Status{false, "launch: " + s.report};
  if (Status e = synchronize(); !e.ok)
    return e;
  if (Status e = st.get(kernelStatus, 4); !e.ok)
    return e;
  obs.resize(n);
  return out.get(obs.data(), n);
}

//===----------------------------------------------------------------------===//
// The conversion table
//===----------------------------------------------------------------------===//

using tp::cpu::fmt::bitsOf;
using tp::cpu::fmt::floatOf;

/// The f16 pattern h as an f32 pattern (exact; NaN payloads kept).
inline uint32_t f16ToF32Bits(uint32_t h) {
  uint32_t sign = (h & 0x8000u) << 16, ex = (h >> 10) & 31, man = h & 0x3FF;
  if (ex == 31)
    return sign | 0x7F800000u | (man << 13);
  if (ex == 0) {
    float v = std::ldexp(float(man), -24);
    return sign | bitsOf(v);
  }
  return sign | ((ex - 15 + 127) << 23) | (man << 13);
}

/// The inputs: every bf16 tie (low half 0x8000), every f16 value, the
/// bf16 near-ties either side, the fp8 grids with their midpoints and one
/// ulp around them, f16 midpoints, specials, and random patterns. An even
/// count (the kernel converts pairs).
inline std::vector<uint32_t> cvtInputs() {
  std::vector<uint32_t> v;
  for (uint32_t p = 0; p < 65536; ++p)
    v.push_back(p << 16 | 0x8000u);
  for (uint32_t p = 0; p < 65536; ++p)
    v.push_back(f16ToF32Bits(p));
  for (uint32_t p = 0; p < 65536; p += 4) {
    v.push_back(p << 16 | 0x7FFFu);
    v.push_back(p << 16 | 0x8001u);
  }
  auto around = [&](double m) {
    float f = float(m);
    for (float s : {1.0f, -1.0f}) {
      v.push_back(bitsOf(s * f));
      v.push_back(bitsOf(std::nextafter(s * f, HUGE_VALF)));
      v.push_back(bitsOf(std::nextafter(s * f, -HUGE_VALF)));
    }
  };
  using namespace tp::cpu::fmt;
  // fp8 values, the midpoints between neighbours and past the largest
  // (where satfinite decides), each with one f32 ulp either side.
  for (const Format *f : {&kE4M3, &kE5M2}) {
    uint32_t maxb = maxFiniteBits(*f);
    for (uint32_t b = 0; b <= maxb; ++b) {
      double lo = decode(b, *f);
      double hi = b < maxb ? decode(b + 1, *f) : lo + (lo - decode(b - 1, *f));
      around(lo);
      around((lo + hi) / 2);
    }
  }
  // f16 midpoints (every 5th pattern) and the overflow threshold.
  for (uint32_t b = 0; b < 0x7C00; b += 5) {
    double lo = decode(b, kF16), hi = decode(b + 1, kF16);
    around((lo + hi) / 2);
  }
  around(65504.0), around(65520.0), around(65536.0);
  // bf16 extremes: the largest finite and the rounding boundary to inf.
  v.push_back(0x7F7F0000u), v.push_back(0x7F7F7FFFu), v.push_back(0x7F7F8000u);
  v.push_back(0x7F7FFFFFu), v.push_back(0xFF7F8000u), v.push_back(0xFF7FFFFFu);
  // Specials: zeros, infinities, NaNs with payloads and both signs, f32
  // subnormals, and huge finite values.
  for (uint32_t b : {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u,
                     0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFF800001u,
                     0x7FBFFFFFu, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x7FA00000u,
                     0x7F808000u, 0x00000001u, 0x80000001u, 0x007FFFFFu,
                     0x807FFFFFu, 0x00400000u, 0x00008000u, 0x00800000u,
                     0x80800000u, 0x7F7FFFFFu, 0x4F000000u, 0xCF000000u,
                     0x33C00000u /* 3 * 2^-25 */})
    v.push_back(b);
  Rng r(nameSeed("cvt/random"));
  for (int i = 0; i < 16384; ++i)
    v.push_back(uint32_t(r.next()));
  if (v.size() % 2)
    v.push_back(0x3F800000u);
  return v;
}

struct CvtOut {
  std::vector<uint16_t> bf16, bf16x2, f16;
  std::vector<uint8_t> e4m3, e5m2;
};

inline Status runCvt(const std::vector<uint32_t> &in, CvtOut &o) {
  size_t n = in.size();
  DevBuf din, dbf, dbf2, dh, d4, d5;
  for (auto [b, bytes] : {std::pair<DevBuf *, size_t>{&din, 4 * n},
                          {&dbf, 2 * n},
                          {&dbf2, 2 * n},
                          {&dh, 2 * n},
                          {&d4, n},
                          {&d5, n}})
    if (Status s = b->alloc(bytes); !s.ok)
      return s;
  if (Status s = din.put(in.data(), 4 * n); !s.ok)
    return s;
  Status s = tp::host::launch(
      fid_cvt_kernel, dim3(16), dim3(256), 0, tp::host::LaunchOptions(),
      static_cast<const float *>(din.p), int64_t(n / 2),
      static_cast<uint16_t *>(dbf.p), static_cast<uint16_t *>(dbf2.p),
      static_cast<uint16_t *>(dh.p), static_cast<uint8_t *>(d4.p),
      static_cast<uint8_t *>(d5.p));
  if (!s.ok)
    return Status{false, "launch: " + s.report};
  if (Status e = synchronize(); !e.ok)
    return e;
  o.bf16.resize(n), o.bf16x2.resize(n), o.f16.resize(n);
  o.e4m3.resize(n), o.e5m2.resize(n);
  for (auto [b, dst, bytes] :
       {std::tuple<DevBuf *, void *, size_t>{&dbf, o.bf16.data(), 2 * n},
        {&dbf2, o.bf16x2.data(), 2 * n},
        {&dh, o.f16.data(), 2 * n},
        {&d4, o.e4m3.data(), n},
        {&d5, o.e5m2.data(), n}})
    if (Status e = b->get(dst, bytes); !e.ok)
      return e;
  return {};
}

struct CvtKind {
  const char *name;
  int bytes;
};
constexpr CvtKind kCvtKinds[] = {{"cvt/bf16", 2},
                                 {"cvt/bf16x2", 2},
                                 {"cvt/f16", 2},
                                 {"cvt/e4m3.satfinite", 1},
                                 {"cvt/e5m2.satfinite", 1}};

//===----------------------------------------------------------------------===//
// The dump: a header, then records {name, status, bytes}
//===----------------------------------------------------------------------===//

enum RecStatus : uint32_t {
  kOk = 0,
  kTimeout = 1,  // the mbarrier never completed (about 1 s of clocks)
  kRejected = 2, // cuTensorMapEncodeTiled refused the map; data = message
  kFailed = 3    // launch, CUDA or emulator error; data = message
};
inline const char *statusName(uint32_t s) {
  return s == kOk         ? "ok"
         : s == kTimeout  ? "timeout"
         : s == kRejected ? "encode rejected"
                          : "failed";
}

constexpr char kMagic[8] = {'T', 'P', 'F', 'I', 'D', '0', '0', '1'};

struct Record {
  uint32_t status = kOk;
  std::vector<uint8_t> data;
};

inline void writeRecord(FILE *f, const std::string &name, uint32_t status,
                        const void *data, uint64_t n) {
  uint32_t len = uint32_t(name.size());
  std::fwrite(&len, 4, 1, f);
  std::fwrite(name.data(), 1, len, f);
  std::fwrite(&status, 4, 1, f);
  std::fwrite(&n, 8, 1, f);
  if (n)
    std::fwrite(data, 1, n, f);
  std::fflush(f); // a later CUDA fault must not lose what came before
}

inline bool readDump(const char *path, std::map<std::string, Record> &out,
                     std::string &info) {
  FILE *f = std::fopen(path, "rb");
  if (!f) {
    std::fprintf(stderr, "tma_fidelity: cannot open %s\n", path);
    return false;
  }
  char magic[8];
  uint32_t infoLen = 0;
  if (std::fread(magic, 1, 8, f) != 8 || std::memcmp(magic, kMagic, 8) ||
      std::fread(&infoLen, 4, 1, f) != 1) {
    std::fprintf(stderr, "tma_fidelity: %s is not a fidelity dump\n", path);
    std::fclose(f);
    return false;
  }
  info.resize(infoLen);
  if (infoLen && std::fread(&info[0], 1, infoLen, f) != infoLen)
    return std::fclose(f), false;
  for (;;) {
    uint32_t len;
    if (std::fread(&len, 4, 1, f) != 1)
      break;
    std::string name(len, '\0');
    Record r;
    uint64_t n;
    if ((len && std::fread(&name[0], 1, len, f) != len) ||
        std::fread(&r.status, 4, 1, f) != 1 || std::fread(&n, 8, 1, f) != 1) {
      std::fprintf(stderr, "tma_fidelity: %s: truncated record\n", path);
      break;
    }
    r.data.resize(n);
    if (n && std::fread(r.data.data(), 1, n, f) != n) {
      std::fprintf(stderr, "tma_fidelity: %s: truncated record %s\n", path,
                   name.c_str());
      break;
    }
    out[name] = std::move(r);
  }
  std::fclose(f);
  return true;
}

inline std::string deviceInfo() {
#if defined(TILEPIPE_CPU)
  return "tilepipe CPU emulator (g++ -DTILEPIPE_CPU)";
#else
  int dev = 0;
  cudaDeviceProp p;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaGetDeviceProperties(&p, dev) != cudaSuccess)
    return "unknown CUDA device";
  int drv = 0;
  cudaDriverGetVersion(&drv);
  char b[256];
  std::snprintf(b, sizeof b, "%s (sm_%d%d), driver %d.%d", p.name, p.major,
                p.minor, drv / 1000, drv % 1000 / 10);
  return b;
#endif
}

//===----------------------------------------------------------------------===//
// --dump: run everything from configuration `start` on
//===----------------------------------------------------------------------===//

inline bool selected(const std::string &name, const char *only) {
  return !only || name.find(only) != std::string::npos;
}

/// Exit 0 when every configuration ran (whatever it produced), 3 when the
/// CUDA context became unusable or a wait timed out: the dump holds the
/// records so far and the last stdout line says `resume-at K`.
inline int dump(const char *path, size_t start, const char *only) {
  FILE *f = std::fopen(path, start ? "ab" : "wb");
  if (!f) {
    std::fprintf(stderr, "tma_fidelity: cannot write %s\n", path);
    return 2;
  }
  if (!start) {
    std::string info = deviceInfo();
    uint32_t len = uint32_t(info.size());
    std::fwrite(kMagic, 1, 8, f);
    std::fwrite(&len, 4, 1, f);
    std::fwrite(info.data(), 1, len, f);
  }
  std::vector<Config> all = configs();
  // After the loads and the conversion table (whose indices --start keeps):
  // the mbarrier scripts, then the stores, the unaligned ones last (a
  // behaviour no run has seen yet cannot cost the others their turn).
  const std::vector<MbarScript> &scripts = mbarScripts();
  std::vector<StoreConfig> stores = storeConfigs();
  size_t firstScript = all.size() + 1,
         firstStore = firstScript + scripts.size(),
         total = firstStore + stores.size();
#if defined(TILEPIPE_CPU)
  int emulatorFaults = 0, ran = 0;
#endif
  int storesRan = 0, storeFaults = 0, scriptsRan = 0, scriptFaults = 0;
  // A failed run: its record, and on a GPU a fresh process from the next
  // configuration (a CUDA error is sticky). Returns whether to stop here.
  auto failed = [&](const std::string &name, const Status &s, size_t i,
                    int *faults) {
    bool rejected = s.report.rfind("encode: ", 0) == 0;
    writeRecord(f, name, rejected ? kRejected : kFailed, s.report.data(),
                s.report.size());
    if (rejected)
      return false;
    ++*faults;
#if defined(TILEPIPE_CPU)
    return false; // expected ones: --selftest says which
#else
    std::fprintf(stderr, "tma_fidelity: %s: %s\n", name.c_str(),
                 s.report.c_str());
    std::fclose(f);
    std::printf("resume-at %zu\n", i + 1);
    return true;
#endif
  };
  for (size_t i = start; i < total; ++i) {
    if (i >= firstStore) {
      const StoreConfig &c = stores[i - firstStore];
      if (!selected(c.name, only))
        continue;
      ++storesRan;
      std::vector<uint8_t> before = storeGlobal(c), result;
      StoreFn run = c.rank == 3 ? c.S->store3 : c.S->store2;
      Status s = run(c, before, storeSmem(c), result);
      if (!s.ok) {
        if (failed(c.name, s, i, &storeFaults))
          return 3;
        continue;
      }
      std::vector<uint8_t> runs = changedRuns(before, result);
      writeRecord(f, c.name, kOk, runs.data(), runs.size());
      continue;
    }
    if (i >= firstScript) {
      const MbarScript &m = scripts[i - firstScript];
      if (!selected(m.name, only))
        continue;
      std::vector<uint8_t> obs;
      uint32_t ks = 0;
      Status s = runMbar(m, tp::host::LaunchOptions(), obs, &ks);
      ++scriptsRan;
#if defined(TILEPIPE_CPU)
      // The emulator completes the loads when its seed and policy say; the
      // probes were placed where that cannot matter, so every schedule
      // must give the same answers.
      using tp::cpu::Policy;
      std::pair<Policy, uint64_t> others[] = {{Policy::Eager, 1},
                                              {Policy::Lazy, 1},
                                              {Policy::Random, 2},
                                              {Policy::Random, 3},
                                              {Policy::Adversarial, 7}};
      for (auto [policy, seed] : others) {
        if (!s.ok)
          break;
        tp::host::LaunchOptions o;
        o.cpu.policy = policy, o.cpu.seed = seed;
        std::vector<uint8_t> again;
        uint32_t ks2 = 0;
        Status s2 = runMbar(m, o, again, &ks2);
        if (!s2.ok)
          s = s2;
        else if (again != obs || ks2 != ks)
          s = Status{false, std::string("emulator: the answers depend on the "
                                        "schedule (policy ") +
                                tp::cpu::policyName(policy) + ", seed " +
                                std::to_string(seed) + ")"};
      }
#endif
      if (!s.ok) {
        if (failed(m.name, s, i, &scriptFaults))
          return 3;
        continue;
      }
      if (ks != kStatusOk) {
        writeRecord(f, m.name, kTimeout, obs.data(), obs.size());
        std::fprintf(stderr, "tma_fidelity: %s: a wait timed out\n",
                     m.name.c_str());
#if !defined(TILEPIPE_CPU)
        // A load may still be in flight: go on in a fresh process.
        std::fclose(f);
        std::printf("resume-at %zu\n", i + 1);
        return 3;
#endif
        continue;
      }
      writeRecord(f, m.name, kOk, obs.data(), obs.size());
      continue;
    }
    if (i == all.size()) { // the conversion table, after the loads
      if (!selected("cvt/", only))
        continue;
      std::vector<uint32_t> in = cvtInputs();
      CvtOut o;
      Status s = runCvt(in, o);
      if (!s.ok) {
        for (const CvtKind &k : kCvtKinds)
          writeRecord(f, k.name, kFailed, s.report.data(), s.report.size());
        std::fprintf(stderr, "tma_fidelity: conversions: %s\n",
                     s.report.c_str());
        std::fclose(f);
        std::printf("resume-at %zu\n", i + 1); // the stores and scripts
        return 3;
      }
      writeRecord(f, kCvtKinds[0].name, kOk, o.bf16.data(), 2 * in.size());
      writeRecord(f, kCvtKinds[1].name, kOk, o.bf16x2.data(), 2 * in.size());
      writeRecord(f, kCvtKinds[2].name, kOk, o.f16.data(), 2 * in.size());
      writeRecord(f, kCvtKinds[3].name, kOk, o.e4m3.data(), in.size());
      writeRecord(f, kCvtKinds[4].name, kOk, o.e5m2.data(), in.size());
      continue;
    }
    const Config &c = all[i];
    if (!selected(c.name, only))
      continue;
    std::vector<uint8_t> alloc = globalData(c), window;
    uint32_t ks = 0;
#if defined(TILEPIPE_CPU)
    ++ran;
#endif
    Status s = c.L->run(c, alloc, window, &ks);
    if (!s.ok) {
      bool rejected = s.report.rfind("encode: ", 0) == 0;
      writeRecord(f, c.name, rejected ? kRejected : kFailed, s.report.data(),
                  s.report.size());
      if (!rejected) {
#if defined(TILEPIPE_CPU)
        ++emulatorFaults; // expected ones: --selftest says which
#else
        std::fprintf(stderr, "tma_fidelity: %s: %s\n", c.name.c_str(),
                     s.report.c_str());
        // A CUDA error is sticky: go on in a fresh process.
        std::fclose(f);
        std::printf("resume-at %zu\n", i + 1);
        return 3;
#endif
      }
      continue;
    }
    if (ks != kStatusOk) {
      writeRecord(f, c.name, kTimeout, nullptr, 0);
      std::fprintf(stderr, "tma_fidelity: %s: the mbarrier wait timed out\n",
                   c.name.c_str());
#if !defined(TILEPIPE_CPU)
      // The TMA may still be in flight: go on in a fresh process.
      std::fclose(f);
      std::printf("resume-at %zu\n", i + 1);
      return 3;
#endif
      continue;
    }
    writeRecord(f, c.name, kOk, window.data(), window.size());
  }
  std::fclose(f);
#if defined(TILEPIPE_CPU)
  std::printf("dump: %d TMA configurations, %d of them faulted in the "
              "emulator\n",
              ran, emulatorFaults);
  std::printf("dump: %d TMA store configurations, %d mbarrier scripts, %d "
              "of them failed in the emulator\n",
              storesRan, scriptsRan, storeFaults + scriptFaults);
#else
  (void)storesRan, (void)storeFaults, (void)scriptsRan, (void)scriptFaults;
#endif
  return 0;
}

//===----------------------------------------------------------------------===//
// The model: TMA tiled mode as the PTX ISA describes it, written out per
// element (independently of emulator/tma_unit.h), for the self-check and to say which
// model a hardware mismatch fits
//===----------------------------------------------------------------------===//

/// Where linear byte `a` of a swizzled region lands: the 16-byte chunk
/// index within its 128-byte line XOR (line index mod span / 16), i.e. for
/// 128B "chunk c of row y goes to (y % 8) ^ c".
inline uint32_t swizzleChunk(int span, uint32_t a) {
  if (!span)
    return a;
  uint32_t line = a / 128, chunk = (a % 128) / 16, period = uint32_t(span) / 16;
  return line * 128 + (chunk ^ (line % period)) * 16 + a % 16;
}

enum class Model {
  AbsoluteSwizzle, // what the emulator implements: absolute address bits
  RelativeSwizzle, // the swizzle counted from each box's destination
};

inline std::vector<uint8_t> model(const Config &c,
                                  const std::vector<uint8_t> &alloc, Model m) {
  const Layout &L = *c.L;
  std::vector<uint8_t> w(c.window(), 0xA5);
  for (int b = 0; b < L.boxes; ++b) {
    uint32_t dst = c.off + uint32_t(b) * L.boxBytes;
    for (int y = 0; y < L.rows; ++y)
      for (int x = 0; x < L.boxCols; ++x) {
        int64_t gr = c.r0 + y, gc = c.c0 + int64_t(b) * L.boxCols + x;
        bool in = gr >= 0 && gr < c.rows && gc >= 0 && gc < c.cols;
        uint32_t lin = uint32_t((y * L.boxCols + x) * L.es);
        uint32_t phys = m == Model::AbsoluteSwizzle
                            ? swizzleChunk(L.span, dst + lin)
                            : dst + swizzleChunk(L.span, lin);
        for (int k = 0; k < L.es; ++k)
          w[phys + k] =
              in ? alloc[kGlobalGuard + size_t((gr * c.stride + gc) * L.es) + k]
                 : 0;
      }
  }
  return w;
}

/// Names what a 16-byte chunk holds: zeros, the fill, or where in the
/// global allocation the same 16 bytes are.
inline std::string describeChunk(const Config &c,
                                 const std::vector<uint8_t> &alloc,
                                 const uint8_t *p) {
  bool zero = true, fill = true;
  for (int i = 0; i < 16; ++i)
    zero &= p[i] == 0, fill &= p[i] == 0xA5;
  if (zero)
    return "zeros";
  if (fill)
    return "0xA5 fill (not written)";
  for (size_t o = 0; o + 16 <= alloc.size(); ++o)
    if (std::memcmp(&alloc[o], p, 16) == 0) {
      char b[160];
      int64_t rel = int64_t(o) - int64_t(kGlobalGuard);
      int64_t rowBytes = c.stride * c.L->es;
      if (rel < 0 || rel >= int64_t(c.tensorBytes())) {
        std::snprintf(b, sizeof b, "global guard bytes at tensor%+lld B",
                      (long long)rel);
      } else {
        int64_t r = rel / rowBytes, cb = rel % rowBytes;
        std::snprintf(b, sizeof b, "global row %lld, col %lld%s%s",
                      (long long)r, (long long)(cb / c.L->es),
                      cb % c.L->es ? " (misaligned)" : "",
                      cb / c.L->es >= c.cols ? " (row padding)" : "");
      }
      return b;
    }
  std::string s = "unknown bytes";
  char h[4];
  for (int i = 0; i < 16; ++i) {
    std::snprintf(h, sizeof h, "%s%02x", i ? "" : " ", p[i]);
    s += h;
  }
  return s;
}

/// Where window offset `o` lies: before the tile, box b line y chunk k
/// (linear, before the swizzle), or the guard after it.
inline std::string where(const Config &c, uint32_t o) {
  char b[120];
  if (o < c.off)
    std::snprintf(b, sizeof b, "window +%u (before the tile)", o);
  else if (o >= c.off + c.L->tileBytes)
    std::snprintf(b, sizeof b, "window +%u (guard after the tile)", o);
  else {
    uint32_t t = o - c.off, box = t / c.L->boxBytes, in = t % c.L->boxBytes;
    uint32_t rowB = uint32_t(c.L->boxCols * c.L->es);
    std::snprintf(b, sizeof b,
                  "window +%u = box %u, SMEM row %u, 16B chunk %u of the row",
                  o, box, in / rowB, in % rowB / 16);
  }
  return b;
}

/// What a tiled TMA store leaves in the allocation, per element from the
/// PTX ISA: element (y, x) of box b, read from SMEM at its swizzled
/// address, goes to global (p0, r0 + y, c0 + b * box columns + x) when
/// that lies in the tensor; no other byte changes. `written` counts the
/// elements stored.
inline std::vector<uint8_t> storeModel(const StoreConfig &c,
                                       const std::vector<uint8_t> &alloc,
                                       const std::vector<uint8_t> &smem,
                                       Model m, int64_t *written = nullptr) {
  const Layout &L = *c.L;
  std::vector<uint8_t> g = alloc;
  int64_t n = 0;
  for (int b = 0; b < L.boxes; ++b) {
    uint32_t src = c.off + uint32_t(b) * L.boxBytes;
    for (int y = 0; y < L.rows; ++y)
      for (int x = 0; x < L.boxCols; ++x) {
        int64_t e =
            c.element(c.p0, c.r0 + y, c.c0 + int64_t(b) * L.boxCols + x);
        if (e < 0)
          continue;
        uint32_t lin = uint32_t((y * L.boxCols + x) * L.es);
        uint32_t phys = m == Model::AbsoluteSwizzle
                            ? swizzleChunk(L.span, src + lin)
                            : src + swizzleChunk(L.span, lin);
        std::memcpy(&g[c.guard + size_t(e * L.es)], &smem[phys], L.es);
        ++n;
      }
  }
  if (written)
    *written = n;
  return g;
}

/// Where byte `o` of a store's allocation lies: a guard, the gap after a
/// plane, row padding, or a tensor element.
inline std::string whereStored(const StoreConfig &c, size_t o) {
  int64_t rel = int64_t(o) - int64_t(c.guard), es = c.L->es;
  char b[160];
  if (rel < 0) {
    std::snprintf(b, sizeof b, "guard, %lld B before the tensor",
                  (long long)-rel);
  } else if (rel >= int64_t(c.tensorBytes())) {
    std::snprintf(b, sizeof b, "guard, %lld B after the tensor",
                  (long long)(rel - int64_t(c.tensorBytes())));
  } else {
    int64_t e = rel / es, p = e / c.planeStride, in = e % c.planeStride;
    int64_t r = in / c.stride, col = in % c.stride;
    std::string plane = c.rank == 3 ? "plane " + std::to_string(p) + ", " : "";
    if (r >= c.rows)
      std::snprintf(b, sizeof b, "the gap after plane %lld", (long long)p);
    else
      std::snprintf(b, sizeof b, "%srow %lld, col %lld%s", plane.c_str(),
                    (long long)r, (long long)col,
                    col >= c.cols ? " (row padding)" : "");
  }
  return b;
}

/// The PTX ISA's mbarrier, for the scripts: a phase completes when its
/// pending arrivals and its tx-count are both zero, and the next one then
/// expects the init count again.
struct MbarState {
  int64_t phase = 0, pending = 1, tx = 0, count = 1;
  std::vector<uint32_t> inflight; // bytes of copies that have not landed
  void settle() {
    if (pending == 0 && tx == 0)
      ++phase, pending = count;
  }
  /// test_wait.parity / try_wait.parity: has the phase of parity P
  /// completed (the current phase is the other parity)?
  bool completed(uint32_t parity) const {
    return uint32_t(phase & 1) != parity;
  }
};

/// Every sequence of observations (kernel encoding) the ISA allows for a
/// script: each copy lands at any moment after its issue, in any order, a
/// step's probes included, and a wait lasts until its phase completes. A
/// script is only sound if this is a single sequence.
struct MbarModel {
  const MbarScript &m;
  std::set<std::vector<uint8_t>> outcomes;

  // Event k of step i: 0 the step's operation, 1 and 2 test_wait of parity
  // 0 and 1, 3 and 4 try_wait of 0 and 1 (where test_wait said completed),
  // 5 the step's end. Before each, any copy in flight may land.
  void go(size_t i, int k, MbarState st, std::vector<uint8_t> obs) {
    for (size_t j = 0; j < st.inflight.size(); ++j) {
      MbarState landed = st;
      landed.tx -= landed.inflight[j];
      landed.inflight.erase(landed.inflight.begin() + long(j));
      landed.settle();
      go(i, k, landed, obs);
    }
    if (i == m.steps.size()) {
      outcomes.insert(obs);
      return;
    }
    const MbarStep &s = m.steps[i];
    switch (k) {
    case 0:
      switch (s.op) {
      case kMInit:
        st.count = st.pending = s.arg, st.phase = 0, st.tx = 0;
        break;
      case kMArrive:
        --st.pending, st.settle();
        break;
      case kMArriveTx: // the expect-tx, then the arrival
        st.tx += s.arg, --st.pending, st.settle();
        break;
      case kMExpectTx:
        st.tx += s.arg, st.settle();
        break;
      case kMLoad:
        st.inflight.push_back(MbarLoad::kBytes);
        break;
      case kMWait:
        if (st.completed(s.arg))
          obs[i] |= kObsWaited;
        else if (!st.inflight.empty())
          return; // blocked: the paths where a copy lands first go on
        break;    // else it times out
      }
      if (!s.probe)
        obs[i] |= kObsNoProbe;
      return go(i, s.probe ? 1 : 5, st, obs);
    case 1:
    case 2:
      if (st.completed(uint32_t(k - 1)))
        obs[i] |= k == 1 ? kObsTest0 : kObsTest1;
      return go(i, k + 1, st, obs);
    case 3:
    case 4: {
      uint8_t asked = k == 3 ? kObsTest0 : kObsTest1;
      if ((obs[i] & asked) && st.completed(uint32_t(k - 3)))
        obs[i] |= k == 3 ? kObsTry0 : kObsTry1;
      return go(i, k + 1, st, obs);
    }
    default:
      return go(i + 1, 0, st, obs);
    }
  }
  explicit MbarModel(const MbarScript &s) : m(s) {
    go(0, 0, MbarState(), std::vector<uint8_t>(s.steps.size(), 0));
  }
};

/// The hand-worked answers of a script (its `want`), in the kernel's
/// encoding: in phase parity 0, parity 1 has completed and 0 has not.
inline std::vector<uint8_t> mbarWant(const MbarScript &m) {
  std::vector<uint8_t> v;
  for (size_t i = 0; i < m.steps.size(); ++i) {
    uint8_t o = m.steps[i].op == kMWait ? kObsWaited : 0;
    char w = i < m.want.size() ? m.want[i] : '?';
    o |= w == '.'   ? kObsNoProbe
         : w == '0' ? kObsTest1 | kObsTry1
         : w == '1' ? kObsTest0 | kObsTry0
                    : 0xFF;
    v.push_back(o);
  }
  return v;
}

inline std::string describeStep(const MbarStep &s) {
  static const char *const names[] = {
      "mbarrier.init",      "mbarrier.arrive",  "mbarrier.arrive.expect_tx",
      "mbarrier.expect_tx", "TMA load (256 B)", "bounded wait"};
  std::string d = s.op < 6 ? names[s.op] : "?";
  if (s.op == kMInit)
    d += " count " + std::to_string(s.arg);
  else if (s.op == kMArriveTx || s.op == kMExpectTx)
    d += " " + std::to_string(s.arg) + " B";
  else if (s.op == kMWait)
    d += " parity " + std::to_string(s.arg);
  return d + " by thread " + std::to_string(s.who);
}

inline std::string describeObs(uint8_t o) {
  if (o == 0xEE)
    return "not reached";
  std::string d;
  if (o & kObsNoProbe)
    d = "not probed";
  else
    d = std::string("test_wait(0)=") + (o & kObsTest0 ? "1" : "0") +
        " test_wait(1)=" + (o & kObsTest1 ? "1" : "0") +
        " try_wait(0)=" + (o & kObsTest0 ? (o & kObsTry0 ? "1" : "0") : "-") +
        " try_wait(1)=" + (o & kObsTest1 ? (o & kObsTry1 ? "1" : "0") : "-");
  if (o & kObsWaited)
    d += ", the wait completed";
  return d;
}

//===----------------------------------------------------------------------===//
/// The words of the emulator's fault for a store the H200 faults on
/// (emulator/tma_unit.h, checkStoreBox), or null for one it performs.
inline const char *storeFaultRule(const StoreConfig &c) {
  if (c.p0 < 0 || c.r0 < 0 || c.c0 < 0)
    return "negative; a store's coordinates must not be";
  if (c.c0 * int64_t(c.L->es) % 16)
    return "bytes is not a multiple of 16 bytes";
  return nullptr;
}

// --selftest (emulator build): the dump against the model and the ISA's
// worked cases, before any hardware result is trusted
//===----------------------------------------------------------------------===//

/// A record's message (the data of a rejected or failed record).
inline std::string text(const std::vector<uint8_t> &d) {
  return std::string(d.begin(), d.end());
}

/// The line of a failed record that says why: the emulator's rule (its
/// report's "tma: ..." line; the rest names threads), else the first line.
inline std::string why(const std::vector<uint8_t> &d) {
  std::string t = text(d);
  size_t at = t.find("tma: ");
  if (at == std::string::npos)
    at = 0;
  size_t end = t.find('\n', at);
  return t.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

/// The emulator's message for a load that breaks the inner-coordinate rule
/// (emulator/tma_unit.h, checkLoadInnerCoordinate).
constexpr const char *kInnerRuleText = "is not a multiple of 16 bytes (the "
                                       "innermost coordinate times the "
                                       "element size must be";

inline int selftest(const char *path, const char *only) {
  std::map<std::string, Record> recs;
  std::string info;
  if (!readDump(path, recs, info))
    return 2;
  int bad = 0, checked = 0, faults = 0;
  auto fail = [&](const std::string &what) {
    if (bad++ < 20)
      std::printf("selftest FAIL %s\n", what.c_str());
  };
  std::vector<Config> all = configs();
  for (const Config &c : all) {
    if (!selected(c.name, only))
      continue;
    auto it = recs.find(c.name);
    if (c.innerUnaligned()) {
      // The emulator must fault, naming the rule and the coordinate.
      std::string msg = it == recs.end() ? "" : text(it->second.data);
      std::string coord = "innermost box coordinate " + std::to_string(c.c0) +
                          " x " + std::to_string(c.L->es) + "-byte elements";
      if (it == recs.end() || it->second.status != kFailed ||
          msg.find(kInnerRuleText) == std::string::npos ||
          msg.find(coord) == std::string::npos)
        fail(c.name + ": inner coordinate " + std::to_string(c.c0) + " x " +
             std::to_string(c.L->es) +
             " bytes is not a multiple of 16, but the emulator did not "
             "fault naming the rule and \"" +
             coord + "\" (" +
             (it == recs.end() ? std::string("missing")
              : it->second.status == kOk
                  ? std::string("it ran")
                  : std::string(statusName(it->second.status)) + ": " +
                        why(it->second.data)) +
             ")");
      ++checked, ++faults;
      continue;
    }
    if (it == recs.end() || it->second.status != kOk) {
      fail(c.name + ": no result from the emulator (" +
           (it == recs.end()
                ? std::string("missing")
                : std::string(statusName(it->second.status)) + ": " +
                      std::string(it->second.data.begin(),
                                  it->second.data.end())) +
           ")");
      continue;
    }
    std::vector<uint8_t> alloc = globalData(c);
    if (model(c, alloc, Model::AbsoluteSwizzle) != it->second.data)
      fail(c.name + ": the emulator's window differs from the PTX ISA model");
    ++checked;
  }
  // The PTX ISA's 128B swizzle, worked by hand on two configurations: a
  // 8 x 128-byte bf16 box at a 1024-byte boundary puts chunk k of row y at
  // chunk (y % 8) ^ k; 384 bytes past the boundary (3 lines in), at
  // ((y + 3) % 8) ^ k.
  for (auto [kase, lines] : {std::pair<const char *, uint32_t>{"inside", 0},
                             {"mid-pattern-384", 3}}) {
    std::string name = std::string("tma/bf16/mma8x64.b128/") + kase;
    if (!selected(name, only))
      continue;
    const Config *c = nullptr;
    for (const Config &x : all)
      if (x.name == name)
        c = &x;
    auto it = recs.find(name);
    if (!c || it == recs.end() || it->second.status != kOk) {
      fail(name + ": missing");
      continue;
    }
    std::vector<uint8_t> alloc = globalData(*c);
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t k = 0; k < 8; ++k) {
        size_t src = kGlobalGuard +
                     size_t(((c->r0 + y) * c->stride + c->c0 + 8 * k) * 2);
        size_t dst = c->off + y * 128 + (((y + lines) % 8) ^ k) * 16;
        if (std::memcmp(&it->second.data[dst], &alloc[src], 16))
          fail(name + ": row " + std::to_string(y) + " chunk " +
               std::to_string(k) + " is not at chunk ((row + " +
               std::to_string(lines) + ") % 8) ^ chunk");
      }
    ++checked;
  }
  // Conversions worked by hand from the formats' definitions (RNE,
  // satfinite for fp8; NaN -> canonical NaN).
  std::vector<uint32_t> in = cvtInputs();
  struct Want {
    uint32_t in;
    int kind;
    uint32_t out;
    const char *why;
  };
  const Want wants[] = {
      {0x3F808000u, 0, 0x3F80, "bf16: 1 + 2^-8 is a tie, to even 1.0"},
      {0x3F818000u, 0, 0x3F82, "bf16: 1 + 3 * 2^-8 is a tie, to even"},
      {0x3F808001u, 0, 0x3F81, "bf16: just above the tie rounds up"},
      {0x7F7F8000u, 0, 0x7F80,
       "bf16: past the largest finite by half an "
       "ulp is a tie to even = inf"},
      {0x7FC00000u, 0, 0x7FFF, "bf16: NaN becomes the canonical 0x7FFF"},
      {0x00000001u, 0, 0x0000, "bf16: the smallest f32 subnormal to +0"},
      {0x00400000u, 1, 0x0040,
       "bf16x2: f32 subnormal 2^-127 is a bf16 "
       "subnormal"},
      {bitsOf(65520.0f), 2, 0x7C00, "f16: 65520 is the tie to inf"},
      {bitsOf(std::nextafter(65520.0f, 0.0f)), 2, 0x7BFF,
       "f16: just below 65520 rounds to 65504"},
      {bitsOf(std::ldexp(1.0f, -25)), 2, 0x0000,
       "f16: 2^-25 is the tie between 0 and the smallest subnormal: even 0"},
      {bitsOf(std::ldexp(3.0f, -25)), 2, 0x0002,
       "f16: 3 * 2^-25 is a tie between subnormals 1 and 2: even 2"},
      {bitsOf(448.0f), 3, 0x7E, "e4m3: 448 is the largest finite"},
      {bitsOf(464.0f), 3, 0x7E, "e4m3: 464 (tie above 448) saturates"},
      {0x7F800000u, 3, 0x7E, "e4m3: +inf saturates to 448"},
      {0xFF800000u, 3, 0xFE, "e4m3: -inf saturates to -448"},
      {0x7FC00000u, 3, 0x7F, "e4m3: NaN is 0x7F"},
      {bitsOf(std::ldexp(1.0f, -10)), 3, 0x00,
       "e4m3: 2^-10, half the smallest subnormal, is a tie to even 0"},
      {bitsOf(57344.0f), 4, 0x7B, "e5m2: 57344 is the largest finite"},
      {bitsOf(61440.0f), 4, 0x7B, "e5m2: 61440 (tie to 65536) saturates"},
      {0xFF800000u, 4, 0xFB, "e5m2: -inf saturates to -57344"},
      {bitsOf(1.125f), 4, 0x3C, "e5m2: 1.125 is a tie to even 1.0"},
  };
  auto rc = recs.find(kCvtKinds[0].name);
  if (!selected("cvt/", only))
    ;
  else if (rc == recs.end())
    fail("cvt: missing");
  else {
    for (const Want &w : wants) {
      size_t i = 0;
      while (i < in.size() && in[i] != w.in)
        ++i;
      if (i == in.size()) {
        fail(std::string("cvt worked case not among the inputs: ") + w.why);
        continue;
      }
      const Record &r = recs[kCvtKinds[w.kind].name];
      int nb = kCvtKinds[w.kind].bytes;
      uint32_t got = 0;
      if (r.data.size() >= (i + 1) * nb)
        std::memcpy(&got, &r.data[i * nb], nb);
      if (got != w.out) {
        char b[300];
        std::snprintf(b, sizeof b, "%s: got 0x%x, want 0x%x", w.why, got,
                      w.out);
        fail(b);
      }
      ++checked;
    }
  }
  // TMA stores: the emulator's allocation must equal the store model; each
  // placement must clip as its name says; where the box was clipped, every
  // byte outside the tensor's elements must be as it was (walked over the
  // whole allocation, apart from the model).
  int stores = 0, clips = 0, storeWorked = 0, storeFaults = 0;
  std::vector<StoreConfig> allStores = storeConfigs();
  for (const StoreConfig &c : allStores) {
    if (!selected(c.name, only))
      continue;
    std::vector<uint8_t> alloc = storeGlobal(c), smem = storeSmem(c);
    int64_t written = 0;
    std::vector<uint8_t> want =
        storeModel(c, alloc, smem, Model::AbsoluteSwizzle, &written);
    int64_t boxElems = int64_t(c.L->rows) * c.tileCols();
    Clip clip = written == boxElems ? Clip::None
                : written == 0      ? Clip::All
                                    : Clip::Partial;
    if (clip != c.clip)
      fail(c.name + ": the placement puts " + std::to_string(written) +
           " of the box's " + std::to_string(boxElems) +
           " elements in the tensor, not what it is named for");
    auto it = recs.find(c.name);
    // The stores an H200 faults on (a negative coordinate; an innermost
    // coordinate not a multiple of 16 bytes) must fault in the emulator,
    // with the rule's words (emulator/tma_unit.h, checkStoreBox).
    const char *rule = storeFaultRule(c);
    if (rule) {
      if (it == recs.end() || it->second.status != kFailed ||
          why(it->second.data).find(rule) == std::string::npos)
        fail(c.name + ": the emulator must refuse the store (\"" + rule +
             "\")");
      ++checked, ++storeFaults;
      continue;
    }
    if (it == recs.end() || it->second.status != kOk) {
      fail(c.name + ": no result from the emulator (" +
           (it == recs.end() ? std::string("missing")
                             : std::string(statusName(it->second.status)) +
                                   ": " + why(it->second.data)) +
           ")");
      continue;
    }
    std::vector<uint8_t> got;
    if (!expandRuns(alloc, it->second.data, got)) {
      fail(c.name + ": a malformed record");
      continue;
    }
    if (got != want) {
      size_t o = 0;
      while (o < got.size() && o < want.size() && got[o] == want[o])
        ++o;
      fail(c.name + ": the emulator's allocation differs from the PTX ISA " +
           "store model, first at " +
           (o < got.size() ? whereStored(c, o) : std::string("its size")));
    }
    ++checked, ++stores;
    if (c.clip == Clip::None)
      continue;
    bool kept = got.size() == alloc.size();
    for (size_t o = 0; kept && o < alloc.size(); ++o) {
      int64_t rel = int64_t(o) - int64_t(c.guard);
      int64_t in = rel / c.L->es % c.planeStride; // when rel >= 0
      bool element = rel >= 0 && rel < int64_t(c.tensorBytes()) &&
                     in / c.stride < c.rows && in % c.stride < c.cols;
      if (!element && got[o] != alloc[o]) {
        fail(c.name + ": the store wrote outside the tensor, at " +
             whereStored(c, o));
        kept = false;
      }
    }
    ++checked, ++clips;
  }
  // The 128B swizzle of a store, worked by hand: global row r0 + y, the 16
  // bytes from column c0 + b * 64 + 8 k, come from the SMEM line y of box b
  // at chunk ((y + lines) % 8) ^ k, lines = where the source starts in the
  // 1024-byte pattern (0, or 3 at 384 bytes).
  for (const char *name : {"tma-store/bf16/mma128x64.b128/inside",
                           "tma-store/bf16/mma128x64.b128/mid-pattern-384",
                           "tma-store/bf16/mma128x128.b128/inside"}) {
    if (!selected(name, only))
      continue;
    const StoreConfig *c = nullptr;
    for (const StoreConfig &x : allStores)
      if (x.name == name)
        c = &x;
    auto it = recs.find(name);
    if (!c || it == recs.end() || it->second.status != kOk) {
      fail(std::string(name) + ": missing");
      continue;
    }
    std::vector<uint8_t> smem = storeSmem(*c), got;
    if (!expandRuns(storeGlobal(*c), it->second.data, got)) {
      fail(std::string(name) + ": a malformed record");
      continue;
    }
    uint32_t lines = c->off / 128 % 8;
    for (int b = 0; b < c->L->boxes; ++b)
      for (uint32_t y = 0; y < uint32_t(c->L->rows); ++y)
        for (uint32_t k = 0; k < 8; ++k) {
          size_t dst =
              c->guard +
              size_t(((c->r0 + y) * c->stride + c->c0 + 64 * b + 8 * k) * 2);
          size_t src = c->off + b * c->L->boxBytes + y * 128 +
                       (((y + lines) % 8) ^ k) * 16;
          if (std::memcmp(&got[dst], &smem[src], 16))
            fail(std::string(name) + ": box " + std::to_string(b) + " row " +
                 std::to_string(y) + " chunk " + std::to_string(k) +
                 " is not SMEM chunk ((row + " + std::to_string(lines) +
                 ") % 8) ^ chunk");
        }
    ++checked, ++storeWorked;
  }
  // mbarrier scripts: the hand-worked answers must be the only ones the
  // ISA model allows (a probe that could race a copy is a bug of the
  // test), and the emulator's answers, under every schedule (dump), must
  // be those.
  int scripts = 0;
  for (const MbarScript &m : mbarScripts()) {
    if (!selected(m.name, only))
      continue;
    std::string problem;
    if (m.steps.empty() || m.steps[0].op != kMInit)
      problem = "does not start with mbarrier.init";
    if (m.want.size() != m.steps.size())
      problem = "has " + std::to_string(m.want.size()) + " answers for " +
                std::to_string(m.steps.size()) + " steps";
    for (const MbarStep &s : m.steps)
      if ((s.op == kMWait && s.who != 0) || s.who >= kThreads ||
          (s.op == kMLoad && s.arg >= kMbarSlots))
        problem = "has a step the kernel cannot run: " + describeStep(s);
    if (!problem.empty()) {
      fail(m.name + ": the script " + problem);
      continue;
    }
    std::vector<uint8_t> want = mbarWant(m);
    MbarModel model(m);
    if (model.outcomes.size() != 1) {
      fail(m.name + ": the ISA allows " +
           std::to_string(model.outcomes.size()) +
           " different sequences of answers (a probe races a copy)");
      continue;
    }
    const std::vector<uint8_t> &isa = *model.outcomes.begin();
    for (size_t i = 0; i < want.size(); ++i)
      if (isa[i] != want[i]) {
        fail(m.name + ": step " + std::to_string(i) + " (" +
             describeStep(m.steps[i]) + "): worked by hand \"" +
             describeObs(want[i]) + "\", the ISA model \"" +
             describeObs(isa[i]) + "\"");
        break;
      }
    auto it = recs.find(m.name);
    if (it == recs.end() || it->second.status != kOk) {
      fail(m.name + ": no result from the emulator (" +
           (it == recs.end() ? std::string("missing")
                             : std::string(statusName(it->second.status)) +
                                   ": " + why(it->second.data)) +
           ")");
      continue;
    }
    const std::vector<uint8_t> &got = it->second.data;
    for (size_t i = 0; i < want.size(); ++i)
      if (i >= got.size() || got[i] != want[i]) {
        fail(m.name + ": step " + std::to_string(i) + " (" +
             describeStep(m.steps[i]) + "): the emulator \"" +
             (i < got.size() ? describeObs(got[i]) : "missing") +
             "\", the ISA \"" + describeObs(want[i]) + "\"");
        break;
      }
    ++checked, ++scripts;
  }
  std::printf("selftest: %d TMA stores checked against the store model, %d "
              "clipped ones for bytes written outside the tensor, %d "
              "hand-worked 128B store swizzles, %d refused as the H200 "
              "measured; %d mbarrier scripts against the ISA's answers\n",
              stores, clips, storeWorked, storeFaults, scripts);
  std::printf("selftest: %d checks, %d failed (the emulator against the "
              "PTX ISA model and worked cases; %d of the checks: a fault where "
              "the inner coordinate is not a multiple of 16 bytes)\n",
              checked, bad, faults);
  return bad ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// --compare: the emulator's dump against the hardware's
//===----------------------------------------------------------------------===//

inline const char *classify(uint32_t b) {
  uint32_t ex = b >> 23 & 0xFF, man = b & 0x7FFFFF;
  if (ex == 0xFF)
    return man ? "NaN" : "inf";
  if (ex == 0)
    return man ? "f32 subnormal" : "zero";
  return "normal";
}

/// A record of a kernel that faulted: the emulator's report through
/// tp::host::launch ("launch: fault in CTA ..."), the hardware's error from
/// the synchronization after the kernel ("kernel: an illegal instruction
/// was encountered"). A failed allocation or copy is no fault of the kernel.
inline bool emulatorFault(const Record &r) {
  std::string t = text(r.data);
  return r.status == kFailed && t.rfind("launch: ", 0) == 0 &&
         t.find("fault") != std::string::npos;
}
inline bool hardwareFault(const Record &r) {
  return r.status == kFailed && text(r.data).rfind("kernel: ", 0) == 0;
}

inline int compare(const char *cpuPath, const char *gpuPath, const char *only) {
  std::map<std::string, Record> cpu, gpu;
  std::string cpuInfo, gpuInfo;
  if (!readDump(cpuPath, cpu, cpuInfo) || !readDump(gpuPath, gpu, gpuInfo))
    return 2;
  std::printf("reference: %s\nhardware:  %s\n", cpuInfo.c_str(),
              gpuInfo.c_str());
  int total = 0, matched = 0, probeBad = 0, bothFault = 0, bothRejected = 0;
  auto verdict = [&](bool ok, const std::string &name, bool probe,
                     const std::string &detail) {
    ++total;
    matched += ok;
    probeBad += !ok && probe;
    std::printf("%-8s %s%s%s%s\n", ok ? "MATCH" : "MISMATCH", name.c_str(),
                probe ? " [probe]" : "", detail.empty() ? "" : ": ",
                detail.c_str());
  };
  // The verdict when a side has no record, or either did not run to the
  // end; true if it gave one. Else both records hold data to compare.
  auto byStatus = [&](const std::string &name, bool probe, const Record *a,
                      const Record *b) {
    if (!a || !b) {
      verdict(false, name, probe,
              std::string("no result from the ") +
                  (!a ? "emulator" : "hardware"));
      return true;
    }
    if (emulatorFault(*a) && hardwareFault(*b)) {
      // The emulator refuses what the hardware refuses: a match, counted
      // apart from the matches of data.
      ++bothFault;
      verdict(true, name, probe,
              "both fault: emulator \"" + why(a->data) + "\", hardware \"" +
                  why(b->data) + "\"");
      return true;
    }
    if (a->status != kOk || b->status != kOk) {
      bool same = a->status == b->status && a->status == kRejected;
      bothRejected += same;
      verdict(same, name, probe,
              std::string("emulator ") + statusName(a->status) +
                  (a->status == kOk ? "" : " (" + why(a->data) + ")") +
                  ", hardware " + statusName(b->status) +
                  (b->status == kOk ? "" : " (" + why(b->data) + ")"));
      return true;
    }
    return false;
  };
  auto find = [](const std::map<std::string, Record> &m,
                 const std::string &name) -> const Record * {
    auto it = m.find(name);
    return it == m.end() ? nullptr : &it->second;
  };
  for (const Config &c : configs()) {
    if (!selected(c.name, only))
      continue;
    if (byStatus(c.name, c.probe, find(cpu, c.name), find(gpu, c.name)))
      continue;
    const Record &a = cpu[c.name], &b = gpu[c.name];
    if (a.data == b.data) {
      verdict(true, c.name, c.probe, "");
      continue;
    }
    if (a.data.size() != b.data.size()) {
      verdict(false, c.name, c.probe, "window sizes differ");
      continue;
    }
    std::vector<uint32_t> diff;
    for (uint32_t o = 0; o < a.data.size(); o += 16)
      if (std::memcmp(&a.data[o], &b.data[o], 16))
        diff.push_back(o);
    std::vector<uint8_t> alloc = globalData(c);
    std::string fits = "fits no model";
    if (model(c, alloc, Model::RelativeSwizzle) == b.data)
      fits = "hardware fits the swizzle counted from the destination, not "
             "from absolute address bits";
    verdict(false, c.name, c.probe,
            std::to_string(diff.size()) + " of " +
                std::to_string(a.data.size() / 16) +
                " 16-byte chunks differ; " + fits);
    for (size_t i = 0; i < diff.size() && i < 4; ++i)
      std::printf("           %s: emulator %s, hardware %s\n",
                  where(c, diff[i]).c_str(),
                  describeChunk(c, alloc, &a.data[diff[i]]).c_str(),
                  describeChunk(c, alloc, &b.data[diff[i]]).c_str());
  }
  if (selected("cvt/", only)) {
    std::vector<uint32_t> in = cvtInputs();
    for (const CvtKind &k : kCvtKinds) {
      auto ic = cpu.find(k.name), ig = gpu.find(k.name);
      std::string n = std::string(k.name) + " (" + std::to_string(in.size()) +
                      " f32 inputs)";
      if (ic == cpu.end() || ig == gpu.end() || ic->second.status != kOk ||
          ig->second.status != kOk ||
          ic->second.data.size() != in.size() * k.bytes ||
          ig->second.data.size() != in.size() * k.bytes) {
        verdict(false, n, false, "missing or failed on one side");
        continue;
      }
      const std::vector<uint8_t> &a = ic->second.data, &b = ig->second.data;
      std::map<std::string, int> byClass;
      std::vector<size_t> ex;
      for (size_t i = 0; i < in.size(); ++i)
        if (std::memcmp(&a[i * k.bytes], &b[i * k.bytes], k.bytes)) {
          ++byClass[classify(in[i])];
          if (ex.size() < 8)
            ex.push_back(i);
        }
      if (ex.empty()) {
        verdict(true, n, false, "");
        continue;
      }
      std::string d;
      for (auto &[cls, cnt] : byClass)
        d += (d.empty() ? "" : ", ") + std::to_string(cnt) + " " + cls;
      verdict(false, n, false, d + " inputs differ");
      for (size_t i : ex) {
        uint32_t x = 0, y = 0;
        std::memcpy(&x, &a[i * k.bytes], k.bytes);
        std::memcpy(&y, &b[i * k.bytes], k.bytes);
        std::printf("           in 0x%08x (%.9g): emulator 0x%0*x, hardware "
                    "0x%0*x\n",
                    in[i], double(floatOf(in[i])), 2 * k.bytes, x, 2 * k.bytes,
                    y);
      }
    }
  }
  // TMA stores: the allocations byte for byte; a mismatch names where the
  // first differing bytes lie and what each side left there.
  for (const StoreConfig &c : storeConfigs()) {
    if (!selected(c.name, only))
      continue;
    if (byStatus(c.name, c.probe, find(cpu, c.name), find(gpu, c.name)))
      continue;
    std::vector<uint8_t> alloc = storeGlobal(c), smem = storeSmem(c), a, b;
    if (!expandRuns(alloc, cpu[c.name].data, a) ||
        !expandRuns(alloc, gpu[c.name].data, b)) {
      verdict(false, c.name, c.probe, "a malformed record");
      continue;
    }
    if (a == b) {
      verdict(true, c.name, c.probe, "");
      continue;
    }
    size_t n = 0;
    std::vector<size_t> ex; // the first differing bytes, one per 16
    for (size_t o = 0; o < a.size(); ++o) {
      if (a[o] == b[o])
        continue;
      ++n;
      if (ex.size() < 4 && (ex.empty() || o / 16 != ex.back() / 16))
        ex.push_back(o);
    }
    std::string fits = "fits no model";
    if (storeModel(c, alloc, smem, Model::RelativeSwizzle) == b)
      fits = "hardware fits the swizzle counted from the source, not from "
             "absolute address bits";
    else if (b == alloc)
      fits = "the hardware wrote nothing";
    verdict(false, c.name, c.probe,
            std::to_string(n) + " of " + std::to_string(a.size()) +
                " bytes differ; " + fits);
    auto what = [&](uint8_t v, size_t o) {
      char h[16];
      std::snprintf(h, sizeof h, "0x%02x", v);
      return std::string(h) + (v == alloc[o] ? " (as before the store)" : "");
    };
    for (size_t o : ex)
      std::printf("           %s: emulator %s, hardware %s\n",
                  whereStored(c, o).c_str(), what(a[o], o).c_str(),
                  what(b[o], o).c_str());
  }
  // mbarrier scripts: the answers step by step.
  for (const MbarScript &m : mbarScripts()) {
    if (!selected(m.name, only))
      continue;
    if (byStatus(m.name, false, find(cpu, m.name), find(gpu, m.name)))
      continue;
    const std::vector<uint8_t> &a = cpu[m.name].data, &b = gpu[m.name].data;
    if (a == b) {
      verdict(true, m.name, false, "");
      continue;
    }
    std::vector<size_t> diff;
    for (size_t i = 0; i < m.steps.size(); ++i)
      if (i >= a.size() || i >= b.size() || a[i] != b[i])
        diff.push_back(i);
    verdict(false, m.name, false,
            std::to_string(diff.size()) + " of " +
                std::to_string(m.steps.size()) + " steps answered otherwise");
    for (size_t i : diff)
      std::printf("           step %zu, %s: emulator %s; hardware %s\n", i,
                  describeStep(m.steps[i]).c_str(),
                  i < a.size() ? describeObs(a[i]).c_str() : "missing",
                  i < b.size() ? describeObs(b[i]).c_str() : "missing");
  }
  std::printf("%d of %d configurations match (%d match (data): the same "
              "bytes; %d match (both fault); %d both rejected by the encoder)",
              matched, total, matched - bothFault - bothRejected, bothFault,
              bothRejected);
  if (probeBad)
    std::printf(" (%d of the mismatches are [probe] configurations: "
                "behaviour the documentation leaves open)",
                probeBad);
  std::printf("\n");
  return matched == total ? 0 : 1;
}

} // namespace fid

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

static int usage() {
  std::fprintf(stderr,
               "usage: tma_fidelity --dump FILE [--start K] [--only SUBSTR] "
               "[--selftest]\n"
               "       tma_fidelity --compare EMULATOR.bin HARDWARE.bin "
               "[--only SUBSTR]\n"
               "       tma_fidelity --list | --device-check\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *dumpPath = nullptr, *only = nullptr, *cmpA = nullptr,
             *cmpB = nullptr;
  size_t start = 0;
  bool self = false, list = false, devCheck = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--dump" && i + 1 < argc)
      dumpPath = argv[++i];
    else if (a == "--start" && i + 1 < argc)
      start = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (a == "--compare" && i + 2 < argc)
      cmpA = argv[i + 1], cmpB = argv[i + 2], i += 2;
    else if (a == "--selftest")
      self = true;
    else if (a == "--list")
      list = true;
    else if (a == "--device-check")
      devCheck = true;
    else
      return usage();
  }
  if (list) {
    for (const fid::Config &c : fid::configs())
      std::printf("%s%s\n", c.name.c_str(), c.probe ? " [probe]" : "");
    for (const fid::CvtKind &k : fid::kCvtKinds)
      std::printf("%s\n", k.name);
    for (const fid::MbarScript &m : fid::mbarScripts())
      std::printf("%s\n", m.name.c_str());
    for (const fid::StoreConfig &c : fid::storeConfigs())
      std::printf("%s%s\n", c.name.c_str(), c.probe ? " [probe]" : "");
    return 0;
  }
  if (devCheck) {
#if defined(TILEPIPE_CPU)
    std::printf("emulator build: no device needed\n");
    return 0;
#else
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
      std::printf("skipped: no CUDA device (%s)\n",
                  e == cudaSuccess ? "none found" : cudaGetErrorString(e));
      return 77;
    }
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    std::printf("device: %s\n", fid::deviceInfo().c_str());
    int cc = p.major * 10 + p.minor;
#if defined(TP_FIDELITY_CC)
    if (cc != TP_FIDELITY_CC) {
      std::printf("skipped: the device is sm_%d but this binary was built "
                  "for sm_%da only (set FIDELITY_ARCH=%da)\n",
                  cc, TP_FIDELITY_CC, cc);
      return 77;
    }
#endif
    return cc >= 90 ? 0 : 77;
#endif
  }
  if (cmpA)
    return fid::compare(cmpA, cmpB, only);
  if (!dumpPath)
    return usage();
  int rc = fid::dump(dumpPath, start, only);
  if (rc == 0 && self)
    rc = fid::selftest(dumpPath, only);
  return rc;
}
