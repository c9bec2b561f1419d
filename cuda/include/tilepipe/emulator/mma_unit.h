//===- emulator/mma_unit.h - tcgen05.mma, cta_group::1, dense ---*- C++ -*-===//
//
// D[M x N] (+)= A[M x K] * B[N x K]^T for one instruction, K = 32 bytes of
// operand row: kinds f16 (K 16), tf32 (K 8), f8f6f4, mxf8f6f4.block_scale
// and i8 (K 32). A and B are read through their SMEM descriptors (A may instead
// be in TMEM), D lives in TMEM.
//
// PTX leaves the order and rounding of the accumulation unspecified. We
// sum the instruction's K products (each exact in double) in double, in
// order of k, add the old D, and round once, to nearest even, to the D
// format: one rounding per instruction. The hardware may round otherwise;
// compare with a tolerance. kind::i8 is exact: the 32 products of 8-bit
// integers and their sum are integers below 2^20, added to the old s32 D
// with wrap-around (or clamped, with the saturate bit), as integer MMA is
// defined.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_MMA_UNIT_H
#define TILEPIPE_EMULATOR_MMA_UNIT_H

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tilepipe/emulator/atoms.h"
#include "tilepipe/emulator/cuda_types.h"
#include "tilepipe/emulator/descriptors.h"
#include "tilepipe/emulator/fault.h"
#include "tilepipe/emulator/formats.h"
#include "tilepipe/emulator/shared_memory.h"
#include "tilepipe/emulator/tensor_memory.h"

