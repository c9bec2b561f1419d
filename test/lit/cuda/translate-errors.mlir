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

// In a loop a TMA load needs a pipe slot (after the loops it is the
// epilogue's own tile, on a barrier of its own: epilogue-load.test).
// CHECK: offset :11:12: error: a TMA load outside a pipe slot is not translated to CUDA here
func.func @bare_tma(%d: !tileas.tma_desc<128x64xbf16>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tileas.agent {role = "load", warps = 1 : i32} {
    scf.for %k = %c0 to %i step %c1 {
      %a = tileas.tma_load %d[%i, %k] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    }
    tileas.agent_yield
  }
  return
}

// -----

// 64 rows over 128 threads are held as an M = 64 accumulator lies in TMEM
// (docs/cuda.md, "64-row tiles"); 32 rows have no such layout.
// CHECK: offset :9:10: error: a register tile of 32 rows cannot be split over the agent's 128 threads
func.func @rows() {
  %s = tileas.alloc_smem : !tileas.smem<32x64xf32>
  tileas.agent {role = "simt", warps = 4 : i32} {
    %t = tileas.smem_load %s : !tileas.smem<32x64xf32> -> tensor<32x64xf32>
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

// -----

// An SMEM tile cannot be passed in: nothing would fill it. The error is at
// the argument and names the form that loads it.
// CHECK: offset :6:62: error: an SMEM tile passed to a kernel has no data: pass its tensor map, '!tileas.tma_desc<128x128xbf16>', and load the tile before the loop with `tileas.tma_load %desc[%row, %col]`, its coordinates computed from gpu.block_id (docs/cuda.md)
func.func @smem_argument(%k: !tileas.tma_desc<128x128xbf16>, %q: !tileas.smem<128x128xbf16>) {
  %sbuf = tileas.alloc_tmem : !tileas.tmem<128x128xf32>
  tileas.agent {role = "mma", warps = 1 : i32} {
    %s = tileas.umma %q, %q, %sbuf : !tileas.smem<128x128xbf16>, !tileas.smem<128x128xbf16>, !tileas.tmem<128x128xf32> -> !tileas.tmem<128x128xf32>
    tileas.agent_yield
  }
  return
}

// -----

// Outside the agents, only what the prologue runs once: float arithmetic
// belongs to an agent.
// CHECK: offset :7:8: error: only constants, scalar broadcasts, storage, index arithmetic and TMA loads of whole tiles may sit outside the agents of a warp-specialized function (the prologue runs them once, before the roles split)
func.func @outside_agents(%x: f32) {
  %y = arith.addf %x, %x : f32
  tileas.agent {role = "simt", warps = 4 : i32} {
    tileas.agent_yield
  }
  return
}

// -----

// A persistent kernel runs many output tiles; a tile loaded once before its
// agents would serve only the first (the materializer plans such a loop for
// one tile per CTA instead: numeric-persistent.test).
// CHECK: offset :7:1: error: a persistent kernel loads no tiles before its agents (each tile would need its own)
func.func @persistent_q(%d: !tileas.tma_desc<128x64xbf16>) attributes {tileas.persistent} {
  %c0 = arith.constant 0 : index
  %q = tileas.tma_load %d[%c0, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  tileas.agent {role = "load", warps = 1 : i32} {
    tileas.agent_yield
  }
  return
}

// -----

// Before the loop, a load whose coordinates are not index arithmetic on the
// arguments is not the prologue's, and not the epilogue's either (whose
// tiles lie over the mainloop's slots): it is refused at the load.
// CHECK: offset :12:8: error: a TMA load outside a pipe slot is not translated to CUDA here
func.func @late_coords(%d: !tileas.tma_desc<128x64xbf16>, %f: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %j = arith.fptosi %f : f32 to i64
  %i = arith.index_cast %j : i64 to index
  %q = tileas.tma_load %d[%i, %c0] : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
  scf.for %k = %c0 to %n step %c1 {
  }
  return
}
