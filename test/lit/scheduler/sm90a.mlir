// RUN: tilepipe-opt %S/Inputs/wgmma-gemm.mlir --tileas-generate-schedule="target=sm_90a print-schedule" -o /dev/null | FileCheck %s
// RUN: not tilepipe-opt %S/Inputs/wgmma-gemm.mlir --tileas-generate-schedule="target=sm_80" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tilepipe-opt %tilepipe_src/examples/gemm_mainloop.mlir --tileas-generate-schedule="target=sm_90a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UMMA
// RUN: not tilepipe-opt %s --tileas-generate-schedule -o /dev/null 2>&1 | FileCheck %s --check-prefix=ON-SM100A

// A Hopper GEMM loop (128x256 tile, K-block 64, bf16, two warpgroups' rows
// in one wgmma tile) scheduled against the built-in sm_90a model (issue 38,
// point 1): the tensor core binds at 2 x 128 x 256 x 64 / 4096 = 1024
// cycles, which at 1830 MHz on 132 SMs is the datasheet's 989.4 TFLOP/s.
// CHECK: II 1024, MII 1024
// CHECK: binding unit: tensor core (tc_and_mma: wgmma), 1024 of 1024 cycles
// CHECK: throughput: 4194304 FLOP per iteration / 1024 cycles x 1.830 GHz x 132 SMs = 989.4 TFLOP/s
// CHECK: tileas.wgmma     wgmma

// UNKNOWN: error: unknown target 'sm_80': not a built-in target (sm_100a, sm_90a) and no such target file

// Blackwell's UMMA has no class on Hopper: the model says so at the op.
// UMMA: gemm_mainloop.mlir:{{[0-9]+}}:{{[0-9]+}}: error: '{{.*}}tileas.umma' has no latency: the target defines no op class 'umma'

// And Hopper's wgmma has none on Blackwell.
// ON-SM100A: error: '{{.*}}tileas.wgmma' has no latency: the target defines no op class 'wgmma'
func.func @wg(%a: !tileas.smem<64x16xbf16>, %b: !tileas.smem<64x16xbf16>, %n: index) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %d = tileas.wgmma %a, %b, %acc {accumulate} : !tileas.smem<64x16xbf16>, !tileas.smem<64x16xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}
