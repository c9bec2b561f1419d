// RUN: not tilepipe-opt %s --tileas-generate-schedule=generator=cost-based --tileas-materialize-schedule 2>&1 | FileCheck %s

// Four 64 KiB TMA tiles read two stages later by SIMT code: even single
// buffered they need 256 KiB of shared memory, above the 226 KiB a CTA has.
// CHECK: error: fails to assign smem buffer: the pipes need 393216 bytes at their minimum depths, 231424 bytes are available (232448 minus 1024 reserved); the smallest of the 2 plans tried (depths by the timeline) needs 262144 bytes of shared memory and 0 TMEM columns
func.func @too_big(%d: !tileas.tma_desc<128x256xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = tileas.tma_load %d[%i, %c0] : !tileas.tma_desc<128x256xbf16> -> !tileas.smem<128x256xbf16>
    %b = tileas.tma_load %d[%i, %c1] : !tileas.tma_desc<128x256xbf16> -> !tileas.smem<128x256xbf16>
    %c = tileas.tma_load %d[%c0, %i] : !tileas.tma_desc<128x256xbf16> -> !tileas.smem<128x256xbf16>
    %e = tileas.tma_load %d[%c1, %i] : !tileas.tma_desc<128x256xbf16> -> !tileas.smem<128x256xbf16>
    %va = tileas.smem_load %a : !tileas.smem<128x256xbf16> -> tensor<128x256xbf16>
    %vb = tileas.smem_load %b : !tileas.smem<128x256xbf16> -> tensor<128x256xbf16>
    %vc = tileas.smem_load %c : !tileas.smem<128x256xbf16> -> tensor<128x256xbf16>
    %ve = tileas.smem_load %e : !tileas.smem<128x256xbf16> -> tensor<128x256xbf16>
  }
  return
}
