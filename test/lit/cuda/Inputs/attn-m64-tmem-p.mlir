// Decode-time attention with 64-row Q tiles (tcgen05.mma with M = 64), head
// dim 64, K and V 128x64 blocks, O rescaled in place before O += P V, with P
// handed to the MMA through TMEM as FA4 does at 128 rows.
func.func @attn64(%descQ: !tileas.tma_desc<64x64xbf16> {tileas.name = "Q"},
                  %descK: !tileas.tma_desc<128x64xbf16> {tileas.name = "K"},
                  %descV: !tileas.tma_desc<128x64xbf16> {tileas.name = "V"},
                  %descO: !tileas.tma_desc<64x64xbf16> {tileas.name = "O"},
                  %nKV: index {tileas.name = "nKV"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %c64 = arith.constant 64 : index
  %qRow = arith.muli %bx, %c64 : index
  %q = tileas.tma_load %descQ[%qRow, %c0]
      : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %l0 = arith.constant dense<0.0> : tensor<64xf32>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<64x128xf32>
  %o0 = tileas.alloc_tmem : !tileas.tmem<64x64xf32>
  %res:3 = scf.for %j = %c0 to %nKV step %c1
      iter_args(%mPrev = %m0, %lPrev = %l0, %oAcc = %o0)
      -> (tensor<64xf32>, tensor<64xf32>, !tileas.tmem<64x64xf32>) {
    %kvRow = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%kvRow, %c0]
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %v = tileas.tma_load %descV[%kvRow, %c0]
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %s = tileas.umma %q, %k, %sbuf
        : !tileas.smem<64x64xbf16>, !tileas.smem<128x64xbf16>,
          !tileas.tmem<64x128xf32> -> !tileas.tmem<64x128xf32>
    %sr = tileas.tmem_load %s : !tileas.tmem<64x128xf32> -> tensor<64x128xf32>
    %mx = tileas.reduce_max %sr : tensor<64x128xf32> -> tensor<64xf32>
    %mNew = tileas.max %mPrev, %mx : tensor<64xf32>, tensor<64xf32>
    %sh = tileas.sub %sr, %mNew : tensor<64x128xf32>, tensor<64xf32>
    %p = tileas.exp2 %sh : tensor<64x128xf32>
    %rs = tileas.reduce_sum %p : tensor<64x128xf32> -> tensor<64xf32>
    %d = tileas.sub %mPrev, %mNew : tensor<64xf32>, tensor<64xf32>
    %alpha = tileas.exp2 %d : tensor<64xf32>
    %ls = tileas.mul %lPrev, %alpha : tensor<64xf32>, tensor<64xf32>
    %lNew = tileas.add %ls, %rs : tensor<64xf32>, tensor<64xf32>
    %pb = tileas.cvt %p : tensor<64x128xf32> -> tensor<64x128xbf16>
    %pt = tileas.tmem_store %pb : tensor<64x128xbf16> -> !tileas.tmem<64x128xbf16>
    %or = tileas.tmem_load %oAcc : !tileas.tmem<64x64xf32> -> tensor<64x64xf32>
    %oc = tileas.mul %or, %alpha : tensor<64x64xf32>, tensor<64xf32>
    %ot = tileas.tmem_store %oc : tensor<64x64xf32> -> !tileas.tmem<64x64xf32>
    %oNew = tileas.umma %pt, %v, %ot {accumulate, b_mn_major}
        : !tileas.tmem<64x128xbf16>, !tileas.smem<128x64xbf16>,
          !tileas.tmem<64x64xf32> -> !tileas.tmem<64x64xf32>
    scf.yield %mNew, %lNew, %oNew
        : tensor<64xf32>, tensor<64xf32>, !tileas.tmem<64x64xf32>
  }
  %of = tileas.tmem_load %res#2 : !tileas.tmem<64x64xf32> -> tensor<64x64xf32>
  %ob = tileas.cvt %of : tensor<64x64xf32> -> tensor<64x64xbf16>
  %os = tileas.smem_store %ob : tensor<64x64xbf16> -> !tileas.smem<64x64xbf16>
  tileas.tma_store %os, %descO[%qRow, %c0]
      : !tileas.smem<64x64xbf16>, !tileas.tma_desc<64x64xbf16>
  return
}
