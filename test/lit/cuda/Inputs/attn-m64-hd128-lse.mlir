// Decode-time attention with 64-row Q tiles (tcgen05.mma with M = 64), as
// FlashAttention and Triton's tutorial write it, head dim 128: S = Q K^T
// scaled by the softmax scale before the row maximum (`qk_scale = sm_scale *
// log2(e)`, passed in), the online softmax in base 2 with O rescaled in place
// before O += P V, O divided by the row sum after the loop. One 64-row Q tile
// per CTA, K and V 128x128 blocks, bf16 in, f32 softmax state. P, the A
// operand of the M = 64 MMA O += P V, goes through shared memory
// (`tileas.smem_store`; docs/cuda.md, "P through SMEM").
// After the loop it also writes the log-sum-exp of each row (base 2, as the
// backward pass of FlashAttention reads it): lse = m + log2(l).
func.func @attn_m64_hd128_lse(%descQ: !tileas.tma_desc<64x128xbf16> {tileas.name = "Q"},
                             %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                             %descV: !tileas.tma_desc<128x128xbf16> {tileas.name = "V"},
                             %descO: !tileas.tma_desc<64x128xbf16> {tileas.name = "O"},
                             %descL: !tileas.tma_desc<64xf32> {tileas.name = "LSE"},
                             %scale: f32 {tileas.name = "scale"},
                             %nKV: index {tileas.name = "nKV"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %qRow = arith.muli %bx, %c64 : index
  %q = tileas.tma_load %descQ[%qRow, %c0]
      : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %l0 = arith.constant dense<0.0> : tensor<64xf32>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<64x128xf32>
  %o0 = tileas.alloc_tmem : !tileas.tmem<64x128xf32>
  %res:3 = scf.for %j = %c0 to %nKV step %c1
      iter_args(%mPrev = %m0, %lPrev = %l0, %oAcc = %o0)
      -> (tensor<64xf32>, tensor<64xf32>, !tileas.tmem<64x128xf32>) {
    %kvRow = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%kvRow, %c0]
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %v = tileas.tma_load %descV[%kvRow, %c0]
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s = tileas.umma %q, %k, %sbuf
        : !tileas.smem<64x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<64x128xf32> -> !tileas.tmem<64x128xf32>
    %sr = tileas.tmem_load %s : !tileas.tmem<64x128xf32> -> tensor<64x128xf32>
    %ss = tileas.mul %sr, %scale : tensor<64x128xf32>, f32
    %mx = tileas.reduce_max %ss : tensor<64x128xf32> -> tensor<64xf32>
    %mNew = tileas.max %mPrev, %mx : tensor<64xf32>, tensor<64xf32>
    %sh = tileas.sub %ss, %mNew : tensor<64x128xf32>, tensor<64xf32>
    %p = tileas.exp2 %sh : tensor<64x128xf32>
    %rs = tileas.reduce_sum %p : tensor<64x128xf32> -> tensor<64xf32>
    %dm = tileas.sub %mPrev, %mNew : tensor<64xf32>, tensor<64xf32>
    %alpha = tileas.exp2 %dm : tensor<64xf32>
    %la = tileas.mul %lPrev, %alpha : tensor<64xf32>, tensor<64xf32>
    %lNew = tileas.add %la, %rs : tensor<64xf32>, tensor<64xf32>
    %pb = tileas.cvt %p : tensor<64x128xf32> -> tensor<64x128xbf16>
    %ps = tileas.smem_store %pb : tensor<64x128xbf16> -> !tileas.smem<64x128xbf16>
    %or = tileas.tmem_load %oAcc : !tileas.tmem<64x128xf32> -> tensor<64x128xf32>
    %oc = tileas.mul %or, %alpha : tensor<64x128xf32>, tensor<64xf32>
    %ot = tileas.tmem_store %oc : tensor<64x128xf32> -> !tileas.tmem<64x128xf32>
    %oNew = tileas.umma %ps, %v, %ot {accumulate, b_mn_major}
        : !tileas.smem<64x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<64x128xf32> -> !tileas.tmem<64x128xf32>
    scf.yield %mNew, %lNew, %oNew
        : tensor<64xf32>, tensor<64xf32>, !tileas.tmem<64x128xf32>
  }
  %of = tileas.tmem_load %res#2 : !tileas.tmem<64x128xf32> -> tensor<64x128xf32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %inv = arith.divf %one, %res#1 : tensor<64xf32>
  %on = tileas.mul %of, %inv : tensor<64x128xf32>, tensor<64xf32>
  %ob = tileas.cvt %on : tensor<64x128xf32> -> tensor<64x128xbf16>
  %os = tileas.smem_store %ob : tensor<64x128xbf16> -> !tileas.smem<64x128xbf16>
  tileas.tma_store %os, %descO[%qRow, %c0]
      : !tileas.smem<64x128xbf16>, !tileas.tma_desc<64x128xbf16>
  %lg = math.log2 %res#1 : tensor<64xf32>
  %lse = arith.addf %res#0, %lg : tensor<64xf32>
  %ls = tileas.smem_store %lse : tensor<64xf32> -> !tileas.smem<64xf32>
  tileas.tma_store %ls, %descL[%qRow] : !tileas.smem<64xf32>, !tileas.tma_desc<64xf32>
  return
}
