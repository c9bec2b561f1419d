// The protocol check computes index arithmetic as the hardware does, in two's
// complement: INT64_MIN / -1 wraps to INT64_MIN (it trapped the checker with
// SIGFPE), and a trip-count argument bound as lb + N * step wraps too (UBSan
// found the overflow through a mutated step in the bad-input campaign).
// RUN: tilepipe-opt %s --tileas-check-protocol=print -o /dev/null | FileCheck %s
// CHECK: protocol check of @wraps: ok
// A loop inside an agent is stage code already: the materializer leaves it,
// with a remark (peeled, it crashed; the internal-error sweep found it on
// this file).
// RUN: tilepipe-opt %s --tileas-generate-schedule \
// RUN:   --tileas-materialize-schedule=mode=unspecialized -o /dev/null 2>&1 \
// RUN: | FileCheck %s --check-prefix=AGENT
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGENT
// AGENT: check-protocol-overflow.mlir:27:5: remark: loop left unchanged: it is in a tileas.agent, so it is stage code already
func.func @wraps(%n: index) {
  %min = arith.constant -9223372036854775808 : index
  %m1 = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  %step = arith.constant 4611686018427387904 : index
  %acc = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  tileas.agent {role = "simt", warps = 4 : i32} {
    %q = arith.divsi %min, %m1 : index
    %r = arith.remsi %min, %m1 : index
    %f = arith.floordivsi %min, %m1 : index
    %c = arith.ceildivsi %min, %m1 : index
    scf.for %i = %c0 to %n step %step {
      %s = arith.addi %q, %r : index
    }
    tileas.agent_yield
  }
  return
}
