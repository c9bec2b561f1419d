//===- layout/wgmma_shapes.h - the wgmma.mma_async shapes -------*- C++ -*-===//
//
// The one statement of which Hopper warpgroup-MMA tiles are legal: the
// tileas.wgmma verifier (ir/WgmmaOp.cpp) calls these functions and prints
// these rule texts, and the sm_90a runtime's static_asserts are to share
// them, as layout/mma_shapes.h does for tcgen05. Plain constexpr C++.
//
// PTX ISA, "Asynchronous Warpgroup Level Matrix Shape" (docs/wgmma-facts.md):
//  - M is 64 per instruction, one warpgroup's 64 rows; a tile of M rows is
//    M / 64 warpgroups side by side (tilepipe: up to 4, 256 rows).
//  - N = 8..256 in steps of 8 for f16, bf16, tf32, e4m3 and e5m2;
//    s8/u8: 8, 16, 24, then 32..256 in steps of 16.
//  - K per instruction: 32 bytes of each operand row: 16 (f16/bf16), 8
//    (tf32), 32 (8-bit); a tile's K is a whole number of instructions.
//  - D: f16 operands f32 or f16; bf16 and tf32 f32; e4m3/e5m2 f32 or f16;
//    s8/u8 s32.
//  - Transpose (imm-trans-a/b) only for f16 and bf16, only from shared
//    memory; an A in registers is K-major.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_WGMMA_SHAPES_H
#define TILEPIPE_LAYOUT_WGMMA_SHAPES_H

#if defined(__CUDACC__)
#define TP_WGMMA_RULE __host__ __device__ constexpr
#else
#define TP_WGMMA_RULE constexpr
#endif

#define TP_WGMMA_RULE_M                                                        \
  "wgmma.mma_async takes M = 64 rows per warpgroup: a tile's M is a "          \
  "multiple of 64, one warpgroup per 64 rows, at most 4 (256)"
#define TP_WGMMA_RULE_NARROW_M                                                 \
  "tileas.wgmma also takes a tile of 8, 16 or 32 rows, issued as 64"
#define TP_WGMMA_RULE_N                                                        \
  "wgmma.mma_async takes N = 8..256 in steps of 8 (s8/u8: 8, 16, 24, then "    \
  "32..256 in steps of 16)"
#define TP_WGMMA_RULE_K                                                        \
  "a tile's K is whole wgmma.mma_async instructions of 32 bytes of K: a "      \
  "multiple of 16 (f16/bf16), 8 (tf32) or 32 (8-bit types)"
#define TP_WGMMA_RULE_ACC                                                      \
  "wgmma.mma_async accumulates f16 operands in f32 or f16, bf16 and tf32 in "  \
  "f32, e4m3/e5m2 in f32 or f16, s8/u8 in s32"
#define TP_WGMMA_RULE_TYPES                                                    \
  "wgmma.mma_async multiplies f16 x f16, bf16 x bf16, tf32 x tf32 (f32 "       \
  "tiles), any two of e4m3/e5m2, or any two of s8/u8"
#define TP_WGMMA_RULE_TRANSPOSE                                                \
  "wgmma.mma_async transposes (imm-trans-a/b) only f16 and bf16 operands "     \
  "in shared memory; an A in registers is read M x K"

namespace tp {
namespace wgmma_shape {

/// Rows one warpgroup's instruction computes.
constexpr int kWarpgroupM = 64;
/// Warpgroups a tile may span (tilepipe's limit: 4 x 128 threads).
constexpr int kMaxWarpgroups = 4;
/// Bytes of K one instruction reads from each row of A and B.
constexpr int kInstrKBytes = 32;

TP_WGMMA_RULE bool m_ok(int m) {
  return m > 0 && m % kWarpgroupM == 0 && m <= kWarpgroupM * kMaxWarpgroups;
}

/// tilepipe's extension, not the ISA's: a tile narrower than one
/// warpgroup's 64 rows, issued as 64 (its A read K-major past the tile, the
/// rows past it never stored; ir/WgmmaStaging.h).
TP_WGMMA_RULE bool narrow_m_ok(int m) { return m == 8 || m == 16 || m == 32; }

TP_WGMMA_RULE bool n_ok(int n) { return n >= 8 && n <= 256 && n % 8 == 0; }

TP_WGMMA_RULE bool int8_n_ok(int n) {
  return n == 8 || n == 16 || n == 24 || (n >= 32 && n <= 256 && n % 16 == 0);
}

TP_WGMMA_RULE int instr_k(int elemBits) { return kInstrKBytes * 8 / elemBits; }

TP_WGMMA_RULE bool k_ok(int k, int elemBits) {
  return elemBits > 0 && k > 0 && k % instr_k(elemBits) == 0;
}

/// Operand families, as the ISA groups its type combinations.
enum class Family { F16, BF16, TF32, F8, Int8 };

/// An f16 accumulator: f16 operands or 8-bit floats.
TP_WGMMA_RULE bool f16_acc_ok(Family f) {
  return f == Family::F16 || f == Family::F8;
}

TP_WGMMA_RULE bool transpose_ok(Family f) {
  return f == Family::F16 || f == Family::BF16;
}

} // namespace wgmma_shape
} // namespace tp

#endif // TILEPIPE_LAYOUT_WGMMA_SHAPES_H
