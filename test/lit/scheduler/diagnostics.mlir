// RUN: tilepipe-opt %s --tileas-generate-schedule=target=%S/Inputs/no-exp2.json -verify-diagnostics
// RUN: not tilepipe-opt %s --tileas-generate-schedule=target=%S/Inputs/no-exp2.json -o %t.out 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: not test -e %t.out

// An op whose class the target does not define has no latency: check()
// rejects the loop at the op, the loop keeps no result attribute, and
// tilepipe-opt exits non-zero without writing its output file.
// EXIT: error: '%0 = tileas.exp2' has no latency: the target defines no op class 'exp2'
func.func @missing_latency(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'%0 = tileas.exp2' has no latency: the target defines no op class 'exp2'}}
    %a = tileas.exp2 %x : tensor<128xf32>
    %b = tileas.add %a, %x : tensor<128xf32>, tensor<128xf32>
  } {tileas.schedule.ii = 7 : i32}
  return
}
