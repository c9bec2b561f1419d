// A TMA's tile is its descriptor's box, or the box without its unit
// dimensions other than the innermost (a batch of one: the (1, M, K) box of a
// rank-3 tensor lands as the MxK tile an MMA reads; one token's heads: the
// (1, H, 1, D) box as an HxD tile; docs/dialect.md, docs/cuda-tile-lowering.md).
// RUN: tilepipe-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @batch_of_one
func.func @batch_of_one(%a: !tileas.tma_desc<1x128x64xbf16>, %c: !tileas.tma_desc<1x1x128x128xbf16>,
                        %i: index) {
  // CHECK: tileas.tma_load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tileas.tma_desc<1x128x64xbf16> -> !tileas.smem<128x64xbf16>
  %t = tileas.tma_load %a[%i, %i, %i] : !tileas.tma_desc<1x128x64xbf16> -> !tileas.smem<128x64xbf16>
  %s = tileas.alloc_smem : !tileas.smem<128x128xbf16>
  // CHECK: tileas.tma_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<1x1x128x128xbf16>
  tileas.tma_store %s, %c[%i, %i, %i, %i] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<1x1x128x128xbf16>
  return
}

// -----

// A unit dimension between the tile's is dropped too (one token's heads).
// CHECK-LABEL: func.func @inner_unit
func.func @inner_unit(%a: !tileas.tma_desc<1x16x1x64xbf16>, %i: index) {
  // CHECK: tileas.tma_load %{{.*}} : !tileas.tma_desc<1x16x1x64xbf16> -> !tileas.smem<16x64xbf16>
  %t = tileas.tma_load %a[%i, %i, %i, %i] : !tileas.tma_desc<1x16x1x64xbf16> -> !tileas.smem<16x64xbf16>
  return
}

// -----

// The tile keeps the box's dimensions in order.
func.func @reordered(%a: !tileas.tma_desc<64x1x128xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.tma_load' op expects the result tile 128x64xbf16 to match the descriptor box 64x1x128xbf16}}
  %t = tileas.tma_load %a[%i, %i, %i] : !tileas.tma_desc<64x1x128xbf16> -> !tileas.smem<128x64xbf16>
  return
}

// -----

// A dropped dimension is a unit one.
func.func @batch_of_two(%a: !tileas.tma_desc<2x128x64xbf16>, %i: index) {
  // expected-error @+1 {{'tileas.tma_load' op expects the result tile 128x64xbf16 to match the descriptor box 2x128x64xbf16}}
  %t = tileas.tma_load %a[%i, %i, %i] : !tileas.tma_desc<2x128x64xbf16> -> !tileas.smem<128x64xbf16>
  return
}
