// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule=print-schedule -verify-diagnostics | FileCheck %s
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule="print-schedule generator=serial" | FileCheck %s --check-prefix=FORCED
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule="print-schedule serial-threshold=20" | FileCheck %s --check-prefix=THRESHOLD

// Generator selection, first matching rule wins (seed 002).

// Rule 1: force_serial_execution on the loop.
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: serial (force_serial_execution on the loop)
// FORCED-LABEL: schedule of loop
// FORCED-NEXT: generator: serial (requested by the generator option)
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

// Rule 1 also fires when a body op carries the flag.
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: serial (force_serial_execution on the loop)
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

// Rule 2: fewer ops than serial_threshold (default 8).
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: serial (2 ops, below serial_threshold 8)
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

// Rule 3: no TMA, MMA or async op.
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: serial (no TMA, MMA or async op in the loop)
// THRESHOLD: generator: serial (8 ops, below serial_threshold 20)
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

// Otherwise the cost-based generator runs. Eight 8 KiB TMA loads hold the
// TMA engine 328 cycles each: II = MII = 2624, every load one II apart in
// its own stage.
// CHECK-LABEL: schedule of loop
// CHECK-NEXT: generator: cost-based (the loop has TMA, MMA or async ops)
// CHECK-NEXT: II 2624, MII 2624 (resource 2624
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
