//===- rounding_fidelity.cu - the tensor core's rounding, measured --------===//
//
// How an H100/H200 rounds inside one wgmma.mma_async, set beside the
// emulator's model (scripts/fidelity-check.sh --source rounding):
//
//   fid.cpu --dump cpu.bin --selftest    # the emulator's dump, checked first
//   fid.gpu --dump gpu.bin               # the hardware's (sm_90a)
//   fid.cpu --compare cpu.bin gpu.bin    # bit-identical counts per kind
//
// wgmma_fidelity.cu checks layouts, descriptors and exact arithmetic: its
// inputs keep every sum exact, so rounding never shows. Here the sums do
// round. One warpgroup issues one m64n64 wgmma per configuration, A and B
// K-major without swizzle (32 bytes of K a row in every kind), for each
// kind the kernels use: bf16, f16 (k16), tf32 (k8), e4m3, e5m2 and mixed
// (k32), all into f32, and s8/u8 into s32. Inputs are either random (full
// mantissas, exponents spread, with and without an accumulator, and with
// an accumulator far larger than the products), or probes: one large term
// and a small one 2^-s below it, s the column, which show how many bits
// below the largest term survive, and whether they are cut or rounded.
//
// The dump holds each configuration's operand bytes, its accumulator and
// the result, so that a model of the hardware's rounding can be fitted and
// checked against the hardware's dump alone. Integer kinds must match bit
// for bit (the ISA defines them exactly); float kinds are measured: how
// many of the 4096 results are bit-identical and how far the rest lie, in
// f32 units in the last place.
//
//===----------------------------------------------------------------------===//

#include "support/SplitMix64.h"
#include "test/fidelity/fidelity_device.h"
#include "tilepipe/arch/sm90/wgmma.cuh"
#include "tilepipe/host/launch.cuh"
#include "tilepipe/layout/wgmma_layout.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if !defined(TILEPIPE_CPU)
#include <cuda_runtime.h>
#endif

namespace rfid {

namespace wg = tp::layout::wgmma;
using tp::ptx::Wgmma16;
using tp::ptx::WgmmaInt8;
using tp::ptx::WgmmaKMajor;

constexpr uint32_t kThreads = 128, kRows = 64, kCols = 64, kRowBytes = 32;

enum Kind : uint32_t {
  BF16,
  F16,
  TF32,
  E4M3,
  E5M2,
  E4M3xE5M2,
  S8,
  U8xS8,
  U8,
  kKinds
};

constexpr const char *kKindNames[kKinds] = {
    "bf16", "f16", "tf32", "e4m3", "e5m2", "e4m3_e5m2", "s8", "u8_s8", "u8"};

TP_HOST_DEVICE constexpr bool isInt(uint32_t k) { return k >= S8; }

/// The byte offset of byte `b` of row `mn` in the canonical K-major layout
/// without swizzle: 8-row core matrices of 16-byte rows, LBO 128, SBO 256.
TP_HOST_DEVICE uint32_t offsetOf(uint32_t mn, uint32_t b) {
  return (mn % 8) * 16 + (mn / 8) * 256 + (b % 16) + (b / 16) * 128;
}

} // namespace rfid

__device__ __forceinline__ unsigned char *rfid_smem_raw() {
  extern __shared__ __align__(1024) unsigned char tp_smem_raw[];
  return tp_smem_raw;
}

