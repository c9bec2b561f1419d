//===- sm100.cuh - tilepipe device runtime for sm_100a ---------*- CUDA -*-===//
//
// The functions the tilepipe translator emits calls to: identity and sync,
// mbarrier pipes, TMEM allocation, TMA, UMMA (tcgen05.mma), and register tiles
// (Frag) moved between TMEM, SMEM and registers. Everything is in namespace
// tp and __device__ only, so host passes compile the header to nothing.
//
// Two compile modes of the same emitted kernel:
//  - real mode (default), -gencode arch=compute_100a,code=sm_100a: tcgen05,
//    TMA and mbarrier PTX. The tcgen05 bodies are compiled only in device
//    passes for an architecture that has tcgen05 (TP_HAS_TCGEN05); any other
//    device pass, e.g. the portable compute_100 PTX that -arch=sm_100a also
//    builds, gets __trap() there, so ptxas never sees an instruction it
//    rejects and a JIT of that PTX fails loudly rather than silently.
//  - harness mode, -DTILEPIPE_HARNESS on sm_90a: mbarriers, bulk copies,
//    named barriers, elect.sync and setmaxnreg are real; UMMA, tcgen05.ld/st
//    and tensor copies are replaced by payload stamps (harness.cuh).
//
// The PTX facts used here come from the PTX ISA (tcgen05, mbarrier,
// cp.async.bulk chapters) as summarized in docs/blackwell-facts.md, 1.4.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_SM100_CUH
#define TILEPIPE_SM100_CUH

#include <cstdint>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "tilepipe/harness.cuh"

// tcgen05 exists on the sm_100/103/110 families, in arch- or family-specific
// targets only (compute_100a, compute_100f, ...), never in generic PTX.
#if defined(__CUDA_ARCH__) && !defined(TILEPIPE_HARNESS) &&                    \
    (defined(__CUDA_ARCH_FEAT_SM100_ALL) ||                                    \
     defined(__CUDA_ARCH_FEAT_SM103_ALL) ||                                    \
     defined(__CUDA_ARCH_FEAT_SM110_ALL) ||                                    \
     (defined(__CUDA_ARCH_SPECIFIC__) && __CUDA_ARCH_SPECIFIC__ >= 1000 &&     \
      __CUDA_ARCH_SPECIFIC__ < 1200) ||                                        \
     (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) &&                                \
      __CUDA_ARCH_FAMILY_SPECIFIC__ >= 1000 &&                                 \
      __CUDA_ARCH_FAMILY_SPECIFIC__ < 1200))
#define TP_HAS_TCGEN05 1
#else
#define TP_HAS_TCGEN05 0
#endif

// A real-mode device pass without tcgen05: such code must never run.
#if defined(__CUDA_ARCH__) && !defined(TILEPIPE_HARNESS) && !TP_HAS_TCGEN05
#define TP_TCGEN05_TRAP 1
#else
#define TP_TCGEN05_TRAP 0
#endif

// setmaxnreg needs an arch- or family-specific target (sm_90a, sm_100a, ...).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 &&                          \
    (defined(__CUDA_ARCH_SPECIFIC__) ||                                        \
     defined(__CUDA_ARCH_FAMILY_SPECIFIC__))
#define TP_HAS_SETMAXNREG 1
#else
#define TP_HAS_SETMAXNREG 0
#endif

namespace tp {

using TmaDesc = CUtensorMap;

/// Register tile fragment: per thread N elements, "rows per thread" layout.
template <class T, int N> struct Frag { T v[N]; };

//===----------------------------------------------------------------------===//
// Identity, sync, registers
//===----------------------------------------------------------------------===//

__device__ __forceinline__ int warp_idx() {
  // The shuffle makes the value provably warp-uniform for the compiler.
  return __shfl_sync(0xFFFFFFFFu, static_cast<int>(threadIdx.x / 32), 0);
}

__device__ __forceinline__ bool elect_leader(int firstWarp) {
  if (warp_idx() != firstWarp)
    return false;
  uint32_t pred;
  asm volatile("{\n .reg .pred p;\n .reg .b32 r;\n"
               " elect.sync r|p, 0xFFFFFFFF;\n selp.u32 %0, 1, 0, p;\n}"
               : "=r"(pred));
  return pred != 0;
}

__device__ __forceinline__ void agent_sync(int barrierId, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(barrierId), "r"(threads) : "memory");
}

