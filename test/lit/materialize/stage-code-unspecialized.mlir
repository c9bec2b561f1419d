// RUN: tilepipe-opt %S/Inputs/gemm-ii1500.mlir --tileas-materialize-schedule="mode=unspecialized join-pipes=false" | FileCheck %s
// RUN: tilepipe-opt %S/Inputs/gemm-ii1500.mlir --tileas-materialize-schedule="mode=unspecialized join-pipes=false" | tilepipe-opt --tileas-check-protocol=print -o /dev/null | FileCheck %s --check-prefix=CHECKED
// RUN: tilepipe-opt %S/Inputs/attention-ii1800.mlir --tileas-materialize-schedule="mode=unspecialized join-pipes=false" | tilepipe-opt --tileas-check-protocol=print -o /dev/null | FileCheck %s --check-prefix=ATTN

// (join-pipes=false keeps A and B apart: joining is join-pipes.mlir's and
// numeric-join.test's subject.)
// A GEMM mainloop with a published schedule (II 1500, 3 stages: loads in
// stage 0, the UMMA in stage 2), peeled into one agent. The accumulator is
// the slot of a one-slot result pipe acquired before the code; the epilogue
// after the loop waits for it, so no MMA is in flight when it is read.
// CHECK: %[[A:.*]] = tileas.pipe.create {bytes = 16384 : i64, consumers = ["umma"]
// CHECK: %[[B:.*]] = tileas.pipe.create {bytes = 16384 : i64, consumers = ["umma"]
// CHECK: %[[O:.*]] = tileas.pipe.create {bytes = 65536 : i64, consumers = ["simt"], depth = 1 : i32, producer = "umma", tileas.src = #loc{{[0-9]+}}}
// CHECK: %[[ACC:.*]] = tileas.pipe.producer_acquire %[[O]]
// N = max(0, ceil((ub - lb) / step)); pipelined when N >= 2.
// CHECK: arith.ceildivsi
// CHECK: %[[N:.*]] = arith.maxsi
// CHECK: %[[FULL:.*]] = arith.cmpi sge, %[[N]], %c2
// CHECK: scf.if %[[FULL]]
// Prologue rows 0 and 1: the loads of iterations 0 and 1 only.
// CHECK: tileas.pipe.producer_acquire %[[A]], %[[R0:c0[_0-9]*]]
// CHECK: tileas.tma_load {{.*}} into
// CHECK: tileas.pipe.producer_acquire %[[B]], %[[R0]]
// CHECK-NOT: tileas.umma
// CHECK: tileas.pipe.producer_acquire %[[A]], %[[R1:c1[_0-9]*]]
// CHECK-NOT: tileas.umma
// The steady loop: row r loads iteration r and runs the UMMA of r - 2,
// waiting for both tiles and releasing them with tcgen05.commit.
// CHECK: scf.for %[[ROW:.*]] = %c2{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[ACC]]
// CHECK: tileas.pipe.producer_acquire %[[A]], %[[ROW]]
// CHECK: %[[OLD:.*]] = arith.subi %[[ROW]], %c2
// CHECK: tileas.pipe.consumer_wait %[[B]], %[[OLD]]
// CHECK: tileas.pipe.consumer_wait %[[A]], %[[OLD]]
// CHECK: tileas.umma
// CHECK: tileas.pipe.consumer_release %[[B]], %[[OLD]] {{.*}}via = "tcgen05_commit"
// CHECK: tileas.pipe.consumer_release %[[A]], %[[OLD]] {{.*}}via = "tcgen05_commit"
// Epilogue rows N and N+1: the last two UMMAs.
// CHECK: tileas.umma
// CHECK: tileas.umma
// Fewer than two iterations: one iteration a row, the UMMA still waiting
// for the loads of its own iteration.
// CHECK: } else {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK: tileas.pipe.producer_acquire %[[A]], %[[I]]
// CHECK: tileas.pipe.consumer_wait %[[B]], %[[I]]
// CHECK: tileas.pipe.consumer_wait %[[A]], %[[I]]
// CHECK: tileas.umma
// CHECK: tileas.pipe.consumer_release %[[A]], %[[I]]
// The accumulator is committed, waited for, read and released.
// CHECK: tileas.pipe.producer_commit %[[O]], %{{.*}}, %{{.*}} {tileas.src = #loc{{[0-9]+}}, via = "tcgen05_commit"}
// CHECK: %[[RES:.*]] = tileas.pipe.consumer_wait %[[O]]
// CHECK-NEXT: tileas.fence "tcgen05_after"
// CHECK: tileas.tmem_load %[[RES]]
// CHECK: tileas.tma_store
// CHECK: tileas.fence "tcgen05_wait_ld"
// CHECK: tileas.pipe.consumer_release %[[O]], %{{.*}} {tileas.src = #loc{{[0-9]+}}, via = "arrive"}

// CHECKED: protocol check of @gemm: ok (executed 0 agents, 3 pipes, 0 mutexes
// ATTN: protocol check of @attn: ok (executed 0 agents, 5 pipes, 0 mutexes
