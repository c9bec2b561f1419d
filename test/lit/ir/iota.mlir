// RUN: tilepipe-opt %s | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s --mlir-print-op-generic | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s -tileas-test-work 2>&1 >/dev/null | FileCheck %s --check-prefix=WORK

// tileas.iota round-trips, through the generic form too, and its tiles feed
// arith's integer math and a select: a causal mask. The scheduler sees the
// `generic` class with no work of its own (the stage code recomputes
// positions where they are read); the select is work on each element.

// CHECK-LABEL: func.func @causal_mask
func.func @causal_mask(%s: tensor<128x64xf32>, %q0: i32, %k0: i32) -> tensor<128x64xf32> {
  // CHECK: %[[R:.*]] = tileas.iota dimension = 0 : tensor<128x64xi32>
  // CHECK: %[[C:.*]] = tileas.iota dimension = 1 : tensor<128x64xi32>
  %rows = tileas.iota dimension = 0 : tensor<128x64xi32>
  %cols = tileas.iota dimension = 1 : tensor<128x64xi32>
  %qs = tensor.splat %q0 : tensor<128x64xi32>
  %ks = tensor.splat %k0 : tensor<128x64xi32>
  %q = arith.addi %rows, %qs : tensor<128x64xi32>
  %k = arith.addi %cols, %ks : tensor<128x64xi32>
  // CHECK: arith.cmpi sle
  %seen = arith.cmpi sle, %k, %q : tensor<128x64xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128x64xf32>
  %r = arith.select %seen, %s, %ninf : tensor<128x64xi1>, tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @vector
func.func @vector() -> tensor<256xi32> {
  // CHECK: tileas.iota dimension = 0 : tensor<256xi32>
  %p = tileas.iota dimension = 0 : tensor<256xi32>
  return %p : tensor<256xi32>
}

// The two iotas, the select (an instruction an element: the fma class), the
// vector's iota.
// WORK: iota.mlir:14:11: remark: class generic bytes 0 flops 0 elements 0
// WORK: iota.mlir:15:11: remark: class generic bytes 0 flops 0 elements 0
// WORK: iota.mlir:23:8: remark: class fma bytes 0 flops 0 elements 8192
// WORK: iota.mlir:30:8: remark: class generic bytes 0 flops 0 elements 0
