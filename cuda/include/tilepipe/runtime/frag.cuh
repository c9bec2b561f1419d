//===- runtime/frag.cuh - register tiles and their arithmetic ---*- CUDA -*-===//
//
// tp::Frag<T, N> holds a thread's N elements of a register tile (its rows,
// row-major). The operations broadcast a per-row vector (fewer elements)
// over the rows, as the tileas ops do. Scalars are spelled per type: bf16,
// half and fp8 lack some operators, and names like fma/max are shadowed
// inside namespace tp.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_FRAG_CUH
#define TILEPIPE_RUNTIME_FRAG_CUH

#include "tilepipe/layout/instr_desc.cuh"
#include "tilepipe/ptx/sfu.cuh"
#include "tilepipe/runtime/base.cuh"
#include "tilepipe/runtime/math.cuh"

namespace tp {

namespace detail {
template <class T>
constexpr bool kIsF16 = kSame<T, __half> || kSame<T, __nv_bfloat16>;
template <class T>
constexpr bool kIsF8 = kSame<T, __nv_fp8_e4m3> || kSame<T, __nv_fp8_e5m2>;
} // namespace detail

//===----------------------------------------------------------------------===//
// Elementwise math with per-row broadcasting
//===----------------------------------------------------------------------===//

namespace detail {

// Scalar operations, spelled per type because bf16/half/fp8 lack some
// operators and names like fma/max are shadowed inside namespace tp.
template <class T> TP_DEVICE float to_f32(T x) {
  if constexpr (kSame<T, float>)
    return x;
  else if constexpr (kSame<T, __nv_bfloat16>)
    return __bfloat162float(x);
  else if constexpr (kSame<T, __half>)
    return __half2float(x);
  else
    return static_cast<float>(x); // fp8 (operator float), int32_t
}

template <class U> TP_DEVICE U from_f32(float x) {
  if constexpr (kSame<U, float>)
    return x;
  else if constexpr (kSame<U, __nv_bfloat16>)
    return __float2bfloat16_rn(x);
  else if constexpr (kSame<U, __half>)
    return __float2half_rn(x);
  else if constexpr (kSame<U, int32_t>)
    return __float2int_rn(x);
  else
    return U(x); // fp8: round to nearest even, saturating to finite
}

template <class T>
constexpr bool kIsInt =
    kSame<T, int32_t> || kSame<T, int16_t> || kSame<T, int8_t>;

template <class U, class T> TP_DEVICE U convert(T x) {
  if constexpr (kSame<U, T>)
    return x;
  else if constexpr (kIsInt<U> && kIsInt<T>)
    // arith.extsi sign-extends; arith.trunci keeps the low bits (the
    // conversion to a narrower signed type wraps, as C++20 defines it).
    return static_cast<U>(x);
  else if constexpr (kSame<U, float> && kSame<T, int32_t>)
    return static_cast<float>(x);
  else if constexpr ((kSame<U, int32_t> || kSame<U, int16_t> ||
                      kSame<U, int8_t>)&&kSame<T, float>)
    return U(__float2int_rz(x)); // arith.fptosi truncates
  else
    return from_f32<U>(to_f32(x));
}

enum class Arith { Add, Sub, Mul };
template <Arith A> struct ArithOp {
  template <class T> TP_DEVICE T operator()(T a, T b) const {
    if constexpr (kIsF8<T>) // no fp8 arithmetic: compute in float
      return from_f32<T>(ArithOp{}(to_f32(a), to_f32(b)));
    else if constexpr (A == Arith::Add)
      return a + b;
    else if constexpr (A == Arith::Sub)
      return a - b;
    else
      return a * b;
  }
};
struct MaxOp {
  template <class T> TP_DEVICE T operator()(T a, T b) const {
    if constexpr (kSame<T, float>)
      return fmaxf(a, b);
    else if constexpr (kIsF16<T>)
      return __hmax(a, b);
    else if constexpr (kSame<T, int32_t>)
      return a > b ? a : b;
    else
      return from_f32<T>(fmaxf(to_f32(a), to_f32(b)));
  }
};

template <class T> TP_DEVICE T fma1(T a, T b, T c) {
  if constexpr (kSame<T, float>)
    return __fmaf_rn(a, b, c);
  else if constexpr (kIsF16<T>)
    return __hfma(a, b, c);
  else if constexpr (kSame<T, int32_t>)
    return a * b + c;
  else
    return from_f32<T>(__fmaf_rn(to_f32(a), to_f32(b), to_f32(c)));
}

template <int A, int B> constexpr int kMax = A > B ? A : B;

/// Element i of a result of Out elements, read from a fragment of M elements:
/// a per-row vector (M < Out) repeats each value Out / M times.
template <int Out, class T, int M>
TP_DEVICE T bcast(const Frag<T, M> &f, int i) {
  static_assert(Out % M == 0,
                "broadcast: the vector length must divide the tile length");
  return f.v[i / (Out / M)];
}

/// op over two fragments broadcast to the longer, into elements of R (void:
/// T, the operands' type).
template <class R = void, class Op, class T, int NA, int NB>
TP_DEVICE Frag<std::conditional_t<kSame<R, void>, T, R>, kMax<NA, NB>>
zip(Op op, const Frag<T, NA> &a, const Frag<T, NB> &b) {
  constexpr int Out = kMax<NA, NB>;
  Frag<std::conditional_t<kSame<R, void>, T, R>, Out> r;
#pragma unroll
  for (int i = 0; i < Out; ++i)
    r.v[i] = op(bcast<Out>(a, i), bcast<Out>(b, i));
  return r;
}

/// op over three fragments broadcast to the longest, into R elements.
template <class R, class Op, class A, int NA, class B, int NB, class C, int NC>
TP_DEVICE Frag<R, kMax<NA, kMax<NB, NC>>>
zip3(Op op, const Frag<A, NA> &a, const Frag<B, NB> &b, const Frag<C, NC> &c) {
  constexpr int Out = kMax<NA, kMax<NB, NC>>;
  Frag<R, Out> r;
#pragma unroll
  for (int i = 0; i < Out; ++i)
    r.v[i] = op(bcast<Out>(a, i), bcast<Out>(b, i), bcast<Out>(c, i));
  return r;
}

} // namespace detail

#define TP_ELEMENTWISE(name, op)                                               \
  template <class T, int NA, int NB>                                           \
  TP_DEVICE Frag<T, detail::kMax<NA, NB>> name(               \
      const Frag<T, NA> &a, const Frag<T, NB> &b) {                            \
    return detail::zip(op{}, a, b);                                            \
  }
TP_ELEMENTWISE(add, detail::ArithOp<detail::Arith::Add>)
TP_ELEMENTWISE(sub, detail::ArithOp<detail::Arith::Sub>)
TP_ELEMENTWISE(mul, detail::ArithOp<detail::Arith::Mul>)
TP_ELEMENTWISE(max, detail::MaxOp)
#undef TP_ELEMENTWISE

template <class T, int NA, int NB, int NC>
TP_DEVICE Frag<T, detail::kMax<NA, detail::kMax<NB, NC>>>
fma(const Frag<T, NA> &a, const Frag<T, NB> &b, const Frag<T, NC> &c) {
  return detail::zip3<T>([](T x, T y, T z) { return detail::fma1(x, y, z); },
                         a, b, c);
}

/// Flips the sign (exact in every element type; fp8 and the 16-bit floats
/// through float, which holds each of their values).
template <class T, int N> TP_DEVICE Frag<T, N> neg(const Frag<T, N> &a) {
  Frag<T, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if constexpr (detail::kSame<T, float> || detail::kSame<T, int32_t>)
      r.v[i] = -a.v[i];
    else
      r.v[i] = detail::from_f32<T>(-detail::to_f32(a.v[i]));
  }
  return r;
}

