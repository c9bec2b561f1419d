// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule -verify-diagnostics | FileCheck %s

// A loop neither mode can emit stays as it is, with a remark saying why
// (once: the warp-specialized and the peeled emitter give the same reason).
// CHECK-LABEL: func.func @regions
// CHECK-NOT: tileas.pipe.create
// CHECK: scf.for
// CHECK: tileas.tma_load
// CHECK: tileas.umma
// CHECK: scf.if
// CHECK-NOT: tileas.agent
func.func @regions(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<256x64xbf16>,
                   %m: index, %n: index, %K: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  // expected-remark @below {{loop not pipelined: an op with regions ('scf.if') is in the loop body; it stays as it is}}
  %acc = scf.for %k = %c0 to %K step %c64 iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    %x = scf.if %c -> index { scf.yield %m : index } else { scf.yield %n : index }
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  return
}
