// RUN: tilepipe-opt %s --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule -verify-diagnostics | FileCheck %s

// The accumulator leaves the function: its consumer is outside every agent,
// so the loop is not split (the plan and its protocol check still ran).
// CHECK-LABEL: func.func @returned
// CHECK-NOT: tileas.agent
// CHECK: scf.for
func.func @returned(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<256x64xbf16>,
                    %m: index, %n: index, %K: index) -> !tileas.tmem<128x256xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  // expected-remark @below {{loop not warp-specialized: the loop's results leave the function}}
  %acc = scf.for %k = %c0 to %K step %c64 iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  return %acc : !tileas.tmem<128x256xf32>
}
