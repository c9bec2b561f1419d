//===- runtime/math.cuh - the float functions elementwise math calls -*- CUDA
//-*-===//
//
// What math.exp, log, log2, sqrt, rsqrt, tanh, erf, sin, cos, tan, sinh,
// cosh, atan2, powf and arith.divf compute on one float. On the device these
// are CUDA's own functions without fast math (as nvcc compiles them by
// default): sqrt and division IEEE round-to-nearest (sqrt.rn.f32,
// div.rn.f32), expf, tanhf, erff, sinf, cosf and coshf within 2 ulp, logf
// and log2f within 1 ulp, rsqrtf within 2 ulp, atan2f and sinhf within 3,
// tanf within 4, powf within 4 (CUDA C++ Programming Guide, "Mathematical
// Functions"; ceilf, floorf and fmodf are exact). The CPU mode computes the
// correctly rounded value (sqrt and division: the same bits as the device;
// the others: within those bounds of it), so a numeric check compares with
// a tolerance of a few ulp there (docs/cuda.md, "Elementwise math").
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_MATH_CUH
#define TILEPIPE_RUNTIME_MATH_CUH

#include "tilepipe/config.cuh"

#if TP_EMULATOR
#include <cmath>
#endif

namespace tp::math {

#if TP_EMULATOR
TP_DEVICE float exp(float x) { return std::exp(x); }
TP_DEVICE float log(float x) { return std::log(x); }
TP_DEVICE float log2(float x) { return std::log2(x); }
TP_DEVICE float tanh(float x) { return std::tanh(x); }
TP_DEVICE float erf(float x) { return std::erf(x); }
TP_DEVICE float sin(float x) { return std::sin(x); }
TP_DEVICE float cos(float x) { return std::cos(x); }
TP_DEVICE float tan(float x) { return std::tan(x); }
TP_DEVICE float sinh(float x) { return std::sinh(x); }
TP_DEVICE float cosh(float x) { return std::cosh(x); }
TP_DEVICE float atan2(float y, float x) { return std::atan2(y, x); }
TP_DEVICE float pow(float x, float y) { return std::pow(x, y); }
TP_DEVICE float sqrt_rn(float x) { return std::sqrt(x); }
/// 1 / sqrt(x) in double, rounded once to float.
TP_DEVICE float rsqrt(float x) { return float(1.0 / std::sqrt(double(x))); }
TP_DEVICE float div_rn(float a, float b) { return a / b; }
#else
TP_DEVICE float exp(float x) { return ::expf(x); }
TP_DEVICE float log(float x) { return ::logf(x); }
TP_DEVICE float log2(float x) { return ::log2f(x); }
TP_DEVICE float tanh(float x) { return ::tanhf(x); }
TP_DEVICE float erf(float x) { return ::erff(x); }
TP_DEVICE float sin(float x) { return ::sinf(x); }
TP_DEVICE float cos(float x) { return ::cosf(x); }
TP_DEVICE float tan(float x) { return ::tanf(x); }
TP_DEVICE float sinh(float x) { return ::sinhf(x); }
TP_DEVICE float cosh(float x) { return ::coshf(x); }
TP_DEVICE float atan2(float y, float x) { return ::atan2f(y, x); }
TP_DEVICE float pow(float x, float y) { return ::powf(x, y); }
TP_DEVICE float sqrt_rn(float x) { return __fsqrt_rn(x); }
TP_DEVICE float rsqrt(float x) { return ::rsqrtf(x); }
TP_DEVICE float div_rn(float a, float b) { return __fdiv_rn(a, b); }
#endif

} // namespace tp::math

#endif // TILEPIPE_RUNTIME_MATH_CUH
