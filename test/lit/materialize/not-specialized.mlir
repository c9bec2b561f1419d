// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule -verify-diagnostics -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: tilepipe-opt %t.mlir -split-input-file --tileas-check-protocol=print -o /dev/null | FileCheck %s --check-prefix=PROTO
// RUN: tilepipe-opt %t.mlir -split-input-file -canonicalize -cse | tilepipe-translate -split-input-file --tileas-to-cuda | FileCheck %s --check-prefix=CUDA

// A loop that cannot be warp-specialized still pipelines (issue 21, point
// 5): it gets peeled stage code, one agent running the rows, with a remark
// saying why; the code passes the executing protocol check (the materializer
// ran it against the sequential loop, and it runs again here on the output
// alone) and translates to CUDA.

// Group 0's running maximum is read by group 1 in its own iteration and by
// group 2 in the next (through the iter_arg): one pipe cannot number both.
// CHECK-LABEL: func.func @mixed
// CHECK-NOT: tileas.agent
// CHECK: tileas.pipe.create {{.*}} : !tileas.pipe<!tileas.smem<128x128xbf16>>
// CHECK-NEXT: tileas.pipe.create {{.*}} : !tileas.pipe<!tileas.tmem<128x128xf32>>
// CHECK-NOT: tileas.pipe.create
// CHECK-NOT: tileas.agent
// CHECK: scf.if
// CHECK-NOT: tileas.agent
// CHECK: return
// PROTO: protocol check of @mixed: ok (executed 0 agents, 2 pipes, 0 mutexes;
// CUDA: __global__ __launch_bounds__(128, 1) void mixed(
func.func @mixed(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                 %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                 %nKV: index {tileas.name = "nKV"},
                 %descA: !tileas.tma_desc<128xf32> {tileas.name = "A"},
                 %descB: !tileas.tma_desc<128xf32> {tileas.name = "B"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %qRow = arith.muli %bx, %c128 : index
  %q = tileas.tma_load %descQ[%qRow, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %z = arith.constant dense<0.0> : tensor<128xf32>
  // expected-remark @below {{loop not warp-specialized: a tensor<128xf32> value made by the softmax agent (warp group 0) is read in its own iteration by one agent and in the next by another; emitted peeled stage code instead}}
  %r:3 = scf.for %j = %c0 to %nKV step %c1 iter_args(%m = %z, %a = %z, %b = %z)
      -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s = tileas.umma %q, %k, %sbuf : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr = tileas.tmem_load %s {tileas.warp_group = 0 : i32} : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx = tileas.reduce_max %sr {tileas.warp_group = 0 : i32} : tensor<128x128xf32> -> tensor<128xf32>
    %mN = tileas.max %m, %mx {tileas.warp_group = 0 : i32} : tensor<128xf32>, tensor<128xf32>
    %aN = tileas.add %a, %mN {tileas.warp_group = 1 : i32} : tensor<128xf32>, tensor<128xf32>
    %bN = tileas.add %b, %m {tileas.warp_group = 2 : i32} : tensor<128xf32>, tensor<128xf32>
    scf.yield %mN, %aN, %bN : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
  }
  %sa = tileas.smem_store %r#1 : tensor<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %sa, %descA[%qRow] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  %sb = tileas.smem_store %r#2 : tensor<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %sb, %descB[%qRow] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}

// -----

// The code after the loop adds the two accumulators that two warp groups
// rescale in the loop: each may be waited on after the loop only by the
// agent that waited on every iteration of it.
// CHECK-LABEL: func.func @two_readers
// CHECK-NOT: tileas.agent
// CHECK: return
// PROTO: protocol check of @two_readers: ok (executed 0 agents, 5 pipes, 0 mutexes;
// CUDA: __global__ __launch_bounds__(128, 1) void two_readers(
func.func @two_readers(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
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
  // expected-remark @below {{loop not warp-specialized: the code after the loop reads accumulators read in the loop by two agents, the softmax agent (warp group 0) and the softmax agent (warp group 1); emitted peeled stage code instead}}
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
  %f1 = tileas.tmem_load %r#1 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %f = tileas.add %f0, %f1 : tensor<128x128xf32>, tensor<128x128xf32>
  %b = tileas.cvt %f : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %b : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descO[%row0, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
