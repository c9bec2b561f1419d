// A grouped GEMM as Triton's matmul tutorial writes it, in 32-bit integers
// throughout: M, N and K are i32 kernel arguments, the program id is cast to
// i32, the grouped tile order (GROUP_M = 8) is i32 division and remainder,
// the trip count is cdiv(K, 64) in i32 and the K loop runs an i32 induction
// variable (scf.for ... : i32) whose K origin is a shift. Tile origins reach
// the TMA as index casts. bf16 in, f32 accumulation, bf16 out, 128x128
// tiles, K-block 64; a ragged K reads zeros past its end (TMA).
func.func @i32_grouped_gemm(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                            %descB: !tileas.tma_desc<128x64xbf16> {tileas.name = "B"},
                            %descC: !tileas.tma_desc<128x128xbf16> {tileas.name = "C"},
                            %M: i32 {tileas.name = "M"}, %N: i32 {tileas.name = "N"},
                            %K: i32 {tileas.name = "K"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %bid = gpu.block_id x
  %pid = arith.index_cast %bid : index to i32
  %pidsM = arith.ceildivsi %M, %c128 : i32
  %pidsN = arith.ceildivsi %N, %c128 : i32
  %inGroup = arith.muli %pidsN, %c8 : i32
  %group = arith.divsi %pid, %inGroup : i32
  %firstM = arith.muli %group, %c8 : i32
  %left = arith.subi %pidsM, %firstM : i32
  %groupM = arith.minsi %left, %c8 : i32
  %r = arith.remsi %pid, %inGroup : i32
  %rm = arith.remsi %r, %groupM : i32
  %pidM = arith.addi %firstM, %rm : i32
  %pidN = arith.divsi %r, %groupM : i32
  %m32 = arith.muli %pidM, %c128 : i32
  %n32 = arith.muli %pidN, %c128 : i32
  %m = arith.index_cast %m32 : i32 to index
  %n = arith.index_cast %n32 : i32 to index
  %trips = arith.ceildivsi %K, %c64 : i32
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %kt = %c0 to %trips step %c1
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) : i32 {
    %k32 = arith.shli %kt, %c6 : i32
    %k = arith.index_cast %k32 : i32 to index
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %y = tileas.cvt %x : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %y : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descC[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
