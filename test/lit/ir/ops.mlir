// RUN: tilepipe-opt %s | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s --mlir-print-op-generic | tilepipe-opt | FileCheck %s

// Every tileas op in its custom syntax survives a print/parse round trip,
// including through the generic form.

// CHECK-LABEL: func.func @copies
func.func @copies(%desc: !tileas.tma_desc<128x64xbf16>,
                  %desc3: !tileas.tma_desc<2x64x64xf16>,
                  %src: memref<?x?xbf16>, %i: index, %j: index) {
  // CHECK: %[[A:.*]] = tileas.tma_load %{{.*}}[%{{.*}}, %{{.*}}] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  %a = tileas.tma_load %desc[%i, %j] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  // CHECK: tileas.tma_load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tileas.tma_desc<2x64x64xf16> -> !tileas.smem<2x64x64xf16>
  %a3 = tileas.tma_load %desc3[%i, %j, %i] : !tileas.tma_desc<2x64x64xf16> -> !tileas.smem<2x64x64xf16>
  // CHECK: tileas.tma_store %[[A]], %{{.*}}[%{{.*}}, %{{.*}}] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  tileas.tma_store %a, %desc[%i, %j] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  // CHECK: tileas.cp_async %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xbf16> -> !tileas.smem<64x64xbf16>
  %s = tileas.cp_async %src[%i, %j] : memref<?x?xbf16> -> !tileas.smem<64x64xbf16>
  return
}

// CHECK-LABEL: func.func @moves
func.func @moves(%t: !tileas.tmem<128x128xf32>, %v: tensor<128x128xbf16>,
                 %s: !tileas.smem<128x128xbf16>) {
  // CHECK: tileas.tmem_load %{{.*}} : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %r = tileas.tmem_load %t : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  // CHECK: tileas.tmem_store %{{.*}} : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  %t2 = tileas.tmem_store %v : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  // CHECK: tileas.smem_load %{{.*}} : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
  %l = tileas.smem_load %s : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
  // CHECK: tileas.smem_store %{{.*}} : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %s2 = tileas.smem_store %v : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  return
}

// CHECK-LABEL: func.func @umma
func.func @umma(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<256x64xbf16>,
                %acc: !tileas.tmem<128x256xf32>, %ta: !tileas.tmem<128x64xbf16>,
                %ia: !tileas.smem<128x64xi8>, %ib: !tileas.smem<64x64xi8>,
                %iacc: !tileas.tmem<128x64xi32>,
                %hacc: !tileas.tmem<128x256xf16>,
                %ha: !tileas.smem<128x64xf16>, %hb: !tileas.smem<256x64xf16>) {
  // CHECK: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  %d = tileas.umma %a, %b, %acc {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  // CHECK: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  %d0 = tileas.umma %a, %b, %acc : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  // CHECK: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} {accumulate} : !tileas.tmem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  %ts = tileas.umma %ta, %b, %acc {accumulate} : !tileas.tmem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
  // CHECK: tileas.umma {{.*}} : !tileas.smem<128x64xi8>, !tileas.smem<64x64xi8>, !tileas.tmem<128x64xi32> -> !tileas.tmem<128x64xi32>
  %i = tileas.umma %ia, %ib, %iacc : !tileas.smem<128x64xi8>, !tileas.smem<64x64xi8>, !tileas.tmem<128x64xi32> -> !tileas.tmem<128x64xi32>
  // An f16 accumulator: kind::f16 with f16 A and B (bf16 ones accumulate
  // in f32 only; umma-shapes-invalid.mlir).
  // CHECK: tileas.umma {{.*}} -> !tileas.tmem<128x256xf16>
  %h = tileas.umma %ha, %hb, %hacc : !tileas.smem<128x64xf16>, !tileas.smem<256x64xf16>, !tileas.tmem<128x256xf16> -> !tileas.tmem<128x256xf16>
  return
}

