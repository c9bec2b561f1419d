// The pass option seed=gaus: the same verified schedule attributes as
// without a seed on the GEMM mainloop (its II is the bound, 512), output
// that re-parses after -canonicalize -cse, and a clear error for an
// unknown seed.

// RUN: tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=seed=gaus \
// RUN:   | tilepipe-opt -canonicalize -cse | FileCheck %s
// CHECK: tileas.schedule.ii = 512

// RUN: not tilepipe-opt %examples/gemm_mainloop.mlir --tileas-generate-schedule=seed=gauss 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: error: tileas-generate-schedule: unknown seed 'gauss' (expected none or gaus)
