// What the translation cannot express is an error at the op, with the
// reason, and no output.
// RUN: not tilepipe-translate --tileas-to-cuda %s -split-input-file 2>&1 | FileCheck %s
// Nothing is written when any function fails.
// RUN: not tilepipe-translate --tileas-to-cuda %s -o %t.cu 2>/dev/null
// RUN: not test -e %t.cu

// CHECK: translate-errors.mlir:1 offset :9:1: error: a kernel returns nothing
func.func @returns(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = tileas.exp2 %x : tensor<128xf32>
  return %y : tensor<128xf32>
}

// -----

// CHECK: offset :6:8: error: a TMA load outside a pipe slot is not translated to CUDA
func.func @bare_tma(%d: !tileas.tma_desc<128x64xbf16>, %i: index) {
  %c0 = arith.constant 0 : index
  %a = tileas.tma_load %d[%i, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  return
}

// -----

// CHECK: offset :6:10: error: a register tile of 64 rows cannot be split over the agent's 128 threads
func.func @rows(%s: !tileas.smem<64x64xf32>) {
  tileas.agent {role = "simt", warps = 4 : i32} {
    %t = tileas.smem_load %s : !tileas.smem<64x64xf32> -> tensor<64x64xf32>
    tileas.agent_yield
  }
  return
}

// -----

// CHECK: offset :4:1: error: the agents need 1152 threads, more than a CTA's 1024
func.func @too_many(%n: index) {
  tileas.agent {role = "simt", warps = 36 : i32} {
    tileas.agent_yield
  }
  %c = arith.constant 0 : index
  %t = tileas.alloc_smem : !tileas.smem<128xf32>
  return
}
