// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule=print-plan -o /dev/null | FileCheck %s
// RUN: tilepipe-opt %s --tileas-generate-schedule --tileas-materialize-schedule | FileCheck %s --check-prefix=IR

// The two softmax groups (tileas.warp_group 0 and 1) share the MUFU (exp2 on
// slot xu) and the TMEM read transport: each gets a token-ring mutex over
// the two groups, on named barriers from the first free id (8; one id per
// group). K feeds both S = Q K^T MMAs from one TMA pipe; each S tile leaves
// the tensor core through its own double-buffered TMEM pipe. The warp-
// specialized layout (load, mma, one SIMT agent per group) passes the
// protocol check for trip counts 0, 1, S-1, S and 2S+3.
// CHECK: II 2048, stages 4, pipes 3, mutexes 2
// CHECK: pipe 0: '%2 = tileas.tma_load' (stage 0) -> '%4 = tileas.umma' (stage 2), '%3 = tileas.umma' (stage 2)
// CHECK-NEXT: tma -> umma, smem 32768 B, depth 7 (lifetime 3 stages)
// CHECK: pipe 1: '%3 = tileas.umma' (stage 2) -> '%5 = tileas.tmem_load' (stage 2)
// CHECK-NEXT: umma -> simt, tmem 128 columns, depth 2
// CHECK: pipe 2: '%4 = tileas.umma' (stage 2) -> '%8 = tileas.tmem_load' (stage 2)
// CHECK: mutex 0: slot xu, groups 0 1, named barrier 8
// CHECK-NEXT: mutex 1: slot tp_tmem_rd, groups 0 1, named barrier 10
// CHECK-NEXT: smem 229376 B of 231424, tmem 512 columns of 512
// CHECK-NEXT: agents: load (3 steps) mma (9 steps) simt0 (7 steps) simt1 (7 steps)
// CHECK-NEXT: protocol check: ok (trip counts 0 1 3 4 11; 20 interleavings each)

// Emitted: the mutexes on named barriers 8 and 10, then load, mma and one
// softmax agent per group; each softmax agent takes its turn (its own group
// index) around its TMEM read and its exp2.
// IR: %[[TM:.*]] = tileas.mutex.create {barrier_id = 8 : i32, groups = 2 : i32, impl = "namedbar"}
// IR: %[[RD:.*]] = tileas.mutex.create {barrier_id = 10 : i32, groups = 2 : i32, impl = "namedbar"}
// IR: tileas.agent {role = "load", warps = 1 : i32}
// IR: tileas.agent {role = "mma", warps = 1 : i32}
// IR: tileas.agent {role = "softmax", warps = 4 : i32}
// IR: %[[G0:.*]] = arith.constant 0 : index
// IR: tileas.mutex.lock %[[RD]], %[[G0]]
// IR-NEXT: tileas.tmem_load
// IR-NEXT: tileas.mutex.unlock %[[RD]], %[[G0]]
// IR: tileas.mutex.lock %[[TM]], %{{.*}}
// IR-NEXT: tileas.exp2
// IR-NEXT: tileas.mutex.unlock %[[TM]]
// IR: tileas.agent {role = "softmax", warps = 4 : i32}
// IR: %[[G1:.*]] = arith.constant 1 : index
// IR: tileas.mutex.lock %[[RD]], %[[G1]]
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
