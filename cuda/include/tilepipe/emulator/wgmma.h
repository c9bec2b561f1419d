//===- emulator/wgmma.h - Hopper's warpgroup MMA -----------------*- C++ -*-===//
//
// wgmma.mma_async (sm_90a) as the PTX ISA states it (docs/wgmma-facts.md):
//
// - .sync.aligned: every lane of each warp of the warpgroup executes it
//   with the same descriptors and shape. Each warp's 32 lanes rendezvous
//   and their issue becomes one operation in flight for the warp's 16 rows
//   of D (warp w % 4 of its warpgroup owns rows 16 (w % 4) ..).
// - Asynchronous: the operation reads A and B (shared memory through the
//   sm_90 descriptors) and reads and writes the accumulator registers when
//   it completes, at a time the seed picks, in issue order per warp. A in
//   registers is taken at the issue: the CUDA source passes it as asm
//   input values, and ptxas keeps those registers until the wait. A kernel that
//   reuses an operand's buffer, or touches the accumulator, before
//   wgmma.wait_group says the operation is done computes wrong numbers here, as
//   it may on the GPU.
// - wgmma.commit_group closes the thread's open group; wgmma.wait_group N
//   blocks until at most N of its committed groups are pending. A thread
//   that exits with operations in flight faults (their registers would be
//   written after it is gone).
// - wgmma.fence: tilepipe's rule, stricter than PTX's, is a fence before
//   the first wgmma.mma_async after each wgmma.wait_group (and before the
//   first of the kernel): PTX asks for one wherever the accumulator or A
//   registers were accessed in between, which the emulator cannot see.
//
// The accumulation, as an H200 does it (fitted on test/fidelity/
// rounding_fidelity.cu's dump, 2026-12-04; docs/cpu-emulation.md "How the
// tensor core rounds"): E is the largest of the products' exponent sums and
// the old D's exponent; each product and the old D are cut toward zero to a
// multiple of 2^(E - 25) (2^(E - 13) for 8-bit floats), summed exactly, and
// the sum is cut toward zero to f32. That is bit for bit what the H200 gave
// for bf16, f16 and tf32 (49,152 of 49,152 results); for e4m3/e5m2 it fits
// the probes and about three quarters of random sums. For s8/u8 operands an
// exact s32 sum, wrapping, in the same registers (36,864 of 36,864).
// A in registers is supported for 16-bit types (the ISA's m64k16 fragment);
// the D fragment is the ISA's m64nN one.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_WGMMA_H
#define TILEPIPE_EMULATOR_WGMMA_H

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tilepipe/emulator/cta.h"
#include "tilepipe/emulator/mma_unit.h"
#include "tilepipe/emulator/outline.h"
#include "tilepipe/emulator/warp.h"
#include "tilepipe/layout/wgmma_shapes.h"

