// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule -verify-diagnostics | FileCheck %s --check-prefix=WS
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule=mode=unspecialized -verify-diagnostics | FileCheck %s --check-prefix=PEELED

// Loops whose results are returned (issue 21, point 5), in both modes; the
// materializer's executing check runs on each (with the sequential loop's
// references), so the output is also checked for every pipe rule. Stored
// results: results-stored.mlir and warp-group-pipe.test.

// The GEMM accumulator, returned. Warp-specialized, the code after the loop
// stays in the function body after the agents: it waits on the one-slot
// result pipe the MMA agent commits, and releases the slot before
// returning it. Peeled, the same wait precedes the return.
// WS-LABEL: func.func @acc_returned
// WS: %[[R:[0-9]+]] = tileas.pipe.create {bytes = 131072 : i64, consumers = ["simt"], depth = 1 : i32, producer = "umma", tileas.src = #loc{{[0-9]+}}}
// WS: tileas.agent {{.*}}role = "load"
// WS: tileas.agent {{.*}}role = "mma"
// WS-NEXT: %{{c0[_0-9]*}} = arith.constant {tileas.src = #loc{{[0-9]+}}} 0 : index
// WS-NEXT: %[[ACC:[0-9]+]] = tileas.pipe.producer_acquire %[[R]], %{{c0[_0-9]*}}
// WS: tileas.pipe.producer_commit %[[R]], %{{c0[_0-9]*}}, %{{[0-9]+}}#0 {tileas.src = #loc{{[0-9]+}}, via = "tcgen05_commit"}
// WS-NEXT: tileas.agent_yield {tileas.src = #loc{{[0-9]+}}}
// WS-NEXT: }
// WS-NOT: tileas.agent
// WS: %[[W:[0-9]+]] = tileas.pipe.consumer_wait %[[R]], %{{c0[_0-9]*}}
// WS-NEXT: tileas.fence "tcgen05_after"
// WS-NEXT: tileas.fence "tcgen05_wait_ld"
// WS-NEXT: tileas.fence "tcgen05_before"
// WS: tileas.pipe.consumer_release %[[R]], %{{c0[_0-9]*}} {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// WS-NEXT: return {tileas.src = #loc{{[0-9]+}}} %[[W]] : !tileas.tmem<128x256xf32>
// PEELED-LABEL: func.func @acc_returned
// PEELED-NOT: tileas.agent
// PEELED: %[[R:[0-9]+]] = tileas.pipe.create {bytes = 131072 : i64, consumers = ["simt"], depth = 1 : i32, producer = "umma", tileas.src = #loc{{[0-9]+}}}
// PEELED: %[[W:[0-9]+]] = tileas.pipe.consumer_wait %[[R]], %{{c0[_0-9]*}}
// PEELED-NEXT: tileas.fence "tcgen05_after"
// PEELED: tileas.pipe.consumer_release %[[R]], %{{c0[_0-9]*}} {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// PEELED-NEXT: return {tileas.src = #loc{{[0-9]+}}} %[[W]] : !tileas.tmem<128x256xf32>
func.func @acc_returned(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<256x64xbf16>,
                        %m: index, %n: index, %K: index) -> !tileas.tmem<128x256xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c64 iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  return %acc : !tileas.tmem<128x256xf32>
}

// -----

