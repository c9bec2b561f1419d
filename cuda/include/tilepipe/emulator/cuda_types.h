//===- emulator/cuda_types.h - host stand-ins, CUDA types -------*- C++ -*-===//
//
// Under TILEPIPE_CPU the kernels are compiled by a host compiler without the
// CUDA headers. This file declares, under the same names, layouts and enum
// values as CUDA 13 (cuda.h, cuda_bf16.h, cuda_fp16.h, cuda_fp8.h), the part
// of those headers that device code and the tensor-map setup use. The
// arithmetic rounds exactly once, round-to-nearest-even, as the hardware
// instructions (add.rn.bf16, fma.rn.f16, cvt.rn.satfinite.e4m3x2.f32, ...)
// do; operands are widened to double, where every such result before
// rounding is either exact or carried as a double-double.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_CUDA_TYPES_H
#define TILEPIPE_EMULATOR_CUDA_TYPES_H

#ifndef TILEPIPE_CPU
#error "emulator/cuda_types.h replaces the CUDA headers, for TILEPIPE_CPU only"
#endif

#include <cmath>
#include <cstdint>
#include <cstring>
#include <math.h> // ::fmaxf, ::fminf, ... as device code spells them

#include "tilepipe/emulator/formats.h"

//===----------------------------------------------------------------------===//
// Driver API types (cuda.h)
//===----------------------------------------------------------------------===//

typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;

#define CU_TENSOR_MAP_NUM_QWORDS 16

/// cuda.h 13 aligns the map to 128 bytes (the API itself requires 64).
typedef struct CUtensorMap_st {
  alignas(128) cuuint64_t opaque[CU_TENSOR_MAP_NUM_QWORDS];
} CUtensorMap;

// A fixed underlying type (cuda.h has none): the emulated driver rejects
// values past the last enumerator, as the real one does, and without it such
// a value is undefined behaviour before the driver sees it (UBSan).
typedef enum CUtensorMapDataType_enum : int {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16,
  CU_TENSOR_MAP_DATA_TYPE_UINT32,
  CU_TENSOR_MAP_DATA_TYPE_INT32,
  CU_TENSOR_MAP_DATA_TYPE_UINT64,
  CU_TENSOR_MAP_DATA_TYPE_INT64,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
  CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
  CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
  CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
  CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B
} CUtensorMapDataType;

typedef enum CUtensorMapInterleave_enum {
  CU_TENSOR_MAP_INTERLEAVE_NONE = 0,
  CU_TENSOR_MAP_INTERLEAVE_16B,
  CU_TENSOR_MAP_INTERLEAVE_32B
} CUtensorMapInterleave;

typedef enum CUtensorMapSwizzle_enum {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B,
  CU_TENSOR_MAP_SWIZZLE_64B,
  CU_TENSOR_MAP_SWIZZLE_128B,
  CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B,
  CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
  CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B
} CUtensorMapSwizzle;

typedef enum CUtensorMapL2promotion_enum {
  CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
  CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
  CU_TENSOR_MAP_L2_PROMOTION_L2_256B
} CUtensorMapL2promotion;

typedef enum CUtensorMapFloatOOBfill_enum {
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
} CUtensorMapFloatOOBfill;

//===----------------------------------------------------------------------===//
// Rounding helpers shared by the number types
//===----------------------------------------------------------------------===//

