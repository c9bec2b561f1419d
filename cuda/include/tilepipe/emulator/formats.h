//===- emulator/formats.h - element bit patterns <-> double -----*- C++ -*-===//
//
// Every floating-point element format the emulated kernels touch, decoded
// exactly to double and encoded from double with round-to-nearest-even.
// A double holds every value of these formats exactly, so the data path can
// work in double and round once where the hardware rounds.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_FORMATS_H
#define TILEPIPE_EMULATOR_FORMATS_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tp::cpu::fmt {

/// How a format spends its all-ones exponent.
enum class Special {
  Ieee,    // all-ones exponent: inf (mantissa 0) or NaN
  OnlyNan, // e4m3 style: only all-ones exponent and mantissa is NaN
  None     // e2m3, e3m2, e2m1: every pattern is a finite number
};

struct Format {
  int expBits;
  int manBits;
  int bias;
  bool sign;
  Special special;
};

inline constexpr Format kF32{8, 23, 127, true, Special::Ieee};
inline constexpr Format kF16{5, 10, 15, true, Special::Ieee};
inline constexpr Format kBF16{8, 7, 127, true, Special::Ieee};
inline constexpr Format kE4M3{4, 3, 7, true, Special::OnlyNan};
inline constexpr Format kE5M2{5, 2, 15, true, Special::Ieee};
inline constexpr Format kE2M3{2, 3, 1, true, Special::None};
inline constexpr Format kE3M2{3, 2, 3, true, Special::None};
inline constexpr Format kE2M1{2, 1, 1, true, Special::None};
/// The unsigned e4m3 of the nvf4 scale factors: e4m3 without the sign.
inline constexpr Format kUE4M3{4, 3, 7, false, Special::OnlyNan};

inline double quietNan() { return std::numeric_limits<double>::quiet_NaN(); }

/// The exact value of `bits` (low 1 + exp + man bits) in format `f`.
inline double decode(uint32_t bits, const Format &f) {
  uint32_t manMask = (1u << f.manBits) - 1;
  uint32_t expMask = (1u << f.expBits) - 1;
  uint32_t man = bits & manMask;
  uint32_t ex = (bits >> f.manBits) & expMask;
  bool neg = f.sign && ((bits >> (f.manBits + f.expBits)) & 1);
  double v;
  if (ex == expMask && f.special == Special::Ieee)
    v = man ? quietNan() : std::numeric_limits<double>::infinity();
  else if (ex == expMask && man == manMask && f.special == Special::OnlyNan)
    v = quietNan();
  else if (ex == 0)
    v = std::ldexp(double(man), 1 - f.bias - f.manBits);
  else
    v = std::ldexp(double(man | (1u << f.manBits)),
                   int(ex) - f.bias - f.manBits);
  return neg ? -v : v;
}

inline double f32(uint32_t b) { return decode(b, kF32); }
inline double f16(uint32_t b) { return decode(b & 0xFFFF, kF16); }
inline double bf16(uint32_t b) { return decode(b & 0xFFFF, kBF16); }
/// PTX leaves tf32 implementation-defined with at least 10 mantissa bits;
/// we keep exactly 10 and ignore the low 13 bits of the f32 pattern
/// (truncation), so results may differ from hardware in the last bits.
inline double tf32(uint32_t b) { return decode(b & 0xFFFFE000u, kF32); }
inline double e4m3(uint32_t b) { return decode(b & 0xFF, kE4M3); }
inline double e5m2(uint32_t b) { return decode(b & 0xFF, kE5M2); }
inline double e2m3(uint32_t b) { return decode(b & 0x3F, kE2M3); }
inline double e3m2(uint32_t b) { return decode(b & 0x3F, kE3M2); }
inline double e2m1(uint32_t b) { return decode(b & 0xF, kE2M1); }
inline double ue4m3(uint32_t b) { return decode(b & 0x7F, kUE4M3); }
/// UE8M0 block scale: a bare biased exponent, 0xFF is NaN, no zero/inf.
inline double ue8m0(uint32_t b) {
  b &= 0xFF;
  return b == 0xFF ? quietNan() : std::ldexp(1.0, int(b) - 127);
}

/// What a value too large for the format becomes.
enum class Overflow {
  Ieee,     // IEEE round-to-nearest: inf (or NaN where there is no inf)
  SatFinite // the largest finite value of the same sign (.satfinite)
};

/// Largest finite magnitude pattern (sign excluded).
inline uint32_t maxFiniteBits(const Format &f) {
  uint32_t all = (1u << (f.expBits + f.manBits)) - 1;
  switch (f.special) {
  case Special::Ieee:
    return all - (1u << f.manBits); // exponent all-ones minus one, max man
  case Special::OnlyNan:
    return all - 1;
  case Special::None:
    return all;
  }
  return all;
}

/// Round `v` to `f` with round-to-nearest-even. `residual` is the part of the
/// exact value that `v` misses (exact = v + residual, |residual| below half
/// an ulp of v): it breaks the ties that double rounding would get wrong, so
/// a value computed exactly as a double-double is rounded only once. NaN
/// becomes `nanBits` (the caller's canonical NaN; sign added here unless the
/// format has no NaN).
inline uint32_t encode(double v, const Format &f, Overflow ov, uint32_t nanBits,
                       double residual = 0.0) {
  uint32_t signBit = f.sign ? 1u << (f.expBits + f.manBits) : 0;
  uint32_t sign = std::signbit(v) && f.sign ? signBit : 0;
  uint32_t maxBits = maxFiniteBits(f);
  uint32_t overBits = maxBits;
  if (ov == Overflow::Ieee && f.special == Special::Ieee)
    overBits = ((1u << f.expBits) - 1) << f.manBits; // inf
  else if (ov == Overflow::Ieee && f.special == Special::OnlyNan)
    overBits = maxBits + 1; // NaN
  if (std::isnan(v))
    return nanBits;
  if (!f.sign && v < 0)
    v = 0, sign = 0; // unsigned formats clamp negatives (not reached today)
  if (std::isinf(v))
    return sign | overBits;
  if (residual != 0.0) // nudge off an exact tie toward the true value
    v = std::nextafter(v, residual > 0 ? HUGE_VAL : -HUGE_VAL);
  double a = std::fabs(v);
  if (a == 0.0)
    return sign;
  int e;
  std::frexp(a, &e);
  int exp = e - 1;       // a in [2^exp, 2^(exp+1))
  int emin = 1 - f.bias; // smallest normal exponent
  if (exp < emin)
    exp = emin;
  double n = std::ldexp(a, f.manBits - exp); // a in units of the quantum
  if (n > 1e18)
    return sign | overBits; // far beyond any of our formats
  double fl = std::floor(n);
  double frac = n - fl;
  uint64_t q = uint64_t(fl);
  if (frac > 0.5 || (frac == 0.5 && (q & 1)))
    ++q;
  if (q >> (f.manBits + 1)) { // carried into the next binade
    q >>= 1;
    ++exp;
  }
  uint64_t bits;
  if (q < (uint64_t(1) << f.manBits))
    bits = q; // subnormal (exp == emin) or zero
  else
    bits = (uint64_t(exp + f.bias) << f.manBits) |
           (q - (uint64_t(1) << f.manBits));
  if (bits > maxBits)
    return sign | overBits;
  return sign | uint32_t(bits);
}

inline uint32_t bitsOf(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}
inline float floatOf(uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

} // namespace tp::cpu::fmt

#endif // TILEPIPE_EMULATOR_FORMATS_H