template <int N> __device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg range");
#if TP_HAS_SETMAXNREG
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
#endif // Only a hint; generic targets keep the launch allocation.
}

template <int N> __device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg range");
#if TP_HAS_SETMAXNREG
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
#endif
}

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(count)
               : "memory");
}

__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

namespace detail {
__device__ __forceinline__ bool mbar_try_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile("{\n .reg .pred p;\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
               " selp.u32 %0, 1, 0, p;\n}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}
} // namespace detail

__device__ __forceinline__ void mbar_wait(uint64_t *bars, int64_t depth,
                                          int64_t k, uint32_t flip) {
  uint32_t bar = smem_addr(&bars[k % depth]);
  // Iteration k needs the phase of round k / depth; producers start one phase
  // ahead (flip = 1) because all slots are initially empty.
  uint32_t parity = static_cast<uint32_t>((k / depth) & 1) ^ flip;
  if (detail::mbar_try_wait(bar, parity))
    return;
#if defined(TILEPIPE_HARNESS)
  long long start = clock64();
  while (!detail::mbar_try_wait(bar, parity))
    if (detail::wait_expired(start))
      return;
#else
  while (!detail::mbar_try_wait(bar, parity)) {
  }
#endif
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bars, int64_t depth,
                                            int64_t k) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                   smem_addr(&bars[k % depth]))
               : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bars,
                                                      int64_t depth, int64_t k,
                                                      uint32_t bytes) {
#if defined(TILEPIPE_HARNESS)
  bytes = 16; // the stand-in copy moves one stamp
#endif
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   smem_addr(&bars[k % depth])),
               "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void umma_arrive(uint64_t *bars, int64_t depth,
                                            int64_t k) {
  uint32_t bar = smem_addr(&bars[k % depth]);
#if defined(TILEPIPE_HARNESS)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar)
               : "memory");
#elif TP_HAS_TCGEN05
  // Arrives once every earlier tcgen05 op of this thread has completed.
  asm volatile(
      "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64"
      " [%0];" ::"r"(bar)
      : "memory");
#elif TP_TCGEN05_TRAP
  (void)bar;
  __trap();
#endif
}

//===----------------------------------------------------------------------===//
// Slots
//===----------------------------------------------------------------------===//

__device__ __forceinline__ uint32_t smem_slot(void *base, int64_t slotBytes,
                                              int64_t depth, int64_t k) {
  return smem_addr(base) + static_cast<uint32_t>((k % depth) * slotBytes);
}

__device__ __forceinline__ uint32_t tmem_slot(uint32_t base, int64_t slotCols,
                                              int64_t depth, int64_t k) {
  return base + static_cast<uint32_t>((k % depth) * slotCols);
}

//===----------------------------------------------------------------------===//
// TMEM allocation and tcgen05 fences
//===----------------------------------------------------------------------===//

__device__ __forceinline__ void tmem_alloc(uint32_t *dstInSmem, uint32_t cols) {
#if defined(TILEPIPE_HARNESS)
  (void)cols;
  *dstInSmem = 0;
#elif TP_HAS_TCGEN05
  asm volatile(
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\n"
      "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::"r"(
          smem_addr(dstInSmem)),
      "r"(cols)
      : "memory");
#elif TP_TCGEN05_TRAP
  (void)dstInSmem, (void)cols;
  __trap();
#endif
}

__device__ __forceinline__ void tmem_dealloc(uint32_t base, uint32_t cols) {
#if TP_HAS_TCGEN05
  asm volatile(
      "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(base),
      "r"(cols)
      : "memory");
#elif TP_TCGEN05_TRAP
  __trap();
#endif
  (void)base, (void)cols;
}

__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// In harness mode there is no tcgen05 traffic to order; a compiler barrier
// keeps the emitted order of the surrounding SMEM accesses.
#if TP_HAS_TCGEN05
#define TP_TCGEN05_OP(ptx) asm volatile(ptx ::: "memory")
#elif TP_TCGEN05_TRAP
#define TP_TCGEN05_OP(ptx) __trap()
#else
#define TP_TCGEN05_OP(ptx) asm volatile("" ::: "memory")
#endif
__device__ __forceinline__ void tcgen05_before() {
  TP_TCGEN05_OP("tcgen05.fence::before_thread_sync;");
}
__device__ __forceinline__ void tcgen05_after() {
  TP_TCGEN05_OP("tcgen05.fence::after_thread_sync;");
}
__device__ __forceinline__ void tcgen05_wait_ld() {
  TP_TCGEN05_OP("tcgen05.wait::ld.sync.aligned;");
}
__device__ __forceinline__ void tcgen05_wait_st() {
  TP_TCGEN05_OP("tcgen05.wait::st.sync.aligned;");
}

