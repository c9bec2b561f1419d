//===- wgmma_fidelity.cu - the emulator's wgmma against an H100/H200 -------===//
//
// One source, two builds, one dump each, compared byte for byte (as
// tma_fidelity.cu does for TMA; scripts/fidelity-check.sh --source wgmma):
//
//   fid.cpu --dump cpu.bin --selftest    # the emulator's dump, checked first
//   fid.gpu --dump gpu.bin               # the hardware's (sm_90a)
//   fid.cpu --compare cpu.bin gpu.bin
//
// Each configuration runs one warpgroup: A (64 x 16) and B (N x 16, or 16 x N
// transposed) are written to SMEM in the canonical layout of the swizzle
// named, the accumulator fragment is loaded from memory, one wgmma.mma_async
// (A from SMEM or from registers, scale-d on or off) is committed and waited
// for, and every thread writes its N / 2 f32 registers in fragment order.
// The dump is those registers: equal dumps mean the emulator's fragment
// layout, descriptor reading and arithmetic are the hardware's. --selftest
// checks the emulator's dump against a float64 product computed here from
// the ISA's fragment formulas (the inputs are exact in 16 bits and the sums
// exact in f32, so the check is exact).
//
//===----------------------------------------------------------------------===//

#include "test/fidelity/fidelity_device.h"
#include "tilepipe/arch/sm90/wgmma.cuh"
#include "tilepipe/host/launch.cuh"
#include "tilepipe/layout/wgmma_layout.cuh"

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

namespace fid {

namespace wg = tp::layout::wgmma;
using tp::ptx::Wgmma16;

constexpr uint32_t kThreads = 128;

/// A small value exact in f16 and bf16 (a multiple of 1/8 in [-2, 2)).
TP_HOST_DEVICE float valueOf(uint32_t salt, uint32_t i, uint32_t j) {
  uint32_t h = (i * 2654435761u) ^ (j * 40503u) ^ (salt * 97u);
  h ^= h >> 13;
  return float(int(h % 32u) - 16) / 8.0f;
}

/// The byte offset of element (mn, k) of a 16-bit operand with 16 K values,
/// in the canonical layout (docs/wgmma-facts.md, section 3): K-major with
/// no swizzle (LBO 128, SBO 256) or 128B swizzle (rows of 128 bytes, SBO
/// 1024), or MN-major without swizzle (SBO 128, LBO 128 * mnCount / 8).
TP_HOST_DEVICE uint32_t offsetOf(bool mnMajor, bool sw128, uint32_t mn,
                                        uint32_t k, uint32_t mnCount) {
  if (mnMajor)
    return (mn % 8) * 2 + (k % 8) * 16 + (mn / 8) * 128 + (k / 8) * 128 * (mnCount / 8);
  if (sw128)
    return (mn % 8) * 128 + (mn / 8) * 1024 + k * 2;
  return (mn % 8) * 16 + (mn / 8) * 256 + (k % 8) * 2 + (k / 8) * 128;
}

TP_HOST_DEVICE uint64_t descOf(uint32_t addr, bool mnMajor, bool sw128,
                                      uint32_t mnCount) {
  if (mnMajor)
    return wg::make_descriptor(addr, 128 * (mnCount / 8), 128, tp::Swizzle::None).pack();
  return sw128 ? wg::make_descriptor(addr, 16, 1024, tp::Swizzle::B128).pack()
               : wg::make_descriptor(addr, 128, 256, tp::Swizzle::None).pack();
}

} // namespace fid

__device__ __forceinline__ unsigned char *fid_smem_raw() {
  extern __shared__ __align__(1024) unsigned char tp_smem_raw[];
  return tp_smem_raw;
}