namespace detail {
/// f(a[i]) in float, rounded back to T.
template <class F, class T, int N>
TP_DEVICE Frag<T, N> map_f32(F f, const Frag<T, N> &a) {
  Frag<T, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i)
    r.v[i] = from_f32<T>(f(to_f32(a.v[i])));
  return r;
}
struct MinOp {
  template <class T> TP_DEVICE T operator()(T a, T b) const {
    return from_f32<T>(::fminf(to_f32(a), to_f32(b)));
  }
};
struct DivOp {
  template <class T> TP_DEVICE T operator()(T a, T b) const {
    return from_f32<T>(math::div_rn(to_f32(a), to_f32(b)));
  }
};
} // namespace detail

// The float functions of math (runtime/math.cuh has each one's accuracy):
// computed in float, whatever the element type.
#define TP_UNARY(name, fn)                                                     \
  template <class T, int N>                                                    \
  TP_DEVICE Frag<T, N> name(const Frag<T, N> &a) {                             \
    return detail::map_f32([](float x) { return fn(x); }, a);                  \
  }
TP_UNARY(abs, ::fabsf)
TP_UNARY(exp, math::exp)
TP_UNARY(log, math::log)
TP_UNARY(log2, math::log2)
TP_UNARY(sqrt, math::sqrt_rn)
TP_UNARY(rsqrt, math::rsqrt)
TP_UNARY(tanh, math::tanh)
TP_UNARY(erf, math::erf)
TP_UNARY(sin, math::sin)
TP_UNARY(cos, math::cos)
TP_UNARY(tan, math::tan)
TP_UNARY(sinh, math::sinh)
TP_UNARY(cosh, math::cosh)
TP_UNARY(ceil, ::ceilf)
TP_UNARY(floor, ::floorf)
#undef TP_UNARY

