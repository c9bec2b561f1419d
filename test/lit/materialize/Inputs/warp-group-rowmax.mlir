// Register tiles handed between warp groups (issue 21): CTA x holds Q rows
// 128 x .. 128 x + 127; per key block j, S_j = Q K_j^T in TMEM. Softmax warp
// group 0 reads S_j, takes its row maximum m_j and keeps the running
// maximum M_j = max(M_{j-1}, m_j) (M_{-1} = 0). The correction warp group 1
// sums m_j (read in its own iteration) and M_{j-1} (the running maximum of
// the iteration before: carried across iterations and agents). Neither
// value is stored to shared memory by hand: the materializer hands both to
// the correction warp group through SMEM pipes. After the loop group 0
// stores M, and the correction warp group stores the sum of the m_j and
// that of the M_j (M_{N-1} plus the sum of the M_{j-1}: it reads M from the
// pipe iteration N that no iteration reads).
func.func @warp_group_rowmax(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                             %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                             %nKV: index {tileas.name = "nKV"},
                             %descM: !tileas.tma_desc<128xf32> {tileas.name = "M"},
                             %descSum: !tileas.tma_desc<128xf32> {tileas.name = "sum"},
                             %descRun: !tileas.tma_desc<128xf32> {tileas.name = "runsum"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %qRow = arith.muli %bx, %c128 : index
  %q = tileas.tma_load %descQ[%qRow, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %z = arith.constant dense<0.0> : tensor<128xf32>
  %r:3 = scf.for %j = %c0 to %nKV step %c1 iter_args(%m = %z, %sum = %z, %prev = %z)
      -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s = tileas.umma %q, %k, %sbuf : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr = tileas.tmem_load %s {tileas.warp_group = 0 : i32} : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx = tileas.reduce_max %sr {tileas.warp_group = 0 : i32} : tensor<128x128xf32> -> tensor<128xf32>
    %mN = tileas.max %m, %mx {tileas.warp_group = 0 : i32} : tensor<128xf32>, tensor<128xf32>
    %sumN = tileas.add %sum, %mx {tileas.warp_group = 1 : i32, tileas.role = "correction"} : tensor<128xf32>, tensor<128xf32>
    %prevN = tileas.add %prev, %m {tileas.warp_group = 1 : i32, tileas.role = "correction"} : tensor<128xf32>, tensor<128xf32>
    scf.yield %mN, %sumN, %prevN : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
  }
  %sm = tileas.smem_store %r#0 : tensor<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %sm, %descM[%qRow] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  %ss = tileas.smem_store %r#1 : tensor<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %ss, %descSum[%qRow] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  %run = tileas.add %r#2, %r#0 : tensor<128xf32>, tensor<128xf32>
  %sp = tileas.smem_store %run : tensor<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %sp, %descRun[%qRow] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}
