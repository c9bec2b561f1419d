// RUN: tilepipe-opt %s | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s --mlir-print-op-generic | tilepipe-opt | FileCheck %s

// Rows split over lanes (docs/dialect.md): a 32 x 256 tile read as 128 x 64,
// a per-column vector read for it, and the row sum put back together across
// the 4 lanes of each row, round-trip through the generic form too.

// CHECK-LABEL: func.func @split
// CHECK: tileas.smem_load %{{.*}} {lanes = 4 : i64} : !tileas.smem<32x256xf32> -> tensor<128x64xf32>
// CHECK: tileas.smem_load %{{.*}} {lanes = 4 : i64} : !tileas.smem<256xf32> -> tensor<128x64xf32>
// CHECK: tileas.reduce_lanes %{{.*}} {kind = "sum", lanes = 4 : i64} : tensor<128xf32>
// CHECK: tileas.smem_store %{{.*}} {lanes = 4 : i64} : tensor<128x64xf32> -> !tileas.smem<32x256xf32>
func.func @split(%s: !tileas.smem<32x256xf32>, %w: !tileas.smem<256xf32>) -> tensor<128xf32> {
  %r = tileas.smem_load %s {lanes = 4} : !tileas.smem<32x256xf32> -> tensor<128x64xf32>
  %v = tileas.smem_load %w {lanes = 4} : !tileas.smem<256xf32> -> tensor<128x64xf32>
  %m = arith.mulf %r, %v : tensor<128x64xf32>
  %p = tileas.reduce_sum %m : tensor<128x64xf32> -> tensor<128xf32>
  %t = tileas.reduce_lanes %p {kind = "sum", lanes = 4} : tensor<128xf32>
  %st = tileas.smem_store %m {lanes = 4} : tensor<128x64xf32> -> !tileas.smem<32x256xf32>
  return %t : tensor<128xf32>
}

// A transposed read split over lanes: the 64x32 transpose of a 32x64 tile,
// two lanes a row.
// CHECK-LABEL: func.func @transposed_lanes
// CHECK: tileas.smem_load %{{.*}} transposed {lanes = 2 : i64} : !tileas.smem<32x64xf32> -> tensor<128x16xf32>
func.func @transposed_lanes(%s: !tileas.smem<32x64xf32>) -> tensor<128x16xf32> {
  %r = tileas.smem_load %s transposed {lanes = 2} : !tileas.smem<32x64xf32> -> tensor<128x16xf32>
  return %r : tensor<128x16xf32>
}
