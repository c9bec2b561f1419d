// RUN: tilepipe-opt %s -canonicalize | FileCheck %s
// RUN: tilepipe-opt %s -canonicalize -cse | FileCheck %s

// Memory effects: unused pure math, reads of on-chip memory and allocations
// fold away; stores, UMMA (which writes tensor memory) and TMA loads (which
// write shared memory: a load into a pipe slot must survive cleanups) stay.

// CHECK-LABEL: func.func @dead
func.func @dead(%desc: !tileas.tma_desc<128x64xbf16>, %x: tensor<128x128xf32>,
                %t: !tileas.tmem<128x128xf32>, %i: index) {
  // CHECK-NEXT: return
  %r = tileas.tmem_load %t : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %b0 = tileas.alloc_smem : !tileas.smem<128x64xbf16>
  %s = tileas.smem_load %b0 : !tileas.smem<128x64xbf16> -> tensor<128x64xbf16>
  %e = tileas.exp2 %x : tensor<128x128xf32>
  %m = tileas.reduce_max %x : tensor<128x128xf32> -> tensor<128xf32>
  %b = tileas.alloc_smem : !tileas.smem<128x64xbf16>
  %c = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  return
}

// CHECK-LABEL: func.func @live
func.func @live(%desc: !tileas.tma_desc<128x64xbf16>, %buf: !tileas.smem<128x64xbf16>,
                %v: tensor<128x128xbf16>, %acc: !tileas.tmem<128x128xf32>,
                %i: index) {
  // CHECK: tileas.tma_load
  %a = tileas.tma_load %desc[%i, %i] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  // CHECK: tileas.tma_store
  tileas.tma_store %buf, %desc[%i, %i] : !tileas.smem<128x64xbf16>, !tileas.tma_desc<128x64xbf16>
  // CHECK: tileas.smem_store
  %s = tileas.smem_store %v : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  // CHECK: tileas.tmem_store
  %t = tileas.tmem_store %v : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  // CHECK: tileas.umma
  %d = tileas.umma %buf, %buf, %acc {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
  return
}

// A TMA load whose result is unused (it fills a pipe slot, which the
// consumer reads after its wait) stays, with or without `into`, and two
// identical loads are not merged: each writes shared memory.
// CHECK-LABEL: func.func @tma_writes
func.func @tma_writes(%desc: !tileas.tma_desc<128x64xbf16>,
                      %slot: !tileas.smem<128x64xbf16>, %i: index) {
  // CHECK-NEXT: tileas.tma_load %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}} :
  %a = tileas.tma_load %desc[%i, %i] into %slot : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  // CHECK-NEXT: tileas.tma_load %{{.*}}[%{{.*}}, %{{.*}}] :
  %b = tileas.tma_load %desc[%i, %i] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  // CHECK-NEXT: tileas.tma_load %{{.*}}[%{{.*}}, %{{.*}}] :
  %c = tileas.tma_load %desc[%i, %i] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  // CHECK-NEXT: return
  return
}
