// RUN: tilepipe-opt %s -split-input-file | FileCheck %s
// RUN: tilepipe-opt %s -split-input-file -mlir-print-op-generic | tilepipe-opt -split-input-file | FileCheck %s
// RUN: tilepipe-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tilepipe-opt %s -split-input-file -tileas-test-work -verify-diagnostics -o /dev/null

// Block-scaled UMMA (tcgen05.mma kind::mxf8f6f4): `scale(%sfa, %sfb)` names
// the TMEM tiles of UE8M0 scale factors (written `ui8`: MLIR 19 has no
// f8E8M0FNU), one per 32 elements of K per row; tmem_copy (tcgen05.cp) puts
// them there. FP8 operands report class umma_f8 (2x the BF16 FLOP rate), and
// flops stay real FLOPs.

// CHECK-LABEL: func.func @mxfp8
// GENERIC-LABEL: sym_name = "mxfp8"
func.func @mxfp8(%a: !tileas.smem<128x128xf8E4M3FN>, %b: !tileas.smem<256x128xf8E4M3FN>,
                 %acc: !tileas.tmem<128x256xf32>,
                 %sa: !tileas.smem<128x4xui8>, %sb: !tileas.smem<128x8xui8>,
                 %slot: !tileas.tmem<128x4xui8>) -> !tileas.tmem<128x256xf32> {
  // CHECK: %[[SFA:.*]] = tileas.tmem_copy %{{.*}} : !tileas.smem<128x4xui8> -> !tileas.tmem<128x4xui8>
  // expected-remark @+1 {{class tmem_copy bytes 512 flops 0 elements 0}}
  %sfa = tileas.tmem_copy %sa : !tileas.smem<128x4xui8> -> !tileas.tmem<128x4xui8>
  // CHECK: %[[SFB:.*]] = tileas.tmem_copy %{{.*}} : !tileas.smem<128x8xui8> -> !tileas.tmem<128x8xui8>
  // expected-remark @+1 {{class tmem_copy bytes 1024 flops 0 elements 0}}
  %sfb = tileas.tmem_copy %sb : !tileas.smem<128x8xui8> -> !tileas.tmem<128x8xui8>
  // CHECK: tileas.tmem_copy %{{.*}} into %{{.*}} : !tileas.smem<128x4xui8> -> !tileas.tmem<128x4xui8>
  // expected-remark @+1 {{class tmem_copy bytes 512 flops 0 elements 0}}
  %into = tileas.tmem_copy %sa into %slot : !tileas.smem<128x4xui8> -> !tileas.tmem<128x4xui8>
  // CHECK: %[[D:.*]] = tileas.umma %{{.*}}, %{{.*}}, %{{.*}} scale(%[[SFA]], %[[SFB]]) {accumulate} : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>, !tileas.tmem<128x256xf32> scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x8xui8>) -> !tileas.tmem<128x256xf32>
  // GENERIC: "tileas.umma"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{accumulate, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}>
  // expected-remark @+1 {{class umma_f8 bytes 49152 flops 8388608 elements 0 accumulator 2}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) {accumulate}
      : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>, !tileas.tmem<128x256xf32>
        scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x8xui8>) -> !tileas.tmem<128x256xf32>
  // Unscaled FP8 (kind::f8f6f4) has the FP8 rate too.
  // CHECK: tileas.umma %{{.*}}, %{{.*}}, %[[D]] : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  // GENERIC: "tileas.umma"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}>
  // expected-remark @+1 {{class umma_f8 bytes 49152 flops 8388608 elements 0 accumulator 2}}
  %e = tileas.umma %a, %b, %d : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  return %e : !tileas.tmem<128x256xf32>
}

// -----

// E5M2, A in TMEM (umma_ts_f8; only B costs SMEM bytes), N = 64 (scale_b 64 x K/32).
// CHECK-LABEL: func.func @e5m2_ts
func.func @e5m2_ts(%a: !tileas.tmem<128x64xf8E5M2>, %b: !tileas.smem<64x64xf8E5M2>,
                   %acc: !tileas.tmem<128x64xf32>,
                   %sfa: !tileas.tmem<128x2xui8>, %sfb: !tileas.tmem<64x2xui8>) {
  // CHECK: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} scale(%{{.*}}, %{{.*}}) : !tileas.tmem<128x64xf8E5M2>, !tileas.smem<64x64xf8E5M2>, !tileas.tmem<128x64xf32> scale(!tileas.tmem<128x2xui8>, !tileas.tmem<64x2xui8>) -> !tileas.tmem<128x64xf32>
  // expected-remark @+1 {{class umma_ts_f8 bytes 4096 flops 1048576 elements 0 accumulator 2}}
  %d = tileas.umma %a, %b, %acc scale(%sfa, %sfb)
      : !tileas.tmem<128x64xf8E5M2>, !tileas.smem<64x64xf8E5M2>, !tileas.tmem<128x64xf32>
        scale(!tileas.tmem<128x2xui8>, !tileas.tmem<64x2xui8>) -> !tileas.tmem<128x64xf32>
  return
}

// -----

// INT8 (kind::i8, K=32 per instruction) has the 8-bit rate; BF16 keeps `umma`.
// CHECK-LABEL: func.func @rates
func.func @rates(%ia: !tileas.smem<128x64xi8>, %ib: !tileas.smem<64x64xi8>,
                 %iacc: !tileas.tmem<128x64xi32>, %a: !tileas.smem<128x64xbf16>,
                 %b: !tileas.smem<64x64xbf16>, %acc: !tileas.tmem<128x64xf32>) {
  // expected-remark @+1 {{class umma_f8 bytes 12288 flops 1048576 elements 0 accumulator 2}}
  %i = tileas.umma %ia, %ib, %iacc : !tileas.smem<128x64xi8>, !tileas.smem<64x64xi8>, !tileas.tmem<128x64xi32> -> !tileas.tmem<128x64xi32>
  // expected-remark @+1 {{class umma bytes 24576 flops 1048576 elements 0 accumulator 2}}
  %f = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<64x64xbf16>, !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
  return
}
