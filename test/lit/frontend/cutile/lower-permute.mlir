// ct.transpose of a loaded tile (tileir.permute [1, 0]) is the same SMEM
// tile read the other way: an MMA operand's major-ness flips, and no data
// moves (docs/cuda-tile-lowering.md, "Transposed tiles").
// RUN: tilepipe-opt %s --tileir-to-tileas -split-input-file | FileCheck %s

// nn.Linear's Y = X W^T: W's tile loaded N x K and transposed is B K-major.
// CHECK-LABEL: func.func @linear
// CHECK-NOT: permute
// CHECK: %[[W:.*]] = tileas.tma_load %arg1{{.*}} -> !tileas.smem<128x64xbf16>
// CHECK: tileas.umma %{{.*}}, %[[W]], %{{[0-9a-z_]+}} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>
tileir.entry @linear(%a: tile<ptr<bf16>>, %m: tile<i32>, %k: tile<i32>, %as0: tile<i32>, %as1: tile<i32>, %w: tile<ptr<bf16>>, %n: tile<i32>, %k2: tile<i32>, %ws0: tile<i32>, %ws1: tile<i32>, %c: tile<ptr<f32>>, %m2: tile<i32>, %n2: tile<i32>, %cs0: tile<i32>, %cs1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %va = make_tensor_view %a, shape = [%m, %k], strides = [%as0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %vw = make_tensor_view %w, shape = [%n, %k2], strides = [%ws0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %vc = make_tensor_view %c, shape = [%m2, %n2], strides = [%cs0, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %z = constant <i32: 0> : tile<i32>
  %acc = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %pa = make_partition_view %va : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %pw = make_partition_view %vw : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %x, %tx = load_view_tko weak %pa[%bx, %z] token = %t : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
  %y, %ty = load_view_tko weak %pw[%by, %z] token = %t : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
  %yt = permute %y [1, 0] : tile<128x64xbf16> -> tile<64x128xbf16>
  %r = mmaf %x, %yt, %acc : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
  %pc = make_partition_view %vc : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
  %s = store_view_tko weak %r, %pc[%bx, %by] token = %t : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}

// -----

// A weight gradient's A^T: A loaded K x M and transposed is A MN-major; B
// as loaded (K x N, N contiguous) stays MN-major.
// CHECK-LABEL: func.func @at_b
// CHECK: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} {a_mn_major, b_mn_major} : !tileas.smem<64x128xbf16>, !tileas.smem<64x128xbf16>
tileir.entry @at_b(%a: tile<ptr<bf16>>, %m: tile<i32>, %k: tile<i32>, %as0: tile<i32>, %as1: tile<i32>, %w: tile<ptr<bf16>>, %n: tile<i32>, %k2: tile<i32>, %ws0: tile<i32>, %ws1: tile<i32>, %c: tile<ptr<f32>>, %m2: tile<i32>, %n2: tile<i32>, %cs0: tile<i32>, %cs1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %va = make_tensor_view %a, shape = [%m, %k], strides = [%as0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %vw = make_tensor_view %w, shape = [%n, %k2], strides = [%ws0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %vc = make_tensor_view %c, shape = [%m2, %n2], strides = [%cs0, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %z = constant <i32: 0> : tile<i32>
  %acc = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %pa = make_partition_view %va : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %pw = make_partition_view %vw : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %x, %tx = load_view_tko weak %pa[%z, %bx] token = %t : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x128xbf16>, token
  %y, %ty = load_view_tko weak %pw[%z, %by] token = %t : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x128xbf16>, token
  %xt = permute %x [1, 0] : tile<64x128xbf16> -> tile<128x64xbf16>
  %r = mmaf %xt, %y, %acc : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
  %pc = make_partition_view %vc : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
  %s = store_view_tko weak %r, %pc[%bx, %by] token = %t : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}

// -----

// A transposed view's tile (dim_map [1, 0], attention's K^T) transposed
// again is the tensor's own orientation: B MN-major, as a plain load.
// CHECK-LABEL: func.func @twice
// CHECK: tileas.umma %{{.*}}, %{{.*}}, %{{.*}} {b_mn_major} : !tileas.smem<128x64xbf16>, !tileas.smem<64x128xbf16>
tileir.entry @twice(%a: tile<ptr<bf16>>, %m: tile<i32>, %k: tile<i32>, %as0: tile<i32>, %as1: tile<i32>, %w: tile<ptr<bf16>>, %n: tile<i32>, %k2: tile<i32>, %ws0: tile<i32>, %ws1: tile<i32>, %c: tile<ptr<f32>>, %m2: tile<i32>, %n2: tile<i32>, %cs0: tile<i32>, %cs1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %va = make_tensor_view %a, shape = [%m, %k], strides = [%as0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %vw = make_tensor_view %w, shape = [%n, %k2], strides = [%ws0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %vc = make_tensor_view %c, shape = [%m2, %n2], strides = [%cs0, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %z = constant <i32: 0> : tile<i32>
  %acc = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %pa = make_partition_view %va : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %pw = make_partition_view %vw : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>, dim_map=[1, 0]>
  %x, %tx = load_view_tko weak %pa[%bx, %z] token = %t : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
  %y, %ty = load_view_tko weak %pw[%by, %z] token = %t : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>, dim_map=[1, 0]>, tile<i32> -> tile<128x64xbf16>, token
  %yt = permute %y [1, 0] : tile<128x64xbf16> -> tile<64x128xbf16>
  %r = mmaf %x, %yt, %acc : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
  %pc = make_partition_view %vc : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
  %s = store_view_tko weak %r, %pc[%bx, %by] token = %t : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}

// -----

// astype(ct.tfloat32) of loaded f32 tiles that only an MMA reads is no
// code: the MMA on the f32 SMEM tiles is the tf32 MMA; the permuted one
// stays K-major.
// CHECK-LABEL: func.func @tf32
// CHECK-NOT: tileas.cvt
// CHECK: tileas.umma %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} : !tileas.smem<128x64xf32>, !tileas.smem<128x64xf32>
tileir.entry @tf32(%a: tile<ptr<f32>>, %m: tile<i32>, %k: tile<i32>, %as0: tile<i32>, %as1: tile<i32>, %w: tile<ptr<f32>>, %n: tile<i32>, %k2: tile<i32>, %ws0: tile<i32>, %ws1: tile<i32>, %c: tile<ptr<f32>>, %m2: tile<i32>, %n2: tile<i32>, %cs0: tile<i32>, %cs1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %va = make_tensor_view %a, shape = [%m, %k], strides = [%as0, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %vw = make_tensor_view %w, shape = [%n, %k2], strides = [%ws0, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %vc = make_tensor_view %c, shape = [%m2, %n2], strides = [%cs0, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %z = constant <i32: 0> : tile<i32>
  %acc = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %pa = make_partition_view %va : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %pw = make_partition_view %vw : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %x, %tx = load_view_tko weak %pa[%bx, %z] token = %t : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x64xf32>, token
  %y, %ty = load_view_tko weak %pw[%by, %z] token = %t : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<128x64xf32>, token
  %yt = permute %y [1, 0] : tile<128x64xf32> -> tile<64x128xf32>
  %xc = ftof %x : tile<128x64xf32> -> tile<128x64xtf32>
  %ytc = ftof %yt : tile<64x128xf32> -> tile<64x128xtf32>
  %r = mmaf %xc, %ytc, %acc : tile<128x64xtf32>, tile<64x128xtf32>, tile<128x128xf32>
  %pc = make_partition_view %vc : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
  %s = store_view_tko weak %r, %pc[%bx, %by] token = %t : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}

// -----

// A batch of one: the (1, 128, 64) box lands as a 128x64 tile; permuting its
// last two dimensions and then dropping the unit one (a reshape) is still
// the tile read the other way.
// CHECK-LABEL: func.func @batched
// CHECK: tileas.umma %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} : !tileas.smem<128x64xbf16>, !tileas.smem<128x64xbf16>
tileir.entry @batched(%a: tile<ptr<bf16>>, %m: tile<i32>, %k: tile<i32>, %as0: tile<i32>, %as1: tile<i32>, %w: tile<ptr<bf16>>, %b: tile<i32>, %n: tile<i32>, %k2: tile<i32>, %ws0: tile<i32>, %ws1: tile<i32>, %ws2: tile<i32>, %c: tile<ptr<f32>>, %m2: tile<i32>, %n2: tile<i32>, %cs0: tile<i32>, %cs1: tile<i32>) optimization_hints=<default = {}> {
  %t = make_token : token
  %va = make_tensor_view %a, shape = [%m, %k], strides = [%as0, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %vw = make_tensor_view %w, shape = [%b, %n, %k2], strides = [%ws0, %ws1, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %vc = make_tensor_view %c, shape = [%m2, %n2], strides = [%cs0, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %z = constant <i32: 0> : tile<i32>
  %acc = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %pa = make_partition_view %va : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %pw = make_partition_view %vw : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %x, %tx = load_view_tko weak %pa[%bx, %z] token = %t : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
  %y, %ty = load_view_tko weak %pw[%bz, %by, %z] token = %t : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token
  %yt = permute %y [0, 2, 1] : tile<1x128x64xbf16> -> tile<1x64x128xbf16>
  %y2 = reshape %yt : tile<1x64x128xbf16> -> tile<64x128xbf16>
  %r = mmaf %x, %y2, %acc : tile<128x64xbf16>, tile<64x128xbf16>, tile<128x128xf32>
  %pc = make_partition_view %vc : partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>
  %s = store_view_tko weak %r, %pc[%bx, %by] token = %t : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
