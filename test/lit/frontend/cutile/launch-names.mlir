// RUN: tilepipe-translate --tileas-to-cuda %s | FileCheck %s

// Parameter names in the launcher's messages: the lowering's `name` in
// tileas.cutile.params first (quotes and backslashes escaped in the C++
// string, anything unprintable as '?'), else the name of the argument the
// parameter feeds (tileas.name, else argN), else paramK (a parameter no
// argument uses is still read: its slot is there). A rank-1 array is 3
// slots.

// CHECK: 8 slots:
// CHECK-NEXT: //   [0..2] in\"put: array of float, rank 1 (pointer, shape, strides as int32_t)
// CHECK-NEXT: //   [3..5] Y: array of float, rank 1 (pointer, shape, strides as int32_t)
// CHECK-NEXT: //   [6] arg2: int32_t
// CHECK-NEXT: //   [7] param3: float
// CHECK: if (!tp_call.array<int32_t>(0, 0, 1, "in\"put", tp_p0))
// CHECK: if (!tp_call.scalar(6, "arg2", tp_p2))
// CHECK: if (!tp_call.scalar(7, "param3", tp_p3))
// CHECK: return tp_call.finish(tp_launch_copy(tp_t0, tp_t1, (int64_t)tp_p2, tp_grid,
func.func @copy(
    %x: !tileas.tma_desc<128xf32> {tileas.name = "X", tileas.cutile.source = {array = 0 : i64}},
    %y: !tileas.tma_desc<128xf32> {tileas.name = "Y", tileas.cutile.source = {array = 1 : i64}},
    %n: index {tileas.cutile.source = {scalar = 2 : i64}})
    attributes {tileas.cutile.params = [
      {kind = "array", dtype = f32, rank = 1 : i64, index = i32, name = "in\"put"},
      {kind = "array", dtype = f32, rank = 1 : i64, index = i32},
      {kind = "scalar", dtype = i32},
      {kind = "scalar", dtype = f32}]} {
  %s = tileas.tma_load %x[%n] : !tileas.tma_desc<128xf32> -> !tileas.smem<128xf32>
  tileas.tma_store %s, %y[%n] : !tileas.smem<128xf32>, !tileas.tma_desc<128xf32>
  return
}
