// The bundled GEMM (examples/gemm_mainloop.mlir) at 128 x 128 tiles: bf16 in,
// f32 accumulation, bf16 out, K-block 64. On sm_90a one consumer warpgroup
// holds its accumulator (128 registers a thread), so a persistent kernel runs
// two ping-pong copies of it (docs/cuda.md, "Ping-pong consumers"). Block
// (x, y) owns rows 128 x and columns 128 y.
func.func @gemm_128x128(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                        %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                        %descC: !tileas.tma_desc<128x128xbf16> {tileas.name = "C"},
                        %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k]
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k]
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>,
          !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %o = tileas.cvt %r : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %o : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descC[%m, %n]
      : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
