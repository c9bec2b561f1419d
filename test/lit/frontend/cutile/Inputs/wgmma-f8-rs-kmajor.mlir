// An 8-bit A in registers and a B given K-major (N x K): the A holds its K
// in another order than the rows, and nothing stages B to follow it.
func.func @f8_rs_kmajor(%descA: !tileas.tma_desc<64x32xf8E4M3FN> {tileas.name = "A"},
                        %descB: !tileas.tma_desc<64x32xf8E4M3FN> {tileas.name = "B"}) {
  %c0 = arith.constant 0 : index
  %a = tileas.tma_load %descA[%c0, %c0] : !tileas.tma_desc<64x32xf8E4M3FN> -> !tileas.smem<64x32xf8E4M3FN>
  %b = tileas.tma_load %descB[%c0, %c0] : !tileas.tma_desc<64x32xf8E4M3FN> -> !tileas.smem<64x32xf8E4M3FN>
  %ar = tileas.smem_load %a : !tileas.smem<64x32xf8E4M3FN> -> tensor<64x32xf8E4M3FN>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tileas.wgmma %ar, %b, %zero : tensor<64x32xf8E4M3FN>, !tileas.smem<64x32xf8E4M3FN>, tensor<64x64xf32> -> tensor<64x64xf32>
  return
}
