// RUN: tilepipe-opt %s --tileas-materialize-schedule -split-input-file -verify-diagnostics | FileCheck %s

// Without a valid schedule the loop is left unchanged and a remark says why.

// CHECK-LABEL: func.func @never_scheduled
// CHECK: tileas.exp2
func.func @never_scheduled(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{loop left unchanged: it has no published schedule and no 'tileas.schedule.ii' attribute}}
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.exp2 %x : tensor<128xf32>
  }
  return
}

// -----

// A cycle attribute is missing.
func.func @partial(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{loop left unchanged: 'tileas.exp2' has no 'tileas.schedule.cycle' attribute}}
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.exp2 %x : tensor<128xf32>
  } {tileas.schedule.ii = 28 : i32}
  return
}

// -----

// A schedule that breaks a dependence (the exp2 needs 28 cycles) is not
// materialized.
func.func @tampered(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{loop left unchanged: its schedule fails verification: dependence from '%0 = tileas.exp2' to '%1 = tileas.exp2' (latency 28, distance 0) is violated at II 56: the consumer starts at 10, the value is ready at 28}}
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.exp2 %x {tileas.schedule.cycle = 0 : i64} : tensor<128xf32>
    %b = tileas.exp2 %a {tileas.schedule.cycle = 10 : i64} : tensor<128xf32>
  } {tileas.schedule.ii = 56 : i32}
  return
}

// -----

// II must be positive.
func.func @zero_ii(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{loop left unchanged: its 'tileas.schedule.ii' is not positive}}
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.exp2 %x {tileas.schedule.cycle = 0 : i64} : tensor<128xf32>
  } {tileas.schedule.ii = 0 : i32}
  return
}
