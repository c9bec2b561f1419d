// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule | FileCheck %s
// The warp-specialized code of both examples parses and verifies again.
// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule | tilepipe-opt -o /dev/null
// RUN: tilepipe-opt %examples/attention_fwd.mlir --tileas-generate-schedule --tileas-materialize-schedule | tilepipe-opt -o /dev/null

// The GEMM mainloop, warp-specialized: two TMA -> UMMA pipes of depth 4
// created before the loop; a load agent that acquires a slot, issues the TMA
// load and commits; an MMA agent that waits for both tiles, issues the UMMA
// and releases them. The pipes are indexed by the iteration number
// ((k - lb) / step). The epilogue reads the accumulator in the agent that
// produces it. Every handshake carries the (stage, order) it serves.

// CHECK: %[[A:.*]] = tileas.pipe.create {bytes = 16384 : i64, consumer = "umma", depth = 4 : i32, order = 1 : i32, producer = "tma", stage = 0 : i32} : !tileas.pipe<!tileas.smem<128x64xbf16>>
// CHECK: %[[B:.*]] = tileas.pipe.create {bytes = 32768 : i64, consumer = "umma", depth = 4 : i32, order = 0 : i32, producer = "tma", stage = 0 : i32} : !tileas.pipe<!tileas.smem<256x64xbf16>>
// CHECK: tileas.agent {role = "load", warps = 1 : i32} {
// CHECK: scf.for %[[K:.*]] = %[[LB:.*]] to %{{.*}} step %[[STEP:[^ ]*]]
// CHECK: %[[OFF:.*]] = arith.subi %[[K]], %[[LB]]
// CHECK: %[[IT:.*]] = arith.divui %[[OFF]], %[[STEP]]
// CHECK: tileas.pipe.producer_acquire %[[A]], %[[IT]]
// CHECK-NEXT: tileas.tma_load
// CHECK-NEXT: tileas.pipe.producer_commit %[[A]], %[[IT]]
// CHECK: tileas.pipe.producer_acquire %[[B]], %[[IT]]
// CHECK-NEXT: tileas.tma_load
// CHECK-NEXT: tileas.pipe.producer_commit %[[B]], %[[IT]]
// CHECK-NOT: tileas.umma
// CHECK: tileas.agent_yield
// CHECK: tileas.agent {role = "mma", warps = 1 : i32} {
// CHECK-NOT: tileas.tma_load
// CHECK: %[[SA:.*]] = tileas.pipe.consumer_wait %[[A]]
// CHECK: %[[SB:.*]] = tileas.pipe.consumer_wait %[[B]]
// CHECK: tileas.umma %[[SA]], %[[SB]]
// CHECK: tileas.pipe.consumer_release %[[B]]
// CHECK: tileas.pipe.consumer_release %[[A]]
// CHECK: tileas.tmem_load
// CHECK: tileas.tma_store
// CHECK: tileas.agent_yield
// CHECK-NOT: scf.for
// CHECK: return
