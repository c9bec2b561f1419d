// RUN: tilepipe-opt %s --tileas-generate-schedule="generator=cost-based ii-cap=3 target=%S/Inputs/tight-pool.json" -verify-diagnostics

// The same shape on a pool: both ops take all four units of alu_fma_issue;
// the note names the pool that refused and what the row holds.
func.func @tight_pool(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{failed to find a schedule}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128xf32>) {
    // expected-error @below {{cost-based generator found no schedule for II in [3, 3] (proven: no schedule exists at II 3)}}
    // expected-note @below {{candidate II 3: the placement budget ran out}}
    // expected-note @below {{the exact check proves that no schedule exists at II 3}}
    // expected-note @below {{'%1 = tileas.exp2' lasts 2 cycles and claims pool alu_fma_issue x4 for 2 cycles}}
    // expected-note @below {{dependence window [99, 101], stage 33}}
    // expected-note @below {{pool 'alu_fma_issue' refused in modulo cycle 1: 4 of 4 units held, 4 requested; that RRT row holds pool alu_fma_issue 4/4; held by '%2 = tileas.add'}}
    %a = tileas.exp2 %acc : tensor<128xf32>
    %b = tileas.add %a, %x : tensor<128xf32>, tensor<128xf32>
    scf.yield %b : tensor<128xf32>
  }
  return
}
