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
