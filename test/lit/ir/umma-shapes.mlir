// RUN: tilepipe-opt %s | FileCheck %s

// The accepted side of each tcgen05.mma shape rule (umma-shapes-invalid.mlir
// has the refused side): M = 64 and 128 with N = 8, N = 24 at M = 128 (the
// ISA's cta_group::1 steps of 8 at either M), N = 256, K of one
// instruction per kind, f16 accumulators where the ISA has them, and
// kind::i8's N = 24 and 48.

// CHECK-LABEL: func.func @m64_n8
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<64x8xf32>
func.func @m64_n8(%a: !tileas.smem<64x16xbf16>, %b: !tileas.smem<8x16xbf16>, %acc: !tileas.tmem<64x8xf32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<64x16xbf16>, !tileas.smem<8x16xbf16>, !tileas.tmem<64x8xf32> -> !tileas.tmem<64x8xf32>
  return
}

// CHECK-LABEL: func.func @m128_n8
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<128x8xf32>
func.func @m128_n8(%a: !tileas.smem<128x16xbf16>, %b: !tileas.smem<8x16xbf16>, %acc: !tileas.tmem<128x8xf32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x16xbf16>, !tileas.smem<8x16xbf16>, !tileas.tmem<128x8xf32> -> !tileas.tmem<128x8xf32>
  return
}

// CHECK-LABEL: func.func @m128_n24
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<128x24xf32>
func.func @m128_n24(%a: !tileas.smem<128x64xf16>, %b: !tileas.smem<24x64xf16>, %acc: !tileas.tmem<128x24xf32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xf16>, !tileas.smem<24x64xf16>, !tileas.tmem<128x24xf32> -> !tileas.tmem<128x24xf32>
  return
}

// CHECK-LABEL: func.func @m128_n256
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<128x256xf32>
func.func @m128_n256(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>, %acc: !tileas.tmem<128x256xf32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  return
}

// CHECK-LABEL: func.func @m64_n256
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<64x256xf32>
func.func @m64_n256(%a: !tileas.smem<64x64xbf16>, %b: !tileas.smem<256x64xbf16>, %acc: !tileas.tmem<64x256xf32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<64x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<64x256xf32> -> !tileas.tmem<64x256xf32>
  return
}

// CHECK-LABEL: func.func @f16_f16acc
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<128x128xf16>
func.func @f16_f16acc(%a: !tileas.smem<128x64xf16>, %b: !tileas.smem<128x64xf16>, %acc: !tileas.tmem<128x128xf16>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x64xf16>, !tileas.smem<128x64xf16>, !tileas.tmem<128x128xf16> -> !tileas.tmem<128x128xf16>
  return
}

// CHECK-LABEL: func.func @tf32_k8
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<128x64xf32>
func.func @tf32_k8(%a: !tileas.smem<128x8xf32>, %b: !tileas.smem<64x8xf32>, %acc: !tileas.tmem<128x64xf32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x8xf32>, !tileas.smem<64x8xf32>, !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
  return
}

// CHECK-LABEL: func.func @fp8_k32_f16acc
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<64x40xf16>
func.func @fp8_k32_f16acc(%a: !tileas.smem<64x32xf8E4M3FN>, %b: !tileas.smem<40x32xf8E4M3FN>, %acc: !tileas.tmem<64x40xf16>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<64x32xf8E4M3FN>, !tileas.smem<40x32xf8E4M3FN>, !tileas.tmem<64x40xf16> -> !tileas.tmem<64x40xf16>
  return
}

// CHECK-LABEL: func.func @e5m2_n8
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<128x8xf32>
func.func @e5m2_n8(%a: !tileas.smem<128x128xf8E5M2>, %b: !tileas.smem<8x128xf8E5M2>, %acc: !tileas.tmem<128x8xf32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x128xf8E5M2>, !tileas.smem<8x128xf8E5M2>, !tileas.tmem<128x8xf32> -> !tileas.tmem<128x8xf32>
  return
}

// CHECK-LABEL: func.func @i8_n24
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<128x24xi32>
func.func @i8_n24(%a: !tileas.smem<128x32xi8>, %b: !tileas.smem<24x32xi8>, %acc: !tileas.tmem<128x24xi32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<128x32xi8>, !tileas.smem<24x32xi8>, !tileas.tmem<128x24xi32> -> !tileas.tmem<128x24xi32>
  return
}

// CHECK-LABEL: func.func @i8_n48
// CHECK: tileas.umma {{.*}} -> !tileas.tmem<64x48xi32>
func.func @i8_n48(%a: !tileas.smem<64x64xi8>, %b: !tileas.smem<48x64xi8>, %acc: !tileas.tmem<64x48xi32>) {
  %d = tileas.umma %a, %b, %acc : !tileas.smem<64x64xi8>, !tileas.smem<48x64xi8>, !tileas.tmem<64x48xi32> -> !tileas.tmem<64x48xi32>
  return
}

// An MN-major bf16 B of N = 8: 16 bytes, one core-matrix row.
// CHECK-LABEL: func.func @mn_major_bf16_n8
// CHECK: tileas.umma {{.*}} {b_mn_major}
func.func @mn_major_bf16_n8(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<64x8xbf16>, %acc: !tileas.tmem<128x8xf32>) {
  %d = tileas.umma %a, %b, %acc {b_mn_major} : !tileas.smem<128x64xbf16>, !tileas.smem<64x8xbf16>, !tileas.tmem<128x8xf32> -> !tileas.tmem<128x8xf32>
  return
}
