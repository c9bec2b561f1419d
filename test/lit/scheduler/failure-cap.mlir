// RUN: tilepipe-opt %s --tileas-generate-schedule="generator=cost-based ii-cap=4 target=%S/Inputs/corner.json" -verify-diagnostics

// An II cap below the lower bound: proven without any placement, and the
// note gives the four bounds.
func.func @below_bound(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{the II cap 4 is below the lower bound 5: no schedule exists at any II allowed (proven)}}
  // expected-note @below {{MII 5 = max(resource 5, fine-density 1, recurrence 1, dependency 1)}}
  // expected-error @below {{failed to find a schedule}}
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.exp2 %x : tensor<128xf32>
    %b = tileas.add %a, %x : tensor<128xf32>, tensor<128xf32>
    %c = tileas.exp2 %x : tensor<128xf32>
  }
  return
}
