// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule=mode=unspecialized | FileCheck %s
// RUN: tilepipe-opt %examples/attention_fwd.mlir --tileas-generate-schedule --tileas-materialize-schedule=mode=unspecialized 2>&1 | FileCheck %s --check-prefix=ATTN
// The peeled code parses and verifies again.
// RUN: tilepipe-opt %examples/attention_fwd.mlir --tileas-generate-schedule --tileas-materialize-schedule=mode=unspecialized | tilepipe-opt -o /dev/null
// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule=mode=unspecialized | tilepipe-opt -o /dev/null

// The GEMM mainloop peeled (3 stages; the loads in stage 0, the UMMA in
// stage 2): N = ceil((ub - lb) / step); prologue rows 0 and 1, each running
// the UMMA of iteration r - 2 and the loads of iteration r, every stage under
// its guard 0 <= r - s < N; the steady-state loop over rows 2 .. N-1; the
// epilogue rows N and N+1, also guarded by r >= 2 so nothing runs twice when
// N < 2. The accumulator is threaded through the guards and replaces the
// loop's result in the epilogue code after it.
// CHECK: %[[A:.*]] = tileas.pipe.create {bytes = 16384 : i64, consumer = "umma", depth = 4 : i32, order = 1 : i32, producer = "tma", stage = 0 : i32}
// CHECK: %[[B:.*]] = tileas.pipe.create {bytes = 32768 : i64, consumer = "umma", depth = 4 : i32, order = 0 : i32, producer = "tma", stage = 0 : i32}
// CHECK: %[[SPAN:.*]] = arith.subi
// CHECK: %[[N:.*]] = arith.ceildivui %[[SPAN]]
// Prologue row 0: stage 2 (iteration -2, skipped by its guard), then stage 0.
// CHECK: %[[ACC0:.*]] = scf.if %{{.*}} -> (!tileas.tmem<128x256xf32>) {
// CHECK: tileas.pipe.consumer_wait %[[A]]
// CHECK: tileas.umma
// CHECK: tileas.pipe.consumer_release %[[A]]
// CHECK: } else {
// CHECK: scf.if
// CHECK: tileas.pipe.producer_acquire %[[B]]
// CHECK-NEXT: tileas.tma_load
// CHECK-NEXT: tileas.pipe.producer_commit %[[B]]
// CHECK: tileas.pipe.producer_acquire %[[A]]
// Prologue row 1, then the steady state from row 2 to N.
// CHECK: %[[ACC1:.*]] = scf.if
// CHECK: %[[STEADY:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[ACC1]])
// CHECK: } {tileas.schedule.generator = "cost-based", tileas.schedule.ii = 1967 : i32
// Epilogue rows N and N+1.
// CHECK: %[[R0:.*]] = arith.addi %[[N]]
// CHECK: arith.cmpi sge, %[[R0]]
// CHECK: %[[R1:.*]] = arith.addi %[[N]]
// CHECK: %[[LAST:.*]] = scf.if
// CHECK: tileas.tmem_load %[[LAST]]
// CHECK-NOT: scf.for

// Attention peeled (4 stages): register values that cross stages (S read
// from TMEM in stage 1, used by the softmax in stage 2; the row sum used in
// stage 3) rotate through one register per stage spanned, seeded with poison
// (never read: the guards skip iterations that do not exist); the running
// max and sum, read one stage earlier in the next iteration, are threaded
// through the same row. Four guarded stages per row, 3 + 1 + 3 rows.
// ATTN-NOT: remark
// ATTN: ub.poison : tensor<128x128xf32>
// ATTN-COUNT-12: scf.if
// ATTN: scf.for
// ATTN-COUNT-4: scf.if
// ATTN: tileas.schedule.ii = 2622
// ATTN-COUNT-12: scf.if
// ATTN-NOT: scf.for
