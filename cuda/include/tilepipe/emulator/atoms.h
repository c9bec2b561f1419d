//===- emulator/atoms.h - the CPU side of every PTX atom --------*- C++ -*-===//
//
// The contract between the raw PTX atoms (tilepipe/ptx/, tilepipe/arch/) and
// the CPU emulator. Under -DTILEPIPE_CPU each atom calls the function of the
// same name here instead of issuing its inline PTX; everything above the atoms
// (descriptors, layouts, the tp:: runtime the kernel calls) is the same code
// in both modes, so the emulator checks what the GPU would run.
//
// Addresses are what the instructions take: `uint32_t` shared-window
// addresses for SMEM operands and mbarriers, TMEM addresses (lane << 16 |
// column), 64-bit SMEM matrix descriptors and 32-bit instruction
// descriptors, exactly as the PTX ISA defines them.
//
// The calling thread is the current emulated thread (emulator/emulator.h).
// An atom that breaks a rule of the ISA reports a fault with the thread and
// the source location set by TP_CPU_HERE (emulator/emulator.h) and ends
// the run.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_EMULATOR_ATOMS_H
#define TILEPIPE_EMULATOR_ATOMS_H

#include <cstdint>

#include "tilepipe/emulator/cuda_types.h"
#include "tilepipe/isa/tcgen05_kinds.h"

