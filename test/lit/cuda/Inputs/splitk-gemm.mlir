// A split-K GEMM mainloop whose tile origins and trip count are index
// arithmetic before the loop, computed once in the kernel's prologue:
// - tile (tm, tn) of C from the linear block index x, row-major over the
//   N / 256 tile columns (divsi, remsi);
// - split z of gridDim.z runs K blocks [first, last) of its share of the
//   K / 64 blocks (ceildivsi, minsi, maxsi: a trailing split may get none);
// - its partial tile goes to slice z of P, whose rows start at z * M
//   (M passed as i32: index_cast).
// The load and MMA agents loop over the split's K blocks; the load agent
// and the epilogue read the tile origins.
func.func @splitk_gemm(%descA: !tileas.tma_desc<128x64xbf16> {tileas.name = "A"},
                       %descB: !tileas.tma_desc<256x64xbf16> {tileas.name = "B"},
                       %descP: !tileas.tma_desc<128x256xbf16> {tileas.name = "P"},
                       %M: i32 {tileas.name = "M"}, %N: index {tileas.name = "N"},
                       %K: index {tileas.name = "K"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %tilesN = arith.ceildivsi %N, %c256 : index
  %tm = arith.divsi %bx, %tilesN : index
  %tn = arith.remsi %bx, %tilesN : index
  %m = arith.muli %tm, %c128 : index
  %n = arith.muli %tn, %c256 : index
  %bz = gpu.block_id z
  %splits = gpu.grid_dim z
  %kBlocks = arith.ceildivsi %K, %c64 : index
  %share = arith.ceildivsi %kBlocks, %splits : index
  %first = arith.muli %bz, %share : index
  %next = arith.addi %first, %share : index
  %last = arith.minsi %next, %kBlocks : index
  %k0 = arith.muli %first, %c64 : index
  %k1 = arith.muli %last, %c64 : index
  %kEnd = arith.maxsi %k1, %k0 : index
  %mIdx = arith.index_cast %M : i32 to index
  %slice = arith.muli %bz, %mIdx : index
  %row = arith.addi %slice, %m : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %k0 to %kEnd step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k]
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k]
        : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>,
          !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %o : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descP[%row, %n]
      : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
