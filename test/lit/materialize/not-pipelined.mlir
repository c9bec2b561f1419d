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

// A TMEM accumulator the loop's MMAs add to starts from an allocation: the
// result pipe that hands its MMAs' completion to the reader (and to the
// TMEM's release) is planned for those. One written before the loop
// (tmem_store of a source tile) had none: the peeled kernel released its
// TMEM while the last MMA was in flight (the CPU emulator's fault). It is
// refused, saying what to write instead (the cuTile lowering writes that:
// docs/cuda-tile-lowering.md, "Accumulators that start from data").
// CHECK-LABEL: func.func @stored_init
// CHECK-NOT: tileas.pipe.create
// CHECK: tileas.tmem_store
// CHECK: scf.for
func.func @stored_init(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<128x64xbf16>,
                       %descR: !tileas.tma_desc<128x128xbf16>, %m: index, %n: index, %K: index)
    -> tensor<128x128xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %rs = tileas.tma_load %descR[%m, %n] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %r = tileas.smem_load %rs : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
  %rf = tileas.cvt %r : tensor<128x128xbf16> -> tensor<128x128xf32>
  %acc0 = tileas.tmem_store %rf : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>
  // expected-remark @below {{loop not pipelined: iteration value 0 is a TMEM accumulator the loop's MMAs add to, started from 'tileas.tmem_store' instead of a tileas.alloc_tmem: its MMAs' completion is handed on only for an allocated accumulator; start it from alloc_tmem and add the initial tile after the loop; it stays as it is}}
  %acc = scf.for %k = %c0 to %K step %c64 iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %y = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  return %y : tensor<128x128xf32>
}
