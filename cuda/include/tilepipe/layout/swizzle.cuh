//===- layout/swizzle.cuh - the shared-memory swizzle modes ----*- CUDA -*-===//
//
// TMA writes and UMMA reads a swizzled tile with the same function of the
// absolute SMEM address: the 16-byte chunks of each 128-byte line are XORed
// with bits [7, 7 + B) of the address, B = log2(span / 16) (PTX ISA,
// tensor-swizzling-modes and the matrix descriptor's layouts; facts section
// 1 and 2). A tile that starts on the pattern's repeat (8 x span bytes) can
// therefore compute it from tile-relative offsets too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_SWIZZLE_CUH
#define TILEPIPE_LAYOUT_SWIZZLE_CUH

#include "tilepipe/config.cuh"

namespace tp {

/// None: no XOR; a UMMA operand is then stored as 16-byte wide core-matrix
/// columns (the canonical "interleaved" layout). B32/B64/B128: the span in
/// bytes of one swizzled row.
enum class Swizzle { None, B32, B64, B128 };

namespace layout {

/// Bytes of one row of a column block: the swizzle span, 16 for None.
TP_CONSTEXPR int span(Swizzle s) {
  return s == Swizzle::B128 ? 128
         : s == Swizzle::B64 ? 64
         : s == Swizzle::B32 ? 32
                             : 16;
}

/// The widest swizzle whose span divides a row of `bytes`: what CUTLASS's
/// SM100 GEMMs pick (128B whenever the contiguous extent allows it).
TP_CONSTEXPR Swizzle widest(int bytes) {
  return bytes % 128 == 0  ? Swizzle::B128
         : bytes % 64 == 0 ? Swizzle::B64
         : bytes % 32 == 0 ? Swizzle::B32
                           : Swizzle::None;
}

/// The physical address of linear address `a`: bits [4, 4 + B) ^= bits
/// [7, 7 + B).
TP_CONSTEXPR uint32_t apply(Swizzle s, uint32_t a) {
  return s == Swizzle::None
             ? a
             : a ^ (((a >> 7) & uint32_t(span(s) / 16 - 1)) << 4);
}

/// The field `layout` [61, 64) of an SMEM matrix descriptor (sm_100).
TP_CONSTEXPR uint64_t desc_code(Swizzle s) {
  return s == Swizzle::B128 ? 2 : s == Swizzle::B64 ? 4 : s == Swizzle::B32 ? 6
                                                                            : 0;
}

} // namespace layout
} // namespace tp

#endif // TILEPIPE_LAYOUT_SWIZZLE_CUH