namespace detail {
/// A float function of two operands, computed in float.
template <float (*F)(float, float)> struct Float2Op {
  template <class T> TP_DEVICE T operator()(T a, T b) const {
    return from_f32<T>(F(to_f32(a), to_f32(b)));
  }
};
TP_DEVICE float fmod_f32(float a, float b) { return ::fmodf(a, b); }
} // namespace detail

// atan2(y, x), powf and fmodf (arith.remf: the remainder with the sign of
// the dividend, as C's fmodf).
#define TP_BINARY(name, fn)                                                    \
  template <class T, int NA, int NB>                                           \
  TP_DEVICE Frag<T, detail::kMax<NA, NB>> name(const Frag<T, NA> &a,           \
                                               const Frag<T, NB> &b) {         \
    return detail::zip(detail::Float2Op<fn>{}, a, b);                          \
  }
TP_BINARY(atan2, math::atan2)
TP_BINARY(pow, math::pow)
TP_BINARY(remf, detail::fmod_f32)
#undef TP_BINARY

/// arith.cmpf's predicates: ordered ones are false when either side is a
/// NaN, unordered ones true.
enum class CmpF { False, OEQ, OGT, OGE, OLT, OLE, ONE, ORD,
                  UEQ, UGT, UGE, ULT, ULE, UNE, UNO, True };

