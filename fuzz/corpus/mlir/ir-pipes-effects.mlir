// RUN: tilepipe-opt %s -canonicalize | FileCheck %s

// Memory effects of the materializer ops: unused pipes and mutexes are dead
// allocations, while barrier waits and arrivals (even with an unused result),
// fences, producers writing a slot and agents that contain them are never
// removed.

// CHECK-LABEL: func.func @dead
func.func @dead() {
  // CHECK-NEXT: return
  %p = tileas.pipe.create {depth = 2 : i32, producer = "tma", consumers = ["umma"]} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  %m = tileas.mutex.create {groups = 2 : i32, impl = "mbarrier"} : !tileas.mutex
  tileas.agent {role = "simt", warps = 4 : i32} {
    tileas.agent_yield
  }
  return
}

// CHECK-LABEL: func.func @live
func.func @live(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>, %m: !tileas.mutex,
                %k: index) {
  // CHECK: tileas.agent
  tileas.agent {role = "load", warps = 1 : i32} {
    // CHECK-NEXT: tileas.pipe.producer_acquire
    %a = tileas.pipe.producer_acquire %p, %k : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
    // CHECK-NEXT: tileas.pipe.producer_commit
    tileas.pipe.producer_commit %p, %k, %a {via = "expect_tx"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
    tileas.agent_yield
  }
  // CHECK: tileas.pipe.consumer_wait
  %b = tileas.pipe.consumer_wait %p, %k : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
  // CHECK-NEXT: tileas.fence "tcgen05_after"
  tileas.fence "tcgen05_after"
  // CHECK-NEXT: tileas.pipe.consumer_release
  tileas.pipe.consumer_release %p, %k {via = "tcgen05_commit"} : !tileas.pipe<!tileas.smem<128x64xbf16>>
  // CHECK-NEXT: tileas.mutex.lock
  tileas.mutex.lock %m, %k : !tileas.mutex
  // CHECK-NEXT: tileas.mutex.unlock
  tileas.mutex.unlock %m, %k : !tileas.mutex
  return
}

// A producer writing the slot it acquired stays even when nothing reads its
// result: the write into the slot is a declared effect.
// CHECK-LABEL: func.func @producer_into_slot
func.func @producer_into_slot(%p: !tileas.pipe<!tileas.smem<128x64xbf16>>,
                              %d: !tileas.tma_desc<128x64xbf16>, %k: index) {
  %s = tileas.pipe.producer_acquire %p, %k : !tileas.pipe<!tileas.smem<128x64xbf16>> -> !tileas.smem<128x64xbf16>
  // CHECK: tileas.tma_load %{{.*}} into
  %a = tileas.tma_load %d[%k, %k] into %s : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  return
}
