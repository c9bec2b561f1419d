//===- layout/instr_desc.cuh - tcgen05.mma idesc ---------------*- CUDA -*-===//
//
// The 32-bit instruction descriptor (PTX ISA, tcgen05 "instruction
// descriptor"; facts section 3), dense (no sparsity, no negation, no
// saturation, no .ws shift), as two structs of its fields, one per layout
// of the bits, each field with its bit range, and pack() to place them:
//  - InstrDescriptor, kind::f16, tf32, f8f6f4, i8;
//  - BlockScaledInstrDescriptor, kind::mxf8f6f4.block_scale, whose SF ids
//    pick the byte of each 32-bit TMEM column that holds the k-block's
//    factors.
// The unit test CpuEmuDescriptors checks pack() against the shift formula
// over many field values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_LAYOUT_INSTR_DESC_CUH
#define TILEPIPE_LAYOUT_INSTR_DESC_CUH

#include "tilepipe/config.cuh"
#include "tilepipe/isa/tcgen05_kinds.h"
#include "tilepipe/layout/smem_desc.cuh"

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
template <> struct MmaElem<int8_t> { // kind::i8: signed 1
  static constexpr bool kValid = true;
  static constexpr MmaKind kKind = MmaKind::I8;
  static constexpr uint32_t kFormat = 1;
};
template <> struct MmaElem<uint8_t> { // kind::i8: unsigned 0
  static constexpr bool kValid = true;
  static constexpr MmaKind kKind = MmaKind::I8;
  static constexpr uint32_t kFormat = 0;
};

namespace layout {

/// kind::f16 / tf32 / f8f6f4 / i8. Bits not named here are zero: [0, 2)
/// sparsity selector, [2] sparsity, [3] saturate, [13, 15) negate A/B,
/// [30, 32) the .ws shift of B.
struct InstrDescriptor {
  uint32_t dFormat = 0; ///< [4, 6): D type, F16 0, F32 1, S32 2
  uint32_t aFormat = 0; ///< [7, 10): A type within the kind (MmaElem)
  uint32_t bFormat = 0; ///< [10, 13): B type within the kind
  uint32_t aMajor = 0;  ///< [15, 16): 1 when A is MN-major
  uint32_t bMajor = 0;  ///< [16, 17): 1 when B is MN-major
  uint32_t nDim = 0;    ///< [17, 23): N >> 3
  uint32_t mDim = 0;    ///< [24, 29): M >> 4

  TP_CONSTEXPR uint32_t pack() const {
    return static_cast<uint32_t>(
        desc_field(dFormat, 4, 2) | desc_field(aFormat, 7, 3) |
        desc_field(bFormat, 10, 3) | desc_field(aMajor, 15, 1) |
        desc_field(bMajor, 16, 1) | desc_field(nDim, 17, 6) |
        desc_field(mDim, 24, 5));
  }
};

/// kind::mxf8f6f4.block_scale; D is always F32. Bits not named here are
/// zero, as in InstrDescriptor.
struct BlockScaledInstrDescriptor {
  uint32_t sfbId = 0;     ///< [4, 6): the byte of B's scale factors
  uint32_t aFormat = 0;   ///< [7, 10): A type
  uint32_t bFormat = 0;   ///< [10, 13): B type
  uint32_t aMajor = 0;    ///< [15, 16): 1 when A is MN-major
  uint32_t bMajor = 0;    ///< [16, 17): 1 when B is MN-major
  uint32_t nDim = 0;      ///< [17, 23): N >> 3
  uint32_t scaleType = 1; ///< [23, 24): the scale factors' type, UE8M0 = 1
  uint32_t mDim = 0;      ///< [27, 29): M >> 7
  uint32_t sfaId = 0;     ///< [29, 31): the byte of A's scale factors

  TP_CONSTEXPR uint32_t pack() const {
    return static_cast<uint32_t>(
        desc_field(sfbId, 4, 2) | desc_field(aFormat, 7, 3) |
        desc_field(bFormat, 10, 3) | desc_field(aMajor, 15, 1) |
        desc_field(bMajor, 16, 1) | desc_field(nDim, 17, 6) |
        desc_field(scaleType, 23, 1) | desc_field(mDim, 27, 2) |
        desc_field(sfaId, 29, 2));
  }
};

/// The D type field: F16 0, F32 1, S32 2.
enum DFormat : uint32_t { kDF16 = 0, kDF32 = 1, kDS32 = 2 };

/// kind::f16 / tf32 / f8f6f4 / i8.
TP_CONSTEXPR uint32_t instr_desc(int m, int n, uint32_t aFormat,
                                 uint32_t bFormat, uint32_t dFormat, bool aMN,
                                 bool bMN) {
  InstrDescriptor d;
  d.dFormat = dFormat;
  d.aFormat = aFormat;
  d.bFormat = bFormat;
  d.aMajor = uint32_t(aMN);
  d.bMajor = uint32_t(bMN);
  d.nDim = uint32_t(n >> 3);
  d.mDim = uint32_t(m >> 4);
  return d.pack();
}

/// kind::mxf8f6f4.block_scale with UE8M0 factors.
TP_CONSTEXPR uint32_t instr_desc_block_scale(int m, int n, uint32_t aFormat,
                                             uint32_t bFormat, bool aMN,
                                             bool bMN, uint32_t sfaId,
                                             uint32_t sfbId) {
  BlockScaledInstrDescriptor d;
  d.sfbId = sfbId;
  d.aFormat = aFormat;
  d.bFormat = bFormat;
  d.aMajor = uint32_t(aMN);
  d.bMajor = uint32_t(bMN);
  d.nDim = uint32_t(n >> 3);
  d.mDim = uint32_t(m >> 7);
  d.sfaId = sfaId;
  return d.pack();
}

} // namespace layout
} // namespace tp

#endif // TILEPIPE_LAYOUT_INSTR_DESC_CUH