namespace tp::cpu::dp {

/// The value of an element of type t whose bits start at bit `bit` of p.
inline double elemValue(ElemType t, const uint8_t *p, uint32_t bit = 0) {
  uint32_t w = 0;
  switch (t) {
  case ElemType::F16:
    std::memcpy(&w, p, 2);
    return fmt::f16(w);
  case ElemType::BF16:
    std::memcpy(&w, p, 2);
    return fmt::bf16(w);
  case ElemType::TF32:
    std::memcpy(&w, p, 4);
    return fmt::tf32(w);
  case ElemType::E4M3:
    return fmt::e4m3(p[0]);
  case ElemType::E5M2:
    return fmt::e5m2(p[0]);
  case ElemType::S8:
    return double(int8_t(p[0]));
  case ElemType::U8:
    return double(p[0]);
  default: {
    // 4/6-bit: packed little-endian from the start of the container.
    uint32_t lo = bit / 8, sh = bit % 8;
    w = uint32_t(p[lo]) | uint32_t(p[lo + 1]) << 8;
    w >>= sh;
    if (t == ElemType::E2M1)
      return fmt::e2m1(w);
    return t == ElemType::E2M3 ? fmt::e2m3(w) : fmt::e3m2(w);
  }
  }
}

namespace detail {

/// Element (mn, k) of an SMEM operand.
inline double smemElem(const Smem &smem, const SmemDescriptor &d, Major major,
                       ElemType t, uint32_t mn, uint32_t k) {
  uint32_t bits = elemBits(t);
  if (bits >= 8) {
    uint32_t es = bits / 8;
    return elemValue(t, smem.at(operandAddress(d, major, es, mn, k), es));
  }
  // 16 elements per 16-byte container, packed at its start; containers are
  // addressed like 16 one-byte elements (K-major only).
  uint32_t chunk = operandAddress(d, major, 1, mn, k & ~15u);
  return elemValue(t, smem.at(chunk, 16), (k % 16) * bits);
}

/// TMEM lane of accumulator row m: M = 128 uses lane m; M = 64 (non-.ws)
/// puts rows 16 apart in each 32-lane quadrant: (m%16) + 32*(m/16) + the
/// lane offset of d (0 or 16).
inline uint32_t dLane(uint32_t m, uint32_t M, uint32_t laneOffset) {
  return M == 128 ? m : (m % 16) + 32 * (m / 16) + laneOffset;
}

/// The UE8M0 scale of row `r` (of M or N) stored from column `col`: lane
/// 32w + r%32 of every quadrant w (PTX requires the copies), column
/// col + r/32, byte `id` of the word. Unequal or unwritten copies fault.
inline double scaleFactor(const Tmem &t, uint32_t col, uint32_t r, uint32_t id,
                          const char *which) {
  uint32_t c = col + r / 32, l0 = r % 32;
  uint32_t v = 0;
  for (uint32_t w = 0; w < 4; ++w) {
    uint32_t l = l0 + 32 * w;
    if (!t.written[l][c])
      fault(std::string("mma: scale factors ") + which + " of row " +
            std::to_string(r) + ": TMEM lane " + std::to_string(l) +
            ", column " + std::to_string(c) +
            " was never written (scale factors must be copied to all four "
            "32-lane quadrants)");
    uint32_t b = (t.cell[l][c] >> (8 * id)) & 0xFF;
    if (w == 0)
      v = b;
    else if (b != v)
      fault(std::string("mma: scale factors ") + which + " of row " +
            std::to_string(r) + " differ between TMEM lane quadrants (lane " +
            std::to_string(l0) + ": " + std::to_string(v) + ", lane " +
            std::to_string(l) + ": " + std::to_string(b) +
            "); PTX requires them duplicated to all four");
  }
  return fmt::ue8m0(v);
}

/// The column and sanity of a scale-factor TMEM address. CUTLASS stores the
/// SF id in bits 30-31 of it; PTX says nothing of those bits, so they are
/// ignored (the id comes from the instruction descriptor).
inline uint32_t scaleColumn(const Tmem &t, uint32_t taddr, uint32_t rows,
                            const char *which) {
  std::string who = std::string("mma: scale factors ") + which + " [0x" +
                    Tmem::hex32(taddr) + "]: ";
  taddr &= 0x3FFFFFFFu;
  if (tmemLane(taddr))
    fault(who + "lane field must be 0 (the factors fill all 128 lanes)");
  uint32_t col = tmemCol(taddr);
  t.checkColumns(col, (rows + 31) / 32, who);
  return col;
}

/// The s32 D of kind::i8: the exact product sum plus the old D (which
/// must have been written: an integer has no NaN to mark it), wrapped to 32
/// bits or clamped when `saturate`.
inline uint32_t addS32(const Tmem &t, uint32_t lane, uint32_t c, double sum,
                       bool enableInputD, bool saturate,
                       const std::string &who) {
  int64_t v = int64_t(sum);
  if (enableInputD) {
    if (!t.written[lane][c])
      fault(who + "enable-input-d reads the s32 accumulator at TMEM lane " +
            std::to_string(lane) + ", column " + std::to_string(c) +
            ", which was never written");
    v += int64_t(int32_t(t.cell[lane][c]));
  }
  if (saturate)
    v = v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v;
  return uint32_t(uint64_t(v));
}

} // namespace detail

/// tcgen05.mma.cta_group::1.kind::<kind> [d], a, bdesc, idesc,
/// enable_input_d (with [sfa], [sfb] for mxf8f6f4.block_scale). `a` is an
/// SMEM descriptor, or a TMEM address when aInTmem (the ts form).
inline void mma(Tmem &tmem, const Smem &smem, MmaKind kind, uint32_t d,
                bool aInTmem, uint64_t aDescOrTmem, uint64_t bdesc,
                uint32_t idesc, bool enableInputD, uint32_t sfaTmem,
                uint32_t sfbTmem) {
  InstrDescriptor id = decodeInstrDesc(idesc, kind);
  const uint32_t M = id.m, N = id.n, K = instrK(kind);
  std::string who = std::string("mma: kind::") + kindName(kind) + ": ";

  // D placement.
  uint32_t dCol = tmemCol(d), dLaneOff = tmemLane(d);
  if (M == 128 && dLaneOff != 0)
    fault(who + "D lane field must be 0 for M = 128");
  if (M == 64 && dLaneOff != 0 && dLaneOff != 16)
    fault(who + "D lane field must be 0 or 16 for M = 64");
  tmem.checkColumns(dCol, N, who + "D: ");

  // Operands, decoded once into doubles: a[m*K + k], b[n*K + k].
  std::vector<double> a(size_t(M) * K), b(size_t(N) * K);
  SmemDescriptor bd = decodeSmemDesc(bdesc, "b-desc");
  checkMajorness(id.b, id.bMajor, bd.layout, "B");
  double nb = id.negB ? -1.0 : 1.0;
  for (uint32_t n = 0; n < N; ++n)
    for (uint32_t k = 0; k < K; ++k)
      b[n * K + k] = nb * detail::smemElem(smem, bd, id.bMajor, id.b, n, k);
  double na = id.negA ? -1.0 : 1.0;
  if (!aInTmem) {
    SmemDescriptor ad = decodeSmemDesc(aDescOrTmem, "a-desc");
    checkMajorness(id.a, id.aMajor, ad.layout, "A");
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t k = 0; k < K; ++k)
        a[m * K + k] = na * detail::smemElem(smem, ad, id.aMajor, id.a, m, k);
  } else {
    // A in TMEM: row m at lane m, K packed along columns, 32 bits each
    // (f16/bf16 two, fp8 four per column, low bits first).
    uint32_t ta = uint32_t(aDescOrTmem), bits = elemBits(id.a);
    if (M != 128)
      fault(who + "unsupported: A in TMEM with M = 64");
    if (bits < 8)
      fault(who + "unsupported: 4/6-bit A in TMEM");
    if (id.aMajor != Major::K)
      fault(who + "A in TMEM cannot be transposed (MN-major)");
    if (tmemLane(ta) != 0)
      fault(who + "A lane field must be 0 for M = 128");
    uint32_t per = 32 / bits, cols = K / per;
    tmem.checkColumns(tmemCol(ta), cols, who + "A: ");
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t k = 0; k < K; ++k) {
        uint32_t c = tmemCol(ta) + k / per;
        uint32_t word = tmem.cell[m][c] >> ((k % per) * bits);
        a[m * K + k] =
            tmem.written[m][c]
                ? na * elemValue(id.a, reinterpret_cast<uint8_t *>(&word))
                : fmt::quietNan();
      }
  }

  // Block scales: one UE8M0 factor per row of A and of B (scale_vec::1X,
  // a 32-element K block = one instruction).
  std::vector<double> sfa(M, 1.0), sfb(N, 1.0);
  if (kind == MmaKind::MXF8F6F4) {
    uint32_t ca = detail::scaleColumn(tmem, sfaTmem, M, "A");
    uint32_t cb = detail::scaleColumn(tmem, sfbTmem, N, "B");
    for (uint32_t m = 0; m < M; ++m)
      sfa[m] = detail::scaleFactor(tmem, ca, m, id.sfaId, "A");
    for (uint32_t n = 0; n < N; ++n)
      sfb[n] = detail::scaleFactor(tmem, cb, n, id.sfbId, "B");
  }

  for (uint32_t m = 0; m < M; ++m) {
    uint32_t lane = detail::dLane(m, M, dLaneOff);
    const double *am = &a[size_t(m) * K];
    for (uint32_t n = 0; n < N; ++n) {
      const double *bn = &b[size_t(n) * K];
      double acc = 0.0;
      for (uint32_t k = 0; k < K; ++k)
        acc += am[k] * bn[k];
      acc *= sfa[m] * sfb[n];
      uint32_t c = dCol + n;
      if (id.dS32) {
        tmem.write(
            lane, c,
            detail::addS32(tmem, lane, c, acc, enableInputD, id.saturate, who));
        continue;
      }
      if (enableInputD) {
        // A never written accumulator is NaN in either format.
        double old = !tmem.written[lane][c] ? fmt::quietNan()
                     : id.dF32              ? fmt::f32(tmem.cell[lane][c])
                                            : fmt::f16(tmem.cell[lane][c]);
        acc += old;
      }
      uint32_t bits =
          id.dF32 ? fmt::bitsOf(float(acc)) : uint32_t(cpu::detail::toF16(acc));
      tmem.write(lane, c, bits);
    }
  }
}

} // namespace tp::cpu::dp

#endif // TILEPIPE_EMULATOR_MMA_UNIT_H
