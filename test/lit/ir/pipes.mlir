// RUN: tilepipe-opt %s | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s --mlir-print-op-generic | tilepipe-opt | FileCheck %s

// The materializer's pipe, mutex and agent ops and the pipe and mutex types
// survive a print/parse round trip, including through the generic form.

// CHECK-LABEL: func.func @types
// CHECK-SAME: !tileas.pipe<!tileas.smem<128x64xbf16>>
// CHECK-SAME: !tileas.pipe<!tileas.tmem<128x128xf32>>
// CHECK-SAME: !tileas.mutex
func.func @types(%a: !tileas.pipe<!tileas.smem<128x64xbf16>>,
                 %b: !tileas.pipe<!tileas.tmem<128x128xf32>>,
                 %m: !tileas.mutex) {
  return
}

// CHECK-LABEL: func.func @creates
func.func @creates() {
  // CHECK: tileas.pipe.create {bytes = 16384 : i64, consumers = ["umma"], depth = 4 : i32, producer = "tma"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  %0 = tileas.pipe.create {depth = 4 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // CHECK: tileas.pipe.create {consumers = ["simt"], depth = 2 : i32, order = 3 : i32, producer = "umma", stage = 1 : i32} : !tileas.pipe<!tileas.tmem<128x128xf32>>
  %1 = tileas.pipe.create {depth = 2 : i32, producer = "umma", consumers = ["simt"], stage = 1 : i32, order = 3 : i32} : !tileas.pipe<!tileas.tmem<128x128xf32>>
  // CHECK: tileas.pipe.create {consumers = ["tma_store"], depth = 1 : i32, producer = "simt"} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  %2 = tileas.pipe.create {depth = 1 : i32, producer = "simt", consumers = ["tma_store"]} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  // CHECK: tileas.pipe.create {consumers = ["umma"], depth = 32 : i32, producer = "cpasync"} : !tileas.pipe<!tileas.smem<64x64xf16>>
  %3 = tileas.pipe.create {depth = 32 : i32, producer = "cpasync", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<64x64xf16>>
  // CHECK: tileas.pipe.create {consumers = ["umma"], depth = 2 : i32, producer = "simt"} : !tileas.pipe<!tileas.tmem<128x128xbf16>>
  %4 = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["umma"]} : !tileas.pipe<!tileas.tmem<128x128xbf16>>
  // CHECK: %[[S0:.*]] = tileas.pipe.create {consumers = ["simt", "umma"], depth = 2 : i32, producer = "simt"} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  %s0 = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["simt", "umma"]} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  // CHECK: tileas.pipe.create shares %[[S0]] {consumers = ["umma"], depth = 2 : i32, producer = "simt"} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  %s1 = tileas.pipe.create shares %s0 {depth = 2 : i32, producer = "simt", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  // CHECK: tileas.mutex.create {barrier_id = 8 : i32, groups = 2 : i32, impl = "namedbar"} : !tileas.mutex
  %m0 = tileas.mutex.create {groups = 2 : i32, impl = "namedbar", barrier_id = 8 : i32} : !tileas.mutex
  // CHECK: tileas.mutex.create {groups = 3 : i32, impl = "mbarrier", order = 0 : i32, stage = 2 : i32} : !tileas.mutex
  %m1 = tileas.mutex.create {groups = 3 : i32, impl = "mbarrier", stage = 2 : i32, order = 0 : i32} : !tileas.mutex
  return
}

// CHECK-LABEL: func.func @handshakes
func.func @handshakes(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>,
                      %m: !tileas.mutex, %k: index, %g: index,
                      %d: !tileas.tma_desc<128x64xbf16>) {
  // CHECK: %[[A:.*]] = tileas.pipe.producer_acquire %{{.*}}, %{{.*}} {order = 0 : i32, stage = 0 : i32} : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
  %a = tileas.pipe.producer_acquire %p, %k {stage = 0 : i32, order = 0 : i32} : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
  // CHECK: %[[L:.*]] = tileas.tma_load %{{.*}}[%{{.*}}, %{{.*}}] into %[[A]] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  %l = tileas.tma_load %d[%k, %k] into %a : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  // CHECK: tileas.pipe.producer_commit %{{.*}}, %{{.*}}, %[[L]] {via = "expect_tx"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  tileas.pipe.producer_commit %p, %k, %l {via = "expect_tx"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // CHECK: tileas.pipe.consumer_wait %{{.*}}, %{{.*}} {order = 1 : i32, stage = 1 : i32} : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
  %b = tileas.pipe.consumer_wait %p, %k {stage = 1 : i32, order = 1 : i32} : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
  // CHECK: tileas.fence "tcgen05_after"
  tileas.fence "tcgen05_after"
  // CHECK: tileas.pipe.consumer_release %{{.*}}, %{{.*}} {order = 2 : i32, stage = 1 : i32, via = "tcgen05_commit"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  tileas.pipe.consumer_release %p, %k {stage = 1 : i32, order = 2 : i32, via = "tcgen05_commit"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // CHECK: tileas.fence "proxy_async"
  tileas.fence "proxy_async"
  // CHECK: tileas.fence "tcgen05_before" {order = 2 : i32, stage = 1 : i32}
  tileas.fence "tcgen05_before" {stage = 1 : i32, order = 2 : i32}
  // CHECK: tileas.fence "tcgen05_wait_st"
  tileas.fence "tcgen05_wait_st"
  // CHECK: tileas.fence "tcgen05_wait_ld"
  tileas.fence "tcgen05_wait_ld"
  // CHECK: tileas.mutex.lock %{{.*}}, %{{.*}} {order = 3 : i32, stage = 1 : i32} : !tileas.mutex
  tileas.mutex.lock %m, %g {stage = 1 : i32, order = 3 : i32} : !tileas.mutex
  // CHECK: tileas.mutex.unlock %{{.*}}, %{{.*}} : !tileas.mutex
  tileas.mutex.unlock %m, %g : !tileas.mutex
  return
}

