// RUN: tilepipe-opt %s --tileas-generate-schedule -verify-diagnostics -o /dev/null

// Tiles of 2^62 elements: latencies and footprints past any II. The
// recurrence bound once probed the same clamped II forever; then the bounds
// saturated and the loop was refused as colliding with itself at every II;
// now check() refuses it at its longest op, before any bound is computed,
// as longer than the scheduler takes on (scheduler/size-limit.mlir).
func.func @huge(%x: tensor<2147483648x2147483648xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<2147483648x2147483648xf32>) {
    // expected-error @below {{the loop is too long to schedule: its serial length is 432345564227567640 cycles, over the limit of 4194304; its longest op, '%1 = tileas.exp2', takes 288230376151711764 cycles}}
    %e = tileas.exp2 %acc : tensor<2147483648x2147483648xf32>
    %s = tileas.add %e, %acc : tensor<2147483648x2147483648xf32>, tensor<2147483648x2147483648xf32>
    scf.yield %s : tensor<2147483648x2147483648xf32>
  }
  return
}
