// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule=print-plan -o /dev/null | FileCheck %s
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule | FileCheck %s --check-prefix=IR

// The two softmax groups (tileas.warp_group 0 and 1) share the MUFU (exp2 on
// slot xu): one token-ring mutex over the two groups, on named barrier 8
// and 9 (the first free ids, one per group). The TMEM read transport gets
// none: each warp reads only its own lanes, as in FA4. K feeds both
// S = Q K^T MMAs from one TMA pipe (one release per consuming stage); each S
// tile leaves the tensor core through its own double-buffered TMEM pipe. The
// two Q tiles made before the loop count against the SMEM budget.
// CHECK: II 2048, stages 3, pipes 3, mutexes 1
// CHECK: pipe 0: '%2 = tileas.tma_load' (stage 0) -> '%4 = tileas.umma' (stage 1), '%3 = tileas.umma' (stage 0)
// CHECK-NEXT: tma -> umma, smem 32768 B, depth 5 (lifetime 2 stages)
// CHECK: pipe 1: '%3 = tileas.umma' (stage 0) -> '%5 = tileas.tmem_load' (stage 1)
// CHECK-NEXT: umma -> simt, tmem 128 columns, depth 2
// CHECK: pipe 2: '%4 = tileas.umma' (stage 1) -> '%8 = tileas.tmem_load' (stage 1)
// CHECK: mutex 0: slot xu, groups 0 1, named barrier 8
// CHECK-NEXT: smem 229376 B (65536 B of it tiles made before the loop) of 231424, tmem 512 columns of 512

// Emitted: the mutex, then load, mma and one softmax agent per group; each
// softmax agent takes its turn (its own group index) around its exp2.
// IR: %[[K:.*]] = tileas.pipe.create {bytes = 32768 : i64, consumers = ["umma", "umma"]
// IR: %[[TM:.*]] = tileas.mutex.create {barrier_id = 8 : i32, groups = 2 : i32, impl = "namedbar", tileas.src = #loc{{[0-9]+}}}
// IR: tileas.agent {{.*}}role = "load"
// IR: tileas.agent {{.*}}role = "mma"
// IR: tileas.agent {{.*}}role = "softmax"
// IR-NOT: tileas.agent
// IR: tileas.mutex.lock %[[TM]], %[[G0:c0[_0-9]*]]
// IR-NEXT: tileas.exp2
// IR: tileas.mutex.unlock %[[TM]], %c0
// IR: tileas.agent {{.*}}role = "softmax"
// IR: tileas.mutex.lock %[[TM]], %[[G1:c1[_0-9]*]]
// IR-NEXT: tileas.exp2
// IR: tileas.mutex.unlock %[[TM]], %c1
func.func @attention_two_groups(%q0: !tileas.smem<128x128xbf16>,
                                %q1: !tileas.smem<128x128xbf16>,
                                %descK: !tileas.tma_desc<128x128xbf16>,
                                %nKV: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0buf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  %s1buf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  scf.for %j = %c0 to %nKV step %c1 {
    %k = tileas.tma_load %descK[%j, %c0] : !tileas.tma_desc<128x128xbf16> -> !tileas.smem<128x128xbf16>
    %s0 = tileas.umma %q0, %k, %s0buf : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %s1 = tileas.umma %q1, %k, %s1buf : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    %r0 = tileas.tmem_load %s0 {tileas.warp_group = 0 : i32} : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %p0 = tileas.exp2 %r0 {tileas.warp_group = 0 : i32} : tensor<128x128xf32>
    %m0 = tileas.reduce_sum %p0 {tileas.warp_group = 0 : i32} : tensor<128x128xf32> -> tensor<128xf32>
    %r1 = tileas.tmem_load %s1 {tileas.warp_group = 1 : i32} : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %p1 = tileas.exp2 %r1 {tileas.warp_group = 1 : i32} : tensor<128x128xf32>
    %m1 = tileas.reduce_sum %p1 {tileas.warp_group = 1 : i32} : tensor<128x128xf32> -> tensor<128xf32>
  }
  return
}
