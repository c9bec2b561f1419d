// RUN: tilepipe-opt %s | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s --mlir-print-op-generic | tilepipe-opt | FileCheck %s
// RUN: tilepipe-opt %s -tileas-test-work 2>&1 >/dev/null | FileCheck %s --check-prefix=WORK

// tileas.broadcast both ways round-trips, through the generic form too, and
// its results feed tileas and arith math as whole tiles; the scheduler sees
// the `generic` class with no work of its own.

// CHECK-LABEL: func.func @both_ways
func.func @both_ways(%x: tensor<128x64xf32>, %bias: tensor<64xf32>,
                     %m: tensor<128xf32>) -> tensor<128x64xf32> {
  // CHECK: %[[B:.*]] = tileas.broadcast %{{.*}} dimensions = [0] : tensor<64xf32> -> tensor<128x64xf32>
  // WORK: broadcast.mlir:[[@LINE+1]]:{{[0-9]+}}: remark: class generic bytes 0 flops 0 elements 0
  %b = tileas.broadcast %bias dimensions = [0] : tensor<64xf32> -> tensor<128x64xf32>
  // CHECK: %[[R:.*]] = tileas.broadcast %{{.*}} dimensions = [1] : tensor<128xf32> -> tensor<128x64xf32>
  %r = tileas.broadcast %m dimensions = [1] : tensor<128xf32> -> tensor<128x64xf32>
  // CHECK: tileas.add %{{.*}}, %[[B]] : tensor<128x64xf32>, tensor<128x64xf32>
  %y = tileas.add %x, %b : tensor<128x64xf32>, tensor<128x64xf32>
  // CHECK: arith.subf %{{.*}}, %[[R]] : tensor<128x64xf32>
  %z = arith.subf %y, %r : tensor<128x64xf32>
  return %z : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @scalar_tile
func.func @scalar_tile(%s: tensor<f32>, %v: tensor<64xbf16>) {
  // CHECK: tileas.broadcast %{{.*}} dimensions = [0, 1] : tensor<f32> -> tensor<128x64xf32>
  %t = tileas.broadcast %s dimensions = [0, 1] : tensor<f32> -> tensor<128x64xf32>
  // CHECK: tileas.broadcast %{{.*}} dimensions = [0] : tensor<64xbf16> -> tensor<128x64xbf16>
  %u = tileas.broadcast %v dimensions = [0] : tensor<64xbf16> -> tensor<128x64xbf16>
  return
}
