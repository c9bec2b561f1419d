// RUN: tilepipe-opt %s --tileas-generate-schedule=print-schedule -o /dev/null | FileCheck %s
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule=mode=unspecialized -o %t.un
// RUN: tilepipe-opt %t.un -canonicalize -cse | tilepipe-opt --tileas-check-protocol -o /dev/null
// RUN: FileCheck %s --check-prefix=PEELED < %t.un
// Warp-specialized, the stage code needs the tileas dialect the input never
// loaded (its SMEM slot types): the pass declares it (it used to crash).
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule -o /dev/null

// A loop without any tileas op: arith and math ops carry the scheduling
// interface as external models (ir/ExternalModels.h; docs/adopting.md), so
// the target's fma and exp2 classes apply to them. Iterations overlap (only
// the addf recurrence binds II), and the peeled stage code runs them.
// CHECK: II 1024, MII 1024
// CHECK: binding unit: MUFU (xu: exp2)
// CHECK: %1 = arith.subf{{ +}}fma
// CHECK: %2 = math.exp2{{ +}}exp2{{ +}}516{{ +}}0{{ +}}1{{ +}}xu
// CHECK: %3 = arith.addf{{ +}}fma{{ +}}1560{{ +}}1
// The prologue's exp2 of iteration 0, then the steady state.
// PEELED: math.exp2 {{.*}}tileas.schedule.stage = 0
// PEELED: scf.for
// PEELED: math.exp2
func.func @exp_sum(%x: tensor<128x128xf32>, %s: tensor<128x128xf32>, %n: index) -> tensor<128x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128x128xf32>) {
    %d = arith.subf %s, %x : tensor<128x128xf32>
    %e = math.exp2 %d : tensor<128x128xf32>
    %a = arith.addf %acc, %e : tensor<128x128xf32>
    scf.yield %a : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}