//===----------------------------------------------------------------------===//
// TMA (leader thread only)
//===----------------------------------------------------------------------===//

__device__ __forceinline__ void tma_load_2d(uint32_t dst, const TmaDesc *desc,
                                            int32_t c0, int32_t c1,
                                            uint64_t *bars, int64_t depth,
                                            int64_t k, int pipeId) {
  uint32_t bar = smem_addr(&bars[k % depth]);
#if defined(TILEPIPE_HARNESS)
  (void)desc, (void)c0, (void)c1;
  detail::stamp_copy(dst, bar, pipeId, k);
#else
  (void)pipeId;
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile"
      ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(desc)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
#endif
}

__device__ __forceinline__ void tma_store_2d(const TmaDesc *desc, uint32_t src,
                                             int32_t c0, int32_t c1) {
#if defined(TILEPIPE_HARNESS)
  (void)desc, (void)src, (void)c0, (void)c1;
#else
  // Waiting for the reads right away keeps the contract simple: the source
  // slot may be reused as soon as this returns.
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];\n"
               "cp.async.bulk.commit_group;\n"
               "cp.async.bulk.wait_group.read 0;" ::"l"(
                   reinterpret_cast<uint64_t>(desc)),
               "r"(src), "r"(c0), "r"(c1)
               : "memory");
#endif
}

//===----------------------------------------------------------------------===//
// UMMA
//===----------------------------------------------------------------------===//

namespace detail {

template <class A, class B> constexpr bool kSame = false;
template <class A> constexpr bool kSame<A, A> = true;

template <class T>
constexpr bool kIsF16 = kSame<T, __half> || kSame<T, __nv_bfloat16>;
template <class T>
constexpr bool kIsF8 = kSame<T, __nv_fp8_e4m3> || kSame<T, __nv_fp8_e5m2>;

/// Element format codes of the instruction descriptor, per kind.
template <class T> __host__ __device__ constexpr uint32_t ab_format() {
  if constexpr (kSame<T, __nv_bfloat16>)
    return 1; // kind::f16: 0 = F16, 1 = BF16
  else if constexpr (kSame<T, float>)
    return 2; // kind::tf32
  else if constexpr (kSame<T, __nv_fp8_e5m2>)
    return 1; // kind::f8f6f4: 0 = E4M3, 1 = E5M2
  else
    return 0;
}

enum class MmaKind { F16, TF32, F8F6F4 };

template <class TA, class TB, class TC> struct MmaTraits {
  static constexpr bool kF16 = kIsF16<TA> && kSame<TA, TB>;
  static constexpr bool kTF32 = kSame<TA, float> && kSame<TB, float>;
  static constexpr bool kF8 = kIsF8<TA> && kIsF8<TB>;
  static_assert(kF16 || kTF32 || kF8,
                "UMMA operands: f16/bf16 pairs, float (tf32) or fp8 e4m3/e5m2");
  static_assert(kSame<TC, float> || (kSame<TC, __half> && !kTF32),
                "UMMA accumulator: float, or half for f16/f8 kinds");
  static constexpr MmaKind kKind = kF16    ? MmaKind::F16
                                   : kTF32 ? MmaKind::TF32
                                           : MmaKind::F8F6F4;
  /// K of one instruction: always 32 bytes of A and B per row.
  static constexpr int kK = 32 / static_cast<int>(sizeof(TA));
};

/// 32-bit instruction descriptor (kind::f16/tf32/f8f6f4, dense, K-major A/B).
template <int M, int N, class TA, class TB, class TC>
__host__ __device__ constexpr uint32_t instr_desc() {
  return (kSame<TC, float> ? 1u : 0u) << 4 // D format: 0 = F16, 1 = F32
         | ab_format<TA>() << 7 | ab_format<TB>() << 10 |
         static_cast<uint32_t>(N >> 3) << 17 |
         static_cast<uint32_t>(M >> 4) << 24;
}

/// 64-bit SMEM matrix descriptor, no swizzle, descriptor version 1 (sm_100).
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t lbo,
                                              uint32_t sbo) {
  return static_cast<uint64_t>((addr & 0x3FFFFu) >> 4) |
         static_cast<uint64_t>((lbo & 0x3FFFFu) >> 4) << 16 |
         static_cast<uint64_t>((sbo & 0x3FFFFu) >> 4) << 32 | 1ull << 46;
}

