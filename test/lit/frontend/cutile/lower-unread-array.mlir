// An array parameter the kernel never reads (cuTile's LayerNorm sample
// without its Mean and Rstd stores; an output a variant leaves unwritten)
// takes its slots in the launcher's parameter list and no argument: its
// rank is told by the two integers after its pointer (its shape and
// stride). docs/cuda-tile-lowering.md, "The argument interface".
// RUN: split-file %s %t
// RUN: tilepipe-opt %t/unread.mlir --tileir-to-tileas | FileCheck %s
// RUN: not tilepipe-opt %t/ambiguous.mlir --tileir-to-tileas 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: func.func @unread(%arg0: !tileas.tma_desc<128x128xf32> {tileas.cutile.source = {array = 0 : i64}, tileas.name = "param0"}
// CHECK-NOT: tma_desc<{{.*}}> {tileas.cutile.source = {array = 1
// CHECK-SAME: tileas.cutile.params = [{dtype = f32, index = i32, kind = "array", name = "param0", rank = 2 : i64}, {dtype = f32, index = i32, kind = "array", name = "param1", rank = 1 : i64}, {dtype = f32, kind = "scalar", name = "param2"}]

// ERR: error: array argument 5 is never read, and the 4 integer arguments after it do not tell its rank (its shape and strides, then any integer parameters); a kernel that reads the array, or does not take it, is lowered

//--- unread.mlir
tileir.entry @unread(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>, %q: tile<ptr<f32>>, %qm: tile<i32>, %qs: tile<i32>, %eps: tile<f32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<128x128xf32>, token
  %tok2 = store_view_tko weak %x, %pv[%bx, %bx] token = %t : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
  return
}

//--- ambiguous.mlir
tileir.entry @ambiguous(%p: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %s0: tile<i32>, %s1: tile<i32>, %q: tile<ptr<f32>>, %a: tile<i32>, %b: tile<i32>, %c: tile<i32>, %d: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %v = make_tensor_view %p, shape = [%m, %n], strides = [%s0, %s1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %v : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>
  %x, %tok = load_view_tko weak %pv[%bx, %bx] token = %t : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<128x128xf32>, token
  %tok2 = store_view_tko weak %x, %pv[%bx, %bx] token = %t : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
  return
}
