// RUN: tilepipe-opt %s --tileas-generate-schedule="generator=cost-based arms=permute ii-cap=6 target=%S/Inputs/heuristic.json" -verify-diagnostics
// RUN: tilepipe-opt %s --tileas-generate-schedule="generator=cost-based print-schedule target=%S/Inputs/heuristic.json" -o /dev/null | FileCheck %s

// With the permute arm alone (earliest legal seats, no repair), II = MII = 6
// is missed; the exact check finds a schedule there, so the failure is
// reported as heuristic. With every arm the generator reaches II 6.
// The tiles are 32 columns wide, one fragment, so every dependence carries
// the producer's whole latency (no streaming, docs/generators.md).
// CHECK: II 6, MII 6 (resource 6, fine-density 1, recurrence 4, dependency 1)
func.func @missed(%x: tensor<128x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{failed to find a schedule}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128x32xf32>) {
    %o0 = tileas.exp2 %acc : tensor<128x32xf32>
    %o1 = tileas.exp2 %x : tensor<128x32xf32>
    %o2 = tileas.exp2 %o0 : tensor<128x32xf32>
    %o3 = tileas.add %o1, %x : tensor<128x32xf32>, tensor<128x32xf32>
    %o4 = tileas.add %o1, %x : tensor<128x32xf32>, tensor<128x32xf32>
    %o5 = tileas.reduce_max %o2 : tensor<128x32xf32> -> tensor<128xf32>
    // expected-error @below {{cost-based generator found no schedule for II in [6, 6] (heuristic: a schedule may exist)}}
    // expected-note @below {{candidate II 6: no arm could seat it in its window}}
    // expected-note @below {{the exact check finds a schedule at II 6: the heuristic missed it}}
    // expected-note @below {{'%7 = tileas.add' lasts 1 cycle and claims slot xu64 for 1 cycle}}
    // expected-note @below {{dependence window [6, 11], stage 1}}
    // expected-note @below {{slot 'xu64' is taken in modulo cycle 5; that RRT row holds slot xu, xu64; held by '%3 = tileas.exp2', '%4 = tileas.add'}}
    %o6 = tileas.add %o0, %o3 : tensor<128x32xf32>, tensor<128x32xf32>
    scf.yield %o6 : tensor<128x32xf32>
  }
  return
}
