// rmsnorm-gamma.mlir with gamma's vector made in one warp group and read in
// another: warp group 0 loads gamma from SMEM and converts it to f32, warp
// group 1 normalizes the rows and multiplies by the broadcast gamma. The
// vector crosses agents through a pipe slot (an SMEM tile of 128 f32 the
// materializer adds), and the reading agent streams it from there.
func.func @rmsnorm_gamma_wg(%descX: !tileas.tma_desc<128x128xbf16> {tileas.name = "X"},
                         %descG: !tileas.tma_desc<128xbf16> {tileas.name = "gamma"},
                         %descY: !tileas.tma_desc<128x128xbf16> {tileas.name = "Y"},
                         %blocks: index {tileas.name = "blocks"}) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %grid = gpu.grid_dim x
  %inv = arith.constant dense<0.0078125> : tensor<128xf32>
  %eps = arith.constant dense<1.0e-05> : tensor<128xf32>
  %gs = tileas.tma_load %descG[%c0] : !tileas.tma_desc<128xbf16> -> !tileas.smem<128xbf16>
  scf.for %i = %bx to %blocks step %grid {
    %row = arith.muli %i, %c128 : index
    %t = tileas.tma_load %descX[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %xb = tileas.smem_load %t {tileas.warp_group = 1} : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
    %x = tileas.cvt %xb {tileas.warp_group = 1} : tensor<128x128xbf16> -> tensor<128x128xf32>
    %sq = arith.mulf %x, %x {tileas.warp_group = 1} : tensor<128x128xf32>
    %ss = tileas.reduce_sum %sq {tileas.warp_group = 1} : tensor<128x128xf32> -> tensor<128xf32>
    %ms = arith.mulf %ss, %inv {tileas.warp_group = 1} : tensor<128xf32>
    %v = arith.addf %ms, %eps {tileas.warp_group = 1} : tensor<128xf32>
    %rstd = math.rsqrt %v {tileas.warp_group = 1} : tensor<128xf32>
    %xn = tileas.mul %x, %rstd {tileas.warp_group = 1} : tensor<128x128xf32>, tensor<128xf32>
    %gb = tileas.smem_load %gs {tileas.warp_group = 0} : !tileas.smem<128xbf16> -> tensor<128xbf16>
    %g = tileas.cvt %gb {tileas.warp_group = 0} : tensor<128xbf16> -> tensor<128xf32>
    %gt = tileas.broadcast %g dimensions = [0] {tileas.warp_group = 1} : tensor<128xf32> -> tensor<128x128xf32>
    %y = arith.mulf %xn, %gt {tileas.warp_group = 1} : tensor<128x128xf32>
    %yb = tileas.cvt %y {tileas.warp_group = 1} : tensor<128x128xf32> -> tensor<128x128xbf16>
    %o = tileas.smem_store %yb {tileas.warp_group = 1} : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
    tileas.tma_store %o, %descY[%row, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  }
  return
}