// CHECK-LABEL: func.func @math
func.func @math(%x: tensor<128x128xf32>, %row: tensor<128xf32>, %s: f32,
                %h: tensor<128x128xf16>) {
  // CHECK: tileas.exp2 %{{.*}} : tensor<128x128xf32>
  %e = tileas.exp2 %x : tensor<128x128xf32>
  // CHECK: tileas.add %{{.*}}, %{{.*}} : tensor<128x128xf32>, tensor<128x128xf32>
  %0 = tileas.add %x, %e : tensor<128x128xf32>, tensor<128x128xf32>
  // CHECK: tileas.sub %{{.*}}, %{{.*}} : tensor<128x128xf32>, tensor<128xf32>
  %1 = tileas.sub %x, %row : tensor<128x128xf32>, tensor<128xf32>
  // CHECK: tileas.mul %{{.*}}, %{{.*}} : tensor<128x128xf32>, f32
  %2 = tileas.mul %x, %s : tensor<128x128xf32>, f32
  // CHECK: tileas.max %{{.*}}, %{{.*}} : tensor<128xf32>, tensor<128xf32>
  %3 = tileas.max %row, %row : tensor<128xf32>, tensor<128xf32>
  // CHECK: tileas.fma %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>
  %4 = tileas.fma %x, %e, %0 : tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>
  // CHECK: tileas.fma %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x128xf32>, tensor<128xf32>, f32
  %5 = tileas.fma %x, %row, %s : tensor<128x128xf32>, tensor<128xf32>, f32
  // CHECK: tileas.cvt %{{.*}} : tensor<128x128xf32> -> tensor<128x128xbf16>
  %6 = tileas.cvt %x : tensor<128x128xf32> -> tensor<128x128xbf16>
  // CHECK: tileas.cvt %{{.*}} : tensor<128x128xf16> -> tensor<128x128xf32>
  %7 = tileas.cvt %h : tensor<128x128xf16> -> tensor<128x128xf32>
  // CHECK: tileas.reduce_max %{{.*}} : tensor<128x128xf32> -> tensor<128xf32>
  %8 = tileas.reduce_max %x : tensor<128x128xf32> -> tensor<128xf32>
  // CHECK: tileas.reduce_sum %{{.*}} : tensor<128x128xf32> -> tensor<128xf32>
  %9 = tileas.reduce_sum %x : tensor<128x128xf32> -> tensor<128xf32>
  // CHECK: tileas.reduce_sum %{{.*}} : tensor<128xf32> -> tensor<f32>
  %10 = tileas.reduce_sum %row : tensor<128xf32> -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @alloc
func.func @alloc() {
  // CHECK: tileas.alloc_smem : !tileas.smem<128x64xbf16>
  %b = tileas.alloc_smem : !tileas.smem<128x64xbf16>
  // CHECK: tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %t = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  return
}

// One element written to a global array by a thread, inside the tensor.
// CHECK-LABEL: func.func @global_store
// CHECK: tileas.global_store %{{.*}}, %{{.*}}[%{{.*}}] if %{{.*}} : f32, memref<?xf32>
func.func @global_store(%v: f32, %p: memref<?xf32>, %i: index, %ok: i1) {
  tileas.global_store %v, %p[%i] if %ok : f32, memref<?xf32>
  return
}

// One element every thread reads (a block's expert in MoE).
// CHECK-LABEL: func.func @global_load
// CHECK: tileas.global_load %{{.*}}[%{{.*}}] if %{{.*}} : memref<?xi32> -> i32
func.func @global_load(%p: memref<?xi32>, %i: index, %ok: i1) -> i32 {
  %e = tileas.global_load %p[%i] if %ok : memref<?xi32> -> i32
  return %e : i32
}

// An index read from memory (an embedding's ids): i32, padded with 0, and
// read as a row index.
// CHECK-LABEL: func.func @read_indices
// CHECK: %[[IDS:.*]] = tileas.global_gather %{{.*}}[%{{.*}} : tensor<128x64xi32>] strides(%{{.*}}) bounds(%{{.*}}) padding = 0 : i32 : memref<?xi32> -> tensor<128x64xi32>
// CHECK: tileas.global_gather %{{.*}}[%[[IDS]], %{{.*}} : tensor<128x64xi32>, tensor<128x64xi32>]
func.func @read_indices(%ids: memref<?xi32>, %t: memref<?x?xf32>, %s: index, %m: index, %n: index, %v: index) -> tensor<128x64xf32> {
  %c1 = arith.constant 1 : index
  %r = tileas.iota dimension = 0 : tensor<128x64xi32>
  %c = tileas.iota dimension = 1 : tensor<128x64xi32>
  %i = tileas.global_gather %ids[%r : tensor<128x64xi32>] strides(%c1) bounds(%m) padding = 0 : i32 : memref<?xi32> -> tensor<128x64xi32>
  %x = tileas.global_gather %t[%i, %c : tensor<128x64xi32>, tensor<128x64xi32>] strides(%s, %c1) bounds(%v, %n) padding = 0.0 : f32 : memref<?x?xf32> -> tensor<128x64xf32>
  return %x : tensor<128x64xf32>
}

// An atomic add (ct.atomic_add): each element combined with the array's.
// CHECK-LABEL: func.func @combine
// CHECK: tileas.global_scatter %{{.*}}, %{{.*}}[%{{.*}} : tensor<128xi32>] strides(%{{.*}}) bounds(%{{.*}}) {combine = "add", fenced} : tensor<128xf32>, memref<?xf32>
func.func @combine(%v: tensor<128xf32>, %y: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %i = tileas.iota dimension = 0 : tensor<128xi32>
  tileas.global_scatter %v, %y[%i : tensor<128xi32>] strides(%c1) bounds(%n) {combine = "add", fenced} : tensor<128xf32>, memref<?xf32>
  return
}

// CHECK-LABEL: func.func @element_access
// CHECK: %[[V:.*]] = tileas.global_gather %{{.*}}[%{{.*}}, %{{.*}} : tensor<128x8xi32>, tensor<128x8xi32>] strides(%{{.*}}, %{{.*}}) bounds(%{{.*}}, %{{.*}}) mask(%{{.*}} : tensor<128x8xi1>) padding = 0xFF800000 : f32 : memref<?x?xf32> -> tensor<128x8xf32>
// CHECK: tileas.global_scatter %[[V]], %{{.*}}[%{{.*}}, %{{.*}} : tensor<128x8xi32>, tensor<128x8xi32>] strides(%{{.*}}, %{{.*}}) bounds(%{{.*}}, %{{.*}}) : tensor<128x8xf32>, memref<?x?xf32>
func.func @element_access(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %s: index, %m: index, %n: index, %keep: tensor<128x8xi1>) {
  %c1 = arith.constant 1 : index
  %r = tileas.iota dimension = 0 : tensor<128x8xi32>
  %c = tileas.iota dimension = 1 : tensor<128x8xi32>
  %v = tileas.global_gather %x[%r, %c : tensor<128x8xi32>, tensor<128x8xi32>] strides(%s, %c1) bounds(%m, %n) mask(%keep : tensor<128x8xi1>) padding = 0xFF800000 : f32 : memref<?x?xf32> -> tensor<128x8xf32>
  tileas.global_scatter %v, %y[%r, %c : tensor<128x8xi32>, tensor<128x8xi32>] strides(%s, %c1) bounds(%m, %n) : tensor<128x8xf32>, memref<?x?xf32>
  return
}
