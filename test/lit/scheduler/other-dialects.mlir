// RUN: tilepipe-opt %s --tileas-generate-schedule=print-schedule -o /dev/null | FileCheck %s
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule=mode=unspecialized -o %t.un
// RUN: tilepipe-opt %t.un -canonicalize -cse | tilepipe-opt --tileas-check-protocol -o /dev/null
// RUN: FileCheck %s --check-prefix=PEELED < %t.un
// Warp-specialized, the stage code needs the tileas dialect the input never
// loaded (its SMEM slot types): the pass declares it (it used to crash).
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule -o /dev/null

// A loop without any tileas op: arith and math ops carry the scheduling
// interface as external models (ir/ExternalModels.h; docs/adopting.md), so
// the target's fma and exp2 classes apply to them, and on register tiles
// they stream fragment by fragment as the tileas ops of the same names do
// (exp2 starts a quarter of subf's 516 cycles after it). Iterations
// overlap, and the peeled stage code runs them.
// CHECK: II 1024, MII 1024
// CHECK: binding unit: MUFU (xu: exp2)
// CHECK: %1 = arith.subf{{ +}}fma
// CHECK: %2 = math.exp2{{ +}}exp2{{ +}}129{{ +}}0{{ +}}1{{ +}}xu
// CHECK: %3 = arith.addf{{ +}}fma{{ +}}786{{ +}}0
// Streamed, all three start in stage 0 (addf ends in the next II): one
// loop, no prologue.
// PEELED-NOT: math.exp2
// PEELED: scf.for
// PEELED: math.exp2 {{.*}}tileas.schedule.cycle = 129 {{.*}}tileas.schedule.stage = 0
// PEELED: arith.addf {{.*}}tileas.schedule.cycle = 786 {{.*}}tileas.schedule.stage = 0
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
