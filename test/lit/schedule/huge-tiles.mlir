// RUN: tilepipe-opt %s --tileas-generate-schedule -verify-diagnostics -o /dev/null

// Tiles of 2^62 elements: latencies and footprints past any II. The
// recurrence bound once probed the same clamped II forever; now the bounds
// saturate and the loop is refused at once.
func.func @huge(%x: tensor<2147483648x2147483648xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+2 {{no II can be scheduled: an op collides with itself at every II}}
  // expected-error @+1 {{failed to find a schedule}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<2147483648x2147483648xf32>) {
    %e = tileas.exp2 %acc : tensor<2147483648x2147483648xf32>
    %s = tileas.add %e, %acc : tensor<2147483648x2147483648xf32>, tensor<2147483648x2147483648xf32>
    scf.yield %s : tensor<2147483648x2147483648xf32>
  }
  return
}
