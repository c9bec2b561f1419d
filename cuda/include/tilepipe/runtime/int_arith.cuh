//===- runtime/int_arith.cuh - arith's integer ops -------------*- CUDA -*-===//
//
// The integer ops of MLIR's arith dialect on scalars (index is int64_t, i32
// int32_t, i64 int64_t, i1 bool) with arith's meaning where C++'s differs
// (docs/cuda.md, "Integer arithmetic"):
//  - signless integers: the `u` ops read the bits as unsigned, the `s` ops
//    as two's complement; i1's signed value of true is -1 (extsi, signed
//    compares), its unsigned value 1.
//  - addi, subi, muli wrap around (two's complement), as arith says; C++'s
//    signed +, -, * overflowing is undefined, so they compute in the
//    unsigned type of the width.
//  - divsi/remsi truncate toward zero (C++'s / and %, emitted as such),
//    ceildivsi rounds toward +infinity, floordivsi toward -infinity,
//    ceildivui toward +infinity without overflowing near the top.
//  - division by zero and INT_MIN / -1 are undefined behaviour in arith as
//    in C++: nothing here checks them.
//  - shifts by the bit width or more give poison in arith: any value will
//    do, so they give 0 (shrsi: the sign), never C++'s undefined behaviour.
//  - trunci keeps the low bits (to i1: bit 0, not C++'s `!= 0`); casts to
//    a narrower signed type go through the unsigned one, which C++ defines.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_INT_ARITH_CUH
#define TILEPIPE_RUNTIME_INT_ARITH_CUH

#include <type_traits>

#include "tilepipe/config.cuh"

