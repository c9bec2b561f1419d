// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule -verify-diagnostics -o /dev/null
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule=generator=serial -verify-diagnostics -o /dev/null
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule=generator=auto -verify-diagnostics -o /dev/null
// RUN: %python -c "import json,sys; t=json.load(open(sys.argv[1])); [c.__setitem__('latency', {'base': 9223372036854775807}) for c in t['op_classes'].values()]; json.dump(t, open(sys.argv[2], 'w'))" %tilepipe_src/target/sm_100a.json %t.maxlat.json
// RUN: not tilepipe-opt %S/Inputs/size-limit-small.mlir --tileas-generate-schedule="target=%t.maxlat.json" 2>&1 | FileCheck %s --check-prefix=MAXLAT
// RUN: not tilepipe-opt %S/Inputs/size-limit-small.mlir --tileas-generate-schedule="generator=cost-based target=%t.maxlat.json" 2>&1 | FileCheck %s --check-prefix=MAXLAT

// Loops longer than the scheduler takes on (a serial length over 2^22
// cycles) get one diagnostic that names the limit and the longest op, in
// milliseconds and with bounded memory, under every generator. A 2^28-element
// tile used to take 3.75 s and 2.9 GB in the II search, a 2^32-element one
// past 20 s and 13-24 GB; a 2^62-element tile ended in "internal error:
// resource conflict ... footprint (4294967295 cycles)", int64-max latencies
// from a target file in "internal error: ... starts at negative cycle".
// MAXLAT-NOT: internal error
// MAXLAT: error: the loop is too long to schedule: its serial length is 9223372036854775807 cycles, over the limit of 4194304; its longest op, '%1 = tileas.exp2', takes 9223372036854775807 cycles
// MAXLAT-NOT: internal error

func.func @tile_2_28(%x: tensor<268435456xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<268435456xf32>) {
    // expected-error @below {{the loop is too long to schedule: its serial length is 25165848 cycles, over the limit of 4194304; its longest op, '%1 = tileas.exp2', takes 16777236 cycles}}
    %a = tileas.exp2 %acc : tensor<268435456xf32>
    %b = tileas.add %a, %x : tensor<268435456xf32>, tensor<268435456xf32>
    scf.yield %b : tensor<268435456xf32>
  }
  return
}

// -----

func.func @tile_2_62(%x: tensor<4611686018427387904xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4611686018427387904xf32>) {
    // expected-error @below {{the loop is too long to schedule}}
    %a = tileas.exp2 %acc : tensor<4611686018427387904xf32>
    scf.yield %a : tensor<4611686018427387904xf32>
  }
  return
}
