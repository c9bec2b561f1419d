// Attention with 64-key blocks, as Triton's fused-attention tutorial tiles it
// (BLOCK_M 128, BLOCK_N 64), head dim 128: attn-scale-hd128's loop with K and
// V read 64 rows at a time, so S and P are 128 x 64 and P V takes K 64.
func.func @attn_bn64_hd128(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                           %descK: !tileas.tma_desc<64x128xbf16> {tileas.name = "K"},
                           %descV: !tileas.tma_desc<64x128xbf16> {tileas.name = "V"},
                           %descO: !tileas.tma_desc<128x128xbf16> {tileas.name = "O"},
                           %scale: f32 {tileas.name = "scale"},
                           %nKV: index {tileas.name = "nKV"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %qRow = arith.muli %bx, %c128 : index
  %q = tileas.tma_load %descQ[%qRow, %c0]
      : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<128x64xf32>
  %o0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %res:3 = scf.for %j = %c0 to %nKV step %c1
      iter_args(%mPrev = %m0, %lPrev = %l0, %oAcc = %o0)
      -> (tensor<128xf32>, tensor<128xf32>, !tileas.tmem<128x128xf32>) {
    %kvRow = arith.muli %j, %c64 : index
    %k = tileas.tma_load %descK[%kvRow, %c0]
        : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
    %v = tileas.tma_load %descV[%kvRow, %c0]
        : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
    %s = tileas.umma %q, %k, %sbuf
        : !tileas.smem<128x128xbf16>, !tileas.smem<64x128xbf16>,
          !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
    %sr = tileas.tmem_load %s : !tileas.tmem<128x64xf32> -> tensor<128x64xf32>
    %ss = tileas.mul %sr, %scale : tensor<128x64xf32>, f32
    %mx = tileas.reduce_max %ss : tensor<128x64xf32> -> tensor<128xf32>
    %mNew = tileas.max %mPrev, %mx : tensor<128xf32>, tensor<128xf32>
    %sh = tileas.sub %ss, %mNew : tensor<128x64xf32>, tensor<128xf32>
    %p = tileas.exp2 %sh : tensor<128x64xf32>
    %rs = tileas.reduce_sum %p : tensor<128x64xf32> -> tensor<128xf32>
    %dm = tileas.sub %mPrev, %mNew : tensor<128xf32>, tensor<128xf32>
    %alpha = tileas.exp2 %dm : tensor<128xf32>
    %la = tileas.mul %lPrev, %alpha : tensor<128xf32>, tensor<128xf32>
    %lNew = tileas.add %la, %rs : tensor<128xf32>, tensor<128xf32>
    %pb = tileas.cvt %p : tensor<128x64xf32> -> tensor<128x64xbf16>
    %pt = tileas.tmem_store %pb : tensor<128x64xbf16> -> !tileas.tmem<128x64xbf16>
    %or = tileas.tmem_load %oAcc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %oc = tileas.mul %or, %alpha : tensor<128x128xf32>, tensor<128xf32>
    %ot = tileas.tmem_store %oc : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>
    %oNew = tileas.umma %pt, %v, %ot {accumulate, b_mn_major}
        : !tileas.tmem<128x64xbf16>, !tileas.smem<64x128xbf16>,
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