template <CmpF P, class T, int NA, int NB>
TP_DEVICE Frag<bool, detail::kMax<NA, NB>> cmpf(const Frag<T, NA> &a,
                                                const Frag<T, NB> &b) {
  constexpr int Out = detail::kMax<NA, NB>;
  Frag<bool, Out> r;
#pragma unroll
  for (int i = 0; i < Out; ++i) {
    float x = detail::to_f32(detail::bcast<Out>(a, i));
    float y = detail::to_f32(detail::bcast<Out>(b, i));
    bool unordered = x != x || y != y;
    bool v = false;
    if constexpr (P == CmpF::OEQ || P == CmpF::UEQ)
      v = x == y;
    else if constexpr (P == CmpF::OGT || P == CmpF::UGT)
      v = x > y;
    else if constexpr (P == CmpF::OGE || P == CmpF::UGE)
      v = x >= y;
    else if constexpr (P == CmpF::OLT || P == CmpF::ULT)
      v = x < y;
    else if constexpr (P == CmpF::OLE || P == CmpF::ULE)
      v = x <= y;
    else if constexpr (P == CmpF::ONE || P == CmpF::UNE)
      v = x < y || x > y;
    else if constexpr (P == CmpF::ORD || P == CmpF::UNO)
      v = false;
    else if constexpr (P == CmpF::True)
      v = true;
    constexpr bool isUnordered =
        P == CmpF::UEQ || P == CmpF::UGT || P == CmpF::UGE ||
        P == CmpF::ULT || P == CmpF::ULE || P == CmpF::UNE || P == CmpF::UNO;
    constexpr bool isOrd = P == CmpF::ORD;
    r.v[i] = isOrd ? !unordered : (isUnordered ? (unordered || v) : v);
  }
  return r;
}

/// arith.select on tiles: c ? a : b, each side broadcast as the others.
template <class T, int NC, int NA, int NB>
TP_DEVICE Frag<T, detail::kMax<NC, detail::kMax<NA, NB>>>
select(const Frag<bool, NC> &c, const Frag<T, NA> &a, const Frag<T, NB> &b) {
  return detail::zip3<T>([](bool k, T x, T y) { return k ? x : y; }, c, a, b);
}
/// With one condition for the whole tile (a scalar i1).
template <class T, int NA, int NB>
TP_DEVICE Frag<T, detail::kMax<NA, NB>> select(bool c, const Frag<T, NA> &a,
                                               const Frag<T, NB> &b) {
  constexpr int Out = detail::kMax<NA, NB>;
  Frag<T, Out> r;
#pragma unroll
  for (int i = 0; i < Out; ++i)
    r.v[i] = c ? detail::bcast<Out>(a, i) : detail::bcast<Out>(b, i);
  return r;
}

template <class T, int NA, int NB>
TP_DEVICE Frag<T, detail::kMax<NA, NB>> min(const Frag<T, NA> &a,
                                            const Frag<T, NB> &b) {
  return detail::zip(detail::MinOp{}, a, b);
}
template <class T, int NA, int NB>
TP_DEVICE Frag<T, detail::kMax<NA, NB>> div(const Frag<T, NA> &a,
                                            const Frag<T, NB> &b) {
  return detail::zip(detail::DivOp{}, a, b);
}

template <class T, int N>
TP_DEVICE Frag<T, N> exp2(const Frag<T, N> &a) {
  Frag<T, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    r.v[i] = detail::from_f32<T>(ptx::ex2_approx_ftz(detail::to_f32(a.v[i])));
  }
  return r;
}

template <class U, class T, int N>
TP_DEVICE Frag<U, N> cvt(const Frag<T, N> &a) {
  Frag<U, N> r;
  if constexpr (detail::kSame<T, float> && detail::kSame<U, __nv_bfloat16> &&
                N % 2 == 0) {
    // One cvt.rn.bf16x2.f32 per pair instead of two scalar conversions.
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      __nv_bfloat162 p = __floats2bfloat162_rn(a.v[i], a.v[i + 1]);
      r.v[i] = p.x;
      r.v[i + 1] = p.y;
    }
  } else {
#pragma unroll
    for (int i = 0; i < N; ++i)
      r.v[i] = detail::convert<U>(a.v[i]);
  }
  return r;
}

