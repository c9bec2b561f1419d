// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule=print-schedule -verify-diagnostics | FileCheck %s
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule="print-schedule generator=serial" | FileCheck %s --check-prefix=FORCED
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule="print-schedule selection=threshold" | FileCheck %s --check-prefix=SEED2
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule="print-schedule generator=cost-based" 2>&1 | FileCheck %s --check-prefix=COST
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule="print-schedule selection=threshold serial-threshold=20" | FileCheck %s --check-prefix=THRESHOLD

// Generator selection. The default rule (selection=bound) runs the serial
// generator only when force_serial_execution asks or when the serial length
// does not exceed the lower bound on II (then serial loses nothing); every
// other loop goes to the cost-based generator. Seed 002's rule stays
// selectable (selection=threshold, prefix SEED2): force_serial_execution,
// fewer ops than serial-threshold, no TMA/MMA/async op, else cost-based.

// force_serial_execution on the loop wins under either rule.
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: serial (force_serial_execution on the loop)
// CHECK-NEXT: II 8080, MII 1024
// CHECK-NEXT: binding unit: L2 -> SM (tp_gnic_rd: tma_load), 1024 of 8080 cycles; next: TMA/HBM (tma: tma_load), 656 (II 8080 is above it: the serial generator does not overlap iterations)
// SEED2-LABEL: schedule of loop
// SEED2-NEXT: generator: serial (force_serial_execution on the loop)
// FORCED-LABEL: schedule of loop
// FORCED-NEXT: generator: serial (requested by the generator option)
// A request for the cost-based generator does not override it (it used to
// end in "internal error: ... fails verification").
// COST-LABEL: schedule of loop
// COST-NEXT: generator: serial (force_serial_execution on the loop (it overrides the generator option's cost-based))
// COST-NEXT: II 8080, MII 1024
// COST-NOT: internal error
func.func @forced(%d: !tileas.tma_desc<64x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.tma_load %d[%i, %c0] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %b = tileas.tma_load %d[%i, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %c = tileas.tma_load %d[%c0, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %e = tileas.tma_load %d[%c1, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %f = tileas.tma_load %d[%i, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %g = tileas.tma_load %d[%c0, %c0] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %h = tileas.tma_load %d[%c1, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %k = tileas.tma_load %d[%c0, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
  } {tileas.schedule.constraint.force_serial_execution}
  return
}

// -----

// It also fires when a body op carries the flag.
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: serial (force_serial_execution on the loop)
// SEED2-LABEL: schedule of loop
// SEED2-NEXT: generator: serial (force_serial_execution on the loop)
func.func @forced_by_op(%d: !tileas.tma_desc<64x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.tma_load %d[%i, %c0] {tileas.schedule.constraint.force_serial_execution} : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %b = tileas.tma_load %d[%i, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %c = tileas.tma_load %d[%c0, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %e = tileas.tma_load %d[%c1, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %f = tileas.tma_load %d[%i, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %g = tileas.tma_load %d[%c0, %c0] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %h = tileas.tma_load %d[%c1, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %k = tileas.tma_load %d[%c0, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
  }
  return
}

// -----

// Two ops: seed 002 runs them serially (fewer than 8 ops) at II 2020; the
// default rule sees that the serial length exceeds MII 256 and overlaps them.
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: cost-based (serial length 2020 > MII 256: overlapping iterations can shorten the II)
// CHECK-NEXT: II 256, MII 256
// SEED2-LABEL: schedule of loop
// SEED2-NEXT: generator: serial (rule threshold: 2 ops, below serial_threshold 8)
// SEED2-NEXT: II 2020, MII 256
func.func @small(%d: !tileas.tma_desc<64x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.tma_load %d[%i, %c0] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %b = tileas.tma_load %d[%i, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
  }
  return
}

// -----

// No TMA, MMA or async op: seed 002 runs the loop serially; the default rule
// overlaps it (serial length 224 > MII 64). The generator seats II 65 on the
// whole loop and II 64 = MII on the projection onto the ops that hold a unit
// (docs/generators.md, "Just above the bound").
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: cost-based (serial length 224 > MII 64: overlapping iterations can shorten the II; the generator on the projection onto the ops that can be refused seats II 64, below its II 65 on the whole loop)
// CHECK-NEXT: II 64, MII 64
// CHECK: binding unit: MUFU (xu: exp2), 64 of 64 cycles
// SEED2-LABEL: schedule of loop
// SEED2-NEXT: generator: serial (rule threshold: no TMA, MMA or async op in the loop)
// THRESHOLD: generator: serial (rule threshold: 8 ops, below serial_threshold 20)
func.func @simt(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.exp2 %x : tensor<128xf32>
    %b = tileas.exp2 %a : tensor<128xf32>
    %c = tileas.exp2 %b : tensor<128xf32>
    %d = tileas.exp2 %c : tensor<128xf32>
    %e = tileas.exp2 %d : tensor<128xf32>
    %f = tileas.exp2 %e : tensor<128xf32>
    %g = tileas.exp2 %f : tensor<128xf32>
    %h = tileas.exp2 %g : tensor<128xf32>
  }
  return
}

// -----

// Eight 8 KiB TMA loads (default l2_reuse 4): each pulls 8192 bytes from L2
// (128 cycles at 64 B/clk) of which 2048 come from HBM (82 cycles at 25
// B/clk): II = MII = 1024, bound by the L2 -> SM path.
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: cost-based (serial length 8080 > MII 1024: overlapping iterations can shorten the II)
// CHECK-NEXT: II 1024, MII 1024 (resource 1024
// CHECK-NEXT: binding unit: L2 -> SM (tp_gnic_rd: tma_load), 1024 of 1024 cycles; next: TMA/HBM (tma: tma_load), 656
// SEED2-LABEL: schedule of loop
// SEED2-NEXT: generator: cost-based (rule threshold: the loop has TMA, MMA or async ops)
func.func @cost_based(%d: !tileas.tma_desc<64x64xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.tma_load %d[%i, %c0] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %b = tileas.tma_load %d[%i, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %c = tileas.tma_load %d[%c0, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %e = tileas.tma_load %d[%c1, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %f = tileas.tma_load %d[%i, %i] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %g = tileas.tma_load %d[%c0, %c0] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %h = tileas.tma_load %d[%c1, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
    %k = tileas.tma_load %d[%c0, %c1] : !tileas.tma_desc<64x64xbf16> -> !tileas.smem<64x64xbf16>
  }
  return
}

// -----

// A loop-carried exp2: the recurrence makes MII equal to the serial length,
// so the default rule keeps the serial generator (nothing to gain).
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: serial (serial length 28 <= MII 28: no overlapped schedule can be shorter)
// CHECK-NEXT: II 28, MII 28 (resource 8, fine-density 1, recurrence 28, dependency 1), stages 1
// CHECK-NEXT: binding unit: recurrence (28 cycles per iteration: '%1 = tileas.exp2')
func.func @chain(%x: tensor<128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<128xf32>) {
    %a = tileas.exp2 %v : tensor<128xf32>
    scf.yield %a : tensor<128xf32>
  }
  return
}
