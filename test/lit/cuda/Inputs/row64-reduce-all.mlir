// A row of 64 values reduced whole (reduce-all-row64.test): 64 values over
// a SIMT agent's 128 threads are held twice, as a 64-row tile's rows are.
// Scheduled serially: overlapped, a 256-byte tile's TMA latency over an II
// of a few cycles needs more ring slots than a pipe has.
func.func @row64(%x: !tileas.tma_desc<64xf32> {tileas.name = "X"}, %y: !tileas.tma_desc<64xf32> {tileas.name = "Y"}, %n: index {tileas.name = "n"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    %col = arith.muli %i, %c64 : index
    %t = tileas.tma_load %x[%col] : !tileas.tma_desc<64xf32> -> !tileas.smem<64xf32>
    %v = tileas.smem_load %t : !tileas.smem<64xf32> -> tensor<64xf32>
    %m = tileas.reduce_all %v {kind = "sum"} : tensor<64xf32> -> f32
    %s = tensor.splat %m : tensor<64xf32>
    %w = arith.divf %v, %s : tensor<64xf32>
    %o = tileas.smem_store %w : tensor<64xf32> -> !tileas.smem<64xf32>
    tileas.tma_store %o, %y[%col] : !tileas.smem<64xf32>, !tileas.tma_desc<64xf32>
  } {tileas.schedule.constraint.force_serial_execution}
  return
}
