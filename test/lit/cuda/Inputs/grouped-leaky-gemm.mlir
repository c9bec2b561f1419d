// Written plainly, as Triton's matmul tutorial is: a 1-D grid over the output
// tiles in grouped order (GROUP_M = 8 tile rows share their B tiles in L2),
// bf16 in, f32 accumulation, a leaky ReLU (slope 0.01) epilogue and bf16 out.
// No warp groups or schedule hints: the pipeline decides.
func.func @grouped_leaky_gemm(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                              %descB: !tileas.tma_desc<256x64xbf16> {tileas.name = "B"},
                              %descC: !tileas.tma_desc<128x256xbf16> {tileas.name = "C"},
                              %M: index {tileas.name = "M"}, %N: index {tileas.name = "N"},
                              %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %pid = gpu.block_id x
  %pidsM = arith.ceildivsi %M, %c128 : index
  %pidsN = arith.ceildivsi %N, %c256 : index
  %inGroup = arith.muli %pidsN, %c8 : index
  %group = arith.divsi %pid, %inGroup : index
  %firstM = arith.muli %group, %c8 : index
  %left = arith.subi %pidsM, %firstM : index
  %groupM = arith.minsi %left, %c8 : index
  %r = arith.remsi %pid, %inGroup : index
  %rm = arith.remsi %r, %groupM : index
  %pidM = arith.addi %firstM, %rm : index
  %pidN = arith.divsi %r, %groupM : index
  %m = arith.muli %pidM, %c128 : index
  %n = arith.muli %pidN, %c256 : index
  %slope = arith.constant dense<0.01> : tensor<128xf32>
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
  %sx = tileas.mul %x, %slope : tensor<128x256xf32>, tensor<128xf32>
  %y = tileas.max %x, %sx : tensor<128x256xf32>, tensor<128x256xf32>
  %yb = tileas.cvt %y : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %yb : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
