// CUTLASS's default epilogue, LinearCombination, written plainly:
// D = alpha * (A . B^T) + beta * C with alpha = 1.5, beta = -0.5,
// bf16 A, B, C and D, f32 accumulation and epilogue math; 128x256 tiles,
// grid x over N tiles and y over M tiles (CUTLASS's default raster).
func.func @lincomb_gemm(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                        %descB: !tileas.tma_desc<256x64xbf16> {tileas.name = "B"},
                        %descC: !tileas.tma_desc<128x256xbf16> {tileas.name = "C"},
                        %descD: !tileas.tma_desc<128x256xbf16> {tileas.name = "D"},
                        %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bn = gpu.block_id x
  %bm = gpu.block_id y
  %m = arith.muli %bm, %c128 : index
  %n = arith.muli %bn, %c256 : index
  %alpha = arith.constant dense<1.5> : tensor<128xf32>
  %beta = arith.constant dense<-0.5> : tensor<128xf32>
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %x = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %cs = tileas.tma_load %descC[%m, %n] : !tileas.tma_desc<128x256xbf16> -> !tileas.smem<128x256xbf16>
  %ct = tileas.smem_load %cs : !tileas.smem<128x256xbf16> -> tensor<128x256xbf16>
  %cf = tileas.cvt %ct : tensor<128x256xbf16> -> tensor<128x256xf32>
  %bc = tileas.mul %cf, %beta : tensor<128x256xf32>, tensor<128xf32>
  %y = tileas.fma %x, %alpha, %bc : tensor<128x256xf32>, tensor<128xf32>, tensor<128x256xf32>
  %yb = tileas.cvt %y : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %yb : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
