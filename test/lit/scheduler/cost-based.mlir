// RUN: tilepipe-opt %s --tileas-generate-schedule=print-schedule | FileCheck %s
// RUN: tilepipe-opt %s --tileas-generate-schedule="print-schedule arms=fuse,retry,cost" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPERMUTE

// Constraint groups and max_depth through the cost-based generator. The two
// TMA loads form one group (gid 2 follows leader gid 1), so they share a
// depth; the second load's consumer must start by depth 1, which sets the
// dependency bound: 8 KiB TMA latency 800 + 82 + 128 = 1010 (default L2
// reuse 4: 2048 HBM bytes at 25 B/clk, 8192 fetched at 64 B/clk)
// -> II >= 1010 / 2 + 1 = 506.
// The permute arm seats the group in the order that keeps that consumer
// within its depth (the follower first), reaching II = MII; without it the
// leader goes first and II rises.

// CHECK: generator: cost-based (serial length 2320 > MII 506: overlapping iterations can shorten the II)
// CHECK-NEXT: II 506, MII 506 (resource 256, fine-density 1, recurrence 1, dependency 506), stages 3
// CHECK-NEXT: binding unit: dependency depth (506 cycles: a max_depth constraint against its op's latency)
// CHECK: %1 = tileas.tma_load   tma_load          0     0     0  tma+tp_gnic_rd+tp_smem_wr
// CHECK: %0 = tileas.tma_load   tma_load        128     0
// CHECK: tileas.tma_load {{.*}}tileas.schedule.constraint.gid = 1 : i32, tileas.schedule.cycle = 128 : i64, {{.*}}tileas.schedule.stage = 0 : i32
// CHECK: tileas.tma_load {{.*}}tileas.schedule.constraint.leader_gid = 1 : i32, tileas.schedule.cycle = 0 : i64, {{.*}}tileas.schedule.stage = 0 : i32
// CHECK: tileas.smem_load {{.*}}tileas.schedule.constraint.max_depth = 1 : i32, {{.*}}tileas.schedule.stage = 1 : i32
// CHECK: tileas.schedule.generator = "cost-based", tileas.schedule.ii = 506 : i32, tileas.schedule.mii = 506 : i32

// Without the permute arm the heuristic seats II 570, more than 10% above
// the bound; the exact check's upward pass, run unasked for such a result,
// finds II 506 and it is adopted.
// NOPERMUTE: remark: the exact check finds a schedule at II 506, below the heuristic's II {{5[1-9][0-9]|[6-9][0-9][0-9]}}: it is adopted
// NOPERMUTE: II 506, MII 506
func.func @groups(%d: !tileas.tma_desc<64x64xbf16>, %x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.tma_load %d[%i, %c0] {tileas.schedule.constraint.gid = 1 : i32} : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %b = tileas.tma_load %d[%i, %c1] {tileas.schedule.constraint.gid = 2 : i32, tileas.schedule.constraint.leader_gid = 1 : i32} : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %v = tileas.smem_load %a : !tileas.smem<64x64xbf16> -> tensor<64x64xbf16>
    %w = tileas.smem_load %b {tileas.schedule.constraint.max_depth = 1 : i32} : !tileas.smem<64x64xbf16> -> tensor<64x64xbf16>
    %e = tileas.exp2 %x : tensor<128xf32>
    %f = tileas.exp2 %e : tensor<128xf32>
    %g = tileas.exp2 %f : tensor<128xf32>
    %h = tileas.exp2 %g : tensor<128xf32>
  }
  return
}
