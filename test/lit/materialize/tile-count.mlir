// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule --tileas-materialize-schedule \
// RUN:   -verify-diagnostics | FileCheck %s

// A kernel that walks its own tiles (tileas.tile_count, cuTile's persistent
// tile loop lowered) is planned persistent without the `persistent` option:
// the function is marked, and its accumulator's result pipe takes 2 slots.
// CHECK-LABEL: func.func @walks
// CHECK-SAME: tileas.persistent
// CHECK: tileas.tile_count
func.func @walks(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<128x64xbf16>,
                 %descD: !tileas.tma_desc<128x128xbf16>, %tiles: index, %tilesN: index, %K: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tileas.tile_count %tiles
  %t = gpu.block_id x
  %bx = arith.divui %t, %tilesN : index
  %by = arith.remui %t, %tilesN : index
  %m = arith.muli %bx, %c128 : index
  %n = arith.muli %by, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64 iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %y = tileas.cvt %x : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %y : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}

// -----

// One without a persistent plan would compute one tile per CTA, not the
// tiles it counts: an error, not the one-tile plan a `persistent` option
// falls back to.
func.func @no_persistent_plan(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<128x64xbf16>,
                              %tiles: index, %K: index) -> tensor<128x128xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tileas.tile_count %tiles
  %t = gpu.block_id x
  %m = arith.muli %t, %c128 : index
  %a = tileas.tma_load %descA[%m, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  // expected-error @below {{a kernel that walks its own tiles (tileas.tile_count) needs a persistent plan, and this loop has none: it reads a tile loaded before it}}
  %acc = scf.for %k = %c0 to %K step %c64 iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %b = tileas.tma_load %descB[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  return %x : tensor<128x128xf32>
}

// -----

// One loop a tile: the walk's pipes carry on from tile to tile, and a
// second loop's rings could not lie over the first's.
func.func @two_loops(%descA: !tileas.tma_desc<128x64xbf16>, %tiles: index, %K: index)
    -> (tensor<128xf32>, tensor<128xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  tileas.tile_count %tiles
  %t = gpu.block_id x
  %m = arith.muli %t, %c128 : index
  // expected-error @below {{a kernel that walks its own tiles (tileas.tile_count) is materialized with one loop a tile; this function has 2}}
  %s = scf.for %k = %c0 to %K step %c64 iter_args(%acc = %zero) -> (tensor<128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %x = tileas.smem_load %a : !tileas.smem<128x64xbf16> -> tensor<128x64xbf16>
    %f = tileas.cvt %x : tensor<128x64xbf16> -> tensor<128x64xf32>
    %r = tileas.reduce_sum %f : tensor<128x64xf32> -> tensor<128xf32>
    %n = tileas.add %acc, %r : tensor<128xf32>, tensor<128xf32>
    scf.yield %n : tensor<128xf32>
  }
  // expected-error @below {{this function has 2}}
  %s2 = scf.for %k = %c0 to %K step %c64 iter_args(%acc = %zero) -> (tensor<128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %x = tileas.smem_load %a : !tileas.smem<128x64xbf16> -> tensor<128x64xbf16>
    %f = tileas.cvt %x : tensor<128x64xbf16> -> tensor<128x64xf32>
    %r = tileas.reduce_max %f : tensor<128x64xf32> -> tensor<128xf32>
    %n = tileas.max %acc, %r : tensor<128xf32>, tensor<128xf32>
    scf.yield %n : tensor<128xf32>
  }
  return %s, %s2 : tensor<128xf32>, tensor<128xf32>
}