/// in: A (64 x 16) then B (N x 16, row n holding B[n][k]), 16-bit values;
/// d0: the initial accumulator, 128 x N / 2 f32 in fragment order; out: the
/// result, the same order.
template <int N, tp::ptx::Wgmma16 T, int TransB, bool RegA, bool Sw128>
__global__ void __launch_bounds__(fid::kThreads, 1)
    fid_wgmma_kernel(const uint16_t *in, const float *d0, float *out,
                     uint32_t scaleD) {
  unsigned char *smem = fid_smem_raw();
  uint32_t raw = tp::smem_addr(smem);
  unsigned char *win = smem + (((raw + 1023u) & ~1023u) - raw);
  uint32_t aAddr = tp::smem_addr(win), bAddr = aAddr + 8192;
  uint32_t t = threadIdx.x;
  for (uint32_t e = t; e < 64 * 16; e += fid::kThreads) {
    uint32_t m = e / 16, k = e % 16;
    uint32_t lin = fid::offsetOf(false, Sw128, m, k, 64);
    uint32_t phys = tp::layout::apply(Sw128 ? tp::Swizzle::B128 : tp::Swizzle::None, aAddr + lin);
    std::memcpy(win + (phys - aAddr), &in[e], 2);
  }
  for (uint32_t e = t; e < uint32_t(N) * 16; e += fid::kThreads) {
    uint32_t n = e / 16, k = e % 16;
    bool sw = Sw128 && !TransB;
    uint32_t lin = fid::offsetOf(TransB != 0, sw, n, k, N);
    uint32_t phys = tp::layout::apply(sw ? tp::Swizzle::B128 : tp::Swizzle::None, bAddr + lin);
    std::memcpy(win + (phys - aAddr), &in[64 * 16 + e], 2);
  }
  tp::fence_proxy_async();
  __syncthreads();
  float d[N / 2];
  for (int i = 0; i < N / 2; ++i)
    d[i] = d0[t * (N / 2) + i];
  uint32_t ra[4] = {0, 0, 0, 0};
  for (int i = 0; i < 8; ++i) {
    fid::wg::RowCol rc = fid::wg::a16_element(int(t), i);
    ra[i / 2] |= uint32_t(in[rc.row * 16 + rc.col]) << (16 * (i % 2));
  }
  uint64_t adesc = fid::descOf(aAddr, false, Sw128, 64);
  uint64_t bdesc = fid::descOf(bAddr, TransB != 0, Sw128 && !TransB, N);
  tp::ptx::wgmma_fence_operand(d);
  tp::ptx::wgmma_fence();
  if constexpr (RegA)
    tp::ptx::wgmma_rs<N, T, TransB>(d, ra, bdesc, scaleD != 0);
  else
    tp::ptx::wgmma_ss<N, T, TransB>(d, adesc, bdesc, scaleD != 0);
  tp::ptx::wgmma_commit_group();
  tp::ptx::wgmma_wait_group<0>();
  tp::ptx::wgmma_fence_operand(d);
  for (int i = 0; i < N / 2; ++i)
    out[t * (N / 2) + i] = d[i];
}

namespace fid {

using tp::host::failure;
using tp::host::Status;

struct Config {
  std::string name;
  int n;
  Wgmma16 type;
  bool transB, regA, sw128, scaleD;
  Status (*run)(const Config &, const std::vector<uint16_t> &, const std::vector<float> &,
                std::vector<float> &);
};

using fidelity::Buf;

template <int N, Wgmma16 T, int TransB, bool RegA, bool Sw128>
Status runOne(const Config &c, const std::vector<uint16_t> &in,
              const std::vector<float> &d0, std::vector<float> &out) {
  Buf<uint16_t> gin(in.size());
  Buf<float> gd0(d0.size()), gout(d0.size());
  if (!gin.p || !gd0.p || !gout.p)
    return failure("out of device memory");
  gin.put(in.data());
  gd0.put(d0.data());
  Status s = tp::host::launch(fid_wgmma_kernel<N, T, TransB, RegA, Sw128>, dim3(1),
                              dim3(kThreads), 1024 + 8192 + 32768, tp::host::LaunchOptions(),
                              static_cast<const uint16_t *>(gin.p),
                              static_cast<const float *>(gd0.p), gout.p, uint32_t(c.scaleD));
  if (!s.ok)
    return s;
#if !defined(TILEPIPE_CPU)
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess)
    e = cudaGetLastError();
  if (e != cudaSuccess)
    return failure(std::string("kernel: ") + cudaGetErrorString(e));
#endif
  out.resize(d0.size());
  gout.get(out.data());
  return {};
}

