// RUN: tilepipe-opt %s | tilepipe-opt | FileCheck %s

// Tile types print as `<shape x element>` and survive a round trip.

// CHECK-LABEL: func.func @smem
// CHECK-SAME: !tileas.smem<128x64xbf16>
// CHECK-SAME: !tileas.smem<64xf32>
// CHECK-SAME: !tileas.smem<2x64x64xf8E4M3FN>
// CHECK-SAME: !tileas.smem<128x128xi8>
func.func @smem(%a: !tileas.smem<128x64xbf16>, %b: !tileas.smem<64xf32>,
                %c: !tileas.smem<2x64x64xf8E4M3FN>,
                %d: !tileas.smem<128x128xi8>) {
  return
}

// CHECK-LABEL: func.func @tmem
// CHECK-SAME: !tileas.tmem<128x128xf32>
// CHECK-SAME: !tileas.tmem<64x256xf16>
// CHECK-SAME: !tileas.tmem<128x64xi32>
func.func @tmem(%a: !tileas.tmem<128x128xf32>, %b: !tileas.tmem<64x256xf16>,
                %c: !tileas.tmem<128x64xi32>) {
  return
}

// CHECK-LABEL: func.func @tma_desc
// CHECK-SAME: !tileas.tma_desc<128x64xbf16>
// CHECK-SAME: !tileas.tma_desc<256xf32>
// CHECK-SAME: !tileas.tma_desc<1x2x4x8x16xf16>
func.func @tma_desc(%a: !tileas.tma_desc<128x64xbf16>,
                    %b: !tileas.tma_desc<256xf32>,
                    %c: !tileas.tma_desc<1x2x4x8x16xf16>) {
  return
}

// Tile types work as loop-carried values.
// CHECK-LABEL: func.func @loop_carried
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (!tileas.tmem<128x128xf32>)
// CHECK: scf.yield {{.*}} : !tileas.tmem<128x128xf32>
func.func @loop_carried(%acc: !tileas.tmem<128x128xf32>, %n: index)
    -> !tileas.tmem<128x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %acc)
      -> (!tileas.tmem<128x128xf32>) {
    scf.yield %t : !tileas.tmem<128x128xf32>
  }
  return %r : !tileas.tmem<128x128xf32>
}
