// gpu.block_id is a pure index op to the passes. Inside the loop the
// scheduler gives it the generic class, as arith.muli, and the stage code
// recomputes it in each agent that reads it (a free op, never a pipe). Before
// the loop it stays in the function body, where the agents read it.
// RUN: tilepipe-opt %s --tileas-generate-schedule=print-schedule \
// RUN:   --tileas-materialize-schedule -canonicalize -cse | FileCheck %s
// The CUDA translation reads blockIdx where the op stands: once in the
// prologue for x, in the load agent's loop for y.
// RUN: tilepipe-opt %s --tileas-generate-schedule \
// RUN:   --tileas-materialize-schedule -canonicalize -cse \
// RUN: | tilepipe-translate --tileas-to-cuda | FileCheck %s --check-prefix=CUDA
// CUDA: int64_t {{v[0-9]+}} = (int64_t) blockIdx.x;
// CUDA: if ((tp_warp >= 0 && tp_warp < 1)) {
// CUDA: for (
// CUDA: int64_t {{v[0-9]+}} = (int64_t) blockIdx.y;

// CHECK-LABEL: // schedule of loop
// CHECK: II 512, MII 512
// CHECK: %block_id_y = gpu.block_id generic
// CHECK-LABEL: func.func @block_ids
// CHECK: %block_id_x = gpu.block_id x
// CHECK-NEXT: [[M:%[0-9]+]] = arith.muli %block_id_x, %c128 {tileas.src = #loc{{[0-9]+}}} : index
// CHECK: tileas.agent {{.*}}role = "load"
// CHECK: scf.for
// CHECK: %block_id_y = gpu.block_id y
// CHECK: [[N:%[0-9]+]] = arith.muli %block_id_y, %c256
// CHECK: tileas.tma_load %arg1{{\[}}[[N]], %{{[0-9]+}}] into
// CHECK: tileas.tma_load %arg0{{\[}}[[M]], %{{[0-9]+}}] into
// CHECK: tileas.agent {{.*}}role = "mma"
// CHECK-NOT: gpu.block_id
// CHECK: tileas.agent {role = "epilogue"
// CHECK: tileas.tma_store %{{[0-9]+}}, %arg2{{\[}}[[M]], %c0]
func.func @block_ids(%descA: !tileas.tma_desc<128x64xbf16>,
                     %descB: !tileas.tma_desc<256x64xbf16>,
                     %descC: !tileas.tma_desc<128x256xbf16>, %K: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bx = gpu.block_id x
  %m = arith.muli %bx, %c128 : index
  %acc0 = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  %acc = scf.for %k = %c0 to %K step %c64
      iter_args(%accIn = %acc0) -> (!tileas.tmem<128x256xf32>) {
    %by = gpu.block_id y
    %n = arith.muli %by, %c256 : index
    %a = tileas.tma_load %descA[%m, %k] {l2_reuse = 4, multicast = 2}
        : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %b = tileas.tma_load %descB[%n, %k] {l2_reuse = 4, multicast = 2}
        : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %a, %b, %accIn {accumulate}
        : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>,
          !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  }
  %r = tileas.tmem_load %acc : !tileas.tmem<128x256xf32> -> tensor<128x256xf32>
  %o = tileas.cvt %r : tensor<128x256xf32> -> tensor<128x256xbf16>
  %s = tileas.smem_store %o : tensor<128x256xbf16> -> !tileas.smem<128x256xbf16>
  tileas.tma_store %s, %descC[%m, %c0]
      : !tileas.smem<128x256xbf16>, !tileas.tma_desc<128x256xbf16>
  return
}