namespace detail {
/// Folds t[0..W) into t[0] as a tree: log2(W) dependent steps instead of
/// W - 1. Recursion on W keeps every index constant, so t stays in registers.
template <int W, class Op, class T>
TP_DEVICE void fold_tree(Op op, T *t) {
  if constexpr (W > 1) {
    constexpr int H = (W + 1) / 2;
#pragma unroll
    for (int i = 0; i < W / 2; ++i)
      t[i] = op(t[i], t[i + H]);
    fold_tree<H>(op, t);
  }
}

/// Reduces each of R rows of `a` (N / R elements, row-major) to one value,
/// a tree over the row's P elements (P == N / R: the whole row).
template <int R, class Op, class T, int N>
TP_DEVICE Frag<T, R> reduce_piece(Op op, const Frag<T, N> &a) {
  static_assert(N % R == 0, "reduce: R must divide N");
  constexpr int L = N / R;
  Frag<T, R> r;
#pragma unroll
  for (int row = 0; row < R; ++row) {
    T t[L];
#pragma unroll
    for (int i = 0; i < L; ++i)
      t[i] = a.v[row * L + i];
    fold_tree<L>(op, t);
    r.v[row] = t[0];
  }
  return r;
}

/// Folds one piece of R rows into the per-row accumulator: the piece's tree,
/// then acc = op(acc, piece); the first piece (first == true) starts it.
template <int R, class Op, class T, int N>
TP_DEVICE void fold_piece(Op op, Frag<T, R> &acc, const Frag<T, N> &piece,
                          bool first) {
  Frag<T, R> p = reduce_piece<R>(op, piece);
#pragma unroll
  for (int row = 0; row < R; ++row)
    acc.v[row] = first ? p.v[row] : op(acc.v[row], p.v[row]);
}

/// Per-row reduction of R rows of N / R elements each, in pieces of P
/// columns: a tree within each piece, the pieces folded left to right. A
/// row streamed P columns at a time (fold_max/fold_sum) reduces in exactly
/// this order, so the result does not depend on whether the tile was held
/// whole or streamed.
template <int R, int P, class Op, class T, int N>
TP_DEVICE Frag<T, R> reduce_rows(Op op, const Frag<T, N> &a) {
  static_assert(N % R == 0, "reduce: R must divide N");
  constexpr int L = N / R;
  constexpr int W = (P > 0 && P < L && L % P == 0) ? P : L;
  Frag<T, R> acc;
#pragma unroll
  for (int c = 0; c < L; c += W) {
    Frag<T, R * W> piece;
#pragma unroll
    for (int row = 0; row < R; ++row)
#pragma unroll
      for (int i = 0; i < W; ++i)
        piece.v[row * W + i] = a.v[row * L + c + i];
    fold_piece<R>(op, acc, piece, c == 0);
  }
  return acc;
}
} // namespace detail

/// Row maximum / sum of R rows, reduced in pieces of P columns (P = 0: the
/// whole row as one tree); see detail::reduce_rows.
template <int R, int P = 0, class T, int N>
TP_DEVICE Frag<T, R> reduce_max(const Frag<T, N> &a) {
  return detail::reduce_rows<R, P>(detail::MaxOp{}, a);
}
template <int R, int P = 0, class T, int N>
TP_DEVICE Frag<T, R> reduce_sum(const Frag<T, N> &a) {
  return detail::reduce_rows<R, P>(detail::ArithOp<detail::Arith::Add>{}, a);
}

namespace detail {
/// A 32- or 16-bit value of lane `src` of the warp (shfl.sync.idx; a
/// 16-bit one, a bf16 row maximum, in the low half of the register).
template <class T> TP_DEVICE T shfl_from(T v, int src) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 2,
                "32- and 16-bit values cross lanes");
  uint32_t bits = 0;
  __builtin_memcpy(&bits, &v, sizeof(T));
  uint32_t got = ptx::shfl_idx(bits, src);
  T r;
  __builtin_memcpy(&r, &got, sizeof(T));
  return r;
}

