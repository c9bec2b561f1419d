//===- emulator/descriptors.h - tcgen05 matrix descriptors ------*- C++ -*-===//
//
// Decoding of the two descriptors a tcgen05.mma carries, with the checks the
// PTX ISA states for them, and the shared address of operand element
// (mn, k) for every canonical layout (PTX "Shared memory descriptor",
// "Instruction descriptor", "Canonical layouts", "Matrix layout
// organization"; docs/ptx-emulation-facts.md 1 and 3).
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_DESCRIPTORS_H
#define TILEPIPE_EMULATOR_DESCRIPTORS_H

#include <cstdint>
#include <cstdio>
#include <string>

#include "tilepipe/emulator/atoms.h"
#include "tilepipe/emulator/fault.h"

namespace tp::cpu::dp {

//===----------------------------------------------------------------------===//
// Shared memory matrix descriptor (64 bits)
//===----------------------------------------------------------------------===//

/// Layout type, bits 61-63 (the encoding is the PTX one).
enum class SmemLayout : uint8_t {
  None = 0,
  Swizzle128BAtom32B = 1,
  Swizzle128B = 2,
  Swizzle64B = 4,
  Swizzle32B = 6
};

struct SmemDescriptor {
  uint32_t start; // bytes
  uint32_t lbo;   // leading dimension byte offset
  uint32_t sbo;   // stride dimension byte offset
  SmemLayout layout;
};

/// Swizzle span in bytes: the row pitch of a swizzle atom (16 = none).
inline uint32_t layoutSpan(SmemLayout l) {
  switch (l) {
  case SmemLayout::Swizzle32B:
    return 32;
  case SmemLayout::Swizzle64B:
    return 64;
  case SmemLayout::None:
    return 16;
  default:
    return 128;
  }
}

/// The physical address of linear address `a`: bits [4, 4+B) ^= bits
/// [7, 7+B), B = log2(span / 16); the 32-byte-atom mode XORs bits [5, 7)
/// with bits [7, 9). Applied to the absolute address, as TMA does, which is
/// what lets a K-major descriptor start in the middle of an atom.
inline uint32_t smemSwizzle(SmemLayout l, uint32_t a) {
  switch (l) {
  case SmemLayout::Swizzle32B:
    return a ^ (((a >> 7) & 1) << 4);
  case SmemLayout::Swizzle64B:
    return a ^ (((a >> 7) & 3) << 4);
  case SmemLayout::Swizzle128B:
    return a ^ (((a >> 7) & 7) << 4);
  case SmemLayout::Swizzle128BAtom32B:
    return a ^ (((a >> 7) & 3) << 5);
  default:
    return a;
  }
}

inline std::string hex64(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%016llx", (unsigned long long)v);
  return b;
}

/// Decodes and checks a descriptor: the fixed 0b001 at bits 46-48, zero
/// reserved bits, a valid layout type. A non-zero base offset (bits 49-51)
/// and the absolute LBO mode (bit 52, sm_103a) are refused: PTX does not
/// say how the base offset is applied, and CUTLASS never sets it.
inline SmemDescriptor decodeSmemDesc(uint64_t d, const char *what = "desc") {
  std::string who = std::string("mma: ") + what + " " + hex64(d) + ": ";
  if (((d >> 46) & 7) != 1)
    fault(who + "bits 46-48 must hold the fixed constant 0b001");
  if ((d >> 14) & 3 || (d >> 30) & 3)
    fault(who + "reserved bits 14-15/30-31 must be zero");
  if ((d >> 49) & 7)
    fault(who + "unsupported: non-zero matrix base offset (bits 49-51)");
  if ((d >> 52) & 1)
    fault(who + "unsupported: absolute LBO mode (bit 52)");
  if ((d >> 53) & 0xFF)
    fault(who + "bits 53-60 must be zero");
  uint32_t l = uint32_t(d >> 61);
  if (l == 3 || l == 5 || l == 7)
    fault(who + "layout type " + std::to_string(l) +
          " (bits 61-63) is invalid");
  SmemDescriptor r;
  r.start = uint32_t(d & 0x3FFF) << 4;
  r.lbo = uint32_t((d >> 16) & 0x3FFF) << 4;
  r.sbo = uint32_t((d >> 32) & 0x3FFF) << 4;
  r.layout = SmemLayout(l);
  return r;
}

enum class Major : uint8_t { K, MN };

/// The shared address of element (mn, k) of an operand described by `d`,
/// with elements of `es` bytes (1 for the 4/6-bit containers). Canonical
/// layouts, T = 16 / es elements per 16 bytes, S = the swizzle span:
///   K-major, none:      start + (mn%8)*16 + (mn/8)*SBO + (k%T)*es + (k/T)*LBO
///   K-major, swizzled:  start + (mn%8)*S  + (mn/8)*SBO + k*es
///   MN-major, none:     start + (mn%T)*es + (k%8)*16 + (mn/T)*SBO + (k/8)*LBO
///   MN-major, swizzled: start + (mn%(S/es))*es + (k%8)*S
///                             + (mn/(S/es))*LBO + (k/8)*SBO
/// then the swizzle of the absolute address.
inline uint32_t operandAddress(const SmemDescriptor &d, Major major,
                               uint32_t es, uint32_t mn, uint32_t k) {
  uint32_t lin;
  if (d.layout == SmemLayout::None) {
    uint32_t t = 16 / es;
    if (major == Major::K)
      lin = d.start + (mn % 8) * 16 + (mn / 8) * d.sbo + (k % t) * es +
            (k / t) * d.lbo;
    else
      lin = d.start + (mn % t) * es + (k % 8) * 16 + (mn / t) * d.sbo +
            (k / 8) * d.lbo;
  } else {
    uint32_t s = layoutSpan(d.layout);
    if (major == Major::K)
      lin = d.start + (mn % 8) * s + (mn / 8) * d.sbo + k * es;
    else
      lin = d.start + (mn % (s / es)) * es + (k % 8) * s +
            (mn / (s / es)) * d.lbo + (k / 8) * d.sbo;
  }
  return smemSwizzle(d.layout, lin);
}

//===----------------------------------------------------------------------===//
// Instruction descriptor (32 bits)
//===----------------------------------------------------------------------===//

/// Operand element types (not the descriptor codes, which depend on kind).
enum class ElemType : uint8_t {
  F16,
  BF16,
  TF32,
  E4M3,
  E5M2,
  E2M3,
  E3M2,
  E2M1,
  S8,
  U8
};

inline uint32_t elemBits(ElemType t) {
  switch (t) {
  case ElemType::F16:
  case ElemType::BF16:
    return 16;
  case ElemType::TF32:
    return 32;
  case ElemType::E4M3:
  case ElemType::E5M2:
  case ElemType::S8:
  case ElemType::U8:
    return 8;
  case ElemType::E2M3:
  case ElemType::E3M2:
    return 6;
  case ElemType::E2M1:
    return 4;
  }
  return 0;
}

/// Bytes an element takes in the address arithmetic: the 4- and 6-bit
/// types sit in padded 16-byte containers of 16 elements, so they advance
/// like 8-bit elements.
inline uint32_t elemStep(ElemType t) {
  uint32_t b = elemBits(t);
  return b < 8 ? 1 : b / 8;
}

struct InstrDescriptor {
  MmaKind kind;
  uint32_t m, n;
  ElemType a, b;
  bool dF32;     // D is f32 (else f16, or s32 for kind::i8)
  bool dS32;     // kind::i8: D is s32
  bool saturate; // kind::i8: D clamps to the s32 range instead of wrapping
  bool negA, negB;
  Major aMajor, bMajor;
  uint32_t sfaId, sfbId; // block scale: byte of the TMEM word (0..3)
};

/// Elements of K one instruction consumes: 32 bytes of each operand row
/// (f16/bf16 16, tf32 8, the f8f6f4 types 32).
inline uint32_t instrK(MmaKind kind) {
  switch (kind) {
  case MmaKind::F16:
    return 16;
  case MmaKind::TF32:
    return 8;
  default:
    return 32;
  }
}

inline const char *kindName(MmaKind k) {
  switch (k) {
  case MmaKind::F16:
    return "f16";
  case MmaKind::TF32:
    return "tf32";
  case MmaKind::F8F6F4:
    return "f8f6f4";
  case MmaKind::MXF8F6F4:
    return "mxf8f6f4.block_scale";
  case MmaKind::I8:
    return "i8";
  }
  return "?";
}

namespace detail {
inline ElemType f8f6f4Type(uint32_t code, const std::string &who,
                           const char *which) {
  switch (code) {
  case 0:
    return ElemType::E4M3;
  case 1:
    return ElemType::E5M2;
  case 3:
    return ElemType::E2M3;
  case 4:
    return ElemType::E3M2;
  case 5:
    return ElemType::E2M1;
  }
  fault(who + which + " type code " + std::to_string(code) +
        " is not an f8f6f4 type (E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5)");
}
} // namespace detail

/// Decodes and checks an instruction descriptor for `kind`, including the
/// cta_group::1 dense shapes: M in {64, 128} (mxf8f6f4: 128), N a multiple
/// of 8 in [8, 256].
inline InstrDescriptor decodeInstrDesc(uint32_t id, MmaKind kind) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08x", id);
  std::string who =
      std::string("mma: kind::") + kindName(kind) + " idesc " + hex + ": ";
  auto bits = [&](int lo, int n) { return (id >> lo) & ((1u << n) - 1); };
  InstrDescriptor r{};
  r.kind = kind;
  r.negA = bits(13, 1);
  r.negB = bits(14, 1);
  r.aMajor = bits(15, 1) ? Major::MN : Major::K;
  r.bMajor = bits(16, 1) ? Major::MN : Major::K;
  r.n = bits(17, 6) * 8;
  if (bits(2, 1))
    fault(who + "unsupported: sparse MMA (bit 2)");
  if (kind == MmaKind::MXF8F6F4) {
    if (bits(0, 2) || bits(3, 1) || bits(6, 1) || bits(24, 3) || bits(31, 1))
      fault(who + "reserved bits 0-1, 3, 6, 24-26, 31 must be zero");
    if (!bits(23, 1))
      fault(who + "scale type (bit 23) must be UE8M0 = 1 for mxf8f6f4");
    r.sfbId = bits(4, 2);
    r.sfaId = bits(29, 2);
    r.dF32 = true;
    r.m = bits(27, 2) * 128;
    r.a = detail::f8f6f4Type(bits(7, 3), who, "A");
    r.b = detail::f8f6f4Type(bits(10, 3), who, "B");
    if (r.m != 128)
      fault(who + "M = " + std::to_string(r.m) +
            " (bits 27-28 = M >> 7): mxf8f6f4 with cta_group::1 needs M = 128");
  } else {
    if (bits(0, 2))
      fault(who + "sparsity selector (bits 0-1) set on a dense MMA");
    if (bits(3, 1) && kind != MmaKind::I8)
      fault(who + "saturate (bit 3) is for kind::i8 only");
    r.saturate = bits(3, 1);
    if (bits(6, 1) || bits(23, 1) || bits(29, 1))
      fault(who + "reserved bits 6, 23, 29 must be zero");
    if (bits(30, 2))
      fault(who + "max shift (bits 30-31) is for .ws only");
    uint32_t dt = bits(4, 2);
    if (kind == MmaKind::I8 ? dt != 2
                            : (dt > 1 || (kind == MmaKind::TF32 && dt != 1)))
      fault(who + "D type (bits 4-5) " + std::to_string(dt) +
            " is invalid: F16 = 0 or F32 = 1 (tf32: F32 only; i8: S32 = 2 "
            "only)");
    r.dF32 = dt == 1;
    r.dS32 = dt == 2;
    uint32_t at = bits(7, 3), bt = bits(10, 3);
    if (kind == MmaKind::I8) {
      // CUTLASS's S8Format and the ISA's table: unsigned 0, signed 1; A and
      // B may differ. Negation is for the floating-point kinds.
      if (at > 1 || bt > 1)
        fault(who + "A/B type (bits 7-9/10-12) must be U8 = 0 or S8 = 1");
      if (r.negA || r.negB)
        fault(who + "negate A/B (bits 13-14) is invalid for kind::i8");
      r.a = at ? ElemType::S8 : ElemType::U8;
      r.b = bt ? ElemType::S8 : ElemType::U8;
    } else if (kind == MmaKind::F16) {
      if (at > 1 || bt > 1)
        fault(who + "A/B type (bits 7-9/10-12) must be F16 = 0 or BF16 = 1");
      if (at != bt)
        fault(who + "A and B types differ (f16 with bf16)");
      if (at == 1 && !r.dF32)
        fault(who + "bf16 operands need an F32 accumulator");
      r.a = r.b = at ? ElemType::BF16 : ElemType::F16;
    } else if (kind == MmaKind::TF32) {
      if (at != 2 || bt != 2)
        fault(who + "A/B type (bits 7-9/10-12) must be TF32 = 2");
      r.a = r.b = ElemType::TF32;
    } else {
      r.a = detail::f8f6f4Type(at, who, "A");
      r.b = detail::f8f6f4Type(bt, who, "B");
    }
    r.m = bits(24, 5) * 16;
    if (r.m != 64 && r.m != 128)
      fault(who + "M = " + std::to_string(r.m) +
            " (bits 24-28 = M >> 4): cta_group::1 needs M = 64 or 128");
  }
  if (r.n < 8 || r.n > 256)
    fault(who + "N = " + std::to_string(r.n) +
          " (bits 17-22 = N >> 3) must be in 8..256");
  if (kind == MmaKind::I8 && r.n > 24 && r.n % 16 != 0)
    fault(who + "N = " + std::to_string(r.n) +
          ": kind::i8 takes N = 8, 16, 24, then 32..256 in steps of 16");
  return r;
}

/// The majorness rules of PTX "Matrix layout organization": K-major is
/// valid in every layout; MN-major 8/16-bit operands in every layout but
/// 128B with 32B atoms; MN-major tf32 only in 128B with 32B atoms; 4/6-bit
/// operands are K-major only.
inline void checkMajorness(ElemType t, Major major, SmemLayout layout,
                           const char *which) {
  if (major == Major::K)
    return;
  std::string who = std::string("mma: operand ") + which + ": MN-major ";
  uint32_t b = elemBits(t);
  bool atom32 = layout == SmemLayout::Swizzle128BAtom32B;
  if (b < 8)
    fault(who + "4/6-bit operands are invalid (K-major only)");
  if (b == 32 && !atom32)
    fault(who + "tf32 needs the 128B-with-32B-atom layout");
  if (b < 32 && atom32)
    fault(who + "8/16-bit operands cannot use the 128B-with-32B-atom "
                "layout");
}

} // namespace tp::cpu::dp

#endif // TILEPIPE_EMULATOR_DESCRIPTORS_H
