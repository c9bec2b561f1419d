// A small force-serial loop; size-limit.mlir gives it a target whose latencies are int64-max.
func.func @ser(%x: tensor<128x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128x32xf32>) {
    %a = tileas.exp2 %acc : tensor<128x32xf32>
    %b = tileas.add %a, %x : tensor<128x32xf32>, tensor<128x32xf32>
    scf.yield %b : tensor<128x32xf32>
  } {tileas.schedule.constraint.force_serial_execution}
  return
}