/// Each of the N values combined with the same value of the other L - 1
/// lanes of its row group (consecutive lanes of one warp): a butterfly of
/// shfl.sync.idx over lane ^ m, so every lane ends with the same result
/// (each step combines a pair in both orders, and the ops commute).
template <int L, class Op, class T, int N>
TP_DEVICE Frag<T, N> reduce_lanes(Op op, Frag<T, N> a) {
  static_assert(L >= 2 && L <= 32 && (L & (L - 1)) == 0,
                "a row's lanes are a power of two within one warp");
  const int lane = static_cast<int>(threadIdx.x % 32);
#pragma unroll
  for (int m = 1; m < L; m <<= 1)
#pragma unroll
    for (int i = 0; i < N; ++i)
      a.v[i] = op(a.v[i], shfl_from(a.v[i], lane ^ m));
  return a;
}
} // namespace detail

/// tileas.reduce_lanes: a row split over L lanes (smem_load's `lanes`)
/// put back together, every lane of the row holding the whole row's sum or
/// maximum.
template <int L, class T, int N>
TP_DEVICE Frag<T, N> reduce_lanes_sum(const Frag<T, N> &a) {
  return detail::reduce_lanes<L>(detail::ArithOp<detail::Arith::Add>{}, a);
}
template <int L, class T, int N>
TP_DEVICE Frag<T, N> reduce_lanes_max(const Frag<T, N> &a) {
  return detail::reduce_lanes<L>(detail::MaxOp{}, a);
}

namespace detail {
/// tileas.scan: each of the thread's N / W rows (W elements of it, in
/// order) scanned in place; with the row split over L consecutive lanes,
/// the combined totals of the lanes before it (an inclusive scan of the
/// lanes' totals by shfl.sync.idx from lane - m, then one step back) are
/// combined into every element. Reverse: the same from the row's end, the
/// lanes after it combined in (from lane + m).
template <int W, int L, bool Rev, class Op, class T, int N>
TP_DEVICE Frag<T, N> scan_rows(Op op, Frag<T, N> a) {
  static_assert(N % W == 0, "a thread holds whole pieces of its rows");
  static_assert(L >= 1 && L <= 32 && (L & (L - 1)) == 0,
                "a row's lanes are a power of two within one warp");
  // Element i of a row piece in scan order.
  auto at = [](int r, int i) { return r * W + (Rev ? W - 1 - i : i); };
#pragma unroll
  for (int r = 0; r < N / W; ++r)
#pragma unroll
    for (int i = 1; i < W; ++i)
      a.v[at(r, i)] = op(a.v[at(r, i - 1)], a.v[at(r, i)]);
  if constexpr (L > 1) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    // The lane's place in its row in scan order, and the lane m before it.
    const int inRow = Rev ? L - 1 - lane % L : lane % L;
    auto before = [&](int m) { return Rev ? lane + m : lane - m; };
#pragma unroll
    for (int r = 0; r < N / W; ++r) {
      T running = a.v[at(r, W - 1)];
#pragma unroll
      for (int m = 1; m < L; m <<= 1) {
        T earlier = shfl_from(running, inRow >= m ? before(m) : lane);
        if (inRow >= m)
          running = op(earlier, running);
      }
      T prefix = shfl_from(running, inRow >= 1 ? before(1) : lane);
      if (inRow >= 1)
#pragma unroll
        for (int i = 0; i < W; ++i)
          a.v[r * W + i] = op(prefix, a.v[r * W + i]);
    }
  }
  return a;
}
} // namespace detail

template <int W, int L, bool Rev = false, class T, int N>
TP_DEVICE Frag<T, N> scan_rows_sum(const Frag<T, N> &a) {
  return detail::scan_rows<W, L, Rev>(detail::ArithOp<detail::Arith::Add>{}, a);
}
template <int W, int L, bool Rev = false, class T, int N>
TP_DEVICE Frag<T, N> scan_rows_prod(const Frag<T, N> &a) {
  return detail::scan_rows<W, L, Rev>(detail::ArithOp<detail::Arith::Mul>{}, a);
}
template <int W, int L, bool Rev = false, class T, int N>
TP_DEVICE Frag<T, N> scan_rows_max(const Frag<T, N> &a) {
  return detail::scan_rows<W, L, Rev>(detail::MaxOp{}, a);
}