namespace tp::cpu::dp {

TP_EMU_OUTLINE ElemType wgmmaElem(WgmmaType t);
TP_EMU_OUTLINE SmemDescriptor decodeWgmmaDesc(uint64_t d, const char *what);
TP_EMU_OUTLINE void wgmma(const Smem &smem, const rt::WgmmaIssue &w);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE ElemType wgmmaElem(WgmmaType t) {
  switch (t) {
  case WgmmaType::F16:
    return ElemType::F16;
  case WgmmaType::BF16:
    return ElemType::BF16;
  case WgmmaType::TF32:
    return ElemType::TF32;
  case WgmmaType::E4M3:
    return ElemType::E4M3;
  case WgmmaType::E5M2:
    return ElemType::E5M2;
  case WgmmaType::S8:
    return ElemType::S8;
  case WgmmaType::U8:
    return ElemType::U8;
  }
  return ElemType::BF16;
}

/// An sm_90 SMEM matrix descriptor, read as the sm_100 one it equals with
/// the version bit set (the fields and swizzle bits coincide; sm_90 has no
/// version and reserves bits 46-48 and 52-61).
TP_EMU_OUTLINE SmemDescriptor decodeWgmmaDesc(uint64_t d, const char *what) {
  std::string who = std::string("wgmma.mma_async: ") + what + " " + hex64(d) + ": ";
  if ((d >> 46) & 7)
    fault(who + "bits 46-48 are reserved on sm_90 (an sm_100 descriptor's "
                "version field?)");
  if ((d >> 52) & 0x3FF)
    fault(who + "bits 52-61 are reserved on sm_90");
  return decodeSmemDesc(d | (uint64_t(1) << 46), what);
}

/// floor(log2 |x|) of a nonzero finite x.
inline int wgmmaExponent(double x) {
  int e = 0;
  std::frexp(x, &e);
  return e - 1;
}

/// One f32 result of the tensor core from its K products' factors and the
/// old D (the model above). Infinities and NaNs take the plain sum.
inline float wgmmaTruncatingSum(const double *a, const double *b, uint32_t K,
                                bool scaleD, float d, int bits) {
  // K is at most 32 (k32 of 8-bit operands): each product is made once.
  double p[32];
  bool any = scaleD && d != 0.0f;
  int ref = any ? wgmmaExponent(d) : 0;
  double plain = scaleD ? double(d) : 0.0;
  for (uint32_t k = 0; k < K; ++k) {
    p[k] = a[k] * b[k];
    plain += p[k];
    if (a[k] == 0.0 || b[k] == 0.0)
      continue;
    int e = wgmmaExponent(a[k]) + wgmmaExponent(b[k]);
    ref = any ? std::max(ref, e) : e;
    any = true;
  }
  if (!std::isfinite(plain))
    return float(plain);
  if (!any)
    return scaleD ? d + 0.0f : 0.0f;
  // |term / q| < 2^(bits + 2): each cut term and their sum are exact.
  double q = std::ldexp(1.0, ref - bits), sum = 0.0;
  for (uint32_t k = 0; k < K; ++k)
    sum += std::trunc(p[k] / q) * q;
  if (scaleD)
    sum += std::trunc(double(d) / q) * q;
  float f = float(sum);
  if (std::fabs(double(f)) > std::fabs(sum))
    f = std::nextafter(f, 0.0f);
  return f;
}

/// One warp's part of a wgmma.mma_async: rows 16 w .. 16 w + 15 of D.
TP_EMU_OUTLINE void wgmma(const Smem &smem, const rt::WgmmaIssue &w) {
  const WgmmaShape &s = w.shape;
  const uint32_t N = s.n;
  ElemType ta = wgmmaElem(s.a), tb = wgmmaElem(s.b);
  const uint32_t K = 256 / elemBits(ta);
  SmemDescriptor bd = decodeWgmmaDesc(w.bdesc, "b-desc");
  std::vector<double> b(size_t(N) * K);
  Major bMajor = s.transB ? Major::MN : Major::K;
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t k = 0; k < K; ++k)
      b[n * K + k] = detail::smemElem(smem, bd, bMajor, tb, n, k);
  // A's 16 rows of this warp: a[r * K + k], r = row - 16 w.
  std::vector<double> a(size_t(16) * K);
  if (!w.regA) {
    SmemDescriptor ad = decodeWgmmaDesc(w.adesc, "a-desc");
    Major aMajor = s.transA ? Major::MN : Major::K;
    for (uint32_t r = 0; r < 16; ++r)
      for (uint32_t k = 0; k < K; ++k)
        a[r * K + k] = detail::smemElem(smem, ad, aMajor, ta,
                                        16 * w.warpInGroup + r, k);
  } else if (elemBits(ta) == 16) {
    // The m64k16 fragment: element i of lane l is register i / 2, low half
    // first; the lane and element of (r, k) invert a16_element.
    for (uint32_t r = 0; r < 16; ++r)
      for (uint32_t k = 0; k < K; ++k) {
        uint32_t lane = 4 * (r % 8) + (k % 8) / 2;
        uint32_t i = (k & 1) + 2 * (r / 8) + 4 * (k / 8);
        uint32_t word = w.a[lane][i / 2] >> (16 * (i % 2));
        a[r * K + k] = elemValue(ta, reinterpret_cast<const uint8_t *>(&word));
      }
  } else {
    // The 8-bit m64k32 fragment: element i of lane l is byte i % 4 of
    // register i / 4 (byte 0 the low one), row l / 4 + 8 ((i >> 2) & 1),
    // k 4 (l % 4) + (i & 3) + 16 (i >> 3); inverted for (r, k).
    for (uint32_t r = 0; r < 16; ++r)
      for (uint32_t k = 0; k < K; ++k) {
        uint32_t lane = 4 * (r % 8) + (k % 16) / 4;
        uint32_t i = (k & 3) + 4 * (r / 8) + 8 * (k / 16);
        uint32_t word = w.a[lane][i / 4] >> (8 * (i % 4));
        a[r * K + k] = elemValue(ta, reinterpret_cast<const uint8_t *>(&word));
      }
  }
  // The m64nN D fragment: register i of lane l holds row l / 4 + 8 (i / 2
  // % 2) of the warp's 16, column 8 (i / 4) + 2 (l % 4) + i % 2. Written
  // here from the ISA, apart from layout/wgmma_layout.cuh (which the
  // emulator does not include: it stands below config.cuh), so that the
  // tests compare two statements of it.
  bool s32 = ta == ElemType::S8 || ta == ElemType::U8;
  for (uint32_t l = 0; l < 32; ++l)
    for (uint32_t i = 0; i < N / 2; ++i) {
      uint32_t r = l / 4 + 8 * ((i >> 1) & 1);
      uint32_t n = 8 * (i >> 2) + 2 * (l % 4) + (i & 1);
      if (!s32) {
        w.d[l][i] = wgmmaTruncatingSum(&a[r * K], &b[n * K], K, w.scaleD,
                                       w.d[l][i], elemBits(ta) == 8 ? 13 : 25);
        continue;
      }
      // .s32 D: the exact integer sum, added to the old D with wrap-around
      // (no .satfinite); the register holds its bits.
      double sum = 0;
      for (uint32_t k = 0; k < K; ++k)
        sum += a[r * K + k] * b[n * K + k];
      uint32_t old = 0;
      if (w.scaleD)
        std::memcpy(&old, &w.d[l][i], 4);
      uint32_t v = uint32_t(int64_t(sum)) + old;
      std::memcpy(&w.d[l][i], &v, 4);
    }
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::dp

namespace tp::cpu::rt {

/// What each lane hands the rendezvous (alive only until the issue).
struct WgmmaLaneArgs {
  float *d;
  const uint32_t *a;
};

TP_EMU_OUTLINE uint64_t packWgmmaShape(const WgmmaShape &s);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE uint64_t packWgmmaShape(const WgmmaShape &s) {
  return uint64_t(s.n) | uint64_t(s.a) << 16 | uint64_t(s.b) << 24 |
         uint64_t(s.transA) << 32 | uint64_t(s.transB) << 33;
}

/// The last lane of a warp to reach a wgmma.mma_async issues it for the
/// warp: one operation, behind the warp's earlier ones.
TP_EMU_OUTLINE void Cta::wgmmaIssue(Warp &w, const Collective &c) {
  uint32_t warp = uint32_t(&w - warps.data());
  char msg[320];
  if (c.mask != 0xFFFFFFFFu) {
    std::snprintf(msg, sizeof msg,
                  "%s: warp %u executes it with lanes 0x%08x only; every lane "
                  "of the warpgroup must (.sync.aligned)",
                  c.op, warp, c.mask);
    fault(msg);
  }
  if (4 * (warp / 4) + 3 >= nWarps) {
    std::snprintf(msg, sizeof msg,
                  "%s: warp %u is in warpgroup %u, which this %u-warp CTA "
                  "does not fill (a warpgroup is 4 consecutive warps)",
                  c.op, warp, warp / 4, nWarps);
    fault(msg);
  }
  auto iss = std::make_shared<WgmmaIssue>();
  iss->warpInGroup = warp % 4;
  iss->adesc = c.a;
  iss->bdesc = c.b;
  for (uint32_t l = 0; l < 32; ++l) {
    Thread &t = *c.lanes[l];
    if (t.in0 != c.lanes[0]->in0 || t.in1 != c.lanes[0]->in1) {
      std::snprintf(msg, sizeof msg,
                    "%s: the lanes of warp %u disagree on the shape, types or "
                    "scale-d (lane %u)",
                    c.op, warp, l);
      fault(msg);
    }
    if (!t.wgFenced) {
      std::snprintf(msg, sizeof msg,
                    "%s: thread %u issues it without a wgmma.fence since its "
                    "last wgmma.wait_group (the accumulator and A registers "
                    "must be fenced before a wgmma reads them)",
                    c.op, t.tid);
      fault(msg);
    }
    auto *args = static_cast<const WgmmaLaneArgs *>(t.ptr);
    iss->d[l] = args->d;
    // A's registers are the asm's input operands: the source hands over
    // their values at the issue, and keeping the physical registers intact
    // until the wait_group is ptxas's part, not the kernel's.
    if (args->a)
      std::memcpy(iss->a[l], args->a, sizeof iss->a[l]);
  }
  Thread &t0 = *c.lanes[0];
  iss->scaleD = t0.in1 & 1;
  iss->regA = (t0.in1 >> 1) & 1;
  iss->shape.n = uint16_t(t0.in0 & 0xFFFF);
  iss->shape.a = WgmmaType((t0.in0 >> 16) & 0xFF);
  iss->shape.b = WgmmaType((t0.in0 >> 24) & 0xFF);
  iss->shape.transA = (t0.in0 >> 32) & 1;
  iss->shape.transB = (t0.in0 >> 33) & 1;
  AsyncOp *prev = !t0.wgOpen.empty() ? t0.wgOpen.back()
                  : !t0.wgGroups.empty() ? t0.wgGroups.back().back()
                                         : nullptr;
  AsyncOp &op = issue(OpKind::Wgmma, c.op);
  op.wg = std::move(iss);
  op.warp = warp;
  if (prev)
    dependOn(op, *prev);
  for (uint32_t l = 0; l < 32; ++l)
    c.lanes[l]->wgOpen.push_back(&op);
  if (!op.lazy && op.waitingOn == 0)
    nextDue = std::min(nextDue, op.due);
}

TP_EMU_OUTLINE bool Cta::wgmmaSatisfied(const Thread &t,
                                        uint32_t pending) const {
  return t.wgGroups.size() <= pending;
}

/// A completed operation leaves its warp's lanes' groups; a lane waiting
/// for them may go on.
TP_EMU_OUTLINE void Cta::wgmmaRetire(AsyncOp &op) {
  for (uint32_t l = 0; l < 32; ++l) {
    Thread &t = threads[32 * op.warp + l];
    auto drop = [&](std::vector<AsyncOp *> &v) {
      for (auto it = v.begin(); it != v.end(); ++it)
        if (*it == &op) {
          v.erase(it);
          return;
        }
    };
    drop(t.wgOpen);
    for (std::vector<AsyncOp *> &g : t.wgGroups)
      drop(g);
    while (!t.wgGroups.empty() && t.wgGroups.front().empty())
      t.wgGroups.pop_front();
    if (t.state == RunState::Blocked && t.wait.kind == WaitKind::WgmmaGroup &&
        wgmmaSatisfied(t, t.wait.a))
      wake(t);
  }
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu::rt

namespace tp::cpu {

TP_EMU_OUTLINE void wgmma_fence();
TP_EMU_OUTLINE void wgmma_commit_group();
TP_EMU_OUTLINE void wgmma_wait_group(int pending);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void wgmma_fence() {
  rt::Cta &c = rt::current();
  c.atom(true);
  c.self().wgFenced = true;
}

TP_EMU_OUTLINE void wgmma_commit_group() {
  rt::Cta &c = rt::current();
  c.atom(false);
  rt::Thread &t = c.self();
  if (!t.wgOpen.empty())
    t.wgGroups.push_back(std::move(t.wgOpen));
  t.wgOpen.clear();
}

TP_EMU_OUTLINE void wgmma_wait_group(int pending) {
  rt::Cta &c = rt::current();
  c.atom(false);
  if (pending < 0)
    c.fault("wgmma.wait_group: negative group count");
  rt::Thread &t = c.self();
  t.wgFenced = false;
  if (!c.wgmmaSatisfied(t, uint32_t(pending)))
    c.markBlocked(t, rt::Wait{rt::WaitKind::WgmmaGroup, "wgmma.wait_group",
                              uint32_t(pending), 0});
  c.suspend();
}
#endif // !TILEPIPE_EMULATOR_EXTERN

namespace rt {
TP_EMU_OUTLINE void wgmmaMma(const char *op, const WgmmaShape &s, float *d,
                             const uint32_t *a, uint64_t adesc, uint64_t bdesc,
                             bool scaleD);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void wgmmaMma(const char *op, const WgmmaShape &s, float *d,
                             const uint32_t *a, uint64_t adesc, uint64_t bdesc,
                             bool scaleD) {
  namespace rule = tp::wgmma_shape;
  Cta &c = current();
  c.atom(false);
  bool sixteen = s.a == WgmmaType::F16 || s.a == WgmmaType::BF16;
  auto f8 = [](WgmmaType t) {
    return t == WgmmaType::E4M3 || t == WgmmaType::E5M2;
  };
  auto int8 = [](WgmmaType t) {
    return t == WgmmaType::S8 || t == WgmmaType::U8;
  };
  bool sameFamily =
      s.a == s.b || (f8(s.a) && f8(s.b)) || (int8(s.a) && int8(s.b));
  if (!sameFamily)
    c.fault(std::string(op) + ": " + TP_WGMMA_RULE_TYPES);
  if (!rule::n_ok(s.n) || (int8(s.a) && !rule::int8_n_ok(s.n)))
    c.fault(std::string(op) + ": N = " + std::to_string(s.n) + ": " +
            TP_WGMMA_RULE_N);
  if ((s.transA || s.transB) && (!sixteen || (a && s.transA)))
    c.fault(std::string(op) + ": " + TP_WGMMA_RULE_TRANSPOSE);
  if (a && s.a == WgmmaType::TF32)
    c.fault(std::string(op) + ": unsupported here: A in registers of tf32");
  Thread &t = c.self();
  WgmmaLaneArgs args{d, a};
  t.ptr = &args;
  t.in0 = packWgmmaShape(s);
  t.in1 = uint64_t(scaleD) | uint64_t(a != nullptr) << 1;
  c.rendezvous(Coll::Wgmma, op, 0xFFFFFFFFu, /*aligned=*/true, adesc, bdesc,
               /*uniform=*/true);
}
#endif // !TILEPIPE_EMULATOR_EXTERN
} // namespace rt

TP_EMU_OUTLINE void wgmma_mma_ss(const WgmmaShape &s, float *d, uint64_t adesc,
                                 uint64_t bdesc, bool scaleD);
TP_EMU_OUTLINE void wgmma_mma_rs(const WgmmaShape &s, float *d,
                                 const uint32_t *a, uint64_t bdesc,
                                 bool scaleD);

#if !defined(TILEPIPE_EMULATOR_EXTERN)
TP_EMU_OUTLINE void wgmma_mma_ss(const WgmmaShape &s, float *d, uint64_t adesc,
                                 uint64_t bdesc, bool scaleD) {
  rt::wgmmaMma("wgmma.mma_async", s, d, nullptr, adesc, bdesc, scaleD);
}

TP_EMU_OUTLINE void wgmma_mma_rs(const WgmmaShape &s, float *d,
                                 const uint32_t *a, uint64_t bdesc,
                                 bool scaleD) {
  rt::wgmmaMma("wgmma.mma_async", s, d, a, 0, bdesc, scaleD);
}
#endif // !TILEPIPE_EMULATOR_EXTERN

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_WGMMA_H
