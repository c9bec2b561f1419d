// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// MN-major operands: with `b_mn_major` B is given K x N (N contiguous, as a
// TMA box of a row-major [K, N] tensor holds it); with `a_mn_major` an SMEM A
// is K x M. M, N and K follow.

// CHECK-LABEL: func.func @pv
// CHECK: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} {accumulate, b_mn_major}
func.func @pv(%p: !tileas.tmem<128x64xbf16>, %v: !tileas.smem<64x256xbf16>,
              %o: !tileas.tmem<128x256xf32>) -> !tileas.tmem<128x256xf32> {
  %d = tileas.umma %p, %v, %o {accumulate, b_mn_major}
      : !tileas.tmem<128x64xbf16>, !tileas.smem<64x256xbf16>,
        !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  return %d : !tileas.tmem<128x256xf32>
}

// -----

// CHECK-LABEL: func.func @both
// CHECK: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} {a_mn_major, b_mn_major}
func.func @both(%a: !tileas.smem<64x128xbf16>, %b: !tileas.smem<64x256xbf16>,
                %c: !tileas.tmem<128x256xf32>) -> !tileas.tmem<128x256xf32> {
  %d = tileas.umma %a, %b, %c {a_mn_major, b_mn_major}
      : !tileas.smem<64x128xbf16>, !tileas.smem<64x256xbf16>,
        !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  return %d : !tileas.tmem<128x256xf32>
}

// -----

func.func @k_mismatch(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>,
                      %c: !tileas.tmem<128x256xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects A to be MxK and B KxN with the same K, got A 128x64, B 256x64}}
  %d = tileas.umma %a, %b, %c {b_mn_major}
      : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>,
        !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  return
}

// -----

func.func @tmem_a(%a: !tileas.tmem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>,
                  %c: !tileas.tmem<128x256xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects an MN-major A in shared memory (a TMEM A is read M x K)}}
  %d = tileas.umma %a, %b, %c {a_mn_major}
      : !tileas.tmem<128x64xbf16>, !tileas.smem<256x64xbf16>,
        !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  return
}

// -----

func.func @tf32(%a: !tileas.smem<128x32xf32>, %b: !tileas.smem<32x128xf32>,
                %c: !tileas.tmem<128x128xf32>) {
  // expected-error @+1 {{'tileas.umma' op expects an MN-major B of an 8- or 16-bit type, got 'f32'}}
  %d = tileas.umma %a, %b, %c {b_mn_major}
      : !tileas.smem<128x32xf32>, !tileas.smem<32x128xf32>,
        !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// -----

// Block-scale factors in their atom form: 2 row blocks x 1 k-group become
// the 128 x 8 TMEM tile of N = 256 rows x 4 k-blocks.
// CHECK-LABEL: func.func @scale_atoms
// CHECK: tileas.tmem_copy %{{.*}} : !tileas.smem<2x32x16xui8> -> !tileas.tmem<128x8xui8>
func.func @scale_atoms(%s: !tileas.smem<2x32x16xui8>) -> !tileas.tmem<128x8xui8> {
  %t = tileas.tmem_copy %s : !tileas.smem<2x32x16xui8> -> !tileas.tmem<128x8xui8>
  return %t : !tileas.tmem<128x8xui8>
}

// -----

func.func @scale_atoms_bad(%s: !tileas.smem<2x32x16xui8>) {
  // expected-error @+1 {{'tileas.tmem_copy' op expects the 2x32x16 scale-factor atoms (256 rows x 4 k-blocks) to become a 128x8 TMEM tile, got 128x4}}
  %t = tileas.tmem_copy %s : !tileas.smem<2x32x16xui8> -> !tileas.tmem<128x4xui8>
  return
}
