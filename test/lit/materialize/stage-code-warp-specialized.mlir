// RUN: tilepipe-opt %S/Inputs/attention-ii1800.mlir --tileas-materialize-schedule | FileCheck %s
// The output verifies, re-parses and passes the executing check again.
// RUN: tilepipe-opt %S/Inputs/attention-ii1800.mlir --tileas-materialize-schedule | tilepipe-opt --tileas-check-protocol=print -o /dev/null | FileCheck %s --check-prefix=CHECKED

// An attention loop with a published schedule (II 1800, 4 stages: the
// loads in stage 0, S = Q K^T in stage 1, the softmax in stage 2, O += P V
// in stage 3), warp-specialized. The materialize pass itself executes this
// code (trip counts 0, 1, 2, 3, 4, 5, ... and dynamic ones, 20 seeded
// interleavings each) against the original loop before it is output.

// One consumer entry per group that releases a slot; a one-slot result pipe
// hands the O accumulator on when the loop ends.
// CHECK: %[[K:.*]] = tileas.pipe.create {bytes = 16384 : i64, consumers = ["umma"], {{.*}}producer = "tma"
// CHECK: %[[V:.*]] = tileas.pipe.create {bytes = 16384 : i64, consumers = ["umma"], {{.*}}producer = "tma"
// CHECK: %[[S:.*]] = tileas.pipe.create {bytes = 32768 : i64, consumers = ["simt"], depth = 2 : i32, {{.*}}producer = "umma"
// CHECK: %[[P:.*]] = tileas.pipe.create {bytes = 16384 : i64, consumers = ["umma"], depth = 2 : i32, {{.*}}producer = "simt"
// CHECK: %[[O:.*]] = tileas.pipe.create {bytes = 65536 : i64, consumers = ["simt"], depth = 1 : i32, producer = "umma", tileas.src = #loc{{[0-9]+}}}

// The load agent (one stage): the loads write the slots they acquired.
// CHECK: tileas.agent {order = 1 : i32, role = "load", stage = 0 : i32, tileas.src = #loc{{[0-9]+}}, warps = 1 : i32}
// CHECK: scf.for %[[IT:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[KS:.*]] = tileas.pipe.producer_acquire %[[K]], %[[IT]]
// CHECK-NEXT: %[[KL:.*]] = tileas.tma_load %{{.*}} into %[[KS]]
// CHECK-NEXT: tileas.pipe.producer_commit %[[K]], %[[IT]], %[[KL]] {{.*}}via = "expect_tx"
// CHECK: tileas.pipe.producer_acquire %[[V]], %[[IT]]
// CHECK: tileas.agent_yield

// The MMA agent spans stages 1 and 3: pipelined when N >= 2, its prologue
// rows run S for iterations 0 and 1; in the steady loop a row runs O += P V
// of iteration r-2 (modulo cycle 496) before S of iteration r (1792); two
// epilogue rows finish O. Below two iterations it runs one iteration a row.
// CHECK: tileas.agent {order = 3 : i32, role = "mma", stage = 1 : i32, tileas.src = #loc{{[0-9]+}}, warps = 1 : i32}
// CHECK: %[[OSLOT:.*]] = tileas.pipe.producer_acquire %[[O]]
// CHECK: scf.if
// CHECK: tileas.pipe.consumer_wait %[[K]], %[[I0:c0[_0-9]*]]
// CHECK-NEXT: tileas.fence "tcgen05_after"
// CHECK-NEXT: %[[SS:.*]] = tileas.pipe.producer_acquire %[[S]], %[[I0]]
// CHECK-NEXT: %[[SV:.*]] = tileas.umma %{{.*}}, %{{.*}}, %[[SS]]
// CHECK-NEXT: tileas.pipe.producer_commit %[[S]], %[[I0]], %[[SV]] {{.*}}via = "tcgen05_commit"
// CHECK-NEXT: tileas.pipe.consumer_release %[[K]], %[[I0]] {{.*}}via = "tcgen05_commit"
// CHECK: tileas.pipe.consumer_wait %[[K]], %[[I1:c1[_0-9]*]]
// CHECK: scf.for %[[ROW:.*]] = %c2{{.*}} iter_args
// CHECK: %[[OLD:.*]] = arith.subi %[[ROW]], %c2
// CHECK: tileas.pipe.consumer_wait %[[V]], %[[OLD]]
// CHECK: tileas.pipe.consumer_wait %[[P]], %[[OLD]]
// CHECK: tileas.umma {{.*}}{accumulate
// CHECK: tileas.pipe.consumer_release %[[V]], %[[OLD]]
// CHECK: tileas.pipe.consumer_release %[[P]], %[[OLD]]
// CHECK: tileas.pipe.consumer_wait %[[K]], %[[ROW]]
// CHECK: tileas.pipe.producer_acquire %[[S]], %[[ROW]]
// CHECK: scf.yield
// CHECK: tileas.umma {{.*}}{accumulate
// CHECK: tileas.umma {{.*}}{accumulate
// CHECK: } else {
// CHECK: scf.for
// CHECK: tileas.pipe.consumer_wait %[[K]]
// CHECK: tileas.pipe.consumer_wait %[[V]]
// CHECK: tileas.pipe.consumer_wait %[[P]]
// Nobody reads O after the loop: the agent drains its MMAs.
// CHECK: tileas.pipe.producer_commit %[[O]], %{{.*}} {tileas.src = #loc{{[0-9]+}}, via = "tcgen05_commit"}
// CHECK: tileas.pipe.consumer_wait %[[O]]
// CHECK: tileas.pipe.consumer_release %[[O]], %{{.*}} {tileas.src = #loc{{[0-9]+}}, via = "arrive"}
// CHECK: tileas.agent_yield

// The softmax agent (one stage): wait for S, fence, read it out of TMEM,
// wait for the read and release; P goes into the acquired TMEM slot behind
// the tcgen05 store fences.
// CHECK: tileas.agent {order = 4 : i32, role = "simt", stage = 2 : i32, tileas.src = #loc{{[0-9]+}}, warps = 4 : i32}
// CHECK: %[[SW:.*]] = tileas.pipe.consumer_wait %[[S]]
// CHECK-NEXT: tileas.fence "tcgen05_after"
// CHECK-NEXT: tileas.tmem_load %[[SW]]
// CHECK-NEXT: tileas.fence "tcgen05_wait_ld"
// CHECK-NEXT: tileas.fence "tcgen05_before"
// CHECK-NEXT: tileas.pipe.consumer_release %[[S]], {{.*}}via = "arrive"
// CHECK: tileas.exp2
// CHECK: %[[PS:.*]] = tileas.pipe.producer_acquire %[[P]]
// CHECK-NEXT: %[[PV:.*]] = tileas.tmem_store %{{.*}} into %[[PS]]
// CHECK-NEXT: tileas.fence "tcgen05_wait_st"
// CHECK-NEXT: tileas.fence "tcgen05_before"
// CHECK-NEXT: tileas.pipe.producer_commit %[[P]], %{{.*}}, %[[PV]] {{.*}}via = "arrive"

// CHECKED: protocol check of @attn: ok (executed 3 agents, 5 pipes, 0 mutexes
