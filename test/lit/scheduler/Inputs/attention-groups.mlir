// An attention forward loop in the FA4 shape (one 128-row Q tile, head dim
// 128, 128-wide K/V blocks, bf16 in, f32 softmax state): per K/V block, TMA
// loads K and V, S = Q K^T on the tensor core into TMEM, the online softmax
// on SIMT units (row max, exp2 on the MUFU, row sum, rescale factor), P goes
// back to TMEM as bf16 and O += P V runs as a TS-mode UMMA. V is read as it
// lies in global memory, [kv, d] with d contiguous: the UMMA takes the V
// tile as an MN-major B (`b_mn_major`).
//
// The rescale factor alpha = exp2(m_old - m_new) scales the row sum only,
// not O (FA4's correction warp group rescales O, fa4_fwd.mlir), so O is
// attention's numerator only where no K/V block after the first raises a
// row's maximum. test/numeric/specs.py checks what the loop computes
// (running_max_reference). Rescaling O here
// (tmem_load, mul by alpha, tmem_store before O += P V) puts that round
// trip on O's recurrence and takes the II from 1032 to 1234.
//
// After the loop the epilogue reads O out of TMEM, converts it to bf16,
// stages it in shared memory and TMA-stores it. The staging tile has no
// buffer of its own (`smem_store` without `into`): it overlays the K/V
// slots, which every MMA has finished reading once O's last commit fired,
// as gemm_mainloop.mlir's epilogue does; SMEM holds Q and the K/V slots
// only, so the schedule is the loop's alone. (FA4 also divides O by the row
// sum there; tileas has no division, so this example stores O
// unnormalized, as fa4_fwd.mlir does.)
//
// Where K and V come from: every Q-tile CTA of the same (batch, head) reads
// the same K/V blocks, and FA4's scheduler runs them side by side, so a
// K/V block is fetched from HBM once and read from L2 by the others. At
// sequence length 2048 that is 16 CTAs of 128 Q rows (`l2_reuse = 16`;
// FA4 benchmarks 1k-16k, docs/performance.md). FA4's 1-CTA forward kernel
// does not multicast K/V, so the loads state no multicast.
//
// The grid's x runs over the 128-row Q tiles of one (batch, head): CTA x
// loads Q rows 128 x .. 128 x + 127 once, before the loop (the kernel's
// prologue fills the tile before the warps take their roles), keeps the
// tile in SMEM while it walks every K/V block, and stores O to the same rows
// after the loop.
func.func @attention_fwd(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                         %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                         %descV: !tileas.tma_desc<128x128xbf16> {tileas.name = "V"},
                         %descO: !tileas.tma_desc<128x128xbf16> {tileas.name = "O"},
                         %nKV: index {tileas.name = "nKV"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %qRow = arith.muli %bx, %c128 : index
  %q = tileas.tma_load %descQ[%qRow, %c0]
      : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %o0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %res:3 = scf.for %j = %c0 to %nKV step %c1
      iter_args(%mPrev = %m0, %lPrev = %l0, %oAcc = %o0)
      -> (tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] {l2_reuse = 16, tileas.schedule.constraint.gid = 1 : i32}
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %v = tileas.tma_load %descV[%row, %c0] {l2_reuse = 16, tileas.schedule.constraint.gid = 2 : i32, tileas.schedule.constraint.leader_gid = 1 : i32}
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s = tileas.umma %q, %k, %sbuf {tileas.schedule.constraint.gid = 3 : i32}
        : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr = tileas.tmem_load %s : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx = tileas.reduce_max %sr : tensor<128x128xf32> -> tensor<128xf32>
    %mNew = tileas.max %mPrev, %mx : tensor<128xf32>, tensor<128xf32>
    %shifted = tileas.sub %sr, %mNew : tensor<128x128xf32>, tensor<128xf32>
    %p = tileas.exp2 %shifted : tensor<128x128xf32>
    %rowSum = tileas.reduce_sum %p : tensor<128x128xf32> -> tensor<128xf32>
    %delta = tileas.sub %mPrev, %mNew : tensor<128xf32>, tensor<128xf32>
    %alpha = tileas.exp2 %delta : tensor<128xf32>
    %lScaled = tileas.mul %lPrev, %alpha : tensor<128xf32>, tensor<128xf32>
    %lNew = tileas.add %lScaled, %rowSum : tensor<128xf32>, tensor<128xf32>
    %pb = tileas.cvt %p : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt = tileas.tmem_store %pb : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
    %oNew = tileas.umma %pt, %v, %oAcc {accumulate, b_mn_major, tileas.schedule.constraint.gid = 4 : i32, tileas.schedule.constraint.leader_gid = 3 : i32}
        : !tileas.tmem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %mNew, %lNew, %oNew
        : tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>
  }
  %of = tileas.tmem_load %res#2 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %ob = tileas.cvt %of : tensor<128x128xf32> -> tensor<128x128xbf16>
  %os = tileas.smem_store %ob : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %os, %descO[%qRow, %c0]
      : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