// Canonical K-major, no-swizzle tile of R rows x K elements, stored as
// [R / 8][K * sizeof(T) / 16] core matrices of 8 rows x 16 B (128 B each):
// core matrices adjacent in K are 128 B apart (LBO), 8-row groups are
// K * sizeof(T) * 8 B apart (SBO), and one instruction's K slice (32 B per row,
// two core matrices) starts 256 B after the previous one.
template <int K, class T> struct KMajorTile {
  static constexpr uint32_t kLbo = 128;
  static constexpr uint32_t kSbo = static_cast<uint32_t>(K * sizeof(T) * 8);
  static constexpr uint32_t kStepBytes = 256;
};

template <int M, int N, int K, class TA, class TB, class TC>
__host__ __device__ constexpr bool check_shape() {
  static_assert(M == 64 || M == 128, "cta_group::1 UMMA needs M of 64 or 128");
  static_assert(N >= 8 && N <= 256 && N % (M == 64 ? 8 : 16) == 0,
                "UMMA N: 8..256, a multiple of 8 (M = 64) or 16 (M = 128)");
  static_assert(K % MmaTraits<TA, TB, TC>::kK == 0,
                "K must be a multiple of the UMMA K");
  return true;
}

#if TP_HAS_TCGEN05
// One tcgen05.mma per kind; the kind is part of the opcode, so three spellings.
#define TP_MMA_ASM(kind, aop, actype)                                          \
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n"                   \
               " tcgen05.mma.cta_group::1.kind::" kind " [%0], " aop           \
               ", %2, %3, p;\n}" ::"r"(d),                                     \
               actype(a), "l"(bdesc), "r"(idesc), "r"(accum)                   \
               : "memory")
template <MmaKind Kind>
__device__ __forceinline__ void mma_ss(uint32_t d, uint64_t a, uint64_t bdesc,
                                       uint32_t idesc, uint32_t accum) {
  if constexpr (Kind == MmaKind::F16)
    TP_MMA_ASM("f16", "%1", "l");
  else if constexpr (Kind == MmaKind::TF32)
    TP_MMA_ASM("tf32", "%1", "l");
  else
    TP_MMA_ASM("f8f6f4", "%1", "l");
}
template <MmaKind Kind>
__device__ __forceinline__ void mma_ts(uint32_t d, uint32_t a, uint64_t bdesc,
                                       uint32_t idesc, uint32_t accum) {
  if constexpr (Kind == MmaKind::F16)
    TP_MMA_ASM("f16", "[%1]", "r");
  else if constexpr (Kind == MmaKind::TF32)
    TP_MMA_ASM("tf32", "[%1]", "r");
  else
    TP_MMA_ASM("f8f6f4", "[%1]", "r");
}
#undef TP_MMA_ASM
#endif // TP_HAS_TCGEN05

} // namespace detail

/// D[M x N] (+)= A[M x K] * B[N x K]^T, A and B K-major in SMEM, D in TMEM.
template <int M, int N, int K, class TA, class TB, class TC>
__device__ __forceinline__ void umma_ss(uint32_t d, uint32_t a, uint32_t b,
                                        bool accumulate) {
  static_assert(detail::check_shape<M, N, K, TA, TB, TC>());
#if TP_HAS_TCGEN05
  using Tr = detail::MmaTraits<TA, TB, TC>;
  using TileA = detail::KMajorTile<K, TA>;
  using TileB = detail::KMajorTile<K, TB>;
  constexpr uint32_t idesc = detail::instr_desc<M, N, TA, TB, TC>();
#pragma unroll
  for (int s = 0; s < K / Tr::kK; ++s) {
    uint64_t ad =
        detail::smem_desc(a + s * TileA::kStepBytes, TileA::kLbo, TileA::kSbo);
    uint64_t bd =
        detail::smem_desc(b + s * TileB::kStepBytes, TileB::kLbo, TileB::kSbo);
    detail::mma_ss<Tr::kKind>(d, ad, bd, idesc,
                              s == 0 ? (accumulate ? 1u : 0u) : 1u);
  }
#elif TP_TCGEN05_TRAP
  (void)d, (void)a, (void)b, (void)accumulate;
  __trap();
#else
  (void)d, (void)a, (void)b, (void)accumulate;
#endif
}

