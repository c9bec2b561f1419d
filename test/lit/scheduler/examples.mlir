// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=print-schedule -o %t.gemm.mlir | FileCheck %s --check-prefix=GEMM
// RUN: FileCheck %s --check-prefix=GEMM-IR < %t.gemm.mlir
// RUN: tilepipe-opt %examples/attention_fwd.mlir --tileas-generate-schedule=print-schedule -o /dev/null 2>&1 | FileCheck %s --check-prefix=ATTN
// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule="print-schedule prove-optimal" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GEMM-OPT
// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule="print-schedule selection=threshold" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GEMM-SEED2
// Determinism: a second run is byte-identical.
// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=print-schedule -o %t.gemm2.mlir > %t.table2
// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=print-schedule -o %t.gemm3.mlir > %t.table3
// RUN: diff %t.gemm2.mlir %t.gemm3.mlir
// RUN: diff %t.table2 %t.table3

// The bundled examples through the pass (docs/performance.md compares the
// numbers with CUTLASS's and FA4's published B200 results).
//
// In the GEMM, per k-block a 128x256x64 UMMA holds the tensor core 512 cycles. The
// loads say where their bytes come from (multicast 2, l2_reuse 4): A pulls
// 8 KiB through L2 (128 cycles at 64 B/clk), 2 KiB of it from HBM (82 at 25
// B/clk); B 16 KiB (256) and 4 KiB (164). So the tensor core binds the II,
// as in CUTLASS, and the implied throughput is 4194304 FLOP / 512 cycles at
// 1.965 GHz on 148 SMs.

// GEMM: generator: cost-based (serial length 2878 > MII 512: overlapping iterations can shorten the II)
// GEMM-NEXT: II 512, MII 512 (resource 512, fine-density 1, recurrence 512, dependency 1), stages 4
// GEMM-NEXT: binding unit: tensor core (tc_and_mma: umma), 512 of 512 cycles; next: L2 -> SM (tp_gnic_rd: tma_load), 384
// GEMM-NEXT: throughput: 4194304 FLOP per iteration / 512 cycles x 1.965 GHz x 148 SMs = 2382.4 TFLOP/s
// GEMM-NEXT: op                    class        cycle stage order  slots
// GEMM-NEXT: %8 = tileas.tma_load  tma_load         0     0     0  tma+tp_gnic_rd+tp_smem_wr
// GEMM-NEXT: %7 = tileas.tma_load  tma_load       256     0     1  tma+tp_gnic_rd+tp_smem_wr
// GEMM-NEXT: %9 = tileas.umma      umma          1266     2     2  tc_and_mma+tp_mma+tp_smem_rd

// The attributes survive the pass next to the schedule.
// GEMM-IR: tileas.tma_load {{.*}}{l2_reuse = 4 : i64, multicast = 2 : i64, tileas.schedule.cycle = 256 : i64
// GEMM-IR: } {tileas.schedule.generator = "cost-based", tileas.schedule.ii = 512 : i32, tileas.schedule.mii = 512 : i32, tileas.schedule.stages = 4 : i32}

// GEMM-OPT: remark: II 512 is optimal: it equals the lower bound

// Seed 002's rule (3 ops < 8) would run the GEMM serially: II 2878, 5.6x
// slower than the bound, which the binding line says.
// GEMM-SEED2: generator: serial (rule threshold: 3 ops, below serial_threshold 8)
// GEMM-SEED2-NEXT: II 2878, MII 512
// GEMM-SEED2-NEXT: binding unit: tensor core (tc_and_mma: umma), 512 of 2878 cycles; next: L2 -> SM (tp_gnic_rd: tma_load), 384 (II 2878 is above it: the serial generator does not overlap iterations)
// GEMM-SEED2-NEXT: throughput: 4194304 FLOP per iteration / 2878 cycles x 1.965 GHz x 148 SMs = 423.8 TFLOP/s

// Attention: 16384 exponentials hold the MUFU 1024 cycles plus 8 for the
// rescale factor; QK^T and PV hold the tensor core 2 x 512. K and V (32 KiB
// each, l2_reuse 16) pull 512 cycles each through L2 and 82 from HBM. MUFU
// binds, the tensor core is within 1%: FA4's two named units.
// ATTN: generator: cost-based (serial length 7290 > MII 1032: overlapping iterations can shorten the II)
// ATTN-NEXT: II 1032, MII 1032 (resource 1032, fine-density 388, recurrence 512, dependency 1), stages 5
// ATTN-NEXT: binding unit: MUFU (xu: exp2), 1032 of 1032 cycles; next: tensor core (tc_and_mma: umma, umma_ts), 1024
// ATTN-NEXT: throughput: 8388608 FLOP per iteration / 1032 cycles x 1.965 GHz x 148 SMs = 2363.9 TFLOP/s
// ATTN: tileas.umma        umma_ts
