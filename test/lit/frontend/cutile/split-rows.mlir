// RUN: tilepipe-opt %s --tileas-split-rows | FileCheck %s

// Register tiles of fewer than 128 rows, their rows split over lanes
// (docs/dialect.md, "Rows split over lanes"): a 32 x 256 norm-like body
// becomes 128 x 64 tiles, 4 lanes to a row. The per-row sum is put back
// together across the lanes before it is read; the per-column gain is read
// per lane from shared memory, its conversion redone on the pieces; the
// loop-carried per-row vector holds 128 values.

// CHECK-LABEL: func.func @norm
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<128xf32>)
// CHECK:   %[[X:.*]] = tileas.smem_load %{{.*}} {lanes = 4 : i64} : !tileas.smem<32x256xf32> -> tensor<128x64xf32>
// CHECK:   %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : tensor<128x64xf32>
// CHECK:   %[[PART:.*]] = tileas.reduce_sum %[[SQ]] : tensor<128x64xf32> -> tensor<128xf32>
// CHECK:   %[[ROW:.*]] = tileas.reduce_lanes %[[PART]] {kind = "sum", lanes = 4 : i64} : tensor<128xf32>
// CHECK:   arith.addf %[[ACC]], %[[ROW]] : tensor<128xf32>
// CHECK: tileas.smem_load %{{.*}} {lanes = 4 : i64} : !tileas.smem<256xbf16> -> tensor<128x64xbf16>
// CHECK-NEXT: tileas.cvt %{{.*}} : tensor<128x64xbf16> -> tensor<128x64xf32>
// CHECK-NOT: dimensions = [0]
// CHECK: tileas.broadcast %{{.*}} dimensions = [1] : tensor<128xf32> -> tensor<128x64xf32>
// CHECK: tileas.smem_store %{{.*}} {lanes = 4 : i64} : tensor<128x64xf32> -> !tileas.smem<32x256xf32>
func.func @norm(%xs: !tileas.smem<32x256xf32>, %ws: !tileas.smem<256xbf16>, %n: index) -> !tileas.smem<32x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<32xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32xf32>) {
    %x = tileas.smem_load %xs : !tileas.smem<32x256xf32> -> tensor<32x256xf32>
    %sq = arith.mulf %x, %x : tensor<32x256xf32>
    %r = tileas.reduce_sum %sq : tensor<32x256xf32> -> tensor<32xf32>
    %next = arith.addf %acc, %r : tensor<32xf32>
    scf.yield %next : tensor<32xf32>
  }
  %inv = math.rsqrt %sum : tensor<32xf32>
  %x = tileas.smem_load %xs : !tileas.smem<32x256xf32> -> tensor<32x256xf32>
  %w16 = tileas.smem_load %ws : !tileas.smem<256xbf16> -> tensor<256xbf16>
  %w = tileas.cvt %w16 : tensor<256xbf16> -> tensor<256xf32>
  %wb = tileas.broadcast %w dimensions = [0] : tensor<256xf32> -> tensor<32x256xf32>
  %ib = tileas.broadcast %inv dimensions = [1] : tensor<32xf32> -> tensor<32x256xf32>
  %y0 = arith.mulf %x, %ib : tensor<32x256xf32>
  %y = arith.mulf %y0, %wb : tensor<32x256xf32>
  %out = tileas.smem_store %y : tensor<32x256xf32> -> !tileas.smem<32x256xf32>
  return %out : !tileas.smem<32x256xf32>
}

// 128-row tiles and 64-row MMA accumulators are left as they are.
// CHECK-LABEL: func.func @untouched
// CHECK: tileas.smem_load %{{.*}} : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
// CHECK: tileas.tmem_load %{{.*}} : !tileas.tmem<64x64xf32> -> tensor<64x64xf32>
func.func @untouched(%a: !tileas.smem<128x64xf32>, %t: !tileas.tmem<64x64xf32>) -> (tensor<128x64xf32>, tensor<64x64xf32>) {
  %x = tileas.smem_load %a : !tileas.smem<128x64xf32> -> tensor<128x64xf32>
  %y = tileas.tmem_load %t : !tileas.tmem<64x64xf32> -> tensor<64x64xf32>
  %z = arith.addf %y, %y : tensor<64x64xf32>
  return %x, %z : tensor<128x64xf32>, tensor<64x64xf32>
}

// Two rows: each over 64 lanes, two warps a row (the translation combines
// the warps through shared memory).
// CHECK-LABEL: func.func @two_rows
// CHECK: tileas.smem_load %{{.*}} {lanes = 64 : i64} : !tileas.smem<2x256xf32> -> tensor<128x4xf32>
// CHECK: tileas.reduce_lanes %{{.*}} {kind = "max", lanes = 64 : i64} : tensor<128xf32>
func.func @two_rows(%s: !tileas.smem<2x256xf32>) -> !tileas.smem<2x256xf32> {
  %x = tileas.smem_load %s : !tileas.smem<2x256xf32> -> tensor<2x256xf32>
  %r = tileas.reduce_max %x : tensor<2x256xf32> -> tensor<2xf32>
  %b = tileas.broadcast %r dimensions = [1] : tensor<2xf32> -> tensor<2x256xf32>
  %y = arith.subf %x, %b : tensor<2x256xf32>
  %o = tileas.smem_store %y : tensor<2x256xf32> -> !tileas.smem<2x256xf32>
  return %o : !tileas.smem<2x256xf32>
}

