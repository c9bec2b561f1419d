// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule=print-plan -o /dev/null | FileCheck %s --check-prefix=GEMM
// RUN: tilepipe-opt %examples/attention_fwd.mlir --tileas-generate-schedule --tileas-materialize-schedule=print-plan -o /dev/null | FileCheck %s --check-prefix=ATTN
// From the printed attributes alone, in a second process: the same plan.
// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=generator=cost-based \
// RUN:   | tilepipe-opt --tileas-materialize-schedule=print-plan -o /dev/null | FileCheck %s --check-prefix=GEMM

// GEMM mainloop, II 1967: both TMA loads live 3 stages (loaded in stage 0,
// read by the UMMA in stage 2); 48 KiB a stage, widened CUTLASS-style to the
// 4 stages SMEM holds (4 x 48 KiB of 226 KiB). TMA -> UMMA: expect-tx on
// the full barrier, tcgen05.commit on the empty one.
// GEMM: II 1967, stages 3, pipes 2, mutexes 0
// GEMM-NEXT: pipe 0: '%5 = tileas.tma_load' (stage 0) -> '%7 = tileas.umma' (stage 2)
// GEMM-NEXT:   tma -> umma, smem 16384 B, depth 4 (lifetime 3 stages)
// GEMM-NEXT:   commit expect_tx, release tcgen05.commit, 8 mbarriers
// GEMM-NEXT: pipe 1: '%6 = tileas.tma_load' (stage 0) -> '%7 = tileas.umma' (stage 2)
// GEMM-NEXT:   tma -> umma, smem 32768 B, depth 4 (lifetime 3 stages)
// GEMM-NEXT:   commit expect_tx, release tcgen05.commit, 8 mbarriers
// GEMM-NEXT: smem 196608 B of 231424, tmem 256 columns of 512
// GEMM-NEXT: agents: load (6 steps) mma (6 steps)
// GEMM-NEXT: protocol check: ok (trip counts 0 1 2 3 9; 20 interleavings each)

// Attention, II 2622: K and V come in by TMA (V lives 4 stages: it waits
// for P), S leaves the tensor core through TMEM to the softmax (UMMA ->
// SIMT: the consumer fences after its wait), P goes back through TMEM to
// the second UMMA (SIMT -> UMMA: wait::st and a fence before the arrive).
// The O accumulator stays on the tensor core (UMMA -> UMMA): no pipe. The
// TMEM pipes are double-buffered: 2 x 128 + 2 x 64 columns, allocated 512.
// ATTN: II 2622, stages 4, pipes 4, mutexes 0
// ATTN: tma -> umma, smem 32768 B, depth 2 (lifetime 2 stages)
// ATTN: tma -> umma, smem 32768 B, depth 4 (lifetime 4 stages)
// ATTN: pipe 2: '%6 = tileas.umma' (stage 1) -> '%7 = tileas.tmem_load' (stage 1)
// ATTN-NEXT: umma -> simt, tmem 128 columns, depth 2 (lifetime 1 stage)
// ATTN-NEXT: commit tcgen05.commit, release arrive, consumer fence tcgen05.fence::after_thread_sync, 4 mbarriers
// ATTN: pipe 3: '%18 = tileas.tmem_store' (stage 2) -> '%19 = tileas.umma' (stage 3)
// ATTN-NEXT: simt -> umma, tmem 64 columns, depth 2 (lifetime 2 stages)
// ATTN-NEXT: commit arrive, release tcgen05.commit, producer fence tcgen05.wait::st; tcgen05.fence::before_thread_sync, 4 mbarriers
// ATTN: smem 196608 B of 231424, tmem 512 columns of 512
// ATTN-NEXT: agents: simt0 (6 steps) load (6 steps) mma (12 steps)
// ATTN-NEXT: protocol check: ok (trip counts 0 1 3 4 11; 20 interleavings each)
