// RUN: tilepipe-opt %s --tileas-generate-schedule="print-schedule generator=cost-based stages=asap" -o /dev/null | FileCheck %s

// SIMT ops of one warp group stream a 128-column tile in four 32-column
// fragments: a consumer starts once it can end one of its own fragments after
// its producer ends, start_c = start_p + max(lat_p / 4, lat_p - lat_c +
// lat_c / 4). exp2 (1044) -> cvt (260): 1044 - 260 + 65 = 849; cvt ->
// tmem_store (114): 260 - 114 + 29 = 175; exp2 -> reduce_max (526): 1044 -
// 526 + 132 = 650. A reduction's result is one value per row: its consumer
// waits for all of it.
// CHECK-LABEL: schedule of loop
// CHECK: %0 = tileas.exp2 {{ *}}exp2 {{ *}}0
// CHECK: %3 = tileas.reduce_max {{ *}}reduce {{ *}}650
// CHECK: %1 = tileas.cvt {{ *}}cvt {{ *}}849
// CHECK: %2 = tileas.tmem_store {{ *}}tmem_store {{ *}}1024
func.func @wide(%x: tensor<128x128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %e = tileas.exp2 %x : tensor<128x128xf32>
    %c = tileas.cvt %e : tensor<128x128xf32> -> tensor<128x128xbf16>
    %t = tileas.tmem_store %c : tensor<128x128xbf16> -> !tileas.tmem<128x128xbf16>
    %r = tileas.reduce_max %e : tensor<128x128xf32> -> tensor<128xf32>
    %s = tileas.exp2 %r : tensor<128xf32>
  }
  return
}

// Two warp groups do not stream into each other: the cvt waits for the whole
// exp2 (the tile crosses through memory, whole).
// CHECK-LABEL: schedule of loop
// CHECK: %0 = tileas.exp2 {{ *}}exp2 {{ *}}0
// CHECK: %1 = tileas.cvt {{ *}}cvt {{ *}}1044
func.func @split(%x: tensor<128x128xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %e = tileas.exp2 %x {tileas.warp_group = 0} : tensor<128x128xf32>
    %c = tileas.cvt %e {tileas.warp_group = 1} : tensor<128x128xf32> -> tensor<128x128xbf16>
  }
  return
}