/// As umma_ss, with A[M x K] in TMEM (lane = row, 32 bits of K per column).
template <int M, int N, int K, class TA, class TB, class TC>
__device__ __forceinline__ void umma_ts(uint32_t d, uint32_t aTmem, uint32_t b,
                                        bool accumulate) {
  static_assert(detail::check_shape<M, N, K, TA, TB, TC>());
#if TP_HAS_TCGEN05
  using Tr = detail::MmaTraits<TA, TB, TC>;
  using TileB = detail::KMajorTile<K, TB>;
  constexpr uint32_t idesc = detail::instr_desc<M, N, TA, TB, TC>();
  constexpr uint32_t kStepCols = Tr::kK * sizeof(TA) / 4; // 32 B of K per lane
#pragma unroll
  for (int s = 0; s < K / Tr::kK; ++s) {
    uint64_t bd =
        detail::smem_desc(b + s * TileB::kStepBytes, TileB::kLbo, TileB::kSbo);
    detail::mma_ts<Tr::kKind>(d, aTmem + s * kStepCols, bd, idesc,
                              s == 0 ? (accumulate ? 1u : 0u) : 1u);
  }
#elif TP_TCGEN05_TRAP
  (void)d, (void)aTmem, (void)b, (void)accumulate;
  __trap();
#else
  (void)d, (void)aTmem, (void)b, (void)accumulate;
#endif
}

//===----------------------------------------------------------------------===//
// TMEM <-> registers: tcgen05.ld/st .32x32b.xN (lane = row, column = word)
//===----------------------------------------------------------------------===//