std::vector<Config> configs() {
  std::vector<Config> cs;
  auto add = [&](const char *what, int n, Wgmma16 t, bool tb, bool ra, bool sw, bool sd,
                 auto fn) {
    char name[96];
    std::snprintf(name, sizeof name, "%s_%s_n%d%s%s%s%s", what,
                  t == Wgmma16::BF16 ? "bf16" : "f16", n, tb ? "_tb" : "",
                  ra ? "_rs" : "_ss", sw ? "_sw128" : "", sd ? "_acc" : "");
    cs.push_back(Config{name, n, t, tb, ra, sw, sd, fn});
  };
#define TP_FID(N, T, TB, RA, SW)                                               \
  add("wgmma", N, Wgmma16::T, TB, RA, SW, false, &runOne<N, Wgmma16::T, TB, RA, SW>); \
  add("wgmma", N, Wgmma16::T, TB, RA, SW, true, &runOne<N, Wgmma16::T, TB, RA, SW>)
  TP_FID(8, BF16, 0, false, false);
  TP_FID(16, BF16, 0, false, true);
  TP_FID(64, BF16, 0, false, false);
  TP_FID(64, F16, 0, false, true);
  TP_FID(128, BF16, 1, false, false);
  TP_FID(136, BF16, 0, false, false);
  TP_FID(256, BF16, 0, false, true);
  TP_FID(64, BF16, 0, true, false);
  TP_FID(128, F16, 1, true, false);
  TP_FID(256, BF16, 0, true, true);
#undef TP_FID
  return cs;
}

uint16_t bits16(Wgmma16 t, float v) {
  float f = v; // exact in both formats: a multiple of 1/8 in [-2, 2)
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (t == Wgmma16::BF16)
    return uint16_t(u >> 16);
  // f16: sign, exponent rebias 127 -> 15, 10 mantissa bits (v is normal or 0).
  if (f == 0.0f)
    return uint16_t((u >> 16) & 0x8000u);
  uint32_t sign = (u >> 16) & 0x8000u, e = ((u >> 23) & 0xFFu) - 127 + 15;
  return uint16_t(sign | (e << 10) | ((u >> 13) & 0x3FFu));
}

void inputs(const Config &c, std::vector<uint16_t> &in, std::vector<float> &d0,
            std::vector<double> &want) {
  uint32_t salt = uint32_t(c.n * 7 + int(c.type) * 3 + c.transB * 5 + c.regA * 11);
  in.assign(64 * 16 + size_t(c.n) * 16, 0);
  for (uint32_t m = 0; m < 64; ++m)
    for (uint32_t k = 0; k < 16; ++k)
      in[m * 16 + k] = bits16(c.type, valueOf(salt, m, k));
  for (uint32_t n = 0; n < uint32_t(c.n); ++n)
    for (uint32_t k = 0; k < 16; ++k)
      in[64 * 16 + n * 16 + k] = bits16(c.type, valueOf(salt + 1, n, k));
  d0.assign(size_t(kThreads) * (c.n / 2), 0.0f);
  want.assign(d0.size(), 0.0);
  for (uint32_t t = 0; t < kThreads; ++t)
    for (int i = 0; i < c.n / 2; ++i) {
      wg::RowCol rc = wg::acc_element(int(t), i);
      float init = valueOf(salt + 2, uint32_t(rc.row), uint32_t(rc.col));
      d0[t * (c.n / 2) + i] = init;
      double s = c.scaleD ? double(init) : 0.0;
      for (uint32_t k = 0; k < 16; ++k)
        s += double(valueOf(salt, uint32_t(rc.row), k)) *
             double(valueOf(salt + 1, uint32_t(rc.col), k));
      want[t * (c.n / 2) + i] = s;
    }
}