namespace tp {

namespace detail {
/// The unsigned type of T's width; i1 (bool) is its own.
template <class T> struct UnsignedOf { using type = std::make_unsigned_t<T>; };
template <> struct UnsignedOf<bool> { using type = bool; };
template <class T> using Unsigned = typename UnsignedOf<T>::type;

template <class T> constexpr int kBits = int(sizeof(T)) * 8;
template <> constexpr int kBits<bool> = 1;

/// arith's signed value of an integer: i1 true is -1.
template <class T> TP_HOST_DEVICE int64_t sval(T a) {
  if constexpr (std::is_same_v<T, bool>)
    return a ? -1 : 0;
  else
    return int64_t(a);
}

/// The low bits of an unsigned value as T (two's complement).
template <class T, class U> TP_HOST_DEVICE T wrap(U u) {
  if constexpr (std::is_same_v<T, bool>)
    return (u & 1) != 0;
  else
    return T(Unsigned<T>(u));
}

/// The bits of an integer, zero-extended to 64: the unsigned arithmetic
/// of any width up to 64 on them is that width's modulo arithmetic in its
/// low bits (uint64_t is not promoted to int, as narrower types would be).
template <class T> TP_HOST_DEVICE uint64_t bits(T a) {
  return uint64_t(Unsigned<T>(a));
}

/// Whether an unsigned shift amount reaches the width (poison).
template <class T> TP_HOST_DEVICE bool overShift(T b) {
  return uint64_t(Unsigned<T>(b)) >= uint64_t(kBits<T>);
}
} // namespace detail

//===----------------------------------------------------------------------===//
// Addition, subtraction, multiplication (wrap around)
//===----------------------------------------------------------------------===//

template <class T> TP_HOST_DEVICE T addi(T a, T b) {
  return detail::wrap<T>(detail::bits(a) + detail::bits(b));
}
template <class T> TP_HOST_DEVICE T subi(T a, T b) {
  return detail::wrap<T>(detail::bits(a) - detail::bits(b));
}
template <class T> TP_HOST_DEVICE T muli(T a, T b) {
  return detail::wrap<T>(detail::bits(a) * detail::bits(b));
}

//===----------------------------------------------------------------------===//
// The extended ops (two results each, one call per result)
//===----------------------------------------------------------------------===//

namespace detail {
/// The high 64 bits of the 128-bit product of two unsigned 64-bit values,
/// from 32-bit halves (no __int128 or intrinsic: the same code for g++ and
/// nvcc).
TP_HOST_DEVICE uint64_t umulhi64(uint64_t a, uint64_t b) {
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
  uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
} // namespace detail

/// addui_extended's second result: the unsigned sum carries out of the
/// width (the wrapped sum is below an operand).
template <class T> TP_HOST_DEVICE bool addui_carry(T a, T b) {
  return detail::bits(addi(a, b)) < detail::bits(a);
}
/// mului_extended's second result: the high half of the unsigned product
/// (the first is muli's).
template <class T> TP_HOST_DEVICE T mului_high(T a, T b) {
  if constexpr (detail::kBits<T> == 64)
    return detail::wrap<T>(detail::umulhi64(detail::bits(a), detail::bits(b)));
  else
    return detail::wrap<T>((detail::bits(a) * detail::bits(b)) >>
                           detail::kBits<T>);
}
/// mulsi_extended's second result: the high half of the signed product.
/// Below 64 bits the product of the signed values fits in 64; at 64, the
/// unsigned high half less b where a < 0 and a where b < 0 (mod 2^64).
template <class T> TP_HOST_DEVICE T mulsi_high(T a, T b) {
  if constexpr (detail::kBits<T> == 64) {
    uint64_t ua = detail::bits(a), ub = detail::bits(b);
    uint64_t hi = detail::umulhi64(ua, ub);
    hi -= a < 0 ? ub : 0;
    hi -= b < 0 ? ua : 0;
    return detail::wrap<T>(hi);
  } else {
    uint64_t p = uint64_t(detail::sval(a)) * uint64_t(detail::sval(b));
    return detail::wrap<T>(p >> detail::kBits<T>);
  }
}

//===----------------------------------------------------------------------===//
// Division and remainder
//===----------------------------------------------------------------------===//

template <class T> TP_HOST_DEVICE T divui(T a, T b) {
  using U = detail::Unsigned<T>;
  return detail::wrap<T>(U(a) / U(b));
}
template <class T> TP_HOST_DEVICE T remui(T a, T b) {
  using U = detail::Unsigned<T>;
  return detail::wrap<T>(U(a) % U(b));
}
/// ceil(a / b) unsigned: (a - 1) / b + 1 for a > 0, which cannot overflow.
template <class T> TP_HOST_DEVICE T ceildivui(T a, T b) {
  using U = detail::Unsigned<T>;
  U ua = U(a), ub = U(b);
  return detail::wrap<T>(ua == 0 ? U(0) : U(U(ua - 1) / ub + 1));
}
/// ceil(a / b) signed (ceildivsi): the truncated quotient, one up when the
/// remainder is not zero and a and b have the same sign.
template <class T> TP_HOST_DEVICE T ceildivsi(T a, T b) {
  T q = T(a / b);
  return (a % b != 0 && (a < 0) == (b < 0)) ? T(q + 1) : q;
}
/// floor(a / b) signed (floordivsi): one down when the signs differ.
template <class T> TP_HOST_DEVICE T floordivsi(T a, T b) {
  T q = T(a / b);
  return (a % b != 0 && (a < 0) != (b < 0)) ? T(q - 1) : q;
}

//===----------------------------------------------------------------------===//
// Minimum and maximum
//===----------------------------------------------------------------------===//

/// Signed order; for wider types tp::min_i and tp::max_i (base.cuh) are
/// the same, this form reads i1's true as -1.
template <class T> TP_HOST_DEVICE T minsi(T a, T b) {
  return detail::sval(a) < detail::sval(b) ? a : b;
}
template <class T> TP_HOST_DEVICE T maxsi(T a, T b) {
  return detail::sval(a) > detail::sval(b) ? a : b;
}
template <class T> TP_HOST_DEVICE T minui(T a, T b) {
  using U = detail::Unsigned<T>;
  return U(a) < U(b) ? a : b;
}
template <class T> TP_HOST_DEVICE T maxui(T a, T b) {
  using U = detail::Unsigned<T>;
  return U(a) > U(b) ? a : b;
}

//===----------------------------------------------------------------------===//
// Shifts (the amount is read unsigned)
//===----------------------------------------------------------------------===//

template <class T> TP_HOST_DEVICE T shli(T a, T b) {
  using U = detail::Unsigned<T>;
  if (detail::overShift(b))
    return T(0);
  return detail::wrap<T>(U(U(a) << U(b)));
}
template <class T> TP_HOST_DEVICE T shrui(T a, T b) {
  using U = detail::Unsigned<T>;
  if (detail::overShift(b))
    return T(0);
  return detail::wrap<T>(U(U(a) >> U(b)));
}
/// Arithmetic shift: the sign bit fills from the left.
template <class T> TP_HOST_DEVICE T shrsi(T a, T b) {
  using U = detail::Unsigned<T>;
  if constexpr (std::is_same_v<T, bool>)
    return a; // a 1-bit shift by 0; any other amount is over the width
  else {
    if (detail::overShift(b))
      return a < 0 ? T(-1) : T(0);
    U s = U(b);
    // ~(~a >> s) for negative a: C++17 leaves >> of a negative value
    // implementation-defined.
    return a < 0 ? detail::wrap<T>(U(~(U(~U(a)) >> s)))
                 : detail::wrap<T>(U(U(a) >> s));
  }
}

//===----------------------------------------------------------------------===//
// Comparisons (arith.cmpi's unsigned predicates, and signed ones on i1)
//===----------------------------------------------------------------------===//

template <class T> TP_HOST_DEVICE bool cmpi_ult(T a, T b) {
  using U = detail::Unsigned<T>;
  return U(a) < U(b);
}
template <class T> TP_HOST_DEVICE bool cmpi_ule(T a, T b) {
  using U = detail::Unsigned<T>;
  return U(a) <= U(b);
}
template <class T> TP_HOST_DEVICE bool cmpi_ugt(T a, T b) {
  return cmpi_ult(b, a);
}
template <class T> TP_HOST_DEVICE bool cmpi_uge(T a, T b) {
  return cmpi_ule(b, a);
}
template <class T> TP_HOST_DEVICE bool cmpi_slt(T a, T b) {
  return detail::sval(a) < detail::sval(b);
}
template <class T> TP_HOST_DEVICE bool cmpi_sle(T a, T b) {
  return detail::sval(a) <= detail::sval(b);
}
template <class T> TP_HOST_DEVICE bool cmpi_sgt(T a, T b) {
  return cmpi_slt(b, a);
}
template <class T> TP_HOST_DEVICE bool cmpi_sge(T a, T b) {
  return cmpi_sle(b, a);
}

//===----------------------------------------------------------------------===//
// Casts between integer widths and to and from floats
//===----------------------------------------------------------------------===//

/// Sign extension or truncation (extsi, trunci, index_cast).
template <class To, class From> TP_HOST_DEVICE To casti(From a) {
  return detail::wrap<To>(uint64_t(detail::sval(a)));
}
/// Zero extension or truncation (extui, index_castui).
template <class To, class From> TP_HOST_DEVICE To castui(From a) {
  return detail::wrap<To>(uint64_t(detail::Unsigned<From>(a)));
}
template <class To, class From> TP_HOST_DEVICE To sitofp(From a) {
  return To(detail::sval(a));
}
template <class To, class From> TP_HOST_DEVICE To uitofp(From a) {
  return To(uint64_t(detail::Unsigned<From>(a)));
}
/// Out of range is poison in arith; in range, the truncated value.
template <class To, class From> TP_HOST_DEVICE To fptosi(From a) {
  return detail::wrap<To>(uint64_t(int64_t(a)));
}
template <class To, class From> TP_HOST_DEVICE To fptoui(From a) {
  return detail::wrap<To>(uint64_t(a));
}

} // namespace tp

#endif // TILEPIPE_RUNTIME_INT_ARITH_CUH