namespace tp::cpu::detail {

/// Exact a + b as s + err (Knuth's TwoSum); err is what s lost.
inline double twoSumErr(double a, double b, double s) {
  double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}

// The canonical NaN that cvt/add/mul/fma produce for 16-bit results.
inline constexpr uint32_t kNan16 = 0x7FFF;

inline uint16_t toBf16(double v, double residual = 0.0) {
  return uint16_t(
      fmt::encode(v, fmt::kBF16, fmt::Overflow::Ieee, kNan16, residual));
}
inline uint16_t toF16(double v, double residual = 0.0) {
  return uint16_t(
      fmt::encode(v, fmt::kF16, fmt::Overflow::Ieee, kNan16, residual));
}
/// The result of a op b (add or sub) rounded once, as a 16-bit pattern.
template <class Round> inline uint16_t addRound(double a, double b, Round r) {
  double s = a + b;
  return r(s, std::isfinite(s) ? twoSumErr(a, b, s) : 0.0);
}
/// a * b + c rounded once: a * b is exact in double for 16-bit operands.
template <class Round>
inline uint16_t fmaRound(double a, double b, double c, Round r) {
  double p = a * b;
  double s = p + c;
  return r(s, std::isfinite(s) ? twoSumErr(p, c, s) : 0.0);
}
/// a / b rounded once: the remainder fma(-q, b, a) says which side of q the
/// exact quotient lies on.
template <class Round> inline uint16_t divRound(double a, double b, Round r) {
  double q = a / b;
  if (!std::isfinite(q) || q == 0.0)
    return r(q, 0.0);
  double rem = std::fma(-q, b, a);
  return r(q, rem == 0.0 ? 0.0 : (rem > 0) == (b > 0) ? 1e-300 : -1e-300);
}

inline double fromInt64(long long x, double *residual) {
  double v = double(x);
  *residual = (v >= 9.2e18 || v <= -9.2e18) ? 0.0 : double(x - (long long)v);
  return v;
}
inline double fromUint64(unsigned long long x, double *residual) {
  double v = double(x);
  *residual = v >= 1.8e19 ? 0.0
                          : (x >= (unsigned long long)v
                                 ? double(x - (unsigned long long)v)
                                 : -double((unsigned long long)v - x));
  return v;
}

} // namespace tp::cpu::detail

//===----------------------------------------------------------------------===//
// __nv_bfloat16 and __half: the CUDA classes, 16 raw bits
//===----------------------------------------------------------------------===//

typedef struct __nv_bfloat16_raw {
  unsigned short x;
} __nv_bfloat16_raw;
typedef struct __half_raw {
  unsigned short x;
} __half_raw;

// One definition for both 16-bit float classes: they differ only in the
// format (ToBits rounds a double, Value decodes the bits).
#define TP_CPU_HALF_CLASS(Name, Raw, ToBits, Value)                            \
  struct alignas(2) Name {                                                     \
  protected:                                                                   \
    unsigned short __x;                                                        \
                                                                               \
  public:                                                                      \
    Name() = default;                                                          \
    Name(const Raw &r) : __x(r.x) {}                                           \
    Name(float f) : __x(ToBits(f)) {}                                          \
    Name(double f) : __x(ToBits(f)) {}                                         \
    Name(short v) : __x(ToBits(v)) {}                                          \
    Name(unsigned short v) : __x(ToBits(v)) {}                                 \
    Name(int v) : __x(ToBits(v)) {}                                            \
    Name(unsigned int v) : __x(ToBits(v)) {}                                   \
    Name(long v) : Name((long long)v) {}                                       \
    Name(unsigned long v) : Name((unsigned long long)v) {}                     \
    Name(long long v) {                                                        \
      double r, d = tp::cpu::detail::fromInt64(v, &r);                         \
      __x = ToBits(d, r);                                                      \
    }                                                                          \
    Name(unsigned long long v) {                                               \
      double r, d = tp::cpu::detail::fromUint64(v, &r);                        \
      __x = ToBits(d, r);                                                      \
    }                                                                          \
    Name &operator=(const Raw &r) {                                            \
      __x = r.x;                                                               \
      return *this;                                                            \
    }                                                                          \
    Name &operator=(float f) { return *this = Name(f); }                       \
    Name &operator=(double f) { return *this = Name(f); }                      \
    operator Raw() const { return Raw{__x}; }                                  \
    operator float() const { return float(Value(__x)); }                       \
    explicit operator double() const { return Value(__x); }                    \
    explicit operator bool() const { return (__x & 0x7FFF) != 0; }             \
  };

TP_CPU_HALF_CLASS(__nv_bfloat16, __nv_bfloat16_raw, tp::cpu::detail::toBf16,
                  tp::cpu::fmt::bf16)
