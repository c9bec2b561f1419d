// A loop with no schedulable op (empty, or only index arithmetic) has nothing
// to hand between agents: the materializer leaves it, with a remark, in both
// modes. Peeled, it crashed (the internal-error sweep found it).
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule=mode=unspecialized \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=PEELED
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=WS
// PEELED: empty-loop.mlir:[[@LINE+5]]:3: remark: loop not peeled: the loop has no schedulable op
// WS: empty-loop.mlir:[[@LINE+4]]:3: remark: loop not pipelined: the loop has no schedulable op; it stays as it is
func.func @empty(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %j = arith.addi %k, %c1 : index
  }
  return
}
