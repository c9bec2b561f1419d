// cuTile's `ct.where(x > 0, x, 0.1 x)` is a float comparison and a select
// on register tiles; `ct.min(x, axis=1)` a row minimum, the negated row
// maximum of -x (negation is exact).
// RUN: tilepipe-opt %s --tileir-to-tileas | FileCheck %s

// CHECK-LABEL: func.func @where_min
tileir.entry @where_min(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,?]>>
  // CHECK: %[[X:.*]] = tileas.smem_load
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<128x64xf32>, token
  %zero = constant <f32: 0.0> : tile<128x64xf32>
  %tenth = constant <f32: 0.1> : tile<128x64xf32>
  // CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : tensor<128x64xf32>
  %gt = cmpf greater_than ordered %x, %zero : tile<128x64xf32> -> tile<128x64xi1>
  // CHECK: %[[XS:.*]] = arith.mulf %[[X]], %{{.*}} : tensor<128x64xf32>
  %xs = mulf %x, %tenth : tile<128x64xf32>
  // CHECK: %[[Y:.*]] = arith.select %[[GT]], %[[X]], %[[XS]] : tensor<128x64xi1>, tensor<128x64xf32>
  %y = select %gt, %x, %xs : tile<128x64xi1>, tile<128x64xf32>
  // CHECK: %[[NEG:.*]] = arith.negf %[[Y]] : tensor<128x64xf32>
  // CHECK: %[[MAX:.*]] = tileas.reduce_max %[[NEG]] : tensor<128x64xf32> -> tensor<128xf32>
  // CHECK: %[[MIN:.*]] = arith.negf %[[MAX]] : tensor<128xf32>
  %min = reduce %y dim=1 identities=[0x7F800000 : f32] : tile<128x64xf32> -> tile<128xf32> (%l: tile<f32>, %r: tile<f32>) {
    %q = minf %l, %r : tile<f32>
    yield %q : tile<f32>
  }
  %min2 = reshape %min : tile<128xf32> -> tile<128x1xf32>
  // CHECK: tileas.broadcast %[[MIN]] dimensions = [1] : tensor<128xf32> -> tensor<128x64xf32>
  %minb = broadcast %min2 : tile<128x1xf32> -> tile<128x64xf32>
  %d = subf %y, %minb : tile<128x64xf32>
  %tok2 = store_view_tko weak %d, %pv[%bx, %bx] token = %t : tile<128x64xf32>, partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
  return
}
