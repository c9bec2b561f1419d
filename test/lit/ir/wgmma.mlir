// RUN: tilepipe-opt %s | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s -tileas-test-work -verify-diagnostics -o /dev/null

// tileas.wgmma (issue 38, point 2): Hopper's warpgroup MMA into a register
// accumulator, A from SMEM or registers. Its class follows A's home and the
// element width; its work is 2MNK flops plus the SMEM bytes it reads.

// CHECK-LABEL: func.func @ss
// CHECK: tileas.wgmma %{{.*}}, %{{.*}}, %{{.*}} {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, tensor<128x256xf32> -> tensor<128x256xf32>
func.func @ss(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>,
              %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  // expected-remark @+1 {{class wgmma bytes 49152 flops 4194304 elements 0 accumulator 2}}
  %d = tileas.wgmma %a, %b, %c {accumulate}
      : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, tensor<128x256xf32> -> tensor<128x256xf32>
  return %d : tensor<128x256xf32>
}

// Attention's O += P V: P in registers, V given KxN (b_mn_major).
// CHECK-LABEL: func.func @rs
// CHECK: tileas.wgmma %{{.*}}, %{{.*}}, %{{.*}} {accumulate, b_mn_major} : tensor<128x64xbf16>, !tileas.smem<64x128xbf16>
func.func @rs(%p: tensor<128x64xbf16>, %v: !tileas.smem<64x128xbf16>,
              %o: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-remark @+1 {{class wgmma_rs bytes 16384 flops 2097152 elements 0 accumulator 2}}
  %d = tileas.wgmma %p, %v, %o {accumulate, b_mn_major}
      : tensor<128x64xbf16>, !tileas.smem<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
  return %d : tensor<128x128xf32>
}

// A decode's 16 grouped query heads: P (16 rows) in registers, issued as 64
// rows (ir/WgmmaStaging.h, isNarrowM): the work counts the 64 rows.
// CHECK-LABEL: func.func @rs_narrow
// CHECK: tileas.wgmma %{{.*}}, %{{.*}}, %{{.*}} {accumulate, b_mn_major} : tensor<16x64xbf16>, !tileas.smem<64x128xbf16>
func.func @rs_narrow(%p: tensor<16x64xbf16>, %v: !tileas.smem<64x128xbf16>,
                     %o: tensor<16x128xf32>) -> tensor<16x128xf32> {
  // expected-remark @+1 {{class wgmma_rs bytes 16384 flops 1048576 elements 0 accumulator 2}}
  %d = tileas.wgmma %p, %v, %o {accumulate, b_mn_major}
      : tensor<16x64xbf16>, !tileas.smem<64x128xbf16>, tensor<16x128xf32> -> tensor<16x128xf32>
  return %d : tensor<16x128xf32>
}

// CHECK-LABEL: func.func @rates
func.func @rates(%a32: !tileas.smem<64x32xf32>, %b32: !tileas.smem<64x32xf32>,
                 %c: tensor<64x64xf32>, %a8: !tileas.smem<64x64xf8E4M3FN>,
                 %b8: !tileas.smem<64x64xf8E5M2>, %h: tensor<64x64xf16>,
                 %ai: tensor<64x64xi8>, %bi: !tileas.smem<48x64xui8>,
                 %ci: tensor<64x48xi32>) {
  // expected-remark @+1 {{class wgmma_tf32 bytes 16384 flops 262144}}
  %0 = tileas.wgmma %a32, %b32, %c : !tileas.smem<64x32xf32>, !tileas.smem<64x32xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  // expected-remark @+1 {{class wgmma_f8 bytes 8192 flops 524288}}
  %1 = tileas.wgmma %a8, %b8, %h : !tileas.smem<64x64xf8E4M3FN>, !tileas.smem<64x64xf8E5M2>, tensor<64x64xf16> -> tensor<64x64xf16>
  // expected-remark @+1 {{class wgmma_rs_f8 bytes 3072 flops 393216}}
  %2 = tileas.wgmma %ai, %bi, %ci : tensor<64x64xi8>, !tileas.smem<48x64xui8>, tensor<64x48xi32> -> tensor<64x48xi32>
  return
}
