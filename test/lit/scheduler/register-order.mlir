// Register order (docs/generators.md): an agent stores what it makes of one
// iteration's register tile before it loads the next iteration's, when that
// costs no II.

// FA4 at head dim 64 written plainly. Without the order, softmax 1 loads
// S(K+1) (%34, 128 f32 words per thread) at cycle 1747, stage 0, and stores
// P(K) (%45) at 4247, stage 2: both cross the agent's back edge in registers
// (1652 B spilled with the uniform setmaxnreg split). The edge %45 -> %34
// (distance 1, latency 0) raises the recurrence bound from 746 to 1732,
// below the resource bound: the II stays 2064 = MII, the MMA of S1 moves to
// 1611 and %34 to 2183, stage 1.
// RUN: tilepipe-opt %S/../cuda/Inputs/fa4-hd64.mlir \
// RUN:   --tileas-generate-schedule="print-schedule register-order=false" \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=OFF
// OFF: II 2064, MII 2064 (resource 2064, fine-density 904, recurrence 746,
// OFF: %34 = tileas.tmem_load {{ *}}tmem_load {{ *}}1747 {{ *}}0
// OFF: %45 = tileas.tmem_store {{ *}}tmem_store {{ *}}4247 {{ *}}2
// OFF-NOT: register order
// RUN: tilepipe-opt %S/../cuda/Inputs/fa4-hd64.mlir \
// RUN:   --tileas-generate-schedule=print-schedule -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=ON
// ON: II 2064, MII 2064 (resource 2064, fine-density 904, recurrence 1732,
// ON: %21 = tileas.umma {{ *}}umma {{ *}}1611 {{ *}}0
// ON: %34 = tileas.tmem_load {{ *}}tmem_load {{ *}}2183 {{ *}}1
// ON: %45 = tileas.tmem_store {{ *}}tmem_store {{ *}}4247 {{ *}}2
// ON: register order: 4 edge(s), 1 broken without them, kept (II 2064 with them, 2064 without):
// ON-SAME: %45 = tileas.tmem_store -> %34 = tileas.tmem_load

// The bundled FA4 already stores each P before the next S is loaded: its
// schedule is left as it is (no line, no second run).
// RUN: tilepipe-opt %S/../../../examples/fa4_fwd.mlir \
// RUN:   --tileas-generate-schedule=print-schedule -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=KEPT
// KEPT: II 3122, MII 3122
// KEPT-NOT: register order

// A chain whose load -> exp2 -> exp2 -> cvt -> store takes 2093 cycles, more
// than the MUFU bound of 2048: ordered, the recurrence would raise the II to
// 2093, so the edge is dropped and the schedule without it stays (the load
// of the next iteration at 2048 + 0, before this one's store at 2093).
// RUN: tilepipe-opt %s --tileas-generate-schedule=print-schedule -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=DROP
// DROP: II 2048, MII 2048 (resource 2048,
// DROP: %0 = tileas.tmem_load {{ *}}tmem_load {{ *}}0 {{ *}}0
// DROP: %4 = tileas.tmem_store {{ *}}tmem_store {{ *}}2093 {{ *}}1
// DROP: register order: 1 edge(s), 1 broken without them, dropped (II 2093 with them, 2048 without)
func.func @chain(%x: !tileas.tmem<128x128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = tileas.tmem_load %x {tileas.warp_group = 0}
        : !tileas.tmem<128x128xf32> -> tensor<128x128xf32>
    %e = tileas.exp2 %s {tileas.warp_group = 0} : tensor<128x128xf32>
    %f = tileas.exp2 %e {tileas.warp_group = 0} : tensor<128x128xf32>
    %c = tileas.cvt %f {tileas.warp_group = 0}
        : tensor<128x128xf32> -> tensor<128x128xbf16>
    %t = tileas.tmem_store %c {tileas.warp_group = 0}
        : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
  }
  return
}

// With register-order=false the pass never tries: the same schedule, no line.
// RUN: tilepipe-opt %s --tileas-generate-schedule="print-schedule register-order=false" \
// RUN:   -o /dev/null | FileCheck %s --check-prefix=NOORDER
// NOORDER: II 2048, MII 2048
// NOORDER-NOT: register order
