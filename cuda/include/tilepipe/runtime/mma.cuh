//===- runtime/mma.cuh - UMMA, scale-factor copies, accumulators -*- CUDA -*-===//
//
// One tp:: call per tileas.umma: the K extent of the tile in instructions of
// 32 bytes of K each, all issued by the calling (elected) thread, each with
// its own descriptors (layout/tile.cuh) and the instruction descriptor of
// the operand types (layout/instr_desc.cuh). `accumulate` is
// enable-input-d of the first instruction; the later ones always add to
// what the first wrote.
//
// Accumulators that start without a value (docs/cuda.md, "Accumulators"):
// the translator keeps, per such TMEM buffer, a mask of the slots that an
// MMA has written. The first MMA on a slot issues enable-input-d = false
// (acc_enable), as CUTLASS zeroes its accumulator by the first k-block's
// MMA; a slot handed on unwritten (a trip count of 0) is zeroed first by
// one MMA of zeros (acc_zero_unwritten), issued by the same thread, so it is
// ordered before the commit that hands the slot on.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_RUNTIME_MMA_CUH
#define TILEPIPE_RUNTIME_MMA_CUH

#include "tilepipe/arch/sm100/tcgen05_fences.cuh"
#include "tilepipe/arch/sm100/tcgen05_ld_st_cp.cuh"
#include "tilepipe/arch/sm100/tcgen05_mma.cuh"
#include "tilepipe/layout/instr_desc.cuh"
#include "tilepipe/layout/mma_shapes.h"
#include "tilepipe/layout/scale_factors.cuh"
#include "tilepipe/layout/tile.cuh"
#include "tilepipe/ptx/fences.cuh"
#include "tilepipe/ptx/smem.cuh"
#include "tilepipe/runtime/base.cuh"

namespace tp {

namespace detail {

/// The kind and instruction descriptor of D(TC) = A(TA) x B(TB).
template <class TA, class TB, class TC, int M, int N, bool AMN, bool BMN>
struct Umma {
  static_assert(MmaElem<TA>::kValid && MmaElem<TB>::kValid,
                "UMMA operands: f16/bf16, float (tf32), fp8 e4m3/e5m2 or "
                "s8/u8");
  static constexpr MmaKind kKind = MmaElem<TA>::kKind;
  static_assert(MmaElem<TB>::kKind == kKind,
                "A and B must be of one kind (f16/bf16, tf32, fp8 or i8)");
  static_assert(kKind != MmaKind::F16 || detail::kSame<TA, TB>,
                "kind::f16 takes A and B of one type");
  static_assert(kKind == MmaKind::I8
                    ? detail::kSame<TC, int32_t>
                    : detail::kSame<TC, float> ||
                          (detail::kSame<TC, __half> &&
                           mma_shape::f16_acc_ok(
                               kKind, detail::kSame<TA, __nv_bfloat16>)),
                TP_MMA_RULE_ACC);
  static_assert(mma_shape::m_ok(kKind, M), TP_MMA_RULE_M);
  static_assert(kKind == MmaKind::I8 ? mma_shape::i8_n_ok(N)
                                     : mma_shape::n_ok(N),
                TP_MMA_RULE_N);
  static constexpr uint32_t kIdesc =
      layout::instr_desc(M, N, MmaElem<TA>::kFormat, MmaElem<TB>::kFormat,
                         detail::kSame<TC, float>     ? layout::kDF32
                         : detail::kSame<TC, int32_t> ? layout::kDS32
                                                      : layout::kDF16,
                         AMN, BMN);
};

} // namespace detail

/// D[M x N] (+)= A * B^T, A and B in SMEM as the views AV and BV (KMajor<>
/// or MNMajor<> of an MmaTile), D in TMEM.
template <class TC, class AV, class BV>
TP_DEVICE void umma_ss(uint32_t d, uint32_t a, uint32_t b,
                       bool accumulate TP_LOC) {
  using TA = typename AV::Elem;
  using TB = typename BV::Elem;
  static_assert(AV::kK == BV::kK, "A and B have one K");
  static_assert(mma_shape::k_ok(AV::kK, int(sizeof(TA)) * 8), TP_MMA_RULE_K);
  using U = detail::Umma<TA, TB, TC, AV::kMN, BV::kMN, AV::kMNMajor,
                         BV::kMNMajor>;
  constexpr int kSteps = AV::kK * int(sizeof(TA)) / 32;
  TP_AT();
#pragma unroll
  for (int s = 0; s < kSteps; ++s)
    ptx::tcgen05_mma<U::kKind>(d, AV::desc(a, s), BV::desc(b, s), U::kIdesc,
                               s == 0 ? accumulate : true);
}

/// As umma_ss, with A[M x K] of TA in TMEM (lane = row, 32 bits of K per
/// column, 16-bit types packed two to a column).
template <class TC, class TA, int M, int K, class BV>
TP_DEVICE void umma_ts(uint32_t d, uint32_t aTmem, uint32_t b,
                       bool accumulate TP_LOC) {
  using TB = typename BV::Elem;
  static_assert(K == BV::kK, "A and B have one K");
  static_assert(mma_shape::k_ok(K, int(sizeof(TA)) * 8), TP_MMA_RULE_K);
  using U = detail::Umma<TA, TB, TC, M, BV::kMN, false, BV::kMNMajor>;
  constexpr int kSteps = K * int(sizeof(TA)) / 32;
  constexpr uint32_t kStepCols = 32 / 4; // 32 bytes of K per lane
  TP_AT();
#pragma unroll
  for (int s = 0; s < kSteps; ++s)
    ptx::tcgen05_mma_ts<U::kKind>(d, aTmem + uint32_t(s) * kStepCols,
                                  BV::desc(b, s), U::kIdesc,
                                  s == 0 ? accumulate : true);
}

/// D (+)= (A x SFA) * (B x SFB)^T, kind::mxf8f6f4.block_scale with UE8M0
/// factors (one per 32 elements of K) in TMEM at `sfa` and `sfb`, laid out
/// by tmem_copy_scales. Instruction s covers k-block s: its factors are
/// column group s / 4 and byte (SF id) s % 4.
template <class AV, class BV>
TP_DEVICE void umma_ss_block_scaled(uint32_t d, uint32_t a, uint32_t b,
                                    uint32_t sfa, uint32_t sfb,
                                    bool accumulate TP_LOC) {
  using TA = typename AV::Elem;
  using TB = typename BV::Elem;
  constexpr int M = AV::kMN, N = BV::kMN;
  static_assert(AV::kK == BV::kK, "A and B have one K");
  static_assert(MmaElem<TA>::kValid && MmaElem<TA>::kKind == MmaKind::F8F6F4 &&
                    MmaElem<TB>::kValid &&
                    MmaElem<TB>::kKind == MmaKind::F8F6F4,
                "block scaling here: fp8 A and B (kind::mxf8f6f4)");
  static_assert(mma_shape::m_ok(MmaKind::MXF8F6F4, M), TP_MMA_RULE_M);
  static_assert(mma_shape::n_ok(N), TP_MMA_RULE_N);
  static_assert(mma_shape::scale_k_ok(AV::kK), TP_MMA_RULE_SCALE_K);
  using SA = ScaleFactors<(M + 127) / 128, AV::kK / 128>;
  using SB = ScaleFactors<(N + 127) / 128, AV::kK / 128>;
  constexpr int kSteps = AV::kK / 32;
  TP_AT();
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    uint32_t idesc = layout::instr_desc_block_scale(
        M, N, MmaElem<TA>::kFormat, MmaElem<TB>::kFormat, AV::kMNMajor,
        BV::kMNMajor, SA::mma_id(s), SB::mma_id(s));
    ptx::tcgen05_mma_block_scale(d, AV::desc(a, s), BV::desc(b, s), idesc,
                                 sfa + SA::mma_column(s),
                                 sfb + SB::mma_column(s),
                                 s == 0 ? accumulate : true);
  }
}

