// Causal attention forward, head dim 128, as FlashAttention and Triton's
// tutorial write it for a decoder's prefill (Sq = Sk): query row i sees keys
// j <= i. The mask is written with element positions: tileas.iota of the
// score tile's rows and columns, offset by the block's first query and key,
// compared with arith.cmpi; masked scores become -inf by arith.select
// before the row maximum. Query block b runs b + 1 key blocks (the last
// holds the diagonal). Otherwise attn-scale-hd128.mlir: the online softmax
// in base 2 with O rescaled in place, O divided by the row sum after the
// loop; one 128-row Q tile per CTA, bf16 in, f32 softmax state.
func.func @attn_causal_hd128(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                            %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                            %descV: !tileas.tma_desc<128x128xbf16> {tileas.name = "V"},
                            %descO: !tileas.tma_desc<128x128xbf16> {tileas.name = "O"},
                            %scale: f32 {tileas.name = "scale"}) {
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
  %trips = arith.addi %bx, %c1 : index
  %qFirst = arith.index_cast %qRow : index to i32
  %ninf = arith.constant dense<0xFF800000> : tensor<128x128xf32>
  %res:3 = scf.for %j = %c0 to %trips step %c1
      iter_args(%mPrev = %m0, %lPrev = %l0, %oAcc = %o0)
      -> (tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>) {
    %kvRow = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%kvRow, %c0]
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %v = tileas.tma_load %descV[%kvRow, %c0]
        : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s = tileas.umma %q, %k, %sbuf
        : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr = tileas.tmem_load %s : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %sc = tileas.mul %sr, %scale : tensor<128x128xf32>, f32
    %rows = tileas.iota dimension = 0 : tensor<128x128xi32>
    %cols = tileas.iota dimension = 1 : tensor<128x128xi32>
    %q0 = tensor.splat %qFirst : tensor<128x128xi32>
    %kFirst = arith.index_cast %kvRow : index to i32
    %k0 = tensor.splat %kFirst : tensor<128x128xi32>
    %qPos = arith.addi %rows, %q0 : tensor<128x128xi32>
    %kPos = arith.addi %cols, %k0 : tensor<128x128xi32>
    %seen = arith.cmpi sle, %kPos, %qPos : tensor<128x128xi32>
    %ss = arith.select %seen, %sc, %ninf : tensor<128x128xi1>, tensor<128x128xf32>
    %mx = tileas.reduce_max %ss : tensor<128x128xf32> -> tensor<128xf32>
    %mNew = tileas.max %mPrev, %mx : tensor<128xf32>, tensor<128xf32>
    %sh = tileas.sub %ss, %mNew : tensor<128x128xf32>, tensor<128xf32>
    %p = tileas.exp2 %sh : tensor<128x128xf32>
    %rs = tileas.reduce_sum %p : tensor<128x128xf32> -> tensor<128xf32>
    %dm = tileas.sub %mPrev, %mNew : tensor<128xf32>, tensor<128xf32>
    %alpha = tileas.exp2 %dm : tensor<128xf32>
    %la = tileas.mul %lPrev, %alpha : tensor<128xf32>, tensor<128xf32>
    %lNew = tileas.add %la, %rs : tensor<128xf32>, tensor<128xf32>
    %pb = tileas.cvt %p : tensor<128x128xf32> -> tensor<128x128xbf16>
    %pt = tileas.tmem_store %pb : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
    %or = tileas.tmem_load %oAcc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %oc = tileas.mul %or, %alpha : tensor<128x128xf32>, tensor<128xf32>
    %ot = tileas.tmem_store %oc : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>
    %oNew = tileas.umma %pt, %v, %ot {accumulate, b_mn_major}
        : !tileas.tmem<128x128xbf16>, !tileas.smem<128x128xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %mNew, %lNew, %oNew
        : tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>
  }
  %of = tileas.tmem_load %res#2 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %inv = arith.divf %one, %res#1 : tensor<128xf32>
  %on = tileas.mul %of, %inv : tensor<128x128xf32>, tensor<128xf32>
  %ob = tileas.cvt %on : tensor<128x128xf32> -> tensor<128x128xbf16>
  %os = tileas.smem_store %ob : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %os, %descO[%qRow, %c0]
      : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
