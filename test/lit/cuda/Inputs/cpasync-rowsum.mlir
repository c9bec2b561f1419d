// An Ampere-style loop: cp.async tiles from global memory, row sums on SIMT,
// the sums staged in SMEM and stored with TMA after the loop.
func.func @cpasync_rowsum(%src: memref<4096x64xf32> {tileas.name = "src"},
                           %n: index {tileas.name = "n"},
                           %out: !tileas.tma_desc<128xf32> {tileas.name = "out"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %z = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128xf32>) {
    %row = arith.muli %i, %c128 : index
    %t = tileas.cp_async %src[%row, %c0] : memref<4096x64xf32> -> !tileas.smem<128x64xf32>
    %v = tileas.smem_load %t : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
    %s = tileas.reduce_sum %v : tensor<128x64xf32> -> tensor<128xf32>
    %a = tileas.add %acc, %s : tensor<128xf32>, tensor<128xf32>
    scf.yield %a : tensor<128xf32>
  }
  %st = tileas.smem_store %r : tensor<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %st, %out[%c0] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}