// A per-row statistic of a split tile stored (a 16-row norm's mean): the
// store takes the lanes too, and the first of each row's 8 threads writes it
// (tp::smem_store_row_lanes).
// CHECK-LABEL: func.func @row_stat
// CHECK: %[[P:.*]] = tileas.reduce_sum %{{.*}} : tensor<128x128xf32> -> tensor<128xf32>
// CHECK: %[[R:.*]] = tileas.reduce_lanes %[[P]] {kind = "sum", lanes = 8 : i64} : tensor<128xf32>
// CHECK: tileas.smem_store %[[R]] {lanes = 8 : i64} : tensor<128xf32> -> !tileas.smem<16xf32>
func.func @row_stat(%xs: !tileas.smem<16x1024xf32>) -> !tileas.smem<16xf32> {
  %x = tileas.smem_load %xs : !tileas.smem<16x1024xf32> -> tensor<16x1024xf32>
  %r = tileas.reduce_sum %x : tensor<16x1024xf32> -> tensor<16xf32>
  %s = tileas.smem_store %r : tensor<16xf32> -> !tileas.smem<16xf32>
  return %s : !tileas.smem<16xf32>
}

// A per-row statistic of a split tile read back (LayerNorm's backward pass
// reading the mean): the load takes the lanes, each thread reading its
// row's element (tp::row_of_lane).
// CHECK-LABEL: func.func @row_stat_read
// CHECK: %[[M:.*]] = tileas.smem_load %{{.*}} {lanes = 8 : i64} : !tileas.smem<16xf32> -> tensor<128xf32>
// CHECK: tileas.broadcast %[[M]] dimensions = [1] : tensor<128xf32> -> tensor<128x128xf32>
func.func @row_stat_read(%xs: !tileas.smem<16x1024xf32>, %ms: !tileas.smem<16xf32>) -> !tileas.smem<16x1024xf32> {
  %x = tileas.smem_load %xs : !tileas.smem<16x1024xf32> -> tensor<16x1024xf32>
  %m = tileas.smem_load %ms : !tileas.smem<16xf32> -> tensor<16xf32>
  %mb = tileas.broadcast %m dimensions = [1] : tensor<16xf32> -> tensor<16x1024xf32>
  %y = arith.subf %x, %mb : tensor<16x1024xf32>
  %o = tileas.smem_store %y : tensor<16x1024xf32> -> !tileas.smem<16x1024xf32>
  return %o : !tileas.smem<16x1024xf32>
}

// Positions along the rows of a split tile (`ct.arange(TM)[:, None]`):
// thread t holds row t / 8.
// CHECK-LABEL: func.func @row_positions
// CHECK: %[[I:.*]] = tileas.iota dimension = 0 : tensor<128xi32>
// CHECK: %[[R:.*]] = arith.divsi %[[I]], %{{.*}} : tensor<128xi32>
// CHECK: arith.sitofp %[[R]] : tensor<128xi32> to tensor<128xf32>
func.func @row_positions(%xs: !tileas.smem<16x1024xf32>) -> !tileas.smem<16x1024xf32> {
  %x = tileas.smem_load %xs : !tileas.smem<16x1024xf32> -> tensor<16x1024xf32>
  %i = tileas.iota dimension = 0 : tensor<16xi32>
  %f = arith.sitofp %i : tensor<16xi32> to tensor<16xf32>
  %fb = tileas.broadcast %f dimensions = [1] : tensor<16xf32> -> tensor<16x1024xf32>
  %y = arith.mulf %x, %fb : tensor<16x1024xf32>
  %o = tileas.smem_store %y : tensor<16x1024xf32> -> !tileas.smem<16x1024xf32>
  return %o : !tileas.smem<16x1024xf32>
}

// A sum over a per-row vector of a split tile (64 scores, each held by its
// row's two threads): only the first lane of each row counts.
// CHECK-LABEL: func.func @row_vector_sum
// CHECK: %[[R:.*]] = tileas.reduce_lanes %{{.*}} {kind = "sum", lanes = 2 : i64} : tensor<128xf32>
// CHECK: %[[L:.*]] = arith.remsi %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK: %[[F:.*]] = arith.cmpi eq, %[[L]], %{{.*}} : tensor<128xi32>
// CHECK: %[[S:.*]] = arith.select %[[F]], %[[R]], %{{.*}} : tensor<128xi1>, tensor<128xf32>
// CHECK: tileas.reduce_all %[[S]] {kind = "sum"} : tensor<128xf32> -> f32
// CHECK: tileas.reduce_all %[[R]] {kind = "max"} : tensor<128xf32> -> f32
func.func @row_vector_sum(%xs: !tileas.smem<64x128xf32>) -> (f32, f32) {
  %x = tileas.smem_load %xs : !tileas.smem<64x128xf32> -> tensor<64x128xf32>
  %r = tileas.reduce_sum %x : tensor<64x128xf32> -> tensor<64xf32>
  %s = tileas.reduce_all %r {kind = "sum"} : tensor<64xf32> -> f32
  %m = tileas.reduce_all %r {kind = "max"} : tensor<64xf32> -> f32
  return %s, %m : f32, f32
}