// Register results of two warp groups, returned. Warp-specialized, the
// function body receives both after the agents: group 0's running maximum
// through the pipe that hands m to group 1, as its pipe iteration N (no
// iteration uses it), group 1's sum through a one-slot SMEM pipe of its
// own. Peeled, one agent returns its registers.
// WS-LABEL: func.func @two_agents_returned
// WS: %[[MX:[0-9]+]] = tileas.pipe.create {bytes = 512 : i64, consumers = ["simt"], depth = 2 : i32, order = 3 : i32, producer = "simt", stage = 4 : i32, tileas.src = #loc{{[0-9]+}}} : !tileas.pipe<!tileas.smem<128xf32>>
// WS-NEXT: %[[OWN:[0-9]+]] = tileas.pipe.create {bytes = 512 : i64, consumers = ["simt"], depth = 1 : i32, producer = "simt", tileas.src = #loc{{[0-9]+}}} : !tileas.pipe<!tileas.smem<128xf32>>
// WS: tileas.agent {{.*}}role = "softmax", stage = 4
// WS: } else {
// WS: %[[N0:[0-9]+]] = arith.maxsi
// WS-NEXT: %[[S:[0-9]+]] = tileas.pipe.producer_acquire %[[MX]], %[[N0]] {tileas.src = #loc{{[0-9]+}}} :
// WS-NEXT: %[[ST:[0-9]+]] = tileas.smem_store %{{[0-9]+}} into %[[S]] {tileas.src = #loc{{[0-9]+}}, tileas.transport}
// WS-NEXT: tileas.pipe.producer_commit %[[MX]], %[[N0]], %[[ST]] {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// WS-NEXT: tileas.agent_yield {tileas.src = #loc{{[0-9]+}}}
// WS: tileas.agent {{.*}}role = "softmax", stage = 5
// WS: %[[S1:[0-9]+]] = tileas.pipe.producer_acquire %[[OWN]], %{{c0[_0-9]*}} {tileas.src = #loc{{[0-9]+}}} :
// WS-NEXT: %[[ST1:[0-9]+]] = tileas.smem_store %{{[0-9]+}}#0 into %[[S1]] {tileas.src = #loc{{[0-9]+}}, tileas.transport}
// WS: tileas.pipe.producer_commit %[[OWN]], %{{c0[_0-9]*}}, %[[ST1]] {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// WS-NEXT: tileas.agent_yield {tileas.src = #loc{{[0-9]+}}}
// WS-NEXT: }
// WS-NOT: tileas.agent
// WS: %[[N:[0-9]+]] = arith.maxsi
// WS-NEXT: %[[W0:[0-9]+]] = tileas.pipe.consumer_wait %[[MX]], %[[N]]
// WS-NEXT: %[[L0:[0-9]+]] = tileas.smem_load %[[W0]] {tileas.src = #loc{{[0-9]+}}, tileas.transport}
// WS-NEXT: tileas.pipe.consumer_release %[[MX]], %[[N]] {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// WS: %[[W1:[0-9]+]] = tileas.pipe.consumer_wait %[[OWN]], %{{c0[_0-9]*}}
// WS-NEXT: %[[L1:[0-9]+]] = tileas.smem_load %[[W1]] {tileas.src = #loc{{[0-9]+}}, tileas.transport}
// WS: tileas.pipe.consumer_release %[[OWN]], %{{c0[_0-9]*}} {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// WS-NEXT: return {tileas.src = #loc{{[0-9]+}}} %[[L0]], %[[L1]] : tensor<128xf32>, tensor<128xf32>
// PEELED-LABEL: func.func @two_agents_returned
// PEELED-NOT: !tileas.pipe<!tileas.smem<128xf32>>
// PEELED: %[[F:[0-9]+]]:2 = scf.if
// PEELED-NOT: !tileas.pipe<!tileas.smem<128xf32>>
// PEELED: return {tileas.src = #loc{{[0-9]+}}} %[[F]]#0, %[[F]]#1 : tensor<128xf32>, tensor<128xf32>
func.func @two_agents_returned(%q: !tileas.smem<128x128xbf16>, %descK: !tileas.tma_desc<128x128xbf16>,
                               %nKV: index) -> (tensor<128xf32>, tensor<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128xf32>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %r:2 = scf.for %j = %c0 to %nKV step %c1 iter_args(%m = %z, %sum = %z) -> (tensor<128xf32>, tensor<128xf32>) {
    %k = tileas.tma_load %descK[%j, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s = tileas.umma %q, %k, %sbuf : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr = tileas.tmem_load %s {tileas.warp_group = 0 : i32} : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %mx = tileas.reduce_max %sr {tileas.warp_group = 0 : i32} : tensor<128x128xf32> -> tensor<128xf32>
    %mN = tileas.max %m, %mx {tileas.warp_group = 0 : i32} : tensor<128xf32>, tensor<128xf32>
    %sumN = tileas.add %sum, %mx {tileas.warp_group = 1 : i32} : tensor<128xf32>, tensor<128xf32>
    scf.yield %mN, %sumN : tensor<128xf32>, tensor<128xf32>
  }
  return %r#0, %r#1 : tensor<128xf32>, tensor<128xf32>
}
