// Code after the loop that reads nothing of the loop but that the epilogue
// reads (CUTLASS's source tile C in D = acc + C) runs in the epilogue agent,
// where the user wrote it: after the accumulator's wait, so that its tile
// may lie over the drained mainloop slots. Left in the body it followed the
// agents that read it, and the pass failed the IR verifier ("operand #2
// does not dominate this use"). What reads that code and nothing of the
// loop (a copy of C stored elsewhere) goes with it. The output re-parses.
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule \
// RUN:   --tileas-materialize-schedule -canonicalize -cse \
// RUN: | tilepipe-opt -split-input-file | FileCheck %s --check-prefix=WS
// RUN: tilepipe-opt %s -split-input-file --tileas-generate-schedule \
// RUN:   --tileas-materialize-schedule=mode=unspecialized -canonicalize -cse \
// RUN: | FileCheck %s --check-prefix=PEELED

// WS-LABEL: func.func @residual
// WS: tileas.agent {{.*}}role = "mma"
// WS: tileas.agent {role = "epilogue", tileas.src = #loc{{[0-9]+}}, warps = 4 : i32} {
// WS-NEXT: %[[ACC:[0-9]+]] = tileas.pipe.consumer_wait
// WS-NEXT: tileas.fence "tcgen05_after"
// WS-NEXT: %[[R:[0-9]+]] = tileas.tma_load %arg2[%arg4, %arg5] {tileas.src = #loc{{[0-9]+}}} : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
// WS-NEXT: %[[RT:[0-9]+]] = tileas.smem_load %[[R]]
// WS-NEXT: %[[RF:[0-9]+]] = tileas.cvt %[[RT]]
// WS-NEXT: %[[X:[0-9]+]] = tileas.tmem_load %[[ACC]]
// WS-NEXT: tileas.add %[[X]], %[[RF]]
// WS: tileas.tma_store %{{[0-9]+}}, %arg3[%arg4, %arg5]
// WS: tileas.agent_yield {tileas.src = #loc{{[0-9]+}}}
// WS-NEXT: }
// WS-NEXT: return
// PEELED-LABEL: func.func @residual
// PEELED-NOT: tileas.agent
// PEELED: %[[ACC:[0-9]+]] = tileas.pipe.consumer_wait %{{[0-9]+}}, %c0 {tileas.src = #loc{{[0-9]+}}} : !tileas.pipe<!tileas.tmem<128x128xf32>>
// PEELED-NEXT: tileas.fence "tcgen05_after"
// PEELED-NEXT: tileas.tma_load %arg2[%arg4, %arg5] {tileas.src = #loc{{[0-9]+}}} : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
func.func @residual(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<128x64xbf16>,
                    %descR: !tileas.tma_desc<128x128xbf16>, %descD: !tileas.tma_desc<128x128xbf16>,
                    %m: index, %n: index, %K: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %rs = tileas.tma_load %descR[%m, %n] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  %r = tileas.smem_load %rs : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
  %rf = tileas.cvt %r : tensor<128x128xbf16> -> tensor<128x128xf32>
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %y = tileas.add %x, %rf : tensor<128x128xf32>, tensor<128x128xf32>
  %yb = tileas.cvt %y : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %yb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}

// -----

// C is also copied to E as loaded: the copy reads only C, and goes with it.
// WS-LABEL: func.func @source_copied
// WS: tileas.agent {role = "epilogue", tileas.src = #loc{{[0-9]+}}, warps = 4 : i32} {
// WS: %[[C:[0-9]+]] = tileas.tma_load %arg2[%arg5, %arg6]
// WS-NEXT: tileas.tma_store %[[C]], %arg4[%arg5, %arg6]
// WS: tileas.tma_store %{{[0-9]+}}, %arg3[%arg5, %arg6]
// WS: tileas.agent_yield {tileas.src = #loc{{[0-9]+}}}
// WS-NEXT: }
// WS-NEXT: return
// PEELED-LABEL: func.func @source_copied
func.func @source_copied(%descA: !tileas.tma_desc<128x64xbf16>, %descB: !tileas.tma_desc<128x64xbf16>,
                         %descC: !tileas.tma_desc<128x128xbf16>, %descD: !tileas.tma_desc<128x128xbf16>,
                         %descE: !tileas.tma_desc<128x128xbf16>, %m: index, %n: index, %K: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x128xf32>) {
    %a = tileas.tma_load %descA[%m, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    scf.yield %d : !tileas.tmem<128x128xf32>
  }
  %cs = tileas.tma_load %descC[%m, %n] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %cs, %descE[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  %ct = tileas.smem_load %cs : !tileas.smem<128x128xbf16> -> tensor<128x128xbf16>
  %cf = tileas.cvt %ct : tensor<128x128xbf16> -> tensor<128x128xf32>
  %x = tileas.tmem_load %acc : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
  %y = tileas.add %x, %cf : tensor<128x128xf32>, tensor<128x128xf32>
  %yb = tileas.cvt %y : tensor<128x128xf32> -> tensor<128x128xbf16>
  %s = tileas.smem_store %yb : tensor<128x128xbf16> -> !tileas.smem<128x128xbf16>
  tileas.tma_store %s, %descD[%m, %n] : !tileas.smem<128x128xbf16>, !tileas.tma_desc<128x128xbf16>
  return
}