namespace tp::cpu {

//===----------------------------------------------------------------------===//
// Threads, warps, named barriers
//===----------------------------------------------------------------------===//

void syncthreads();                              // bar.sync 0 (all threads)
void bar_sync(uint32_t id, uint32_t threads);    // bar.sync id, threads
void bar_arrive(uint32_t id, uint32_t threads);  // bar.arrive id, threads
void syncwarp(uint32_t mask);                    // bar.warp.sync mask
bool elect_sync(uint32_t mask);                  // elect.sync _|p, mask
uint32_t shfl_idx_sync(uint32_t mask, uint32_t v, int srcLane);
void setmaxnreg(bool increase, uint32_t regs);   // checks; otherwise a no-op
[[noreturn]] void trap();
long long clock64();

//===----------------------------------------------------------------------===//
// Shared memory window
//===----------------------------------------------------------------------===//

uint32_t generic_to_shared(const void *p); // cvta.to.shared
void *shared_to_generic(uint32_t a);       // cvta.shared
void fence_proxy_async();                  // fence.proxy.async.shared::cta

//===----------------------------------------------------------------------===//
// wgmma (sm_90a; emulator/wgmma.h): a whole warpgroup issues each one
//===----------------------------------------------------------------------===//

/// Operand types of wgmma.mma_async (f32 tiles are read as tf32).
enum class WgmmaType : uint8_t { F16, BF16, TF32, E4M3, E5M2, S8, U8 };
/// m64nNk(32 bytes): N, A's and B's types, and imm-trans-a/b (MN-major).
struct WgmmaShape {
  uint16_t n = 8;
  WgmmaType a = WgmmaType::BF16, b = WgmmaType::BF16;
  bool transA = false, transB = false;
};
void wgmma_fence();              // wgmma.fence.sync.aligned
void wgmma_commit_group();       // wgmma.commit_group.sync.aligned
void wgmma_wait_group(int n);    // wgmma.wait_group.sync.aligned n
/// wgmma.mma_async.sync.aligned.m64nNk*.f32: d is the thread's N / 2 f32
/// accumulator registers; scale-d false ignores their old values.
void wgmma_mma_ss(const WgmmaShape &s, float *d, uint64_t adesc,
                  uint64_t bdesc, bool scaleD);
/// The same with A from the thread's 4 registers (the m64k16 fragment).
void wgmma_mma_rs(const WgmmaShape &s, float *d, const uint32_t *a,
                  uint64_t bdesc, bool scaleD);

//===----------------------------------------------------------------------===//
// mbarrier (a = shared address of the 8-byte barrier)
//===----------------------------------------------------------------------===//

void mbarrier_init(uint32_t a, uint32_t count);
void fence_mbarrier_init();
void mbarrier_arrive(uint32_t a);                              // count 1
void mbarrier_arrive_expect_tx(uint32_t a, uint32_t txBytes);  // tx += n; arrive
void mbarrier_expect_tx(uint32_t a, uint32_t txBytes);         // tx += n only
/// mbarrier.try_wait.parity: true once the phase with that parity has
/// completed. A false answer lets the other threads run first.
bool mbarrier_try_wait_parity(uint32_t a, uint32_t parity);
/// mbarrier.test_wait.parity: the same answer, never blocking.
bool mbarrier_test_wait_parity(uint32_t a, uint32_t parity);
/// Not an instruction: the phase the calling thread's next parity wait on
/// `a` is for, which the program knows (a pipe iteration's round) and the
/// parity alone does not. The stale-wait check then tells a phase this
/// thread skipped on purpose (another consumer's, as ping-pong copies skip
/// each other's) from one it missed.
void mbarrier_wait_for_phase(uint32_t a, int64_t phase);

//===----------------------------------------------------------------------===//
// TMA (cp.async.bulk.tensor, tile mode) and bulk groups
//===----------------------------------------------------------------------===//

/// ...shared::cluster.global.tile.mbarrier::complete_tx::bytes [dst],
/// [map, {coords}], [bar]. Asynchronous: the copy lands, and complete_tx
/// counts its bytes on `bar`, at a time the emulator chooses.
void tma_load(uint32_t dst, const CUtensorMap *map, int rank,
              const int32_t *coords, uint32_t bar);
/// ...global.shared::cta.tile.bulk_group [map, {coords}], [src].
void tma_store(const CUtensorMap *map, int rank, const int32_t *coords,
               uint32_t src);
void bulk_commit_group();             // cp.async.bulk.commit_group
void bulk_wait_group_read(int pending); // cp.async.bulk.wait_group.read N
void bulk_wait_group(int pending);      // cp.async.bulk.wait_group N

//===----------------------------------------------------------------------===//
// cp.async (16-byte, .cg) and its mbarrier arrive
//===----------------------------------------------------------------------===//

void cp_async_16(uint32_t dst, const void *src);
/// cp.async.mbarrier.arrive (no .noinc): pending += 1 now, and one arrive
/// when every earlier cp.async of this thread has landed.
void cp_async_mbarrier_arrive(uint32_t bar);

//===----------------------------------------------------------------------===//
// tcgen05
//===----------------------------------------------------------------------===//

// The .kind and tcgen05.cp shapes are the atoms' own (isa/tcgen05_kinds.h).
using ::tp::CpShape;
using ::tp::MmaKind;

/// tcgen05.alloc: one warp, cols a power of 2 in [32, 512]; the TMEM address
/// is written to SMEM at dstShared.
void tcgen05_alloc(uint32_t dstShared, uint32_t cols);
void tcgen05_relinquish_alloc_permit();
void tcgen05_dealloc(uint32_t taddr, uint32_t cols);

/// tcgen05.mma.cta_group::1.kind::K [d], adesc, bdesc, idesc, enable_input_d.
void tcgen05_mma(MmaKind kind, uint32_t d, uint64_t adesc, uint64_t bdesc,
                 uint32_t idesc, bool enableInputD);
/// The same with A in TMEM ([a]).
void tcgen05_mma_ts(MmaKind kind, uint32_t d, uint32_t aTmem, uint64_t bdesc,
                    uint32_t idesc, bool enableInputD);
/// tcgen05.mma...kind::mxf8f6f4.block_scale [d], adesc, bdesc, idesc,
/// [sfa], [sfb], enable_input_d.
void tcgen05_mma_block_scale(MmaKind kind, uint32_t d, uint64_t adesc,
                             uint64_t bdesc, uint32_t idesc, uint32_t sfaTmem,
                             uint32_t sfbTmem, bool enableInputD);
/// tcgen05.commit...mbarrier::arrive::one: one arrive on `bar` once every
/// earlier mma and cp of this thread has completed.
void tcgen05_commit(uint32_t bar);

/// tcgen05.cp.cta_group::1.<shape> [taddr], sdesc (asynchronous).
void tcgen05_cp(CpShape shape, uint32_t taddr, uint64_t sdesc);

/// tcgen05.ld/st.sync.aligned.32x32b.xN.b32: this thread's N registers;
/// the whole warp issues it with the same taddr.
void tcgen05_ld_32x32b(uint32_t taddr, int n, uint32_t *regs);
void tcgen05_st_32x32b(uint32_t taddr, int n, const uint32_t *regs);
/// .32x32b.xN.pack::16b / .unpack::16b: N registers over 2N columns.
void tcgen05_ld_32x32b_pack16(uint32_t taddr, int n, uint32_t *regs);
void tcgen05_st_32x32b_unpack16(uint32_t taddr, int n, const uint32_t *regs);
/// .16x32bx2.xN [taddr], immHalfSplitoff: N registers.
void tcgen05_ld_16x32bx2(uint32_t taddr, int n, uint32_t halfSplit,
                         uint32_t *regs);
void tcgen05_st_16x32bx2(uint32_t taddr, int n, uint32_t halfSplit,
                         const uint32_t *regs);
void tcgen05_wait_ld();
void tcgen05_wait_st();
void tcgen05_fence_before_thread_sync();
void tcgen05_fence_after_thread_sync();

} // namespace tp::cpu

#endif // TILEPIPE_EMULATOR_ATOMS_H
