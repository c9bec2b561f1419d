// A fresh kernel (session 26), written as a user would: the epilogue of a
// quantized linear layer with per-token and per-channel scales, a bias and
// SiLU, as inference libraries fuse it into their scaled GEMMs:
//   D[m, n] = silu(sa[m] * sb[n] * (A . B^T)[m, n] + bias[n]),
// bf16 A, B and D, f32 scales and bias, 128 x 256 tiles, K-block 64. sa is
// one value per row of the tile (a per-row vector), sb and bias one per
// column (per-column vectors), all three brought in by TMA after the loop.
func.func @scaled_bias_silu(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                            %descB: !tileas.tma_desc<256x64xbf16> {tileas.name = "B"},
                            %descSa: !tileas.tma_desc<128xf32> {tileas.name = "sa"},
                            %descSb: !tileas.tma_desc<256xf32> {tileas.name = "sb"},
                            %descBias: !tileas.tma_desc<256xf32> {tileas.name = "bias"},
                            %descD: !tileas.tma_desc<128x256xbf16> {tileas.name = "D"},
                            %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c256 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %sas = tileas.tma_load %descSa[%m] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  %sbs = tileas.tma_load %descSb[%n] : !tileas.tma_desc<256xf32> -> !tileas.smem<256xf32>
  %bs = tileas.tma_load %descBias[%n] : !tileas.tma_desc<256xf32> -> !tileas.smem<256xf32>
  %sa = tileas.smem_load %sas : !tileas.smem<128xf32> -> tensor<128xf32>
  %sb = tileas.smem_load %sbs : !tileas.smem<256xf32> -> tensor<256xf32>
  %bias = tileas.smem_load %bs : !tileas.smem<256xf32> -> tensor<256xf32>
  %sat = tileas.broadcast %sa dimensions = [1] : tensor<128xf32> -> tensor<128x256xf32>
  %sbt = tileas.broadcast %sb dimensions = [0] : tensor<256xf32> -> tensor<128x256xf32>
  %bt = tileas.broadcast %bias dimensions = [0] : tensor<256xf32> -> tensor<128x256xf32>
  %x = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %xs = arith.mulf %x, %sat : tensor<128x256xf32>
  %xss = arith.mulf %xs, %sbt : tensor<128x256xf32>
  %y = arith.addf %xss, %bt : tensor<128x256xf32>
  %one = arith.constant dense<1.0> : tensor<128x256xf32>
  %ny = arith.negf %y : tensor<128x256xf32>
  %e = math.exp %ny : tensor<128x256xf32>
  %den = arith.addf %e, %one : tensor<128x256xf32>
  %silu = arith.divf %y, %den : tensor<128x256xf32>
  %db = arith.truncf %silu : tensor<128x256xf32> to tensor<128x256xbf16>
  %s = tileas.smem_store %db : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
