// FlashAttention-4's forward loop at head dim 128, as its Blackwell kernel
// runs it (docs/blackwell-facts.md section 4.1): one CTA holds two 128-row Q
// tiles and walks the 128-wide K/V blocks of one (batch, head).
//
// - K and V come through one TMA ring (`tileas.ring = "kv"`): K_j, V_j,
//   K_j+1, ... take turns in its slots.
// - The single MMA issuer computes S_t = Q_t K^T into TMEM for both tiles t
//   and O_t += P_t V as a TS-mode UMMA (P read from TMEM). V is read as it
//   lies in global memory, [kv, d] with d contiguous: the UMMA takes the
//   V tile as an MN-major B (`b_mn_major`), so no transposed copy of V is
//   needed.
// - Softmax warp group t (`tileas.warp_group = t`) reads S_t, keeps the
//   running max and sum, and writes P_t as bf16 over S_t's columns
//   (`tmem_store ... into %s as ...`): S and P share TMEM.
// - The correction warp group (`tileas.warp_group = 2`, `tileas.role =
//   "correction"`) rescales O_t in TMEM in place by alpha = exp2(m_old -
//   m_new), which softmax hands it through shared memory (FA4's sm_stats).
// - After the loop the epilogue stages O in shared memory and TMA-stores it.
//   (FA4 also divides O by the row sum there; tileas has no division, so
//   this example stores O unnormalized.)
//
// TMEM: S0 and S1 at 128 columns each, P inside them, O0 and O1 at 128
// columns each: 512 of 512. SMEM: Q 2 x 32 KiB and the O staging tiles
// 2 x 32 KiB (128 KiB), so the K/V ring fits 3 slots of 32 KiB in 227 KiB.
// K/V blocks are read by the 16 CTAs of one (batch, head) at sequence
// length 2048 while in L2 (`l2_reuse = 16`, as in attention_fwd.mlir).
//
// CTA x of the grid owns Q rows 256 x .. 256 x + 255 of one (batch, head):
// its two Q tiles are loaded once, before the loop (the kernel's prologue
// fills them before the warps take their roles), and O is stored to the
// same rows after it.
func.func @fa4_fwd(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                   %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                   %descV: !tileas.tma_desc<128x128xbf16> {tileas.name = "V"},
                   %descO: !tileas.tma_desc<128x128xbf16> {tileas.name = "O"},
                   %nKV: index {tileas.name = "nKV"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %row0 = arith.muli %bx, %c256 : index
  %row1 = arith.addi %row0, %c128 : index
  %q0 = tileas.tma_load %descQ[%row0, %c0]
      : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %q1 = tileas.tma_load %descQ[%row1, %c0]
      : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %mInit = arith.constant dense<0xFF800000> : tensor<128xf32>
  %lInit = arith.constant dense<0.0> : tensor<128xf32>
  %oStage0 = tileas.alloc_smem : !tileas.smem<128x128xbf16>
  %oStage1 = tileas.alloc_smem : !tileas.smem<128x128xbf16>
  %sBuf0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %sBuf1 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %oInit0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %oInit1 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %res:6 = scf.for %j = %c0 to %nKV step %c1
      iter_args(%m0 = %mInit, %l0 = %lInit, %o0 = %oInit0,
                %m1 = %mInit, %l1 = %lInit, %o1 = %oInit1)
      -> (tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>,
          tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] {l2_reuse = 16, tileas.ring = "kv"}
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %v = tileas.tma_load %descV[%row, %c0] {l2_reuse = 16, tileas.ring = "kv"}
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s0 = tileas.umma %q0, %k, %sBuf0
        : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %s1 = tileas.umma %q1, %k, %sBuf1
        : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>

    // Softmax, Q tile 0.
    %sr0 = tileas.tmem_load %s0 {tileas.warp_group = 0}
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx0 = tileas.reduce_max %sr0 {tileas.warp_group = 0}
        : tensor<128x128xf32> -> tensor<128xf32>
    %mN0 = tileas.max %m0, %mx0 {tileas.warp_group = 0}
        : tensor<128xf32>, tensor<128xf32>
    %sh0 = tileas.sub %sr0, %mN0 {tileas.warp_group = 0}
        : tensor<128x128xf32>, tensor<128xf32>
    %p0 = tileas.exp2 %sh0 {tileas.warp_group = 0} : tensor<128x128xf32>
    %rs0 = tileas.reduce_sum %p0 {tileas.warp_group = 0}
        : tensor<128x128xf32> -> tensor<128xf32>
    %d0 = tileas.sub %m0, %mN0 {tileas.warp_group = 0}
        : tensor<128xf32>, tensor<128xf32>
    %a0 = tileas.exp2 %d0 {tileas.warp_group = 0} : tensor<128xf32>
    %stat0 = tileas.smem_store %a0 {tileas.warp_group = 0}
        : tensor<128xf32> -> !tileas.smem<128xf32>
    %ls0 = tileas.mul %l0, %a0 {tileas.warp_group = 0}
        : tensor<128xf32>, tensor<128xf32>
    %lN0 = tileas.add %ls0, %rs0 {tileas.warp_group = 0}
        : tensor<128xf32>, tensor<128xf32>
    %pb0 = tileas.cvt %p0 {tileas.warp_group = 0}
        : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt0 = tileas.tmem_store %pb0 into %s0 as !tileas.tmem<128x128xf32>
        {tileas.warp_group = 0}
        : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>

    // Softmax, Q tile 1.
    %sr1 = tileas.tmem_load %s1 {tileas.warp_group = 1}
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx1 = tileas.reduce_max %sr1 {tileas.warp_group = 1}
        : tensor<128x128xf32> -> tensor<128xf32>
    %mN1 = tileas.max %m1, %mx1 {tileas.warp_group = 1}
        : tensor<128xf32>, tensor<128xf32>
    %sh1 = tileas.sub %sr1, %mN1 {tileas.warp_group = 1}
        : tensor<128x128xf32>, tensor<128xf32>
    %p1 = tileas.exp2 %sh1 {tileas.warp_group = 1} : tensor<128x128xf32>
    %rs1 = tileas.reduce_sum %p1 {tileas.warp_group = 1}
        : tensor<128x128xf32> -> tensor<128xf32>
    %d1 = tileas.sub %m1, %mN1 {tileas.warp_group = 1}
        : tensor<128xf32>, tensor<128xf32>
    %a1 = tileas.exp2 %d1 {tileas.warp_group = 1} : tensor<128xf32>
    %stat1 = tileas.smem_store %a1 {tileas.warp_group = 1}
        : tensor<128xf32> -> !tileas.smem<128xf32>
    %ls1 = tileas.mul %l1, %a1 {tileas.warp_group = 1}
        : tensor<128xf32>, tensor<128xf32>
    %lN1 = tileas.add %ls1, %rs1 {tileas.warp_group = 1}
        : tensor<128xf32>, tensor<128xf32>
    %pb1 = tileas.cvt %p1 {tileas.warp_group = 1}
        : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt1 = tileas.tmem_store %pb1 into %s1 as !tileas.tmem<128x128xf32>
        {tileas.warp_group = 1}
        : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>

    // Correction: O_t *= alpha_t in TMEM, before O_t += P_t V.
    %al0 = tileas.smem_load %stat0 {tileas.warp_group = 2, tileas.role = "correction"}
        : !tileas.smem<128xf32> -> tensor<128xf32>
    %or0 = tileas.tmem_load %o0 {tileas.warp_group = 2, tileas.role = "correction"}
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %oc0 = tileas.mul %or0, %al0 {tileas.warp_group = 2, tileas.role = "correction"}
        : tensor<128x128xf32>, tensor<128xf32>
    %ot0 = tileas.tmem_store %oc0 {tileas.warp_group = 2, tileas.role = "correction"}
        : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>
    %al1 = tileas.smem_load %stat1 {tileas.warp_group = 2, tileas.role = "correction"}
        : !tileas.smem<128xf32> -> tensor<128xf32>
    %or1 = tileas.tmem_load %o1 {tileas.warp_group = 2, tileas.role = "correction"}
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %oc1 = tileas.mul %or1, %al1 {tileas.warp_group = 2, tileas.role = "correction"}
        : tensor<128x128xf32>, tensor<128xf32>
    %ot1 = tileas.tmem_store %oc1 {tileas.warp_group = 2, tileas.role = "correction"}
        : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>

    %oN0 = tileas.umma %pt0, %v, %ot0 {accumulate, b_mn_major}
        : !tileas.tmem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %oN1 = tileas.umma %pt1, %v, %ot1 {accumulate, b_mn_major}
        : !tileas.tmem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %mN0, %lN0, %oN0, %mN1, %lN1, %oN1
        : tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>,
          tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>
  }
  %of0 = tileas.tmem_load %res#2 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %ob0 = tileas.cvt %of0 : tensor<128x128xf32> -> tensor<128x128xbf16>
  %os0 = tileas.smem_store %ob0 into %oStage0
      : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %os0, %descO[%row0, %c0]
      : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  %of1 = tileas.tmem_load %res#5 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %ob1 = tileas.cvt %of1 : tensor<128x128xf32> -> tensor<128x128xbf16>
  %os1 = tileas.smem_store %ob1 into %oStage1
      : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %os1, %descO[%row1, %c0]
      : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