/// a: 64 rows of 32 bytes, then B's 64 rows; c0: the accumulator, 128 x 32
/// words in fragment order; out: the result, the same order.
template <uint32_t K>
__global__ void __launch_bounds__(rfid::kThreads, 1)
    rfid_kernel(const uint8_t *ab, const uint32_t *c0, uint32_t *out,
                uint32_t scaleD) {
  using namespace rfid;
  unsigned char *smem = rfid_smem_raw();
  uint32_t raw = tp::smem_addr(smem);
  unsigned char *win = smem + (((raw + 1023u) & ~1023u) - raw);
  uint32_t aAddr = tp::smem_addr(win), bAddr = aAddr + kRows * kRowBytes;
  uint32_t t = threadIdx.x;
  for (uint32_t e = t; e < 2 * kRows * kRowBytes; e += kThreads) {
    uint32_t row = e / kRowBytes, b = e % kRowBytes;
    uint32_t base = row < kRows ? 0 : kRows * kRowBytes;
    win[base + offsetOf(row % kRows, b)] = ab[e];
  }
  tp::fence_proxy_async();
  __syncthreads();
  uint64_t adesc =
      wg::make_descriptor(aAddr, 128, 256, tp::Swizzle::None).pack();
  uint64_t bdesc =
      wg::make_descriptor(bAddr, 128, 256, tp::Swizzle::None).pack();
  constexpr int R = kCols / 2;
  if constexpr (isInt(K)) {
    int32_t d[R];
    for (int i = 0; i < R; ++i)
      d[i] = int32_t(c0[t * R + i]);
    tp::ptx::wgmma_fence_operand(d);
    tp::ptx::wgmma_fence();
    constexpr WgmmaInt8 ta = K == S8 ? WgmmaInt8::S8 : WgmmaInt8::U8;
    constexpr WgmmaInt8 tb = K == U8 ? WgmmaInt8::U8 : WgmmaInt8::S8;
    tp::ptx::wgmma_ss_s32<kCols, ta, tb>(d, adesc, bdesc, scaleD != 0);
    tp::ptx::wgmma_commit_group();
    tp::ptx::wgmma_wait_group<0>();
    tp::ptx::wgmma_fence_operand(d);
    for (int i = 0; i < R; ++i)
      out[t * R + i] = uint32_t(d[i]);
  } else {
    float d[R];
    for (int i = 0; i < R; ++i)
      std::memcpy(&d[i], &c0[t * R + i], 4);
    tp::ptx::wgmma_fence_operand(d);
    tp::ptx::wgmma_fence();
    if constexpr (K == BF16)
      tp::ptx::wgmma_ss<kCols, Wgmma16::BF16>(d, adesc, bdesc, scaleD != 0);
    else if constexpr (K == F16)
      tp::ptx::wgmma_ss<kCols, Wgmma16::F16>(d, adesc, bdesc, scaleD != 0);
    else if constexpr (K == TF32)
      tp::ptx::wgmma_ss_kmajor<kCols, WgmmaKMajor::TF32, WgmmaKMajor::TF32>(
          d, adesc, bdesc, scaleD != 0);
    else if constexpr (K == E4M3)
      tp::ptx::wgmma_ss_kmajor<kCols, WgmmaKMajor::E4M3, WgmmaKMajor::E4M3>(
          d, adesc, bdesc, scaleD != 0);
    else if constexpr (K == E5M2)
      tp::ptx::wgmma_ss_kmajor<kCols, WgmmaKMajor::E5M2, WgmmaKMajor::E5M2>(
          d, adesc, bdesc, scaleD != 0);
    else
      tp::ptx::wgmma_ss_kmajor<kCols, WgmmaKMajor::E4M3, WgmmaKMajor::E5M2>(
          d, adesc, bdesc, scaleD != 0);
    tp::ptx::wgmma_commit_group();
    tp::ptx::wgmma_wait_group<0>();
    tp::ptx::wgmma_fence_operand(d);
    for (int i = 0; i < R; ++i)
      std::memcpy(&out[t * R + i], &d[i], 4);
  }
}