TP_CPU_HALF_CLASS(__half, __half_raw, tp::cpu::detail::toF16, tp::cpu::fmt::f16)
#undef TP_CPU_HALF_CLASS

typedef __nv_bfloat16 nv_bfloat16;
typedef __half half;

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
};
struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  __half2(const __half &a, const __half &b) : x(a), y(b) {}
};
typedef __nv_bfloat162 nv_bfloat162;
typedef __half2 half2;

inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
  return __nv_bfloat16_raw(h).x;
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short x) {
  return __nv_bfloat16(__nv_bfloat16_raw{x});
}
inline unsigned short __half_as_ushort(__half h) { return __half_raw(h).x; }
inline __half __ushort_as_half(unsigned short x) {
  return __half(__half_raw{x});
}

inline float __bfloat162float(__nv_bfloat16 a) { return float(a); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline __nv_bfloat16 __double2bfloat16(double f) { return __nv_bfloat16(f); }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
inline __nv_bfloat162 __float2bfloat162_rn(float a) {
  return __floats2bfloat162_rn(a, a);
}
inline float __low2float(__nv_bfloat162 a) { return float(a.x); }
inline float __high2float(__nv_bfloat162 a) { return float(a.y); }

inline float __half2float(__half a) { return float(a); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __float2half(float f) { return __half(f); }
inline __half __double2half(double f) { return __half(f); }
inline __half2 __floats2half2_rn(float a, float b) {
  return __half2(__half(a), __half(b));
}
inline float __low2float(__half2 a) { return float(a.x); }
inline float __high2float(__half2 a) { return float(a.y); }

// Arithmetic, comparisons and the CUDA intrinsics, shared between the two
// 16-bit classes.
namespace tp::cpu::detail {
template <class T> struct Half16;
template <> struct Half16<__nv_bfloat16> {
  using Raw = __nv_bfloat16_raw;
  static double value(unsigned short b) { return fmt::bf16(b); }
  static uint16_t round(double v, double r) { return toBf16(v, r); }
};
template <> struct Half16<__half> {
  using Raw = __half_raw;
  static double value(unsigned short b) { return fmt::f16(b); }
  static uint16_t round(double v, double r) { return toF16(v, r); }
};
template <class T> inline unsigned short bits16(T h) {
  return typename Half16<T>::Raw(h).x;
}
template <class T> inline double val16(T h) {
  return Half16<T>::value(bits16(h));
}
template <class T> inline T make16(unsigned short b) {
  return T(typename Half16<T>::Raw{b});
}
template <class T> inline bool isNan16(T h) { return std::isnan(val16(h)); }
template <class T> inline T hadd(T a, T b) {
  return make16<T>(addRound(val16(a), val16(b), Half16<T>::round));
}
template <class T> inline T hsub(T a, T b) {
  return make16<T>(addRound(val16(a), -val16(b), Half16<T>::round));
}
template <class T> inline T hmul(T a, T b) {
  double p = val16(a) * val16(b); // exact: 8- or 11-bit significands
  return make16<T>(Half16<T>::round(p, 0.0));
}
template <class T> inline T hdiv(T a, T b) {
  return make16<T>(divRound(val16(a), val16(b), Half16<T>::round));
}
template <class T> inline T hfma(T a, T b, T c) {
  return make16<T>(fmaRound(val16(a), val16(b), val16(c), Half16<T>::round));
}
/// max as CUDA defines __hmax: a NaN operand loses to a number, two NaNs
/// give the canonical NaN, and +0 > -0.
template <class T> inline T hmax(T a, T b) {
  bool na = isNan16(a), nb = isNan16(b);
  if (na && nb)
    return make16<T>(kNan16);
  if (na)
    return b;
  if (nb)
    return a;
  double x = val16(a), y = val16(b);
  if (x == y && x == 0.0)
    return std::signbit(x) ? b : a;
  return x > y ? a : b;
}
template <class T> inline T hmin(T a, T b) {
  bool na = isNan16(a), nb = isNan16(b);
  if (na && nb)
    return make16<T>(kNan16);
  if (na)
    return b;
  if (nb)
    return a;
  double x = val16(a), y = val16(b);
  if (x == y && x == 0.0)
    return std::signbit(x) ? a : b;
  return x < y ? a : b;
}
} // namespace tp::cpu::detail

#define TP_CPU_HALF_OPS(T)                                                     \
  inline T operator+(const T &a, const T &b) {                                 \
    return tp::cpu::detail::hadd(a, b);                                        \
  }                                                                            \
  inline T operator-(const T &a, const T &b) {                                 \
    return tp::cpu::detail::hsub(a, b);                                        \
  }                                                                            \
  inline T operator*(const T &a, const T &b) {                                 \
    return tp::cpu::detail::hmul(a, b);                                        \
  }                                                                            \
  inline T operator/(const T &a, const T &b) {                                 \
    return tp::cpu::detail::hdiv(a, b);                                        \
  }                                                                            \
  inline T &operator+=(T &a, const T &b) { return a = a + b; }                 \
  inline T &operator-=(T &a, const T &b) { return a = a - b; }                 \
  inline T &operator*=(T &a, const T &b) { return a = a * b; }                 \
  inline T &operator/=(T &a, const T &b) { return a = a / b; }                 \
  inline T operator-(const T &a) {                                             \
    return tp::cpu::detail::make16<T>(tp::cpu::detail::bits16(a) ^ 0x8000);    \
  }                                                                            \
  inline T operator+(const T &a) { return a; }                                 \
  inline bool operator==(const T &a, const T &b) {                             \
    return tp::cpu::detail::val16(a) == tp::cpu::detail::val16(b);             \
  }                                                                            \
  inline bool operator!=(const T &a, const T &b) {                             \
    return tp::cpu::detail::val16(a) != tp::cpu::detail::val16(b);             \
  }                                                                            \
  inline bool operator<(const T &a, const T &b) {                              \
    return tp::cpu::detail::val16(a) < tp::cpu::detail::val16(b);              \
  }                                                                            \
  inline bool operator>(const T &a, const T &b) {                              \
    return tp::cpu::detail::val16(a) > tp::cpu::detail::val16(b);              \
  }                                                                            \
  inline bool operator<=(const T &a, const T &b) {                             \
    return tp::cpu::detail::val16(a) <= tp::cpu::detail::val16(b);             \
  }                                                                            \
  inline bool operator>=(const T &a, const T &b) {                             \
    return tp::cpu::detail::val16(a) >= tp::cpu::detail::val16(b);             \
  }                                                                            \
  inline T __hadd(T a, T b) { return a + b; }                                  \
  inline T __hsub(T a, T b) { return a - b; }                                  \
  inline T __hmul(T a, T b) { return a * b; }                                  \
  inline T __hdiv(T a, T b) { return a / b; }                                  \
  inline T __hneg(T a) { return -a; }                                          \
  inline T __hfma(T a, T b, T c) { return tp::cpu::detail::hfma(a, b, c); }    \
  inline T __hmax(T a, T b) { return tp::cpu::detail::hmax(a, b); }            \
  inline T __hmin(T a, T b) { return tp::cpu::detail::hmin(a, b); }            \
  inline bool __hisnan(T a) { return tp::cpu::detail::isNan16(a); }

TP_CPU_HALF_OPS(__nv_bfloat16)
TP_CPU_HALF_OPS(__half)
#undef TP_CPU_HALF_OPS

//===----------------------------------------------------------------------===//
// FP8 (cuda_fp8.h): conversions saturate to finite, like the CUDA classes
//===----------------------------------------------------------------------===//

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t {
  __NV_E4M3,
  __NV_E5M2
} __nv_fp8_interpretation_t;

/// As the CUDA function: round-to-nearest-even; NaN becomes 0x7F (e4m3) or
/// a quiet e5m2 NaN keeping the top mantissa bits, with the sign kept.
inline __nv_fp8_storage_t
__nv_cvt_double_to_fp8(double x, __nv_saturation_t sat,
                       __nv_fp8_interpretation_t interp) {
  using namespace tp::cpu::fmt;
  const Format &f = interp == __NV_E4M3 ? kE4M3 : kE5M2;
  if (std::isnan(x)) {
    uint64_t b;
    std::memcpy(&b, &x, 8);
    uint32_t sign = uint32_t(b >> 63) << 7;
    if (interp == __NV_E4M3)
      return __nv_fp8_storage_t(sign | 0x7F);
    return __nv_fp8_storage_t(sign | 0x7E | ((b >> 50) & 3));
  }
  return __nv_fp8_storage_t(encode(
      x, f, sat == __NV_SATFINITE ? Overflow::SatFinite : Overflow::Ieee, 0));
}
/// From float every NaN becomes the canonical 0x7F in both formats, as in
/// CUDA's host path and cvt.rn.satfinite.{e4m3,e5m2}x2.f32.
inline __nv_fp8_storage_t
__nv_cvt_float_to_fp8(float x, __nv_saturation_t sat,
                      __nv_fp8_interpretation_t interp) {
  if (std::isnan(x))
    return 0x7F;
  return __nv_cvt_double_to_fp8(double(x), sat, interp);
}

#define TP_CPU_FP8_CLASS(Name, Interp, Value)                                  \
  struct alignas(1) Name {                                                     \
    __nv_fp8_storage_t __x;                                                    \
    Name() = default;                                                          \
    explicit Name(float f)                                                     \
        : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, Interp)) {}             \
    explicit Name(double f)                                                    \
        : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, Interp)) {}            \
    explicit Name(__half f) : Name(float(f)) {}                                \
    explicit Name(__nv_bfloat16 f) : Name(float(f)) {}                         \
    explicit Name(int v) : Name(double(v)) {}                                  \
    explicit operator float() const { return float(Value(__x)); }              \
    explicit operator double() const { return Value(__x); }                    \
    explicit operator __half() const { return __half(float(*this)); }          \
    explicit operator __nv_bfloat16() const {                                  \
      return __nv_bfloat16(float(*this));                                      \
    }                                                                          \
  };

