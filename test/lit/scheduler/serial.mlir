// RUN: tilepipe-opt %s --tileas-generate-schedule=generator=serial -mlir-print-debuginfo=false | FileCheck %s

// Serial schedule of a small SIMT loop: a Kahn walk in program order, every op
// in stage 0, each op starting when the previous one has finished.
// exp2 on 128 elements: latency 20 + 128/16 = 28, holds xu for 8 cycles.
// add on 128 elements: latency 4 + 128/32 = 8.

// CHECK-LABEL: func.func @chain
// CHECK: scf.for
// CHECK: tileas.exp2 {{.*}}{tileas.schedule.cycle = 0 : i64, tileas.schedule.order = 0 : i32, tileas.schedule.stage = 0 : i32}
// CHECK: tileas.add {{.*}}{tileas.schedule.cycle = 28 : i64, tileas.schedule.order = 1 : i32, tileas.schedule.stage = 0 : i32}
// CHECK: tileas.exp2 {{.*}}{tileas.schedule.cycle = 36 : i64, tileas.schedule.order = 2 : i32, tileas.schedule.stage = 0 : i32}
// CHECK: } {tileas.schedule.generator = "serial", tileas.schedule.ii = 64 : i32, tileas.schedule.mii = 64 : i32, tileas.schedule.stages = 1 : i32}
func.func @chain(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128xf32>) {
    %a = tileas.exp2 %acc : tensor<128xf32>
    %b = tileas.add %a, %x : tensor<128xf32>, tensor<128xf32>
    %c = tileas.exp2 %b : tensor<128xf32>
    scf.yield %c : tensor<128xf32>
  }
  return
}

// Ties between ready ops break by program order. In SSA form a producer
// always precedes its users, so the walk reproduces program order; the
// recurrence a -> c -> (next iteration) a sets MII = 28 + 28 = 56.
// CHECK-LABEL: func.func @ties
// CHECK: tileas.exp2 %{{.*}}tileas.schedule.cycle = 0 : i64, tileas.schedule.order = 0 : i32
// CHECK: tileas.exp2 %{{.*}}tileas.schedule.cycle = 28 : i64, tileas.schedule.order = 1 : i32
// CHECK: tileas.exp2 %{{.*}}tileas.schedule.cycle = 56 : i64, tileas.schedule.order = 2 : i32
// CHECK: tileas.exp2 %{{.*}}tileas.schedule.cycle = 84 : i64, tileas.schedule.order = 3 : i32
// CHECK: tileas.schedule.ii = 112 : i32, tileas.schedule.mii = 56 : i32
func.func @ties(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128xf32>) {
    %a = tileas.exp2 %acc : tensor<128xf32>
    %b = tileas.exp2 %x : tensor<128xf32>
    %c = tileas.exp2 %a : tensor<128xf32>
    %d = tileas.exp2 %b : tensor<128xf32>
    scf.yield %c : tensor<128xf32>
  }
  return
}

// Only innermost loops are scheduled; the outer loop keeps no result.
// CHECK-LABEL: func.func @nest
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tileas.exp2 {{.*}}tileas.schedule.order = 0
// CHECK: } {tileas.schedule.generator = "serial"
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: return
func.func @nest(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %a = tileas.exp2 %x : tensor<128xf32>
    }
  }
  return
}