namespace rfid {

using tilepipe::SplitMix64;
using tp::host::failure;
using tp::host::Status;

//===----------------------------------------------------------------------===//
// Element formats (host side): values of codes, and codes of values
//===----------------------------------------------------------------------===//

uint32_t elemBytes(uint32_t k, bool b) {
  if (k == BF16 || k == F16)
    return 2;
  if (k == TF32)
    return 4;
  (void)b;
  return 1;
}

/// The operand's element kind: A's or B's (the mixed kinds differ).
uint32_t operandKind(uint32_t k, bool b) {
  if (k == E4M3xE5M2)
    return b ? E5M2 : E4M3;
  if (k == U8xS8)
    return b ? S8 : U8;
  return k;
}

double fp8Value(uint32_t code, int expBits) {
  int manBits = 7 - expBits, bias = (1 << (expBits - 1)) - 1;
  double s = (code >> 7) ? -1.0 : 1.0;
  int e = int((code >> manBits) & ((1u << expBits) - 1));
  double m = double(code & ((1u << manBits) - 1));
  if (e == 0)
    return s * m / double(1 << manBits) * std::ldexp(1.0, 1 - bias);
  return s * (1.0 + m / double(1 << manBits)) * std::ldexp(1.0, e - bias);
}

bool fp8Finite(uint32_t code, int expBits) {
  if (expBits == 4)
    return (code & 0x7F) != 0x7F;
  return ((code >> 2) & 0x1F) != 0x1F;
}

/// The value of element `code` (the operand's bytes, little-endian).
double valueOf(uint32_t kind, uint32_t code) {
  switch (kind) {
  case BF16: {
    uint32_t u = code << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  case F16: {
    int e = int((code >> 10) & 0x1F);
    double m = double(code & 0x3FF), s = (code >> 15) ? -1.0 : 1.0;
    return e == 0 ? s * m * std::ldexp(1.0, -24)
                  : s * (1.0 + m / 1024.0) * std::ldexp(1.0, e - 15);
  }
  case TF32: {
    float f;
    uint32_t u = code & 0xFFFFE000u;
    std::memcpy(&f, &u, 4);
    return f;
  }
  case E4M3:
    return fp8Value(code, 4);
  case E5M2:
    return fp8Value(code, 5);
  case S8:
    return double(int8_t(code));
  default:
    return double(uint8_t(code));
  }
}

/// The code nearest to v (ties to the even code), for the probes' values.
uint32_t codeOf(uint32_t kind, double v) {
  switch (kind) {
  case BF16: {
    float f = float(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return (u + 0x7FFFu + ((u >> 16) & 1)) >> 16;
  }
  case TF32: {
    float f = float(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return (u + 0xFFFu + ((u >> 13) & 1)) & 0xFFFFE000u;
  }
  case S8:
    return uint32_t(uint8_t(int8_t(std::lround(v))));
  case U8:
    return uint32_t(uint8_t(std::lround(v)));
  default: {
    uint32_t n = kind == F16 ? 0x10000u : 0x100u, best = 0;
    double bestErr = INFINITY;
    for (uint32_t c = 0; c < n; ++c) {
      if (kind == F16 ? ((c >> 10) & 0x1F) == 0x1F
                      : !fp8Finite(c, kind == E4M3 ? 4 : 5))
        continue;
      double err = std::fabs(valueOf(kind, c) - v);
      if (err < bestErr || (err == bestErr && (c & 1) == 0 && (best & 1))) {
        bestErr = err;
        best = c;
      }
    }
    return best;
  }
  }
}

/// A random finite code of the kind: full mantissas, exponents over a
/// spread that keeps the sums in f32's normal range.
uint32_t randomCode(uint32_t kind, SplitMix64 &rng) {
  uint64_t r = rng.next();
  uint32_t sign = uint32_t(r & 1);
  int e = int((r >> 8) % 13) - 6; // 2^-6 .. 2^6
  switch (kind) {
  case BF16:
    return (sign << 15) | (uint32_t(127 + e) << 7) | uint32_t((r >> 16) & 0x7F);
  case F16:
    return (sign << 15) | (uint32_t(15 + e) << 10) |
           uint32_t((r >> 16) & 0x3FF);
  case TF32:
    return (sign << 31) | (uint32_t(127 + e) << 23) |
           (uint32_t((r >> 16) & 0x3FF) << 13);
  case E4M3:
  case E5M2:
    for (;;) {
      uint32_t c = uint32_t(r >> 24) & 0xFF;
      if (fp8Finite(c, kind == E4M3 ? 4 : 5))
        return c;
      r = rng.next();
    }
  default:
    return uint32_t(r >> 24) & 0xFF;
  }
}

//===----------------------------------------------------------------------===//
// Configurations
//===----------------------------------------------------------------------===//

enum Data : uint32_t { Random, RandomNoAcc, RandomBigAcc, Probe };
constexpr const char *kDataNames[] = {"rand_acc", "rand", "rand_bigacc",
                                      "probe"};

struct Config {
  std::string name;
  uint32_t kind, data;
};

std::vector<Config> configs() {
  std::vector<Config> cs;
  for (uint32_t k = 0; k < kKinds; ++k)
    for (uint32_t d : {Random, RandomNoAcc, RandomBigAcc, Probe}) {
      if (isInt(k) && d == Probe)
        continue;
      cs.push_back({std::string(kKindNames[k]) + "_" + kDataNames[d], k, d});
    }
  return cs;
}

/// One configuration's inputs, as the dump records them: A's and B's rows
/// (64 each, 32 bytes), the accumulator and scale-d; row-major C[m][n].
struct Inputs {
  std::vector<uint8_t> ab = std::vector<uint8_t>(2 * kRows * kRowBytes);
  std::vector<uint32_t> c = std::vector<uint32_t>(kRows * kCols);
  uint32_t scaleD = 1;
};

uint32_t kOf(uint32_t kind) {
  return kRowBytes / elemBytes(operandKind(kind, false), false);
}

void put(Inputs &in, uint32_t kind, bool b, uint32_t row, uint32_t k,
         uint32_t code) {
  uint32_t size = elemBytes(operandKind(kind, b), b);
  uint8_t *p = &in.ab[(b ? kRows * kRowBytes : 0) + row * kRowBytes + k * size];
  for (uint32_t i = 0; i < size; ++i)
    p[i] = uint8_t(code >> (8 * i));
}

uint32_t f32Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// The probes. B's column n holds 1 at k = 0, 2^-s (s = n, down to what
/// the format reaches, the rest carried by A's rows) at k = 1 and 2, and 1
/// from k = 3; A's row picks which of those it multiplies and the
/// accumulator adds: 1 + 2^-s, 1 - 2^-s, C = 1 + 2^-s, C = 2^s + 1,
/// C = -1 + 2^-s, a carry (v + 1 ones) + 2^-s, two small terms, and
/// 2^-s alone. Row % 8 (v) scales the large term by (1 + v / 8).
void probe(Inputs &in, uint32_t kind) {
  uint32_t ka = operandKind(kind, false), kb = operandKind(kind, true);
  uint32_t K = kOf(kind);
  // The smallest power of two B can hold at k = 1; A's rows scale below it.
  int minB = kb == E4M3 ? 9 : kb == E5M2 ? 16 : kb == F16 ? 24 : 60;
  for (uint32_t n = 0; n < kCols; ++n) {
    int s = int(n);
    put(in, kind, true, n, 0, codeOf(kb, 1.0));
    for (uint32_t k = 1; k < 3; ++k)
      put(in, kind, true, n, k,
          codeOf(kb, std::ldexp(1.0, -std::min(s, minB))));
    for (uint32_t k = 3; k < K; ++k)
      put(in, kind, true, n, k, codeOf(kb, 1.0));
  }
  for (uint32_t m = 0; m < kRows; ++m) {
    uint32_t type = m / 8, v = m % 8;
    double big = 1.0 + v / 8.0;
    auto a = [&](uint32_t k, double x) {
      put(in, kind, false, m, k, codeOf(ka, x));
    };
    for (uint32_t k = 0; k < K; ++k)
      a(k, 0.0);
    for (uint32_t n = 0; n < kCols; ++n)
      in.c[m * kCols + n] = 0;
    auto cAll = [&](auto f) {
      for (uint32_t n = 0; n < kCols; ++n)
        in.c[m * kCols + n] = f32Bits(float(f(int(n))));
    };
    switch (type) {
    case 0:
      a(0, big), a(1, 1.0);
      break;
    case 1:
      a(0, big), a(1, -1.0);
      break;
    case 2:
      a(1, 1.0);
      cAll([&](int) { return big; });
      break;
    case 3:
      a(0, big);
      cAll([&](int s) { return std::ldexp(1.0, s); });
      break;
    case 4:
      a(1, 1.0);
      cAll([&](int) { return -big; });
      break;
    case 5:
      for (uint32_t k = 3; k < 3 + v && k < K; ++k)
        a(k, 1.0);
      a(0, 1.0), a(1, 1.0);
      break;
    case 6:
      a(0, big), a(1, 1.0), a(2, 1.0);
      break;
    default:
      a(1, std::ldexp(1.0, -int(v)));
      break;
    }
  }
}

Inputs inputs(const Config &c) {
  Inputs in;
  SplitMix64 rng(0x5EED0000u + c.kind * 16 + c.data);
  if (c.data == Probe) {
    probe(in, c.kind);
    return in;
  }
  uint32_t K = kOf(c.kind);
  for (uint32_t b = 0; b < 2; ++b)
    for (uint32_t row = 0; row < kRows; ++row)
      for (uint32_t k = 0; k < K; ++k)
        put(in, c.kind, b != 0, row, k,
            randomCode(operandKind(c.kind, b != 0), rng));
  in.scaleD = c.data != RandomNoAcc;
  for (uint32_t &w : in.c) {
    uint64_t r = rng.next();
    if (isInt(c.kind)) {
      // Near either end of s32 now and then, so that wrapping shows.
      w = (r & 3) == 0   ? uint32_t(INT32_MAX - int32_t((r >> 8) % 4096))
          : (r & 3) == 1 ? uint32_t(INT32_MIN + int32_t((r >> 8) % 4096))
                         : uint32_t(r >> 32);
      if (c.data == RandomBigAcc)
        w = uint32_t(r >> 32);
      continue;
    }
    int lo = c.data == RandomBigAcc ? 10 : -4,
        span = c.data == RandomBigAcc ? 11 : 15;
    double mant = 1.0 + double((r >> 11) & 0x7FFFFF) / double(1 << 23);
    double v =
        std::ldexp(mant, lo + int((r >> 40) % span)) * ((r >> 63) ? -1.0 : 1.0);
    w = f32Bits(float(v));
  }
  return in;
}

//===----------------------------------------------------------------------===//
// Running one configuration
//===----------------------------------------------------------------------===//

using fidelity::Buf;

template <uint32_t K>
Status launchKind(const uint8_t *ab, const uint32_t *c0, uint32_t *out,
                  uint32_t scaleD) {
  return tp::host::launch(rfid_kernel<K>, dim3(1), dim3(kThreads),
                          1024 + 2 * kRows * kRowBytes,
                          tp::host::LaunchOptions(), ab, c0, out, scaleD);
}

/// The result D[m][n], row-major, as u32 bits.
Status run(const Config &c, const Inputs &in, std::vector<uint32_t> &d) {
  constexpr uint32_t R = kCols / 2;
  std::vector<uint32_t> frag(kThreads * R);
  for (uint32_t t = 0; t < kThreads; ++t)
    for (uint32_t i = 0; i < R; ++i) {
      wg::RowCol rc = wg::acc_element(int(t), int(i));
      frag[t * R + i] = in.c[uint32_t(rc.row) * kCols + uint32_t(rc.col)];
    }
  Buf<uint8_t> gab(in.ab.size());
  Buf<uint32_t> gc(frag.size()), gout(frag.size());
  if (!gab.p || !gc.p || !gout.p)
    return failure("out of device memory");
  gab.put(in.ab.data());
  gc.put(frag.data());
  using Launch =
      Status (*)(const uint8_t *, const uint32_t *, uint32_t *, uint32_t);
  static constexpr Launch kLaunch[kKinds] = {
      launchKind<BF16>, launchKind<F16>,   launchKind<TF32>,
      launchKind<E4M3>, launchKind<E5M2>,  launchKind<E4M3xE5M2>,
      launchKind<S8>,   launchKind<U8xS8>, launchKind<U8>};
  Status s = kLaunch[c.kind](gab.p, gc.p, gout.p, in.scaleD);
  if (!s.ok)
    return s;
#if !defined(TILEPIPE_CPU)
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess)
    e = cudaGetLastError();
  if (e != cudaSuccess)
    return failure(std::string("kernel: ") + cudaGetErrorString(e));
#endif
  gout.get(frag.data());
  d.assign(kRows * kCols, 0);
  for (uint32_t t = 0; t < kThreads; ++t)
    for (uint32_t i = 0; i < R; ++i) {
      wg::RowCol rc = wg::acc_element(int(t), int(i));
      d[uint32_t(rc.row) * kCols + uint32_t(rc.col)] = frag[t * R + i];
    }
  return {};
}

//===----------------------------------------------------------------------===//
// The reference, the dump and the comparison
//===----------------------------------------------------------------------===//

uint32_t codeAt(const Inputs &in, uint32_t kind, bool b, uint32_t row,
                uint32_t k) {
  uint32_t size = elemBytes(operandKind(kind, b), b), code = 0;
  const uint8_t *p =
      &in.ab[(b ? kRows * kRowBytes : 0) + row * kRowBytes + k * size];
  for (uint32_t i = 0; i < size; ++i)
    code |= uint32_t(p[i]) << (8 * i);
  return code;
}

/// The exact s32 result, wrapped.
uint32_t exactInt(const Config &c, const Inputs &in, uint32_t m, uint32_t n) {
  uint32_t s = in.scaleD ? in.c[m * kCols + n] : 0;
  for (uint32_t k = 0; k < kOf(c.kind); ++k)
    s += uint32_t(int64_t(valueOf(operandKind(c.kind, false),
                                  codeAt(in, c.kind, false, m, k))) *
                  int64_t(valueOf(operandKind(c.kind, true),
                                  codeAt(in, c.kind, true, n, k))));
  return s;
}

/// The result as the H200 computes it (docs/cpu-emulation.md, "How the
/// tensor core rounds"): E the largest exponent sum of a product's factors
/// (and the accumulator's exponent), every term cut toward zero to
/// 2^(E - F), F = 25 (13 for 8-bit floats), the exact sum cut toward zero
/// to f32. In long double, term by term, as its statement reads.
uint32_t truncatingModel(const Config &c, const Inputs &in, uint32_t m,
                         uint32_t n) {
  uint32_t ka = operandKind(c.kind, false), kb = operandKind(c.kind, true);
  int bits = elemBytes(ka, false) == 1 ? 13 : 25;
  float acc = 0;
  if (in.scaleD)
    std::memcpy(&acc, &in.c[m * kCols + n], 4);
  std::vector<std::pair<long double, int>> terms; // value, reference exponent
  for (uint32_t k = 0; k < kOf(c.kind); ++k) {
    double x = valueOf(ka, codeAt(in, c.kind, false, m, k));
    double y = valueOf(kb, codeAt(in, c.kind, true, n, k));
    if (x != 0 && y != 0)
      terms.push_back({(long double)x * y, std::ilogb(x) + std::ilogb(y)});
  }
  if (acc != 0)
    terms.push_back({acc, std::ilogb(acc)});
  if (terms.empty())
    return in.scaleD ? f32Bits(acc + 0.0f) : 0;
  int ref = terms[0].second;
  for (auto &t : terms)
    ref = std::max(ref, t.second);
  long double q = std::ldexp(1.0L, ref - bits), sum = 0;
  for (auto &t : terms)
    sum += std::trunc(t.first / q) * q;
  float f = float(sum);
  if (std::fabs((long double)f) > std::fabs(sum))
    f = std::nextafter(f, 0.0f);
  return f32Bits(f);
}

/// How many f32 values lie between a and b (0: the same bits).
uint64_t ulpDistance(uint32_t a, uint32_t b) {
  auto key = [](uint32_t u) -> int64_t {
    return (u >> 31) ? -int64_t(u & 0x7FFFFFFFu) : int64_t(u);
  };
  int64_t d = key(a) - key(b);
  return uint64_t(d < 0 ? -d : d);
}

// The dump: "TPRD1\n", then per configuration name\n, status, kind, data,
// scale-d (u32 each), A and B's bytes (4096), C (4096 u32), D (4096 u32,
// present when status is 0: the configuration ran).
int dump(const char *path, const char *only, bool selftest) {
  FILE *f = std::fopen(path, "wb");
  if (!f)
    return 2;
  std::fputs("TPRD1\n", f);
  int ran = 0, failed = 0;
  for (const Config &c : configs()) {
    if (only && c.name.find(only) == std::string::npos)
      continue;
    Inputs in = inputs(c);
    std::vector<uint32_t> d;
    Status s = run(c, in, d);
    uint32_t head[4] = {s.ok ? 0u : 1u, c.kind, c.data, in.scaleD};
    std::fprintf(f, "%s\n", c.name.c_str());
    std::fwrite(head, 4, 4, f);
    std::fwrite(in.ab.data(), 1, in.ab.size(), f);
    std::fwrite(in.c.data(), 4, in.c.size(), f);
    if (s.ok)
      std::fwrite(d.data(), 4, d.size(), f);
    ++ran;
    if (!s.ok) {
      std::printf("%s: FAILED to run: %s\n", c.name.c_str(), s.report.c_str());
      ++failed;
      continue;
    }
    if (!selftest)
      continue;
    // The emulator's model (emulator/wgmma.h): exact s32 sums; for floats
    // the H200's truncating sum, written here again from its statement,
    // and never further from the exact sum than its cuts allow.
    size_t bad = 0;
    for (uint32_t m = 0; m < kRows; ++m)
      for (uint32_t n = 0; n < kCols; ++n) {
        uint32_t got = d[m * kCols + n];
        if (isInt(c.kind)) {
          bad += got != exactInt(c, in, m, n);
          continue;
        }
        bad += got != truncatingModel(c, in, m, n);
      }
    if (bad) {
      ++failed;
      std::printf("selftest FAIL: %s: %zu of %u results off the exact sum\n",
                  c.name.c_str(), bad, kRows * kCols);
    }
  }
  std::fclose(f);
  std::printf("dump: %d rounding configurations\n", ran);
  if (selftest)
    std::printf("selftest: %d configurations against the exact s32 sums and "
                "the truncating "
                "f32 model, %d failed\n",
                ran, failed);
  return failed ? 1 : 0;
}

struct Entry {
  std::string name;
  uint32_t head[4] = {};
  std::vector<uint32_t> d;
};

bool readDump(const char *path, std::vector<Entry> &out) {
  FILE *f = std::fopen(path, "rb");
  if (!f)
    return false;
  char line[128];
  bool ok = std::fgets(line, sizeof line, f) && std::string(line) == "TPRD1\n";
  std::vector<uint8_t> skip(2 * kRows * kRowBytes + 4 * kRows * kCols);
  while (ok && std::fgets(line, sizeof line, f)) {
    Entry e;
    e.name = line;
    e.name.pop_back();
    if (std::fread(e.head, 4, 4, f) != 4 ||
        std::fread(skip.data(), 1, skip.size(), f) != skip.size())
      break;
    if (e.head[0] == 0) {
      e.d.resize(kRows * kCols);
      if (std::fread(e.d.data(), 4, e.d.size(), f) != e.d.size())
        break;
    }
    out.push_back(std::move(e));
  }
  std::fclose(f);
  return ok;
}

/// Per configuration: bit-identical results, and for floats the largest
/// distance in f32 ulps. A configuration matches when every result is
/// bit-identical. Integer kinds must match (exit 1 otherwise); float kinds
/// are a measurement of the emulator's rounding model.
int compare(const char *a, const char *b, const char *only) {
  std::vector<Entry> x, y;
  if (!readDump(a, x) || !readDump(b, y)) {
    std::printf("compare: cannot read the dumps\n");
    return 2;
  }
  int match = 0, total = 0, intBad = 0;
  uint64_t sameFloat = 0, allFloat = 0;
  for (const Entry &e : x) {
    if (only && e.name.find(only) == std::string::npos)
      continue;
    ++total;
    const Entry *o = nullptr;
    for (const Entry &f : y)
      if (f.name == e.name)
        o = &f;
    bool intKind = isInt(e.head[1]);
    if (!o || o->head[0] || e.head[0] || o->d.size() != e.d.size()) {
      std::printf("%s: %s\n", e.name.c_str(), o ? "DID NOT RUN" : "MISSING");
      intBad += intKind;
      continue;
    }
    size_t same = 0;
    uint64_t worst = 0;
    for (size_t i = 0; i < e.d.size(); ++i) {
      same += e.d[i] == o->d[i];
      if (!intKind)
        worst = std::max(worst, ulpDistance(e.d[i], o->d[i]));
    }
    bool all = same == e.d.size();
    match += all;
    if (intKind)
      intBad += !all;
    else
      sameFloat += same, allFloat += e.d.size();
    std::printf(
        "%s: %s (%zu of %zu bit-identical%s)\n", e.name.c_str(),
        all ? "match" : "MISMATCH", same, e.d.size(),
        intKind ? "" : (", worst " + std::to_string(worst) + " ulp").c_str());
  }
  std::printf("float results bit-identical: %llu of %llu\n",
              (unsigned long long)sameFloat, (unsigned long long)allFloat);
  std::printf("%d of %d configurations match (integer kinds %s)\n", match,
              total, intBad ? "DIFFER" : "exact");
  return intBad ? 1 : 0;
}

using fidelity::deviceCheck;

} // namespace rfid

int main(int argc, char **argv) {
  const char *dumpPath = nullptr, *only = nullptr, *cmpA = nullptr,
             *cmpB = nullptr;
  bool selftest = false, device = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--dump" && i + 1 < argc)
      dumpPath = argv[++i];
    else if (a == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (a == "--start" && i + 1 < argc)
      ++i; // no configuration faults: nothing to resume
    else if (a == "--selftest")
      selftest = true;
    else if (a == "--device-check")
      device = true;
    else if (a == "--compare" && i + 2 < argc) {
      cmpA = argv[++i];
      cmpB = argv[++i];
    } else {
      std::fprintf(
          stderr,
          "usage: rounding_fidelity --dump FILE [--selftest] [--only S] | "
          "--compare A B [--only S] | --device-check\n");
      return 2;
    }
  }
  if (device)
    return rfid::deviceCheck();
  if (cmpA)
    return rfid::compare(cmpA, cmpB, only);
  if (!dumpPath)
    return 2;
  return rfid::dump(dumpPath, only, selftest);
}