namespace detail {

#if TP_HAS_TCGEN05
// PTX wants the register list spelled out. Operand %0 is the TMEM address
// (an in/out operand for ld, so that both ld and st number the registers from
// %1) and the registers are %1..%n; TP_REGS<n> is the first n of them.
#define TP_REGS1 "%1"
#define TP_REGS2 TP_REGS1 ",%2"
#define TP_REGS4 TP_REGS2 ",%3,%4"
#define TP_REGS8 TP_REGS4 ",%5,%6,%7,%8"
#define TP_REGS16 TP_REGS8 ",%9,%10,%11,%12,%13,%14,%15,%16"
#define TP_REGS32                                                              \
  TP_REGS16 ",%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32"
#define TP_REGS64                                                              \
  TP_REGS32 ",%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48" \
            ",%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64"
#define TP_REGS128                                                             \
  TP_REGS64 ",%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80" \
            ",%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96" \
            ",%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109"   \
            ",%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121"     \
            ",%122,%123,%124,%125,%126,%127,%128"
// Operand lists r[b], r[b+1], ..., by doubling.
#define TP_OPS1(c, b) c(r[b])
#define TP_OPS2(c, b) TP_OPS1(c, b), TP_OPS1(c, b + 1)
#define TP_OPS4(c, b) TP_OPS2(c, b), TP_OPS2(c, b + 2)
#define TP_OPS8(c, b) TP_OPS4(c, b), TP_OPS4(c, b + 4)
#define TP_OPS16(c, b) TP_OPS8(c, b), TP_OPS8(c, b + 8)
#define TP_OPS32(c, b) TP_OPS16(c, b), TP_OPS16(c, b + 16)
#define TP_OPS64(c, b) TP_OPS32(c, b), TP_OPS32(c, b + 32)
#define TP_OPS128(c, b) TP_OPS64(c, b), TP_OPS64(c, b + 64)

template <int W> struct TmemIO;
#define TP_TMEM_IO(n)                                                          \
  template <> struct TmemIO<n> {                                               \
    static __device__ __forceinline__ void ld(uint32_t a, uint32_t *r) {       \
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x" #n ".b32 {" TP_REGS##n   \
                   "}, [%0];"                                                  \
                   : "+r"(a), TP_OPS##n("=r", 0)::"memory");                   \
    }                                                                          \
    static __device__ __forceinline__ void st(uint32_t a, const uint32_t *r) { \
      asm volatile("tcgen05.st.sync.aligned.32x32b.x" #n                       \
                   ".b32 [%0], {" TP_REGS##n "};" ::"r"(a),                    \
                   TP_OPS##n("r", 0)                                           \
                   : "memory");                                                \
    }                                                                          \
    /* Redefines the registers after tcgen05.wait::ld, so that no use of the   \
       loaded values can be scheduled before the wait. */                      \
    static __device__ __forceinline__ void pin(uint32_t *r) {                  \
      asm volatile("" : TP_OPS##n("+r", 0));                                   \
    }                                                                          \
  };
TP_TMEM_IO(1)
TP_TMEM_IO(2)
TP_TMEM_IO(4)
TP_TMEM_IO(8)
TP_TMEM_IO(16)
TP_TMEM_IO(32)
TP_TMEM_IO(64)
TP_TMEM_IO(128)
#undef TP_TMEM_IO

/// The largest .xN that fits in Rem words, at most x32: one instruction's
/// destination registers must fit beside everything else live, and a
/// 128-thread agent has a budget of 128 registers in a 512-thread kernel.
template <int Rem> __host__ __device__ constexpr int chunk() {
  int c = 32;
  while (c > Rem)
    c /= 2;
  return c;
}

/// Chunk a row of Rem words at column offset Off into x32, x16, ..., x1.
template <int Off, int Rem>
__device__ __forceinline__ void tmem_ld_words(uint32_t taddr, uint32_t *w) {
  if constexpr (Rem > 0) {
    TmemIO<chunk<Rem>()>::ld(taddr + Off, w + Off);
    tmem_ld_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(taddr, w);
  }
}
template <int Off, int Rem>
__device__ __forceinline__ void tmem_st_words(uint32_t taddr,
                                              const uint32_t *w) {
  if constexpr (Rem > 0) {
    TmemIO<chunk<Rem>()>::st(taddr + Off, w + Off);
    tmem_st_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(taddr, w);
  }
}
template <int Off, int Rem>
__device__ __forceinline__ void tmem_pin_words(uint32_t *w) {
  if constexpr (Rem > 0) {
    TmemIO<chunk<Rem>()>::pin(w + Off);
    tmem_pin_words<Off + chunk<Rem>(), Rem - chunk<Rem>()>(w);
  }
}
#endif // TP_HAS_TCGEN05

/// A warpgroup-aligned agent: warp w accesses TMEM lanes 32 * (w % 4) and up;
/// the lane goes into bits 31:16 of the TMEM address.
__device__ __forceinline__ uint32_t tmem_lane_base(int threadInAgent) {
  return static_cast<uint32_t>((threadInAgent >> 5) & 3) << (16 + 5);
}

template <class T, int N> __host__ __device__ constexpr int words() {
  static_assert((N * sizeof(T)) % 4 == 0, "TMEM rows are whole 32-bit columns");
  return static_cast<int>(N * sizeof(T) / 4);
}

} // namespace detail

/// Each thread reads its row (RPT = 1) of C elements; 16-bit types come packed
/// two per 32-bit column. Includes tcgen05.wait::ld, so the result is usable.
template <int C, class T, int N>
__device__ __forceinline__ Frag<T, N> tmem_load(uint32_t taddr,
                                                int threadInAgent) {
  static_assert(N == C,
                "tmem_load: one row per thread (RPT > 1 not supported yet)");
  constexpr int W = detail::words<T, N>();
  Frag<T, N> f;
#if TP_HAS_TCGEN05
  uint32_t w[W];
  detail::tmem_ld_words<0, W>(taddr + detail::tmem_lane_base(threadInAgent), w);
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  detail::tmem_pin_words<0, W>(w);
  __builtin_memcpy(&f, w, sizeof(f));
#else
  (void)W, (void)taddr, (void)threadInAgent;
#if TP_TCGEN05_TRAP
  __trap();
#endif
  __builtin_memset(&f, 0, sizeof(f)); // harness: TMEM contents are not modelled
#endif
  return f;
}

/// Writes the thread's row; the caller orders it with tcgen05_wait_st().
template <int C, class T, int N>
__device__ __forceinline__ void tmem_store(uint32_t taddr, const Frag<T, N> &f,
                                           int threadInAgent) {
  static_assert(N == C,
                "tmem_store: one row per thread (RPT > 1 not supported yet)");
  constexpr int W = detail::words<T, N>();
#if TP_HAS_TCGEN05
  uint32_t w[W];
  __builtin_memcpy(w, &f, sizeof(f));
  detail::tmem_st_words<0, W>(taddr + detail::tmem_lane_base(threadInAgent), w);
#else
  (void)W, (void)taddr, (void)f, (void)threadInAgent;
#if TP_TCGEN05_TRAP
  __trap();
#endif
#endif
}

//===----------------------------------------------------------------------===//
// SMEM <-> registers (real in both modes)
//===----------------------------------------------------------------------===//

namespace detail {
/// Widest vector access (16, 8, 4, 2 or 1 bytes) that divides a thread's
/// contiguous run of Bytes; the tile base is assumed 16-byte aligned.
template <int Bytes> __host__ __device__ constexpr int vec_bytes() {
  return Bytes % 16 == 0  ? 16
         : Bytes % 8 == 0 ? 8
         : Bytes % 4 == 0 ? 4
         : Bytes % 2 == 0 ? 2
                          : 1;
}

template <int V>
__device__ __forceinline__ void st_shared(uint32_t a, const unsigned char *p) {
  uint32_t w[4] = {};
  __builtin_memcpy(w, p, V);
  if constexpr (V == 16)
    asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(w[0]),
                 "r"(w[1]), "r"(w[2]), "r"(w[3])
                 : "memory");
  else if constexpr (V == 8)
    asm volatile("st.shared.v2.b32 [%0], {%1, %2};" ::"r"(a), "r"(w[0]),
                 "r"(w[1])
                 : "memory");
  else if constexpr (V == 4)
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(w[0]) : "memory");
  else if constexpr (V == 2)
    asm volatile("st.shared.b16 [%0], %1;" ::"r"(a),
                 "h"(static_cast<uint16_t>(w[0]))
                 : "memory");
  else
    asm volatile("st.shared.b8 [%0], %1;" ::"r"(a), "r"(w[0]) : "memory");
}

template <int V>
__device__ __forceinline__ void ld_shared(uint32_t a, unsigned char *p) {
  uint32_t w[4] = {};
  if constexpr (V == 16)
    asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
                 : "r"(a)
                 : "memory");
  else if constexpr (V == 8)
    asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];"
                 : "=r"(w[0]), "=r"(w[1])
                 : "r"(a)
                 : "memory");
  else if constexpr (V == 4)
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
  else if constexpr (V == 2) {
    uint16_t h;
    asm volatile("ld.shared.b16 %0, [%1];" : "=h"(h) : "r"(a) : "memory");
    w[0] = h;
  } else
    asm volatile("ld.shared.u8 %0, [%1];" : "=r"(w[0]) : "r"(a) : "memory");
  __builtin_memcpy(p, w, V);
}
} // namespace detail