// Each producer op writes its acquired slot `into`, and each producer and
// consumer kind commits or releases its own way.
// CHECK-LABEL: func.func @intos
func.func @intos(%src: memref<?x?xf16>, %k: index, %v: tensor<128x128xbf16>,
                 %sf: !tileas.smem<128x4xui8>) {
  %pc = tileas.pipe.create {depth = 2 : i32, producer = "cpasync", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<64x64xf16>>
  %a = tileas.pipe.producer_acquire %pc, %k : !tileas.pipe<!tileas.smem<64x64xf16>> -> !tileas.smem<64x64xf16>
  // CHECK: %[[C:.*]] = tileas.cp_async %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}} : memref<?x?xf16> -> !tileas.smem<64x64xf16>
  %c = tileas.cp_async %src[%k, %k] into %a : memref<?x?xf16> -> !tileas.smem<64x64xf16>
  // CHECK: tileas.pipe.producer_commit %{{.*}}, %{{.*}}, %[[C]] {via = "cpasync_arrive"}
  tileas.pipe.producer_commit %pc, %k, %c {via = "cpasync_arrive"} : !tileas.pipe<!tileas.smem<64x64xf16>>
  // CHECK: tileas.pipe.consumer_release %{{.*}}, %{{.*}} {via = "tcgen05_commit"}
  tileas.pipe.consumer_release %pc, %k {via = "tcgen05_commit"} : !tileas.pipe<!tileas.smem<64x64xf16>>

  %ps = tileas.pipe.create {depth = 1 : i32, producer = "simt", consumers = ["tma_store", "simt"]} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  %b = tileas.pipe.producer_acquire %ps, %k : !tileas.pipe<!tileas.smem<128x128xbf16>> -> !tileas.smem<128x128xbf16>
  // CHECK: %[[S:.*]] = tileas.smem_store %{{.*}} into %{{.*}} : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %s = tileas.smem_store %v into %b : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  // CHECK: tileas.fence "proxy_async"
  tileas.fence "proxy_async"
  // CHECK: tileas.pipe.producer_commit %{{.*}}, %{{.*}}, %[[S]] {via = "arrive"}
  tileas.pipe.producer_commit %ps, %k, %s {via = "arrive"} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  // CHECK: tileas.pipe.consumer_release %{{.*}}, %{{.*}} {via = "bulk_wait"}
  tileas.pipe.consumer_release %ps, %k {via = "bulk_wait"} : !tileas.pipe<!tileas.smem<128x128xbf16>>
  // CHECK: tileas.pipe.consumer_release %{{.*}}, %{{.*}} {via = "arrive"}
  tileas.pipe.consumer_release %ps, %k {via = "arrive"} : !tileas.pipe<!tileas.smem<128x128xbf16>>

  %pt = tileas.pipe.create {depth = 2 : i32, producer = "simt", consumers = ["umma"]} : !tileas.pipe<!tileas.tmem<128x128xbf16>>
  %t0 = tileas.pipe.producer_acquire %pt, %k : !tileas.pipe<!tileas.tmem<128x128xbf16>> -> !tileas.tmem<128x128xbf16>
  // CHECK: %[[T:.*]] = tileas.tmem_store %{{.*}} into %{{.*}} : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  %t = tileas.tmem_store %v into %t0 : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  // CHECK: tileas.fence "tcgen05_wait_st"
  tileas.fence "tcgen05_wait_st"
  // CHECK: tileas.pipe.producer_commit %{{.*}}, %{{.*}}, %[[T]] {via = "arrive"}
  tileas.pipe.producer_commit %pt, %k, %t {via = "arrive"} : !tileas.pipe<!tileas.tmem<128x128xbf16>>

  %pu = tileas.pipe.create {depth = 2 : i32, producer = "umma", consumers = ["simt"]} : !tileas.pipe<!tileas.tmem<128x4xui8>>
  %u0 = tileas.pipe.producer_acquire %pu, %k : !tileas.pipe<!tileas.tmem<128x4xui8>> -> !tileas.tmem<128x4xui8>
  // CHECK: %[[U:.*]] = tileas.tmem_copy %{{.*}} into %{{.*}} : !tileas.smem<128x4xui8> -> !tileas.tmem<128x4xui8>
  %u = tileas.tmem_copy %sf into %u0 : !tileas.smem<128x4xui8> -> !tileas.tmem<128x4xui8>
  // CHECK: tileas.pipe.producer_commit %{{.*}}, %{{.*}}, %[[U]] {via = "tcgen05_commit"}
  tileas.pipe.producer_commit %pu, %k, %u {via = "tcgen05_commit"} : !tileas.pipe<!tileas.tmem<128x4xui8>>
  return
}

// A TMA -> UMMA mainloop split into a load agent and an MMA agent.
// CHECK-LABEL: func.func @agents
func.func @agents(%desc: !tileas.tma_desc<128x64xbf16>,
                  %acc: !tileas.tmem<128x128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tileas.pipe.create {depth = 4 : i32, producer = "tma", consumers = ["umma"], bytes = 16384 : i64} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // CHECK: tileas.agent {regs = 40 : i32, role = "load", warps = 1 : i32} {
  tileas.agent {role = "load", warps = 1 : i32, regs = 40 : i32} {
    // CHECK: scf.for
    scf.for %k = %c0 to %n step %c1 {
      // CHECK: tileas.pipe.producer_acquire
      %s = tileas.pipe.producer_acquire %p, %k {stage = 0 : i32, order = 0 : i32} : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
      // CHECK: tileas.tma_load {{.*}} into
      %l = tileas.tma_load %desc[%k, %k] into %s : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
      // CHECK: tileas.pipe.producer_commit
      tileas.pipe.producer_commit %p, %k, %l {stage = 0 : i32, order = 0 : i32, via = "expect_tx"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
    }
    // CHECK: tileas.agent_yield
    tileas.agent_yield
  }
  // CHECK: tileas.agent {role = "mma", warps = 1 : i32} {
  tileas.agent {role = "mma", warps = 1 : i32} {
    // CHECK: tileas.pipe.consumer_wait
    %s = tileas.pipe.consumer_wait %p, %c0 : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
    // CHECK: tileas.pipe.consumer_release
    tileas.pipe.consumer_release %p, %c0 {via = "tcgen05_commit"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
    // CHECK: tileas.agent_yield {order = 5 : i32, stage = 2 : i32}
    tileas.agent_yield {stage = 2 : i32, order = 5 : i32}
  }
  // CHECK: tileas.agent {order = 1 : i32, regs = 256 : i32, role = "softmax", stage = 1 : i32, warps = 8 : i32} {
  tileas.agent {role = "softmax", warps = 8 : i32, regs = 256 : i32, stage = 1 : i32, order = 1 : i32} {
    tileas.agent_yield
  }
  // CHECK: tileas.agent {regs = 24 : i32, role = "epilogue", warps = 4 : i32}
  tileas.agent {role = "epilogue", warps = 4 : i32, regs = 24 : i32} {
    tileas.agent_yield
  }
  // CHECK: tileas.agent {role = "correction", warps = 4 : i32}
  tileas.agent {role = "correction", warps = 4 : i32} {
    tileas.agent_yield
  }
  // CHECK: tileas.agent {role = "simt", warps = 2 : i32}
  tileas.agent {role = "simt", warps = 2 : i32} {
    tileas.agent_yield
  }
  return
}

// A ring's two tile shapes: a slot seen as the other member's tile, and the
// release that arrives for a member read by fewer consumer groups.
// CHECK-LABEL: func.func @ring_views
func.func @ring_views(%k: index) {
  %p = tileas.pipe.create {depth = 8 : i32, producer = "tma", consumers = ["umma", "umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  %s = tileas.pipe.consumer_wait %p, %k : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
  // CHECK: tileas.smem_view %{{.*}} : !tileas.smem<128x64xbf16> -> !tileas.smem<64x128xbf16>
  %v = tileas.smem_view %s : !tileas.smem<128x64xbf16> -> !tileas.smem<64x128xbf16>
  // CHECK: tileas.pipe.consumer_release %{{.*}}, %{{.*}} {arrivals = 2 : i32, via = "tcgen05_commit"}
  tileas.pipe.consumer_release %p, %k {arrivals = 2 : i32, via = "tcgen05_commit"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  return
}