/// Scale factors from SMEM (A x J atoms, layout/scale_factors.cuh) to TMEM:
/// one tcgen05.cp.32x128b.warpx4 per atom (512 bytes, replicated to the
/// four lane quarters), ordered before the thread's later MMAs.
template <int A, int J>
TP_DEVICE void tmem_copy_scales(uint32_t dst, uint32_t src TP_LOC) {
  using SF = ScaleFactors<A, J>;
  TP_AT();
#pragma unroll
  for (int a = 0; a < A; ++a)
#pragma unroll
    for (int j = 0; j < J; ++j)
      ptx::tcgen05_cp<CpShape::S32x128b_warpx4>(
          dst + SF::tmem_column(a, j), SF::cp_desc(src + SF::smem_atom(a, j)));
}

//===----------------------------------------------------------------------===//
// Accumulators without an initial value
//===----------------------------------------------------------------------===//

/// enable-input-d of an MMA on the accumulator slot at `acc` (slots of
/// `slotCols` columns from `base`): false the first time, and records the
/// write in `written` (bit = slot).
TP_DEVICE bool acc_enable(uint32_t &written, uint32_t acc, uint32_t base,
                          int64_t slotCols, bool accumulate) {
  uint32_t bit = 1u << ((acc - base) / uint32_t(slotCols));
  bool enable = accumulate && (written & bit) != 0;
  written |= bit;
  return enable;
}

/// Before a slot is handed on: if no MMA wrote it, D = 0 * 0 with
/// enable-input-d = false, so the consumer reads zeros. `zeros` is 256
/// bytes of SMEM that this thread fills with zeros (the path is rare: a
/// trip count of 0), read as a K = 16 f16 (K = 32 s8) K-major operand whose
/// 8-row groups are 0 bytes apart (SBO = 0), which covers any M and N.
template <int M, int N, class TC>
TP_DEVICE void acc_zero_unwritten(uint32_t &written, uint32_t acc,
                                  uint32_t base, int64_t slotCols,
                                  uint32_t zeros TP_LOC) {
  uint32_t bit = 1u << ((acc - base) / uint32_t(slotCols));
  if (written & bit)
    return;
  written |= bit;
  TP_AT();
  const unsigned char none[16] = {};
#pragma unroll
  for (uint32_t i = 0; i < 256; i += 16)
    ptx::st_shared<16>(zeros + i, none);
  // The MMA reads them through the async proxy.
  ptx::fence_proxy_async();
  // kind::f16 accumulates in f16 only f16 operands (PTX ISA, tcgen05
  // "Matrix shape"): the zeros are f16 for an f16 accumulator; an s32 one
  // takes kind::i8 zeros (K = 32 bytes a row as well).
  using Z = detail::Cond<
      detail::kSame<TC, int32_t>, int8_t,
      detail::Cond<detail::kSame<TC, __half>, __half, __nv_bfloat16>>;
  using U = detail::Umma<Z, Z, TC, M, N, false, false>;
  uint64_t desc = layout::smem_desc(zeros, 128, 0, Swizzle::None);
  ptx::tcgen05_mma<U::kKind>(acc, desc, desc, U::kIdesc, false);
}

} // namespace tp

#endif // TILEPIPE_RUNTIME_MMA_CUH
