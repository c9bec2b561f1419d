// A fresh kernel (session 29): an RNN cell's gate pre-activation, two GEMMs
// into one accumulator, D = bf16(X Wx^T + H Wh^T),
// bf16 X (M x Kx), H (M x Kh), Wx (N x Kx), Wh (N x Kh); 128 x 128 tiles,
// K-block 64; two K loops in sequence, the second continuing the first's sum.
func.func @dual_gemm(%descX: !tileas.tma_desc<128x64xbf16> {tileas.name = "X"},
                     %descWx: !tileas.tma_desc<128x64xbf16> {tileas.name = "Wx"},
                     %descH: !tileas.tma_desc<128x64xbf16> {tileas.name = "H"},
                     %descWh: !tileas.tma_desc<128x64xbf16> {tileas.name = "Wh"},
                     %descD: !tileas.tma_desc<128x128xbf16> {tileas.name = "D"},
                     %Kx: index {tileas.name = "Kx"},
                     %Kh: index {tileas.name = "Kh"}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc1 = scf.for %k = %c0 to %Kx step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descX[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descWx[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %acc2 = scf.for %k = %c0 to %Kh step %c64
      iter_args(%accIn = %acc1) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descH[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descWh[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %y = tileas.tmem_load %acc2 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %yh = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
  %st = tileas.smem_store %yh : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %st, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
