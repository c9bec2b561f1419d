//===- layout/instr_desc.cuh - tcgen05.mma instruction descriptors -*- CUDA -*-===//
//
// The 32-bit instruction descriptor (PTX ISA, tcgen05 "instruction
// descriptor"; facts section 3), dense (no sparsity, no negation, no
// saturation, no .ws shift):
//  - kind::f16, tf32, f8f6f4: [4, 6) D type (F16 0, F32 1); [7, 10) A type,
//    [10, 13) B type; 15/16 A/B MN-major; [17, 23) N >> 3; [24, 29) M >> 4.
//  - kind::mxf8f6f4.block_scale: [4, 6) the SFB id (D is always F32); [7,
//    10) / [10, 13) types; 15/16 majors; [17, 23) N >> 3; 23 the scale
//    type, UE8M0 = 1; [27, 29) M >> 7; [29, 31) the SFA id. The ids pick the
//    byte of each 32-bit TMEM column that holds the k-block's factors.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_INSTR_DESC_CUH
#define TILEPIPE_LAYOUT_INSTR_DESC_CUH

#include "tilepipe/config.cuh"
#include "tilepipe/isa/tcgen05_kinds.h"

namespace tp {

namespace detail {
template <class A, class B> constexpr bool kSame = false;
template <class A> constexpr bool kSame<A, A> = true;
/// T when C, else F (std::conditional without <type_traits> on the GPU).
template <bool C, class T, class F> struct CondT { using type = T; };
template <class T, class F> struct CondT<false, T, F> { using type = F; };
template <bool C, class T, class F> using Cond = typename CondT<C, T, F>::type;
} // namespace detail

/// What the tensor core knows of an operand element type: its kind and its
/// A/B type code within that kind.
template <class T> struct MmaElem {
  static constexpr bool kValid = false;
};
template <> struct MmaElem<__half> {
  static constexpr bool kValid = true;
  static constexpr MmaKind kKind = MmaKind::F16;
  static constexpr uint32_t kFormat = 0;
};
template <> struct MmaElem<__nv_bfloat16> {
  static constexpr bool kValid = true;
  static constexpr MmaKind kKind = MmaKind::F16;
  static constexpr uint32_t kFormat = 1;
};
template <> struct MmaElem<float> { // read as tf32
  static constexpr bool kValid = true;
  static constexpr MmaKind kKind = MmaKind::TF32;
  static constexpr uint32_t kFormat = 2;
};
template <> struct MmaElem<__nv_fp8_e4m3> {
  static constexpr bool kValid = true;
  static constexpr MmaKind kKind = MmaKind::F8F6F4;
  static constexpr uint32_t kFormat = 0;
};
template <> struct MmaElem<__nv_fp8_e5m2> {
  static constexpr bool kValid = true;
  static constexpr MmaKind kKind = MmaKind::F8F6F4;
  static constexpr uint32_t kFormat = 1;
};

namespace layout {

/// kind::f16 / tf32 / f8f6f4.
TP_CONSTEXPR uint32_t instr_desc(int m, int n, uint32_t aFormat,
                                 uint32_t bFormat, bool dF32, bool aMN,
                                 bool bMN) {
  return uint32_t(dF32) << 4 | aFormat << 7 | bFormat << 10 |
         uint32_t(aMN) << 15 | uint32_t(bMN) << 16 | uint32_t(n >> 3) << 17 |
         uint32_t(m >> 4) << 24;
}

/// kind::mxf8f6f4.block_scale with UE8M0 factors.
TP_CONSTEXPR uint32_t instr_desc_block_scale(int m, int n, uint32_t aFormat,
                                             uint32_t bFormat, bool aMN,
                                             bool bMN, uint32_t sfaId,
                                             uint32_t sfbId) {
  return (sfbId & 3) << 4 | aFormat << 7 | bFormat << 10 |
         uint32_t(aMN) << 15 | uint32_t(bMN) << 16 | uint32_t(n >> 3) << 17 |
         uint32_t(1) << 23 | uint32_t(m >> 7) << 27 | (sfaId & 3) << 29;
}

} // namespace layout
} // namespace tp

#endif // TILEPIPE_LAYOUT_INSTR_DESC_CUH
