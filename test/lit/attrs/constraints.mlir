// RUN: tilepipe-opt %s --tileas-generate-schedule=selection=threshold | FileCheck %s

// The remat attributes are parsed and preserved untouched; groups with a
// consistent leader schedule; results land beside the constraints.

// CHECK-LABEL: func.func @preserved
// CHECK: tileas.exp2 {{.*}}tileas.enable_defusion_if_fusion_extending_liveness, tileas.max_num_of_recomputations = 2 : i32, tileas.max_num_slices_for_non_reduce_axis = 4 : i32, tileas.preferred_atom_size = 16 : i32, tileas.recomputable
// CHECK-SAME: tileas.schedule.cycle = 0 : i64
// CHECK: tileas.exp2 {{.*}}tileas.schedule.constraint.gid = 2 : i32, tileas.schedule.constraint.leader_gid = 1 : i32, tileas.schedule.constraint.max_depth = 0 : i32
// CHECK-SAME: tileas.schedule.stage = 0 : i32
// CHECK: tileas.schedule.generator = "serial"
func.func @preserved(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.exp2 %x {tileas.schedule.constraint.gid = 1 : i32, tileas.preferred_atom_size = 16 : i32, tileas.max_num_slices_for_non_reduce_axis = 4 : i32, tileas.max_num_of_recomputations = 2 : i32, tileas.enable_defusion_if_fusion_extending_liveness, tileas.recomputable} : tensor<128xf32>
    %b = tileas.exp2 %a {tileas.schedule.constraint.gid = 2 : i32, tileas.schedule.constraint.leader_gid = 1 : i32, tileas.schedule.constraint.max_depth = 0 : i32} : tensor<128xf32>
  }
  return
}