// The dump: "TPWG1\n", then per configuration name\n, status (0 ran, 1
// failed), count, count floats.
int dump(const char *path, const char *only, bool selftest) {
  FILE *f = std::fopen(path, "wb");
  if (!f)
    return 2;
  std::fputs("TPWG1\n", f);
  int ran = 0, failedChecks = 0, checks = 0;
  for (const Config &c : configs()) {
    if (only && c.name.find(only) == std::string::npos)
      continue;
    std::vector<uint16_t> in;
    std::vector<float> d0, out;
    std::vector<double> want;
    inputs(c, in, d0, want);
    Status s = c.run(c, in, d0, out);
    uint32_t status = s.ok ? 0 : 1, count = s.ok ? uint32_t(out.size()) : 0;
    std::fprintf(f, "%s\n", c.name.c_str());
    std::fwrite(&status, 4, 1, f);
    std::fwrite(&count, 4, 1, f);
    if (count)
      std::fwrite(out.data(), 4, count, f);
    ++ran;
    if (!s.ok)
      std::printf("%s: FAILED to run: %s\n", c.name.c_str(), s.report.c_str());
    if (selftest) {
      ++checks;
      size_t bad = 0;
      for (size_t i = 0; s.ok && i < out.size(); ++i)
        bad += double(out[i]) != want[i];
      if (!s.ok || bad) {
        ++failedChecks;
        std::printf("selftest FAIL: %s: %zu of %zu registers differ from the float64 product\n",
                    c.name.c_str(), bad, out.size());
      }
    }
  }
  std::fclose(f);
  std::printf("dump: %d wgmma configurations\n", ran);
  if (selftest)
    std::printf("selftest: %d checks against the float64 product, %d failed\n", checks,
                failedChecks);
  return failedChecks ? 1 : 0;
}

struct Entry {
  uint32_t status = 0;
  std::vector<float> regs;
};

bool readDump(const char *path, std::vector<std::pair<std::string, Entry>> &out) {
  FILE *f = std::fopen(path, "rb");
  if (!f)
    return false;
  char line[128];
  if (!std::fgets(line, sizeof line, f) || std::string(line) != "TPWG1\n") {
    std::fclose(f);
    return false;
  }
  while (std::fgets(line, sizeof line, f)) {
    std::string name(line);
    name.pop_back();
    Entry e;
    uint32_t count = 0;
    if (std::fread(&e.status, 4, 1, f) != 1 || std::fread(&count, 4, 1, f) != 1)
      break;
    e.regs.resize(count);
    if (count && std::fread(e.regs.data(), 4, count, f) != count)
      break;
    out.emplace_back(name, std::move(e));
  }
  std::fclose(f);
  return true;
}

int compare(const char *a, const char *b) {
  std::vector<std::pair<std::string, Entry>> x, y;
  if (!readDump(a, x) || !readDump(b, y)) {
    std::printf("compare: cannot read the dumps\n");
    return 2;
  }
  int match = 0, total = 0;
  for (auto &[name, e] : x) {
    ++total;
    const Entry *o = nullptr;
    for (auto &[n2, e2] : y)
      if (n2 == name)
        o = &e2;
    bool same = o && o->status == e.status && o->regs.size() == e.regs.size() &&
                (e.regs.empty() ||
                 std::memcmp(o->regs.data(), e.regs.data(), 4 * e.regs.size()) == 0);
    match += same;
    std::printf("%s: %s\n", name.c_str(), same ? "match" : o ? "MISMATCH" : "MISSING");
  }
  std::printf("%d of %d configurations match\n", match, total);
  return match == total ? 0 : 1;
}

using fidelity::deviceCheck;

} // namespace fid

int main(int argc, char **argv) {
  const char *dumpPath = nullptr, *only = nullptr, *cmpA = nullptr, *cmpB = nullptr;
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
      std::fprintf(stderr, "usage: wgmma_fidelity --dump FILE [--selftest] [--only S] | "
                           "--compare A B | --device-check\n");
      return 2;
    }
  }
  if (device)
    return fid::deviceCheck();
  if (cmpA)
    return fid::compare(cmpA, cmpB);
  if (!dumpPath)
    return 2;
  return fid::dump(dumpPath, only, selftest);
}
