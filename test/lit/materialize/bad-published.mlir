// A published schedule from outside (attributes), read by the materializer:
// sizes that would exhaust memory are refused at the loop, before any table
// is built (an II of 2^31 - 1 ran out of memory in the RRT; a cycle of 2^40
// asked for millions of stages of prologue).
// RUN: tilepipe-opt %s -split-input-file --tileas-materialize-schedule -verify-diagnostics -o /dev/null

func.func @huge_ii(%a: !tileas.tma_desc<128x64xbf16>, %b: !tileas.tma_desc<256x64xbf16>, %m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  // expected-remark @+1 {{loop left unchanged: its II 2147483647 is above the loop's serial length 2878 (and above 65536), where a serial schedule fits}}
  %r = scf.for %i = %c0 to %k step %c64 iter_args(%x = %acc) -> (!tileas.tmem<128x256xf32>) {
    %s = tileas.tma_load %a[%m, %i] {l2_reuse = 4 : i64, multicast = 2 : i64, tileas.schedule.cycle = 256 : i64} : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %t = tileas.tma_load %b[%n, %i] {l2_reuse = 4 : i64, multicast = 2 : i64, tileas.schedule.cycle = 0 : i64} : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %s, %t, %x {accumulate, tileas.schedule.cycle = 1266 : i64} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  } {tileas.schedule.generator = "cost-based", tileas.schedule.ii = 2147483647 : i32}
  return
}

// -----

func.func @huge_stage(%a: !tileas.tma_desc<128x64xbf16>, %b: !tileas.tma_desc<256x64xbf16>, %m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %acc = tileas.alloc_tmem : !tileas.tmem<128x256xf32>
  // expected-remark @+1 {{loop left unchanged: its schedule has 2147483650 stages; stage code is emitted for at most 256}}
  %r = scf.for %i = %c0 to %k step %c64 iter_args(%x = %acc) -> (!tileas.tmem<128x256xf32>) {
    %s = tileas.tma_load %a[%m, %i] {l2_reuse = 4 : i64, multicast = 2 : i64, tileas.schedule.cycle = 256 : i64} : !tileas.tma_desc<128x64xbf16> -> !tileas.smem<128x64xbf16>
    %t = tileas.tma_load %b[%n, %i] {l2_reuse = 4 : i64, multicast = 2 : i64, tileas.schedule.cycle = 0 : i64} : !tileas.tma_desc<256x64xbf16> -> !tileas.smem<256x64xbf16>
    %d = tileas.umma %s, %t, %x {accumulate, tileas.schedule.cycle = 1099511627776 : i64} : !tileas.smem<128x64xbf16>, !tileas.smem<256x64xbf16>, !tileas.tmem<128x256xf32> -> !tileas.tmem<128x256xf32>
    scf.yield %d : !tileas.tmem<128x256xf32>
  } {tileas.schedule.generator = "cost-based", tileas.schedule.ii = 512 : i32}
  return
}
