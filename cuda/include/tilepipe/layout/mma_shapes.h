//===- layout/mma_shapes.h - the tcgen05.mma shapes -------------*- C++ -*-===//
//
// The one statement of which MMA shapes and accumulators are legal: the
// tileas.umma verifier (ir/TileASOps.cpp) and the runtime's static_asserts
// (runtime/mma.cuh) both call these functions and print these rule texts,
// so the IR the verifier accepts is the IR whose CUDA compiles. Plain
// constexpr C++, no CUDA: the compiler includes it too.
//
// PTX ISA, tcgen05 "Matrix shape" (cta_group::1, dense, no .ws):
//  - kind::f16, kind::tf32, kind::f8f6f4: M = 64 or 128, N = 8..256 in
//    steps of 8 (CUTLASS's SM100 atoms ask N % 16 == 0 at M = 128; the ISA
//    table does not, and neither does tilepipe).
//  - kind::mxf8f6f4.block_scale: M = 128, N = 8..256 in steps of 8.
//  - kind::i8: M = 64 or 128, N = 8, 16, 24, then 32..256 in steps of 16.
//  - K per instruction: 32 bytes of each operand row: 16 (f16/bf16), 8
//    (tf32), 32 (8-bit); a tile's K is a whole number of instructions.
//  - D: kind::f16 f32, or f16 when A and B are f16 (not bf16); kind::tf32
//    and the block-scaled kinds f32; kind::f8f6f4 f32 or f16; kind::i8 s32.
// tilepipe's own rule: block scaling copies the UE8M0 factors to TMEM in
// atoms of 4 k-blocks (layout/scale_factors.cuh), so K is a multiple of 128.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_MMA_SHAPES_H
#define TILEPIPE_LAYOUT_MMA_SHAPES_H

#include "tilepipe/isa/tcgen05_kinds.h"

#if defined(__CUDACC__)
#define TP_MMA_RULE __host__ __device__ constexpr
#else
#define TP_MMA_RULE constexpr
#endif

// The rules as the verifier's messages and the static_asserts state them.
#define TP_MMA_RULE_M                                                          \
  "tcgen05.mma cta_group::1 takes M = 64 or 128 rows per CTA (the "            \
  "block-scaled kind::mxf8f6f4: M = 128)"
#define TP_MMA_RULE_N                                                          \
  "tcgen05.mma cta_group::1 takes N = 8..256 in steps of 8 (kind::i8: 8, "     \
  "16, 24, then 32..256 in steps of 16)"
#define TP_MMA_RULE_K                                                          \
  "a tile's K is whole tcgen05.mma instructions of 32 bytes of K: a "          \
  "multiple of 16 (f16/bf16), 8 (tf32) or 32 (8-bit types)"
#define TP_MMA_RULE_ACC                                                        \
  "tcgen05.mma accumulates kind::f16 in f32 (f16 A and B also in f16), "       \
  "kind::tf32 and block-scaled kinds in f32, kind::f8f6f4 in f32 or f16, "     \
  "kind::i8 in s32"
#define TP_MMA_RULE_SCALE_K                                                    \
  "block-scaled K is whole scale-factor atoms of 4 k-blocks: a multiple of "   \
  "128"

namespace tp {
namespace mma_shape {

/// Bytes of K one instruction reads from each row of A and B.
constexpr int kInstrKBytes = 32;
/// K of a block-scaled tile: whole atoms of 4 k-blocks of 32 elements.
constexpr int kScaleAtomK = 128;

TP_MMA_RULE bool m_ok(MmaKind kind, int m) {
  return kind == MmaKind::MXF8F6F4 ? m == 128 : (m == 64 || m == 128);
}

TP_MMA_RULE bool n_ok(int n) { return n >= 8 && n <= 256 && n % 8 == 0; }

/// kind::i8 (s8/u8 A and B, s32 D): its own N steps.
TP_MMA_RULE bool i8_n_ok(int n) {
  return n == 8 || n == 16 || n == 24 || (n >= 32 && n <= 256 && n % 16 == 0);
}

/// K of one instruction for operands of `elemBits` bits (8, 16 or 32).
TP_MMA_RULE int instr_k(int elemBits) { return kInstrKBytes * 8 / elemBits; }

TP_MMA_RULE bool k_ok(int k, int elemBits) {
  return elemBits > 0 && k > 0 && k % instr_k(elemBits) == 0;
}

/// A 16-bit (f16) accumulator: kind::f16 with f16 (not bf16) operands, or
/// kind::f8f6f4. Every kind takes an f32 one but kind::i8 (s32).
TP_MMA_RULE bool f16_acc_ok(MmaKind kind, bool bf16Operands) {
  return (kind == MmaKind::F16 && !bf16Operands) || kind == MmaKind::F8F6F4;
}

TP_MMA_RULE bool scale_k_ok(int k) { return k > 0 && k % kScaleAtomK == 0; }

} // namespace mma_shape
} // namespace tp

#endif // TILEPIPE_LAYOUT_MMA_SHAPES_H
