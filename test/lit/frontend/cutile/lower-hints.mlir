// cuTile's optimization hints steer tileiras; tilepipe decides the same
// things from its own model, so --tileir-to-tileas names each one it
// ignores, with the reason, in a remark at the op that carries it.
// RUN: tilepipe-opt %s --tileir-to-tileas -verify-diagnostics -o /dev/null
// RUN: tilepipe-opt %s --tileir-to-tileas 2>&1 | FileCheck %s

// CHECK: remark: optimization hint num_worker_warps_per_cta = 4 : i64 (for sm_100) ignored: the materializer chooses the warps of each role
// CHECK: remark: optimization hint occupancy = 1 : i64 (for sm_100) ignored: the plan sizes SMEM and TMEM for one CTA per SM
// CHECK: remark: optimization hint allow_tma = false (for default) ignored: tilepipe loads and stores every view by TMA
// CHECK: remark: optimization hint latency = 3 : i64 (for default) ignored: the scheduler takes latencies from its target model
// CHECK: func.func @hinted
// expected-remark @+2 {{optimization hint num_worker_warps_per_cta = 4 : i64 (for sm_100) ignored}}
// expected-remark @+1 {{optimization hint occupancy = 1 : i64 (for sm_100) ignored}}
tileir.entry @hinted(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>)
    optimization_hints=<sm_100 = {occupancy = 1, num_worker_warps_per_cta = 4}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>
  // expected-remark @+2 {{optimization hint allow_tma = false (for default) ignored}}
  // expected-remark @+1 {{optimization hint latency = 3 : i64 (for default) ignored}}
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t optimization_hints = <default = {latency = 3, allow_tma = false}> : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<128x128xf32>, token
  %e = exp %x : tile<128x128xf32>
  %tok2 = store_view_tko weak %e, %pv[%bx, %bx] token = %t : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
  return
}
