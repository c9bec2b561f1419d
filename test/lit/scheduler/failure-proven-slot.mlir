// RUN: tilepipe-opt %s --tileas-generate-schedule="generator=cost-based ii-cap=3 target=%S/Inputs/tight-slot.json" -verify-diagnostics
// RUN: tilepipe-opt %s --tileas-generate-schedule="generator=cost-based print-schedule prove-optimal target=%S/Inputs/tight-slot.json" -o /dev/null 2>&1 | FileCheck %s

// MII is 3 (xu held 2 + 1 cycles; a recurrence of latency 1 + 2), but at
// II 3 the add must start exactly one cycle after the exp2, which still
// holds xu: capped at 3, the search fails, and the exact check proves it.
// Without the cap the generator finds II 4 and proves it optimal.
// CHECK: remark: II 4 is optimal: the exact check proves every smaller II infeasible
// CHECK: II 4, MII 3 (resource 3, fine-density 1, recurrence 3, dependency 1)
func.func @tight_slot(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{failed to find a schedule}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128xf32>) {
    // expected-error @below {{cost-based generator found no schedule for II in [3, 3] (proven: no schedule exists at II 3)}}
    // expected-note @below {{candidate II 3: the placement budget ran out}}
    // expected-note @below {{the exact check proves that no schedule exists at II 3}}
    // expected-note @below {{'%1 = tileas.exp2' lasts 2 cycles and claims slot xu for 2 cycles}}
    // expected-note @below {{dependence window [99, 101], stage 33}}
    // expected-note @below {{slot 'xu' is taken in modulo cycle 1; that RRT row holds slot xu; held by '%2 = tileas.add'}}
    %a = tileas.exp2 %acc : tensor<128xf32>
    %b = tileas.add %a, %x : tensor<128xf32>, tensor<128xf32>
    scf.yield %b : tensor<128xf32>
  }
  return
}