/// Thread t of the agent owns rows t*RPT .. t*RPT+RPT-1 of a row-major tile
/// with C columns: one contiguous run of N elements.
template <int C, class T, int N>
__device__ __forceinline__ Frag<T, N> smem_load(uint32_t saddr,
                                                int threadInAgent) {
  static_assert(N % C == 0, "a thread holds whole rows");
  constexpr int kBytes = static_cast<int>(N * sizeof(T));
  constexpr int V = detail::vec_bytes<kBytes>();
  Frag<T, N> f;
  unsigned char *p = reinterpret_cast<unsigned char *>(&f);
  uint32_t base = saddr + static_cast<uint32_t>(threadInAgent) * kBytes;
#pragma unroll
  for (int i = 0; i < kBytes; i += V)
    detail::ld_shared<V>(base + i, p + i);
  return f;
}

template <int C, class T, int N>
__device__ __forceinline__ void smem_store(uint32_t saddr, const Frag<T, N> &f,
                                           int threadInAgent) {
  static_assert(N % C == 0, "a thread holds whole rows");
  constexpr int kBytes = static_cast<int>(N * sizeof(T));
  constexpr int V = detail::vec_bytes<kBytes>();
  const unsigned char *p = reinterpret_cast<const unsigned char *>(&f);
  uint32_t base = saddr + static_cast<uint32_t>(threadInAgent) * kBytes;
#pragma unroll
  for (int i = 0; i < kBytes; i += V)
    detail::st_shared<V>(base + i, p + i);
}

//===----------------------------------------------------------------------===//
// Elementwise math with per-row broadcasting
//===----------------------------------------------------------------------===//

