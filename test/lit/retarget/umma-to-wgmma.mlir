// RUN: tilepipe-opt %s -split-input-file --tileas-umma-to-wgmma -verify-diagnostics | FileCheck %s

// --tileas-umma-to-wgmma (issue 38, point 2; docs/retarget.md): a loop
// written with Blackwell's TMEM MMA becomes Hopper's register-accumulator
// wgmma. TMEM tiles become register tiles, alloc_tmem a zero tile, and
// tmem_load / tmem_store disappear.

// CHECK-LABEL: func.func @gemm
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<128x256xf32>)
// CHECK:   %[[D:.*]] = tileas.wgmma %{{.*}}, %{{.*}}, %[[ACC]] {accumulate, tileas.name = "mma"} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, tensor<128x256xf32> -> tensor<128x256xf32>
// CHECK:   scf.yield %[[D]] : tensor<128x256xf32>
// CHECK: tileas.cvt %[[R]] : tensor<128x256xf32> -> tensor<128x256xbf16>
// CHECK-NOT: tmem
func.func @gemm(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>, %n: index) -> tensor<128x256xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (!tileas.tmem<128x256xf32>) {
    %d = tileas.umma %a, %b, %acc {accumulate, tileas.name = "mma"} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %v = tileas.tmem_load %r : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %o = tileas.cvt %v : tensor<128x256xf32> -> tensor<128x256xbf16>
  return %o : tensor<128x256xbf16>
}

// -----

// P written over S's columns (FA4's economy) is P in registers; P V reads
// A from registers (class wgmma_rs) with V given KxN.
// CHECK-LABEL: func.func @pv
// CHECK: %[[S:.*]] = tileas.wgmma %{{.*}}, %{{.*}}, %{{.*}} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
// CHECK: %[[P:.*]] = tileas.cvt %[[S]] : tensor<128x128xf32> -> tensor<128x128xbf16>
// CHECK: tileas.wgmma %[[P]], %{{.*}}, %{{.*}} {accumulate, b_mn_major} : tensor<128x128xbf16>, !tileas.smem<128x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
func.func @pv(%q: !tileas.smem<128x64xbf16>, %k: !tileas.smem<128x64xbf16>, %v: !tileas.smem<128x64xbf16>,
              %o: !tileas.tmem<128x64xf32>) -> !tileas.tmem<128x64xf32> {
  %sb = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %s = tileas.umma %q, %k, %sb : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  %sr = tileas.tmem_load %s : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %pb = tileas.cvt %sr : tensor<128x128xf32> -> tensor<128x128xbf16>
  %pt = tileas.tmem_store %pb into %s as !tileas.tmem<128x128xf32> : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  %d = tileas.umma %pt, %v, %o {accumulate, b_mn_major} : !tileas.tmem<128x128xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x64xf32> -> !tileas.tmem<128x64xf32>
  return %d : !tileas.tmem<128x64xf32>
}

// -----

// P stored to SMEM only to be an MMA's A (M = 64 attention as written for
// Blackwell) is handed to the wgmma in registers: no SMEM tile is left.
// CHECK-LABEL: func.func @p_smem
// CHECK: %[[P:.*]] = tileas.cvt %{{.*}} : tensor<64x128xf32> -> tensor<64x128xbf16>
// CHECK-NOT: tileas.smem_store
// CHECK: tileas.wgmma %[[P]], %{{.*}}, %{{.*}} {accumulate, b_mn_major} : tensor<64x128xbf16>, !tileas.smem<128x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
func.func @p_smem(%q: !tileas.smem<64x64xbf16>, %k: !tileas.smem<128x64xbf16>, %v: !tileas.smem<128x64xbf16>,
                  %o: !tileas.tmem<64x64xf32>) -> !tileas.tmem<64x64xf32> {
  %sb = tileas.alloc_tmem : !tileas.tmem<64x128xf32>
  %s = tileas.umma %q, %k, %sb : !tileas.smem<64x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<64x128xf32> -> !tileas.tmem<64x128xf32>
  %sr = tileas.tmem_load %s : !tileas.tmem<64x128xf32> -> tensor<64x128xf32>
  %pb = tileas.cvt %sr : tensor<64x128xf32> -> tensor<64x128xbf16>
  %ps = tileas.smem_store %pb : tensor<64x128xbf16> -> !tileas.smem<64x128xbf16>
  %d = tileas.umma %ps, %v, %o {accumulate, b_mn_major} : !tileas.smem<64x128xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<64x64xf32> -> !tileas.tmem<64x64xf32>
  return %d : !tileas.tmem<64x64xf32>
}

// -----

// The same tile also read as a B stays in SMEM for both.
// CHECK-LABEL: func.func @p_smem_also_b
// CHECK: %[[PS:.*]] = tileas.smem_store
// CHECK: tileas.wgmma %[[PS]], %[[PS]], %{{.*}} : !tileas.smem<64x64xbf16>, !tileas.smem<64x64xbf16>
func.func @p_smem_also_b(%x: tensor<64x64xbf16>, %o: !tileas.tmem<64x64xf32>) -> !tileas.tmem<64x64xf32> {
  %ps = tileas.smem_store %x : tensor<64x64xbf16> -> !tileas.smem<64x64xbf16>
  %d = tileas.umma %ps, %ps, %o : !tileas.smem<64x64xbf16>, !tileas.smem<64x64xbf16>, !tileas.tmem<64x64xf32> -> !tileas.tmem<64x64xf32>
  return %d : !tileas.tmem<64x64xf32>
}

// -----

// What Hopper cannot express is refused at its line.
func.func @scales(%s: !tileas.smem<1x32x16xui8>) {
  // expected-error @+1 {{tileas.tmem_copy has no sm_90a form: Hopper has no tensor memory}}
  %sfa = tileas.tmem_copy %s : !tileas.smem<1x32x16xui8> -> !tileas.tmem<128x4xui8>
  return
}

// -----

func.func @alias_read_after(%pb: tensor<128x128xbf16>, %s: !tileas.tmem<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @+1 {{a tileas.tmem_store `into` a tile that is read after it has no sm_90a form}}
  %pt = tileas.tmem_store %pb into %s as !tileas.tmem<128x128xf32> : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  %r = tileas.tmem_load %s : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// An MN-major s8 B (an int8 GEMM's B given K x N): wgmma transposes only
// 16-bit operands, and since session 49 the translation stages 8-bit
// integers K-major as it does tf32 and 8-bit floats, so the wgmma verifier
// takes it after the rewrite; a u8 A (`a_unsigned`) stays u8. (Before, the
// verifier refused it here at the MMA's line.)
// CHECK-LABEL: func.func @s8_mn_major
// CHECK: tileas.wgmma %{{.*}}, %{{.*}}, %{{.*}} {a_unsigned, b_mn_major} : !tileas.smem<64x32xi8>, !tileas.smem<32x64xi8>, tensor<64x64xi32> -> tensor<64x64xi32>
func.func @s8_mn_major(%a: !tileas.smem<64x32xi8>, %b: !tileas.smem<32x64xi8>, %c: !tileas.tmem<64x64xi32>) -> !tileas.tmem<64x64xi32> {
  %d = tileas.umma %a, %b, %c {a_unsigned, b_mn_major} : !tileas.smem<64x32xi8>, !tileas.smem<32x64xi8>, !tileas.tmem<64x64xi32> -> !tileas.tmem<64x64xi32>
  return %d : !tileas.tmem<64x64xi32>
}
