// RUN: tilepipe-opt %s --tileas-generate-schedule -split-input-file -verify-diagnostics

// Two ops name different leaders for one group: an error naming both.
func.func @contradictory_leaders(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-note @below {{leader 7 named here}}
    %a = tileas.exp2 %x {tileas.schedule.constraint.gid = 4 : i32, tileas.schedule.constraint.leader_gid = 7 : i32} : tensor<128xf32>
    // expected-error @below {{constraint group 4 is given two leaders: 3 here and 7 earlier}}
    %b = tileas.exp2 %x {tileas.schedule.constraint.gid = 4 : i32, tileas.schedule.constraint.leader_gid = 3 : i32} : tensor<128xf32>
  }
  return
}

// -----

func.func @gid_not_integer(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'tileas.schedule.constraint.gid' must be an integer attribute, got "four"}}
    %a = tileas.exp2 %x {tileas.schedule.constraint.gid = "four"} : tensor<128xf32>
  }
  return
}

// -----

func.func @negative_max_depth(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'tileas.schedule.constraint.max_depth' must be non-negative, got -1}}
    %a = tileas.exp2 %x {tileas.schedule.constraint.max_depth = -1 : i32} : tensor<128xf32>
  }
  return
}

// -----

func.func @leader_without_gid(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'tileas.schedule.constraint.leader_gid' given without 'tileas.schedule.constraint.gid'}}
    %a = tileas.exp2 %x {tileas.schedule.constraint.leader_gid = 2 : i32} : tensor<128xf32>
  }
  return
}

// -----

func.func @gid_too_wide(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'tileas.schedule.constraint.gid' value 8589934592 does not fit in 32 bits}}
    %a = tileas.exp2 %x {tileas.schedule.constraint.gid = 8589934592 : i64} : tensor<128xf32>
  }
  return
}