TP_CPU_FP8_CLASS(__nv_fp8_e4m3, __NV_E4M3, tp::cpu::fmt::e4m3)
TP_CPU_FP8_CLASS(__nv_fp8_e5m2, __NV_E5M2, tp::cpu::fmt::e5m2)
#undef TP_CPU_FP8_CLASS

//===----------------------------------------------------------------------===//
// Float intrinsics
//===----------------------------------------------------------------------===//

inline float __uint_as_float(unsigned int x) {
  return tp::cpu::fmt::floatOf(x);
}
inline unsigned int __float_as_uint(float x) { return tp::cpu::fmt::bitsOf(x); }
inline float __int_as_float(int x) { return __uint_as_float(unsigned(x)); }
inline int __float_as_int(float x) { return int(__float_as_uint(x)); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
namespace tp::cpu {
/// What cvt.*.s32.f32 does with any rounding: NaN -> 0, saturating; the
/// in-range value rounded by `round` (an integer-valued double).
template <class Round> inline int float2int(float x, Round round) {
  if (std::isnan(x))
    return 0;
  if (x >= 2147483648.0f)
    return 2147483647;
  if (x <= -2147483648.0f)
    return int(-2147483647 - 1);
  return int(round(double(x)));
}
} // namespace tp::cpu
/// cvt.rni.s32.f32: nearest even.
inline int __float2int_rn(float x) {
  return tp::cpu::float2int(x, [](double v) {
    double fl = std::floor(v), fr = v - fl;
    long long q = (long long)fl;
    return double(q + (fr > 0.5 || (fr == 0.5 && (q & 1))));
  });
}
/// cvt.rzi.s32.f32: toward zero (C's conversion where it is defined:
/// arith.fptosi).
inline int __float2int_rz(float x) {
  return tp::cpu::float2int(x, [](double v) { return std::trunc(v); });
}

#endif // TILEPIPE_EMULATOR_CUDA_TYPES_H
