// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule -o %t.ws.mlir
// RUN: FileCheck %s --check-prefix=WS < %t.ws.mlir
// RUN: tilepipe-opt %t.ws.mlir --tileas-check-protocol=print -o /dev/null | FileCheck %s --check-prefix=PROTO-WS
// RUN: tilepipe-opt %t.ws.mlir -canonicalize -cse | tilepipe-translate --tileas-to-cuda | FileCheck %s --check-prefix=CUDA
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule=mode=unspecialized -o %t.peeled.mlir
// RUN: FileCheck %s --check-prefix=PEELED < %t.peeled.mlir
// RUN: tilepipe-opt %t.peeled.mlir --tileas-check-protocol=print -o /dev/null | FileCheck %s --check-prefix=PROTO-PEELED
// RUN: tilepipe-opt %t.peeled.mlir -canonicalize -cse | tilepipe-translate --tileas-to-cuda | FileCheck %s --check-prefix=CUDA

// Results stored after the loop (issue 21, point 5): an accumulator the
// MMAs leave in TMEM and a row sum a SIMT agent keeps in registers, both
// stored with TMA. Warp-specialized, the code after the loop runs in the
// agent holding the register result: its part storing the row sum, and the
// part storing the accumulator, which waits on its one-slot result pipe
// (no epilogue warps of their own; before, "the loop's results are read
// both from registers of one agent and from tensor memory" left the loop
// as it was).
// WS: %[[R:[0-9]+]] = tileas.pipe.create {bytes = 65536 : i64, consumers = ["simt"], depth = 1 : i32, producer = "umma", tileas.src = #loc{{[0-9]+}}}
// WS: tileas.agent {{.*}}role = "load"
// WS: tileas.agent {{.*}}role = "mma"
// WS: tileas.pipe.producer_commit %[[R]], %{{c0[_0-9]*}}, %{{[0-9]+}} {tileas.src = #loc{{[0-9]+}}, via = "tcgen05_commit"}
// WS-NEXT: tileas.agent_yield {tileas.src = #loc{{[0-9]+}}}
// WS: tileas.agent {{.*}}role = "simt"
// WS: %[[F:[0-9]+]]:2 = scf.for
// WS: %[[W:[0-9]+]] = tileas.pipe.consumer_wait %[[R]], %{{c0[_0-9]*}}
// WS-NEXT: tileas.fence "tcgen05_after"
// WS-NEXT: %[[L:[0-9]+]] = tileas.tmem_load %[[W]]
// WS-NEXT: %[[C:[0-9]+]] = tileas.cvt %[[L]]
// WS-NEXT: %[[S:[0-9]+]] = tileas.smem_store %[[C]]
// WS-NEXT: tileas.tma_store %[[S]], %arg3
// WS-NEXT: tileas.fence "tcgen05_wait_ld"
// WS-NEXT: tileas.fence "tcgen05_before"
// WS: tileas.pipe.consumer_release %[[R]], %{{c0[_0-9]*}} {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// WS-NEXT: %[[SS:[0-9]+]] = tileas.smem_store %[[F]]#0 {tileas.src = #loc{{[0-9]+}}} : tensor<128xf32>
// WS-NEXT: tileas.tma_store %[[SS]], %arg4
// WS-NEXT: tileas.agent_yield {tileas.src = #loc{{[0-9]+}}}
// WS-NEXT: }
// WS-NEXT: return
// PROTO-WS: protocol check of @acc_and_sum: ok (executed 3 agents, 3 pipes, 0 mutexes;

// Peeled, the code after the loop stays where it was, behind the wait.
// PEELED-NOT: tileas.agent
// PEELED: %[[R:[0-9]+]] = tileas.pipe.create {bytes = 65536 : i64, consumers = ["simt"], depth = 1 : i32, producer = "umma", tileas.src = #loc{{[0-9]+}}}
// PEELED: %[[F:[0-9]+]]:2 = scf.if
// PEELED: %[[W:[0-9]+]] = tileas.pipe.consumer_wait %[[R]], %{{c0[_0-9]*}}
// PEELED-NEXT: tileas.fence "tcgen05_after"
// PEELED-NEXT: %[[L:[0-9]+]] = tileas.tmem_load %[[W]]
// PEELED: tileas.smem_store %[[F]]#1 {tileas.src = #loc{{[0-9]+}}} : tensor<128xf32>
// PEELED: tileas.pipe.consumer_release %[[R]], %{{c0[_0-9]*}} {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// PEELED-NEXT: return
// PROTO-PEELED: protocol check of @acc_and_sum: ok (executed 0 agents, 3 pipes, 0 mutexes;

// Both translate; the row sum goes out through the CTA's staging tile.
// CUDA: tp::tma_store
// CUDA: tp::tma_store
func.func @acc_and_sum(%descQ: !tileas.tma_desc<128x128xbf16> {tileas.name = "Q"},
                       %descK: !tileas.tma_desc<128x128xbf16> {tileas.name = "K"},
                       %nKV: index {tileas.name = "nKV"},
                       %descC: !tileas.tma_desc<128x128xbf16> {tileas.name = "C"},
                       %descS: !tileas.tma_desc<128xf32> {tileas.name = "S"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %bx = gpu.block_id x
  %qRow = arith.muli %bx, %c128 : index
  %q = tileas.tma_load %descQ[%qRow, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %sbuf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %z = arith.constant dense<0.0> : tensor<128xf32>
  %r:2 = scf.for %j = %c0 to %nKV step %c1 iter_args(%acc = %acc0, %sum = %z)
      -> (!tileas.tmem<128x128xf32>, tensor<128xf32>) {
    %row = arith.muli %j, %c128 : index
    %k = tileas.tma_load %descK[%row, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s = tileas.umma %q, %k, %sbuf : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %accN = tileas.umma %q, %k, %acc {accumulate} : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %sr = tileas.tmem_load %s : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %rs = tileas.reduce_sum %sr : tensor<128x128xf32> -> tensor<128xf32>
    %sumN = tileas.add %sum, %rs : tensor<128xf32>, tensor<128xf32>
    scf.yield %accN, %sumN : !tileas.tmem<128x128xf32>, tensor<128xf32>
  }
  %cr = tileas.tmem_load %r#0 : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %cb = tileas.cvt %cr : tensor<128x128xf32> -> tensor<128x128xbf16>
  %cs = tileas.smem_store %cb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %cs, %descC[%qRow, %c0] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  %ss = tileas.smem_store %r#1 : tensor<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %ss, %descS[%qRow] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}
