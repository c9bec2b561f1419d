// RUN: tilepipe-opt %s --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: tilepipe-opt %t.mlir --tileas-check-protocol=print -o /dev/null | FileCheck %s --check-prefix=PROTO
// RUN: tilepipe-opt %t.mlir -canonicalize -cse | tilepipe-translate --tileas-to-cuda | FileCheck %s --check-prefix=CUDA

// Two accumulators, each rescaled in place by its own warp group (FA4's
// correction split between the softmax groups), both stored after the loop
// (issue 21, point 5). Only the agent that waited on every iteration of a
// carried accumulator may wait on its last, so the code after the loop is
// split into its independent parts (no value, result or buffer in common),
// and each runs in the agent holding what it reads: group 0 stores O0,
// group 1 stores O1. (Before, "loop results come from two agents" left the
// loop unpipelined.)
// CHECK: %[[O0:[0-9]+]] = tileas.pipe.create {bytes = 65536 : i64, consumers = ["simt"], depth = 1 : i32, order = 7 : i32, producer = "umma", stage = 1 : i32, tileas.src = #loc{{[0-9]+}}} : !tileas.pipe<!tileas.tmem<128x128xf32>>
// CHECK-NEXT: %[[O1:[0-9]+]] = tileas.pipe.create {bytes = 65536 : i64, consumers = ["simt"], depth = 1 : i32, order = 9 : i32, producer = "umma", stage = 1 : i32, tileas.src = #loc{{[0-9]+}}} : !tileas.pipe<!tileas.tmem<128x128xf32>>
// CHECK: tileas.agent {{.*}}role = "load"
// CHECK: tileas.agent {{.*}}role = "softmax"
// CHECK: %[[W0:[0-9]+]] = tileas.pipe.consumer_wait %[[O0]], %{{[0-9]+}} {tileas.src = #loc{{[0-9]+}}} :
// CHECK-NEXT: tileas.fence "tcgen05_after"
// CHECK-NEXT: tileas.tmem_load %[[W0]]
// CHECK: tileas.tma_store %{{[0-9]+}}, %arg3[%0, %c0]
// CHECK: tileas.pipe.consumer_release %[[O0]]
// CHECK-NEXT: tileas.agent_yield
// CHECK: tileas.agent {{.*}}role = "softmax"
// CHECK: %[[W1:[0-9]+]] = tileas.pipe.consumer_wait %[[O1]], %{{[0-9]+}} {tileas.src = #loc{{[0-9]+}}} :
// CHECK-NEXT: tileas.fence "tcgen05_after"
// CHECK-NEXT: tileas.tmem_load %[[W1]]
// CHECK: tileas.tma_store %{{[0-9]+}}, %arg3[%1, %c0]
// CHECK: tileas.pipe.consumer_release %[[O1]]
// CHECK-NEXT: tileas.agent_yield
// CHECK: tileas.agent {{.*}}role = "mma"
// CHECK-NOT: tileas.tma_store
// CHECK: tileas.agent_yield
// CHECK-NOT: tileas.agent
// CHECK: return
// PROTO: protocol check of @two_rescalers: ok (executed 4 agents, 5 pipes, 0 mutexes;
// CUDA: __global__ __launch_bounds__({{[0-9]+}}, 1) void two_rescalers(
func.func @two_rescalers(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                         %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                         %nKV: index {tileas.name = "nKV"},
                         %descO: !tileas.tma_desc<128x128xbf16> {tileas.name = "O"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %row0 = arith.muli %bx, %c256 : index
  %row1 = arith.addi %row0, %c128 : index
  %q0 = tileas.tma_load %descQ[%row0, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %q1 = tileas.tma_load %descQ[%row1, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %half = arith.constant dense<0.5> : tensor<128xf32>
  %oInit0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %oInit1 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %r:2 = scf.for %j = %c0 to %nKV step %c1 iter_args(%o0 = %oInit0, %o1 = %oInit1)
      -> (!tileas.tmem<128x128xf32>, !tileas.tmem<128x128xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %or0 = tileas.tmem_load %o0 {tileas.warp_group = 0 : i32} : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %oc0 = tileas.mul %or0, %half {tileas.warp_group = 0 : i32} : tensor<128x128xf32>, tensor<128xf32>
    %ot0 = tileas.tmem_store %oc0 {tileas.warp_group = 0 : i32} : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>
    %or1 = tileas.tmem_load %o1 {tileas.warp_group = 1 : i32} : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %oc1 = tileas.mul %or1, %half {tileas.warp_group = 1 : i32} : tensor<128x128xf32>, tensor<128xf32>
    %ot1 = tileas.tmem_store %oc1 {tileas.warp_group = 1 : i32} : tensor<128x128xf32> -> !tileas.tmem<128x128xf32>
    %oN0 = tileas.umma %q0, %k, %ot0 {accumulate} : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %oN1 = tileas.umma %q1, %k, %ot1 {accumulate} : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %oN0, %oN1 : !tileas.tmem<128x128xf32>, !tileas.tmem<128x128xf32>
  }
  %f0 = tileas.tmem_load %r#0 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %b0 = tileas.cvt %f0 : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s0 = tileas.smem_store %b0 : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s0, %descO[%row0, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  %f1 = tileas.tmem_load %r#1 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %b1 = tileas.cvt %f1 : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s1 = tileas.smem_store %b1 : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s1, %descO[%row1, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
