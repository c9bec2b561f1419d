// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule=print-plan -o /dev/null | FileCheck %s --check-prefix=GEMM
// RUN: tilepipe-opt %examples/attention_fwd.mlir --tileas-generate-schedule --tileas-materialize-schedule=print-plan -o /dev/null | FileCheck %s --check-prefix=ATTN
// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=generator=cost-based \
// RUN:   | tilepipe-opt --tileas-materialize-schedule=print-plan -o /dev/null | FileCheck %s --check-prefix=GEMM

// GEMM mainloop (128x256x64 bf16), II 512 (tensor-core bound): both TMA
// loads live 3 stages (stage 0 to the UMMA in stage 2); 48 KiB a stage,
// widened CUTLASS-style to the 4 stages SMEM holds (CUTLASS's
// StageCountAutoCarveout gives 4 for this tile). TMA -> UMMA: expect-tx on
// the full barrier, tcgen05.commit on the empty one. The accumulator (256
// columns) is carried across the loop.
// GEMM: II 512, stages 4, pipes 2, mutexes 0
// GEMM-NEXT: pipe 0: '%7 = tileas.tma_load' (stage 0) -> '%9 = tileas.umma' (stage 2)
// GEMM-NEXT:   tma -> umma, smem 16384 B, depth 4 (lifetime 3 stages)
// GEMM-NEXT:   commit expect_tx, release tcgen05.commit, 8 mbarriers
// GEMM-NEXT: pipe 1: '%8 = tileas.tma_load' (stage 0) -> '%9 = tileas.umma' (stage 2)
// GEMM-NEXT:   tma -> umma, smem 32768 B, depth 4 (lifetime 3 stages)
// GEMM-NEXT:   commit expect_tx, release tcgen05.commit, 8 mbarriers
// GEMM-NEXT: smem 196608 B (0 B of it tiles made before the loop) of 231424, tmem 256 columns of 512

// Attention forward (hd 128), II 1032 (MUFU bound): K and V each live two
// stages (V is loaded in stage 2, next to its UMMA), three slots each as
// FA4's kv_stage; S leaves the tensor core through a double-buffered TMEM
// pipe, P goes back through another. The Q tile made before the loop is
// counted in the SMEM budget; the epilogue's O staging tile overlays the
// drained K/V slots and adds nothing. TMEM is exactly FA4's 512 columns.
// ATTN: II 1032, stages 5, pipes 4, mutexes 0
// ATTN-NEXT: pipe 0: '%9 = tileas.tma_load' (stage 0) -> '%11 = tileas.umma' (stage 1)
// ATTN-NEXT:   tma -> umma, smem 32768 B, depth 3 (lifetime 2 stages)
// ATTN: pipe 1: '%10 = tileas.tma_load' (stage 2) -> '%24 = tileas.umma' (stage 3)
// ATTN-NEXT:   tma -> umma, smem 32768 B, depth 3 (lifetime 2 stages)
// ATTN: pipe 2: '%11 = tileas.umma' (stage 1) -> '%12 = tileas.tmem_load' (stage 1)
// ATTN-NEXT:   umma -> simt, tmem 128 columns, depth 2 (lifetime 1 stage)
// ATTN-NEXT:   commit tcgen05.commit, release arrive, consumer fence tcgen05.fence::after_thread_sync, 4 mbarriers
// ATTN: pipe 3: '%23 = tileas.tmem_store' (stage 3) -> '%24 = tileas.umma' (stage 3)
// ATTN-NEXT:   simt -> umma, tmem 64 columns, depth 2 (lifetime 1 stage)
// ATTN-NEXT:   commit arrive, release tcgen05.commit, producer fence tcgen05.wait::st; tcgen05.fence::before_thread_sync, 4 mbarriers
// ATTN-NEXT: smem 229376 B (32768 B of it tiles made before the loop) of 231424, tmem 512 columns of 512