namespace detail {
/// Rows split over L > 32 lanes (L / 32 warps a row): each warp's lanes
/// combined by shuffles, lane 0 of each warp writes its N partials to
/// `scratch` (word warp * N + i), the agent's threads meet on their named
/// barrier, and each thread combines its row's warps in warp order, so
/// every lane of a row gets the same bits; a second barrier frees the
/// scratch for the next use.
template <int L, class Op, class T, int N>
TP_DEVICE Frag<T, N> reduce_lanes_wide(Op op, Frag<T, N> a, uint32_t scratch,
                                       int t, int barrier, int threads) {
  static_assert(L % 32 == 0 && L <= 128, "whole warps of at most 4");
  static_assert(sizeof(T) == 4, "32-bit values cross lanes");
  a = reduce_lanes<32>(op, a);
  const int warp = t / 32, first = warp - warp % (L / 32);
  if (t % 32 == 0)
#pragma unroll
    for (int i = 0; i < N; ++i)
      ptx::st_shared<4>(scratch + uint32_t((warp * N + i) * 4),
                        reinterpret_cast<const unsigned char *>(&a.v[i]));
  agent_sync(barrier, threads);
#pragma unroll
  for (int i = 0; i < N; ++i) {
    T v;
    ptx::ld_shared<4>(scratch + uint32_t((first * N + i) * 4),
                      reinterpret_cast<unsigned char *>(&v));
#pragma unroll
    for (int w = 1; w < L / 32; ++w) {
      T u;
      ptx::ld_shared<4>(scratch + uint32_t(((first + w) * N + i) * 4),
                        reinterpret_cast<unsigned char *>(&u));
      v = op(v, u);
    }
    a.v[i] = v;
  }
  agent_sync(barrier, threads);
  return a;
}
} // namespace detail

/// tileas.reduce_lanes over more lanes than a warp (rows of a 1- or 2-row
/// tile): through the agent's scratch words and named barrier.
template <int L, class T, int N>
TP_DEVICE Frag<T, N> reduce_lanes_sum(const Frag<T, N> &a, uint32_t scratch,
                                      int t, int barrier, int threads) {
  return detail::reduce_lanes_wide<L>(detail::ArithOp<detail::Arith::Add>{},
                                      a, scratch, t, barrier, threads);
}
template <int L, class T, int N>
TP_DEVICE Frag<T, N> reduce_lanes_max(const Frag<T, N> &a, uint32_t scratch,
                                      int t, int barrier, int threads) {
  return detail::reduce_lanes_wide<L>(detail::MaxOp{}, a, scratch, t, barrier,
                                      threads);
}

/// tileas.reduce_all: the thread's elements (one row of N), then every
/// thread of the agent's; Threads = 32 needs no scratch.
template <int Threads, class T, int N>
TP_DEVICE T reduce_all_sum(const Frag<T, N> &a) {
  return reduce_lanes_sum<Threads>(reduce_sum<1>(a)).v[0];
}
template <int Threads, class T, int N>
TP_DEVICE T reduce_all_max(const Frag<T, N> &a) {
  return reduce_lanes_max<Threads>(reduce_max<1>(a)).v[0];
}
template <int Threads, class T, int N>
TP_DEVICE T reduce_all_sum(const Frag<T, N> &a, uint32_t scratch, int t,
                           int barrier, int threads) {
  return reduce_lanes_sum<Threads>(reduce_sum<1>(a), scratch, t, barrier,
                                   threads)
      .v[0];
}
template <int Threads, class T, int N>
TP_DEVICE T reduce_all_max(const Frag<T, N> &a, uint32_t scratch, int t,
                           int barrier, int threads) {
  return reduce_lanes_max<Threads>(reduce_max<1>(a), scratch, t, barrier,
                                   threads)
      .v[0];
}

