// RMSNorm over 128-column rows, written as Triton's and Apex's fused norms
// write it for rows that fit one tile: y = x * rsqrt(mean(x^2) + eps), read
// and written as bf16, the statistics in f32. CTA b walks `blocks` blocks of
// 128 rows, block i starting at row 128 (b * blocks + i). The mean is the
// row sum times 1/128; eps is passed in.
func.func @rmsnorm_rows(%descX: !tileas.tma_desc<128x128xbf16> {tileas.name = "X"},
                        %descY: !tileas.tma_desc<128x128xbf16> {tileas.name = "Y"},
                        %eps: f32 {tileas.name = "eps"},
                        %blocks: index {tileas.name = "blocks"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %first = arith.muli %bx, %blocks : index
  %invn = arith.constant dense<0.0078125> : tensor<128xf32>
  %epsv = tensor.splat %eps : tensor<128xf32>
  scf.for %i = %c0 to %blocks step %c1 {
    %blk = arith.addi %first, %i : index
    %row = arith.muli %blk, %c128 : index
    %t = tileas.tma_load %descX[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %xb = tileas.smem_load %t : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
    %x = arith.extf %xb : tensor<128x128xbf16> to tensor<128x128xf32>
    %xx = arith.mulf %x, %x : tensor<128x128xf32>
    %ss = tileas.reduce_sum %xx : tensor<128x128xf32> -> tensor<128xf32>
    %ms = arith.mulf %ss, %invn : tensor<128xf32>
    %me = arith.addf %ms, %epsv : tensor<128xf32>
    %r = math.rsqrt %me : tensor<128xf32>
    %y = tileas.mul %x, %r : tensor<128x128xf32>, tensor<128xf32>
    %yb = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xbf16>
    %o = tileas.smem_store %yb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
    tileas.tma_store %o, %descY[%row, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  }
  return
}
