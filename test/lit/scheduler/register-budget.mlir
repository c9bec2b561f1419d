// Register budget (docs/generators.md): where the loop's MMA accumulates in
// registers (wgmma), a schedule whose tiles held across stage boundaries
// pass the consumer threads' budget is searched again from larger IIs.

// Attention at head dim 64 for sm_90a, two consumer warpgroups (240
// registers each, 184 words after the stage's working set). At II 1032 =
// MII (the MUFU's) it holds the in-flight S, the scaled S waiting for its
// row maximum and P across boundaries, 195 words a thread (ptxas spilled
// 312 B); II 1652 holds 130 (0 B).
// RUN: tilepipe-opt %S/../cuda/Inputs/attn-scale-hd64.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a print-schedule" -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=ON
// ON: II 1652, MII 1032 (resource 1032,
// ON: register budget: 195 words a thread held across stage boundaries at II 1032, over 184 (240 registers less 56); II 1652 holds 130
// RUN: tilepipe-opt %S/../cuda/Inputs/attn-scale-hd64.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a print-schedule register-budget=false" \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=OFF
// OFF: II 1032, MII 1032 (resource 1032,
// OFF-NOT: register budget

// One consumer warpgroup (M = 64): 255 registers, 199 words; II 516 holds
// 227 (888 B spilled), II 580 holds 194 (0 B).
// RUN: tilepipe-opt %S/../cuda/Inputs/attn-m64-hd64.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a print-schedule" -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=M64
// M64: II 580, MII 516 (resource 516,
// M64: register budget: 227 words a thread held across stage boundaries at II 516, over 199 (255 registers less 56); II 580 holds 194

// Within the budget nothing changes: head dim 128 holds 161 words at II
// 2048 = MII; and a loop whose MMA accumulates in TMEM (sm_100a) is not
// counted.
// RUN: tilepipe-opt %S/../cuda/Inputs/attn-scale-hd128.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a print-schedule" -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=FITS
// FITS: II 2048, MII 2048 (resource 2048,
// FITS-NOT: register budget
// RUN: tilepipe-opt %S/../cuda/Inputs/attn-scale-hd64.mlir \
// RUN:   --tileas-generate-schedule=print-schedule -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=TMEM
// TMEM-NOT: register budget

// Where no larger II holds fewer words, the schedule at the smaller II is
// kept and a warning names the loop: FA4's loop with a 2-deep KV ring holds
// 964 words at II 2064 and as many at the next two IIs, so the search stops
// after two tries that make no progress (of 8 at most). Its tries run
// without the exact check's passes.
// RUN: tilepipe-opt %S/../cuda/Inputs/fa4-hd64-ring.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a print-schedule" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KEPT
// KEPT: fa4-hd64-ring.mlir:{{[0-9]+}}:{{[0-9]+}}: warning: register budget: 964 words a thread held across stage boundaries at II 2064, over 184 (240 registers less 56); no II up to 2612 holds fewer than 964, kept: the consumer warpgroups may spill
// KEPT: II 2064, MII 2064
// KEPT: register budget: {{.*}}; no II up to 2612 holds fewer than 964, kept (ptxas may spill)
// Within a quarter of the budget the search goes on for four tries without
// progress, not two: cuTile's FMHA sample at head dim 64 holds 483 words at
// II 1032 = MII (nvcc spilled 6,592 B), 193 at II 1469 and no fewer at
// 1652 and 1858, then 97 at II 2090 (0 B spilled).
// RUN: tilepipe-opt %S/Inputs/cutile-fmha-hd64.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a print-schedule" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEAR --implicit-check-not=warning
// NEAR: II 2090, MII 1032
// NEAR: register budget: 483 words a thread held across stage boundaries at II 1032, over 184 (240 registers less 56); II 2090 holds 97
// Where none fits but a try at least halves the words over the budget, that
// try is kept, with the warning: the same loop within three tries keeps II
// 1469 (193 words; nvcc 252 B spilled), not the MII schedule.
// RUN: tilepipe-opt %S/Inputs/cutile-fmha-hd64.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a print-schedule register-budget-tries=3" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FEWEST
// FEWEST: warning: register budget: 483 words a thread held across stage boundaries at II 1032, over 184 (240 registers less 56); no II up to 1469 holds 184 or fewer; II 1469 holds the fewest, 193, kept: the consumer warpgroups may spill
// FEWEST: II 1469, MII 1032
// register-budget-tries bounds the scheduler runs: one here.
// RUN: tilepipe-opt %S/../cuda/Inputs/fa4-hd64-ring.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a register-budget-tries=1" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE
// ONE: warning: register budget: {{.*}}; no II up to 2322 holds fewer than 964, kept
// A budget the search reaches within its tries is not warned about.
// RUN: tilepipe-opt %S/../cuda/Inputs/attn-scale-hd64.mlir --tileas-umma-to-wgmma \
// RUN:   --tileas-generate-schedule="target=sm_90a" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: warning