/// The piece of its row thread t holds when rows are split over L lanes:
/// the row of a vector it reads (smem_load of a vector with lanes = L).
template <int L> TP_DEVICE int lane_in_row(int t) { return t % L; }
/// The row whose piece thread t holds when rows are split over L lanes.
template <int L> TP_DEVICE int row_of_lane(int t) { return t / L; }

//===----------------------------------------------------------------------===//
// Column pieces of a row (streamed tiles, one row per thread)
//===----------------------------------------------------------------------===//

/// Columns [c, c + W) of a thread's row of N elements. A fragment held in
/// registers is read only in fully unrolled passes, where c is a constant:
/// a variable index would put the fragment in local memory.
template <int W, class T, int N>
TP_DEVICE Frag<T, W> cols(const Frag<T, N> &f, int64_t c) {
  static_assert(N % W == 0, "a row is whole pieces");
  Frag<T, W> r;
#pragma unroll
  for (int i = 0; i < W; ++i)
    r.v[i] = f.v[c + i];
  return r;
}

/// Writes columns [c, c + W) of a row held whole.
template <int W, class T, int N>
TP_DEVICE void put_cols(Frag<T, N> &f, int64_t c, const Frag<T, W> &piece) {
  static_assert(N % W == 0, "a row is whole pieces");
#pragma unroll
  for (int i = 0; i < W; ++i)
    f.v[c + i] = piece.v[i];
}

/// A streamed row reduction: folds the piece at column c into acc (the
/// piece at column 0 starts it), as reduce_max/reduce_sum with P = W do.
template <int R, class T, int N>
TP_DEVICE void fold_max(Frag<T, R> &acc, const Frag<T, N> &piece, int64_t c) {
  detail::fold_piece<R>(detail::MaxOp{}, acc, piece, c == 0);
}
template <int R, class T, int N>
TP_DEVICE void fold_sum(Frag<T, R> &acc, const Frag<T, N> &piece, int64_t c) {
  detail::fold_piece<R>(detail::ArithOp<detail::Arith::Add>{}, acc, piece,
                        c == 0);
}

/// tileas.broadcast dimensions = [0] of a vector every thread holds whole
/// (bias[n]): each of the thread's R rows is the vector.
template <int R, class T, int N>
TP_DEVICE Frag<T, R * N> bcast_cols(const Frag<T, N> &vec) {
  Frag<T, R * N> r;
#pragma unroll
  for (int i = 0; i < R * N; ++i)
    r.v[i] = vec.v[i % N];
  return r;
}

/// tileas.broadcast dimensions = [1] of a per-row vector (the thread's R
/// rows' values): each value C times, one per column.
template <int C, class T, int R>
TP_DEVICE Frag<T, R * C> bcast_rows(const Frag<T, R> &vec) {
  Frag<T, R * C> r;
#pragma unroll
  for (int i = 0; i < R * C; ++i)
    r.v[i] = vec.v[i / C];
  return r;
}

template <class T, int N> TP_DEVICE Frag<T, N> splat(T value) {
  Frag<T, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i)
    r.v[i] = value;
  return r;
}

/// Ties a fragment to this point of the program (no instruction): the
/// math that reads it cannot be started above the waits and stores that
/// precede it. ptxas otherwise moves a whole row's exp2 into an mbarrier
/// wait to hide its latency, and the row it holds there early spills.
template <class T, int N> TP_DEVICE void pin(Frag<T, N> &f) {
#if TP_DEVICE_PASS
  constexpr int W = static_cast<int>((N * sizeof(T) + 3) / 4);
  uint32_t w[W] = {};
  __builtin_memcpy(w, &f, sizeof(f));
#pragma unroll
  for (int i = 0; i < W; ++i)
    asm volatile("" : "+r"(w[i]));
  __builtin_memcpy(&f, w, sizeof(f));
#else
  (void)f;
#endif
}

TP_DEVICE float bits_f32(uint32_t x) {
  return __uint_as_float(x);
}

} // namespace tp

#endif // TILEPIPE_RUNTIME_FRAG_CUH
