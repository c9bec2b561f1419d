// Gathers of a box (docs/cuda-tile-lowering.md, "Gathers and scatters of a
// box"): the TMA load at the box's start, nothing of the address arithmetic
// left.
// RUN: tilepipe-opt %s --tileir-to-tileas | FileCheck %s

// A start known to be a multiple of 4 elements through div_by and a
// subtraction: bx * 256 - k, with k divisible by 4, is a legal innermost
// TMA coordinate; the box is loaded there.
// CHECK-LABEL: func.func @shifted_aligned
// CHECK-SAME: (%[[DESC:.*]]: !tileas.tma_desc<256xf32> {{.*}}, %{{.*}}: !tileas.tma_desc<256xf32> {{.*}}, %[[K:.*]]: i32
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK: %[[B:.*]] = arith.index_cast %[[BX]] : index to i32
// CHECK: %[[START:.*]] = arith.muli %[[B]], %{{.*}} : i32
// CHECK: %[[LEFT:.*]] = arith.subi %[[START]], %[[K]] : i32
// CHECK: %[[AT:.*]] = arith.index_cast %[[LEFT]] : i32 to index
// CHECK: tileas.tma_load %[[DESC]][%[[AT]]] : !tileas.tma_desc<256xf32> -> !tileas.smem<256xf32>
// CHECK-NOT: tileas.iota
tileir.entry @shifted_aligned(%a: tile<ptr<f32>>, %n: tile<i32>, %s: tile<i32>, %o: tile<ptr<f32>>, %on: tile<i32>, %os: tile<i32>, %k: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %one = constant <i64: 1> : tile<256xi64>
  %c256 = constant <i32: 256> : tile<i32>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %start = muli %bx, %c256 : tile<i32>
  %k4 = assume div_by<4>, %k : tile<i32>
  %left = subi %start, %k4 : tile<i32>
  %l0 = reshape %left : tile<i32> -> tile<1xi32>
  %l1 = broadcast %l0 : tile<1xi32> -> tile<256xi32>
  %i = iota : tile<256xi32>
  %j = addi %l1, %i : tile<256xi32>
  %j64 = exti %j signed : tile<256xi32> -> tile<256xi64>
  %off = muli %j64, %one : tile<256xi64>
  %p0 = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
  %p1 = broadcast %p0 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %ptrs = offset %p1, %off : tile<256xptr<f32>>, tile<256xi64> -> tile<256xptr<f32>>
  %x, %tok = load_ptr_tko weak %ptrs token = %t : tile<256xptr<f32>> -> tile<256xf32>, token
  %v = make_tensor_view %o, shape = [%on], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %pv = make_partition_view %v : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
  %tok2 = store_view_tko weak %x, %pv[%bx] token = %t : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
