// RUN: tilepipe-opt %s --tileir-to-tileas | FileCheck %s

// Tokens order memory operations, which tileas orders by their effects: a
// loop that threads one through its stores (cuTile does inside a
// persistent loop) carries nothing for it.
// CHECK-LABEL: func.func @threaded
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: tileas.tma_store
// CHECK-NOT: iter_args
tileir.entry @threaded(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %pv = make_partition_view %v : partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,1]>>
  %zero = constant <i32: 0> : tile<i32>
  %one = constant <i32: 1> : tile<i32>
  %x = constant <f32: 1.0> : tile<128x64xf32>
  %last = for %i in (%zero to %m, step %one) : tile<i32> iter_values(%tok = %t) -> (token) {
    %s = store_view_tko weak %x, %pv[%i, %zero] token = %tok : tile<128x64xf32>, partition_view<tile=(128x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %j = join_tokens %tok, %s : token
    continue %j : token
  }
  return
}
