// A fresh kernel (session 29): a linear layer's weight gradient, as a
// training step's backward pass computes it, dW = dY^T X: dY (T x Nout) and
// X (T x Kin) both stored token-major, so A's tile is K x M and B's K x N
// (both MN-major); f32 dW, 128 x 128 tiles, 64 tokens a K-block.
func.func @weight_grad(%descDY: !tileas.tma_desc<64x128xbf16> {tileas.name = "dY"},
                       %descX: !tileas.tma_desc<64x128xbf16> {tileas.name = "X"},
                       %descDW: !tileas.tma_desc<128x128xf32> {tileas.name = "dW"},
                       %T: index {tileas.name = "T"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %t = %c0 to %T step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descDY[%t, %m] : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
    %b = tileas.tma_load %descX[%t, %n] : !tileas.tma_desc<64x128xbf16> -> !tileas.smem<64x128xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate, a_mn_major, b_mn_major}
        : !tileas.smem<64x128xbf16>, !tileas.smem<64x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %y = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %st = tileas.smem_store %y : tensor<128x128xf32> -> !tileas.smem<128x128xf32>
  tileas.tma_store %st, %descDW[%m, %n] : !tileas.smem<128x128xf32>, !tileas.tma_desc<128x128xf32>
  return
}