namespace detail {

// Scalar operations, spelled per type because bf16/half/fp8 lack some
// operators and names like fma/max are shadowed inside namespace tp.
template <class T> __device__ __forceinline__ float to_f32(T x) {
  if constexpr (kSame<T, float>)
    return x;
  else if constexpr (kSame<T, __nv_bfloat16>)
    return __bfloat162float(x);
  else if constexpr (kSame<T, __half>)
    return __half2float(x);
  else
    return static_cast<float>(x); // fp8 (operator float), int32_t
}

template <class U> __device__ __forceinline__ U from_f32(float x) {
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

template <class U, class T> __device__ __forceinline__ U convert(T x) {
  if constexpr (kSame<U, T>)
    return x;
  else if constexpr (kSame<U, float> && kSame<T, int32_t>)
    return static_cast<float>(x);
  else
    return from_f32<U>(to_f32(x));
}

enum class Arith { Add, Sub, Mul };
template <Arith A> struct ArithOp {
  template <class T> __device__ __forceinline__ T operator()(T a, T b) const {
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
  template <class T> __device__ __forceinline__ T operator()(T a, T b) const {
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

template <class T> __device__ __forceinline__ T fma1(T a, T b, T c) {
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
__device__ __forceinline__ T bcast(const Frag<T, M> &f, int i) {
  static_assert(Out % M == 0,
                "broadcast: the vector length must divide the tile length");
  return f.v[i / (Out / M)];
}

template <class Op, class T, int NA, int NB>
__device__ __forceinline__ Frag<T, kMax<NA, NB>>
zip(Op op, const Frag<T, NA> &a, const Frag<T, NB> &b) {
  constexpr int Out = kMax<NA, NB>;
  Frag<T, Out> r;
#pragma unroll
  for (int i = 0; i < Out; ++i)
    r.v[i] = op(bcast<Out>(a, i), bcast<Out>(b, i));
  return r;
}

} // namespace detail

#define TP_ELEMENTWISE(name, op)                                               \
  template <class T, int NA, int NB>                                           \
  __device__ __forceinline__ Frag<T, detail::kMax<NA, NB>> name(               \
      const Frag<T, NA> &a, const Frag<T, NB> &b) {                            \
    return detail::zip(op{}, a, b);                                            \
  }
TP_ELEMENTWISE(add, detail::ArithOp<detail::Arith::Add>)
TP_ELEMENTWISE(sub, detail::ArithOp<detail::Arith::Sub>)
TP_ELEMENTWISE(mul, detail::ArithOp<detail::Arith::Mul>)
TP_ELEMENTWISE(max, detail::MaxOp)
#undef TP_ELEMENTWISE

template <class T, int NA, int NB, int NC>
__device__ __forceinline__ Frag<T, detail::kMax<NA, detail::kMax<NB, NC>>>
fma(const Frag<T, NA> &a, const Frag<T, NB> &b, const Frag<T, NC> &c) {
  constexpr int Out = detail::kMax<NA, detail::kMax<NB, NC>>;
  Frag<T, Out> r;
#pragma unroll
  for (int i = 0; i < Out; ++i)
    r.v[i] = detail::fma1(detail::bcast<Out>(a, i), detail::bcast<Out>(b, i),
                          detail::bcast<Out>(c, i));
  return r;
}

template <class T, int N>
__device__ __forceinline__ Frag<T, N> exp2(const Frag<T, N> &a) {
  Frag<T, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    float x = detail::to_f32(a.v[i]), y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    r.v[i] = detail::from_f32<T>(y);
  }
  return r;
}

template <class U, class T, int N>
__device__ __forceinline__ Frag<U, N> cvt(const Frag<T, N> &a) {
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
__device__ __forceinline__ void fold_tree(Op op, T *t) {
  if constexpr (W > 1) {
    constexpr int H = (W + 1) / 2;
#pragma unroll
    for (int i = 0; i < W / 2; ++i)
      t[i] = op(t[i], t[i + H]);
    fold_tree<H>(op, t);
  }
}

/// Per-row reduction: R rows of N / R elements each.
template <int R, class Op, class T, int N>
__device__ __forceinline__ Frag<T, R> reduce_rows(Op op, const Frag<T, N> &a) {
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
} // namespace detail

template <int R, class T, int N>
__device__ __forceinline__ Frag<T, R> reduce_max(const Frag<T, N> &a) {
  return detail::reduce_rows<R>(detail::MaxOp{}, a);
}
template <int R, class T, int N>
__device__ __forceinline__ Frag<T, R> reduce_sum(const Frag<T, N> &a) {
  return detail::reduce_rows<R>(detail::ArithOp<detail::Arith::Add>{}, a);
}

template <class T, int N> __device__ __forceinline__ Frag<T, N> splat(T value) {
  Frag<T, N> r;
#pragma unroll
  for (int i = 0; i < N; ++i)
    r.v[i] = value;
  return r;
}

__device__ __forceinline__ float bits_f32(uint32_t x) {
  return __uint_as_float(x);
}

} // namespace tp

#undef TP_TCGEN05_OP

#endif // TILEPIPE_SM100_CUH
